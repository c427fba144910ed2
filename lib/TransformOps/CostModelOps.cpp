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
#include "hwsched/TransformOps/OpApplication.h"

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
  OpApplication app(*this, results);
  if (DiagnosedSilenceableFailure read = app.readInputs(state);
      !read.succeeded())
    return read;
  SmallVector<Operation *> producers =
      llvm::to_vector(state.getPayloadOps(getProducer()));
  if (DiagnosedSilenceableFailure structured =
          checkStructured(*this, producers, "producer");
      !structured.succeeded())
    return app.fail(std::move(structured));
  std::vector<ConsumerFusion> pairs;
  for (Operation *producer : producers) {
    ResolvedTarget target;
    if (DiagnosedSilenceableFailure resolved =
            app.resolve(producer, {"target", "explain"}, target);
        !resolved.succeeded())
      return resolved;
    llvm::Expected<std::vector<ConsumerFusion>> decided =
        decideConsumerFusions(producer, target.spec);
    if (!decided)
      return app.fail(decided.takeError());
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

//===----------------------------------------------------------------------===//
// EstimateOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::EstimateOp::apply(transform::TransformRewriter &rewriter,
                           transform::TransformResults &results,
                           transform::TransformState &state) {
  // Estimate every payload op before reporting, so a failure leaves no
  // remarks and empty results.
  OpApplication app(*this, results);
  if (DiagnosedSilenceableFailure read = app.readInputs(state);
      !read.succeeded())
    return read;
  if (llvm::Error unknown = checkMetric(getMetric()))
    return app.fail(std::move(unknown));
  SmallVector<Operation *> payloads =
      llvm::to_vector(state.getPayloadOps(getOp()));
  if (DiagnosedSilenceableFailure structured =
          checkStructured(*this, payloads, "payload op");
      !structured.succeeded())
    return app.fail(std::move(structured));
  std::vector<KernelEstimate> estimates;
  SmallVector<Attribute> values;
  for (Operation *payload : payloads) {
    ResolvedTarget target;
    if (DiagnosedSilenceableFailure resolved =
            app.resolve(payload, {"target", "explain", "metric"}, target);
        !resolved.succeeded())
      return resolved;
    llvm::Expected<KernelEstimate> estimate =
        estimateKernel(payload, target.spec, getMetric());
    if (!estimate)
      return app.fail(estimate.takeError());
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

// SelectTileConfigOp lives in TileConfigOps.cpp.

#define GET_OP_CLASSES
#include "hwsched/TransformOps/CostModelOps.cpp.inc"
