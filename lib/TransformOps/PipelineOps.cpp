//===- PipelineOps.cpp - transform.pipeline.* ops -------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "OpHelpers.h"

using namespace mlir;
using namespace hwsched;

DiagnosedSilenceableFailure
transform::ScheduleStagesOp::apply(transform::TransformRewriter &rewriter,
                                   transform::TransformResults &results,
                                   transform::TransformState &state) {
  return hwsched::detail::reportNotImplemented(
      *this, state, results, getLoop(), {"target", "explain", "num_stages"},
      "issue #4: stage scheduling");
}

void transform::ScheduleStagesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getLoopMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/PipelineOps.cpp.inc"
