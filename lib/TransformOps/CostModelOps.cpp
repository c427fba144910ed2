//===- CostModelOps.cpp - transform.cost_model.* ops ----------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// filter_fusable_consumers and estimate: each resolves the spec of every
// payload op, calls its decision in CostModel (ConsumerFusion.h,
// KernelEstimate.h) and reports the decision's own text.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/TransformOps/TargetResolution.h"

#include "hwsched/CostModel/ConsumerFusion.h"
#include "hwsched/CostModel/KernelEstimate.h"
#include "hwsched/Support/PrintToString.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

//===----------------------------------------------------------------------===//
// FilterFusableConsumersOp
//===----------------------------------------------------------------------===//

/// Checks that every payload op is structured before anything is decided.
static DiagnosedSilenceableFailure
checkStructured(transform::TransformOpInterface op,
                ArrayRef<Operation *> payloads, StringRef what) {
  for (Operation *payload : payloads) {
    if (isStructuredOp(payload))
      continue;
    DiagnosedSilenceableFailure diag =
        op.emitSilenceableError()
        << what << " must be a Linalg / TilingInterface op, got '"
        << payload->getName() << "'";
    diag.attachNote(payload->getLoc()) << "payload op";
    return diag;
  }
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
hwsched::FilterFusableConsumersOp::apply(transform::TransformRewriter &rewriter,
                                         transform::TransformResults &results,
                                         transform::TransformState &state) {
  // Decide every pair before reporting, so a spec problem fails the op
  // without half the remarks and with empty results.
  auto fail = [&](DiagnosedSilenceableFailure failure) {
    results.setRemainingToEmpty(*this);
    return failure;
  };
  NumericInputs inputs;
  if (DiagnosedSilenceableFailure read =
          NumericInputs::read(*this, state, inputs);
      !read.succeeded())
    return fail(std::move(read));
  SmallVector<Operation *> producers =
      llvm::to_vector(state.getPayloadOps(getProducer()));
  if (DiagnosedSilenceableFailure structured =
          checkStructured(*this, producers, "producer");
      !structured.succeeded())
    return fail(std::move(structured));
  std::vector<ConsumerFusion> pairs;
  for (Operation *producer : producers) {
    ResolvedTarget target;
    if (DiagnosedSilenceableFailure resolved = resolveTarget(
            *this, producer, {"target", "explain"}, target, &inputs);
        !resolved.succeeded())
      return fail(std::move(resolved));
    llvm::Expected<std::vector<ConsumerFusion>> decided =
        decideConsumerFusions(producer, target.spec);
    if (!decided)
      return fail(silenceable(*this, decided.takeError()));
    llvm::append_range(pairs, *decided);
  }

  SmallVector<Operation *> fusable;
  for (const ConsumerFusion &pair : pairs) {
    if (getExplain())
      pair.consumer->emitRemark() << printToString(pair);
    else if (pair.decision.conservative)
      pair.consumer->emitRemark() << pair.conservativeRemark();
    if (pair.decision.fuse() && !llvm::is_contained(fusable, pair.consumer))
      fusable.push_back(pair.consumer);
  }
  results.set(cast<OpResult>(getFusable()), fusable);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::FilterFusableConsumersOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getProducerMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}

//===----------------------------------------------------------------------===//
// EstimateOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::EstimateOp::apply(transform::TransformRewriter &rewriter,
                           transform::TransformResults &results,
                           transform::TransformState &state) {
  // Estimate every payload op before reporting, so a failure leaves no
  // remarks and empty results.
  auto fail = [&](DiagnosedSilenceableFailure failure) {
    results.setRemainingToEmpty(*this);
    return failure;
  };
  NumericInputs inputs;
  if (DiagnosedSilenceableFailure read =
          NumericInputs::read(*this, state, inputs);
      !read.succeeded())
    return fail(std::move(read));
  if (llvm::Error unknown = checkMetric(getMetric()))
    return fail(silenceable(*this, std::move(unknown)));
  SmallVector<Operation *> payloads =
      llvm::to_vector(state.getPayloadOps(getOp()));
  if (DiagnosedSilenceableFailure structured =
          checkStructured(*this, payloads, "payload op");
      !structured.succeeded())
    return fail(std::move(structured));
  std::vector<KernelEstimate> estimates;
  SmallVector<Attribute> values;
  for (Operation *payload : payloads) {
    ResolvedTarget target;
    if (DiagnosedSilenceableFailure resolved = resolveTarget(
            *this, payload, {"target", "explain", "metric"}, target, &inputs);
        !resolved.succeeded())
      return fail(std::move(resolved));
    llvm::Expected<KernelEstimate> estimate =
        estimateKernel(payload, target.spec, getMetric());
    if (!estimate)
      return fail(silenceable(*this, estimate.takeError()));
    values.push_back(Builder(getContext()).getI64IntegerAttr(estimate->value));
    estimates.push_back(std::move(*estimate));
  }

  for (const KernelEstimate &estimate : estimates) {
    if (getExplain())
      estimate.payload->emitRemark() << printToString(estimate);
    else if (estimate.kernel.conservative)
      estimate.payload->emitRemark() << estimate.conservativeRemark();
  }
  results.setParams(cast<OpResult>(getValue()), values);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::EstimateOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getOpMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}

// SelectTileConfigOp lives in TileConfigOps.cpp.

#define GET_OP_CLASSES
#include "hwsched/TransformOps/CostModelOps.cpp.inc"
