//===- SmemOps.cpp - transform.smem.* ops ---------------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "OpHelpers.h"

using namespace mlir;
using namespace hwsched;

DiagnosedSilenceableFailure
transform::MergeAllocationsOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &results,
                                     transform::TransformState &state) {
  return hwsched::detail::reportNotImplemented(
      *this, state, results, getScope(), {"target", "explain"},
      "issue #3: on-chip allocation merging");
}

void transform::MergeAllocationsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getScopeMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/SmemOps.cpp.inc"
