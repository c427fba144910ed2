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
    Removes buffer copies inside each payload op of `scope` (typically a
    `func.func`) that only move data, and erases the allocations they leave
    dead. Candidates are `memref.copy`, `linalg.copy` and copy-like
    `linalg.generic` ops on buffers (one input, one init, identity maps,
    parallel loops, a body that yields its input unchanged), in any memory
    space. For a copy `s -> t` two rewrites are tried, forward first:

    * **forward** (`def s; copy s -> t; use t` becomes `def s; use s`): the
      reads of `t` after the copy read `s`, and the copy goes away. Legal
      when `t` is a `memref.alloc`/`memref.alloca` inside the scope whose
      every use is a direct read or write, or a (non rank-reducing)
      `memref.subview` that is only read (it is rebuilt on `s`); no other
      alias (a view of a view, a call, a return, a loop-carried value) may
      exist; every read of `t` lies after the copy in the copy's block (or
      nested in an op after it); and no op between the copy and the last
      such read (nested ops included) may write or free `t` or `s` or
      anything alias analysis cannot separate from them. Writes of `t`
      elsewhere are dead once its reads are gone and are erased with it.
    * **backward** (`def s; copy s -> t` becomes `def t`): the producers and
      other users of `s` use `t` directly. Legal when `s` is a local
      allocation used only directly or through (non rank-reducing)
      `memref.subview`s, which are rebuilt on `t`; every use of `s` lies
      before the copy in the copy's block; nothing from the first use of `s`
      to the copy may read or write `t` (or a possible alias of it); `t` is
      defined before the first use of `s` (the pure ops and allocations
      defining it, such as a `memref.alloc` and a `memref.subview`, are
      moved up when their operands allow); and, when a loop separates the
      copy from the allocation of `s`, the first use of `s` overwrites all
      of it (its earlier contents would otherwise be carried between
      iterations).

    Aliasing is decided by `mlir::AliasAnalysis` (LocalAliasAnalysis),
    refined by function arguments marked `llvm.noalias` or
    `bufferization.noalias`, which are taken not to alias any other buffer;
    without them, two function arguments may alias, which blocks most
    rewrites between them. Both rewrites also require that the copy cover
    the whole target (equal static shapes for the linalg forms; an unranked
    `memref.copy` is not a candidate), that `s` and `t` cannot overlap,
    and, when the two types differ in layout, that every redirected use
    accepts any layout (`memref.load`/`store`, `vector.transfer_read`/
    `write`, `memref.copy`, Linalg ops); otherwise the copy is kept as a
    layout change. Ordering is only reasoned about inside one block: a use in
    another region (the other branch of an `scf.if`, after the loop that
    holds the copy) cannot be ordered and keeps the copy, and a read of `t`
    before a copy inside a loop sees the previous iteration's copy
    (loop-carried).

    Memory spaces: a copy whose source and target live in different memory
    spaces (e.g. global -> `#gpu.address_space<workgroup>` staging, GM ->
    `"ub"`) is a staging copy that exists for speed, and is always kept:
    removing it would make the consumer read the slower space, and no
    hwsched spec declares a pair of spaces that a consumer reads at no loss.
    (The C++ API, `hwsched::CopyLegalityOptions::interchangeableSpaces`,
    takes such pairs.)

    The rewrites are applied one at a time until none applies, so chains
    (`a -> b -> c`) collapse. An allocation whose only remaining users are
    deallocations and ops that only write it is erased with them. The target
    decides nothing except which memory space counts as on-chip
    (`onchip.memory_space`) in the report.

    With `explain`, remarks say: on each removed copy, the rule (forward or
    backward) and which buffer its users now use; on each kept copy, the
    reason of each rule (intervening write, intervening read, source used
    after the copy, alias not ruled out, use in another region, loop-carried
    value, escaping or aliased buffer, unknown memory effects, memory-space
    or layout change, shape not provably equal), naming the op that blocks
    it; on each scope that holds copies, the number of copies removed and
    the bytes of on-chip allocations before and after.

    #### Return modes

    Modifies the payload in place and produces no result; the `scope` handle
    stays valid (handles to erased copies and allocations are invalidated).
    A scope payload op without regions is a silenceable failure, and so is a
    bad spec; in both cases no scope has been changed. Succeeds, changing
    nothing, when no copy is redundant.
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
