//===- CostModelOps.cpp - transform.cost_model.* ops ----------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "OpHelpers.h"

using namespace mlir;
using namespace hwsched;

//===----------------------------------------------------------------------===//
// FilterFusableConsumersOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::FilterFusableConsumersOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  return hwsched::detail::reportNotImplemented(
      *this, state, results, getProducer(), {"target", "explain"},
      "issue #5: the fusion cost model");
}

void transform::FilterFusableConsumersOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getProducerMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}

//===----------------------------------------------------------------------===//
// EstimateOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
transform::EstimateOp::apply(transform::TransformRewriter &rewriter,
                             transform::TransformResults &results,
                             transform::TransformState &state) {
  return hwsched::detail::reportNotImplemented(
      *this, state, results, getOp(), {"target", "explain", "metric"},
      "issue #5: the fusion cost model");
}

void transform::EstimateOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getOpMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}

// SelectTileConfigOp lives in TileConfigOps.cpp.

#define GET_OP_CLASSES
#include "hwsched/TransformOps/CostModelOps.cpp.inc"
