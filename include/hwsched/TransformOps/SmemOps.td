//===- SmemOps.td - transform.smem.* ops -----------------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_SMEMOPS
#define HWSCHED_TRANSFORMOPS_SMEMOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def MergeAllocationsOp : Hwsched_TransformOp<"smem.merge_allocations"> {
  let summary = "Packs on-chip allocations with disjoint lifetimes into one buffer";
  let description = !strconcat([{
    For each scope in `scope`, computes the liveness of every allocation in
    the target's on-chip memory space (`onchip.memory_space`) and places them
    at offsets of a single byte buffer, so buffers whose lifetimes never
    overlap share bytes; uses go through `memref.view`. The result holds the
    new buffers.

    Status: not implemented yet; the op validates its spec and then fails
    silenceably, leaving the payload untouched.

    #### Return modes

    A scope whose peak exceeds `onchip.capacity_bytes` is a silenceable
    failure naming the program point and the live buffers. A handle to an
    op without regions is a silenceable failure.
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$scope,
                       OptionalAttr<StrAttr>:$target,
                       UnitAttr:$explain);
  let results = (outs TransformHandleTypeInterface:$merged);
  let assemblyFormat = "$scope attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def EliminateRedundantCopiesOp
    : Hwsched_TransformOp<"smem.eliminate_redundant_copies"> {
  let summary = "Removes copies that move data for nothing";
  let description = !strconcat([{
    Applies forward (`copy s -> t; use t` becomes `use s`) and backward (the
    producer of `s` writes `t` directly) copy elimination to `memref.copy`,
    `linalg.copy` and copy-like `linalg.generic` inside `scope`, until
    nothing changes, and erases allocations that became dead. Copies whose
    purpose is a memory-space change are kept.

    Status: not implemented yet; the op validates its spec and then fails
    silenceably, leaving the payload untouched.

    #### Return modes

    Modifies the payload in place; the handle stays valid. A handle to an op
    without regions is a silenceable failure.
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$scope,
                       OptionalAttr<StrAttr>:$target,
                       UnitAttr:$explain);
  let results = (outs);
  let assemblyFormat = "$scope attr-dict `:` type($scope)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_SMEMOPS
