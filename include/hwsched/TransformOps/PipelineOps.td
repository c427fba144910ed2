//===- PipelineOps.td - transform.pipeline.* ops ---------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_PIPELINEOPS
#define HWSCHED_TRANSFORMOPS_PIPELINEOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def ScheduleStagesOp
    : Hwsched_TransformOp<"pipeline.schedule_stages",
                          [FunctionalStyleTransformOpTrait]> {
  let summary = "Software-pipelines an scf.for under the target's resources";
  let description = !strconcat([{
    Builds the dependence graph of the loop body (SSA and memory, alias
    aware), assigns ops to stages so that dependent ops on different units
    (copy / on-chip load / matrix / vector, from `pipeline.units` of the
    spec) land in different stages, multi-buffers the on-chip buffers that
    cross stages within `onchip.capacity_bytes`, and rewrites the loop into
    prologue, kernel and epilogue. Without `num_stages`, picks the largest
    stage count that fits the capacity and `pipeline.max_stages`.

    Status: not implemented yet; the op validates its spec and then fails
    silenceably, leaving the loop untouched.

    #### Return modes

    Consumes `loop` and returns the pipelined loop. Unsupported bodies and
    capacity overflow are silenceable failures that leave the payload
    unchanged.
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$loop,
                       OptionalAttr<StrAttr>:$target,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$num_stages,
                       UnitAttr:$explain);
  let results = (outs TransformHandleTypeInterface:$pipelined);
  let assemblyFormat = "$loop attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_PIPELINEOPS
