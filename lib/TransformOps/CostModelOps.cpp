//===- CostModelOps.cpp - transform.cost_model.* ops ----------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/TransformOps/TargetResolution.h"

#include "hwsched/Analysis/FusionAnalysis.h"
#include "hwsched/CostModel/FusionCostModel.h"

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
  auto self = cast<TransformOpInterface>(getOperation());
  // Decide every pair before reporting, so a spec problem fails the op
  // without half the remarks and with empty results.
  struct Pending {
    Operation *producer, *consumer;
    FusionDecision decision;
    std::string spec;
  };
  std::vector<Pending> pending;
  auto decideAll = [&]() -> DiagnosedSilenceableFailure {
    NumericInputs inputs;
    DiagnosedSilenceableFailure read = NumericInputs::read(self, state, inputs);
    if (!read.succeeded())
      return read;
    SmallVector<Operation *> producers =
        llvm::to_vector(state.getPayloadOps(getProducer()));
    DiagnosedSilenceableFailure structured =
        checkStructured(self, producers, "producer");
    if (!structured.succeeded())
      return structured;

    for (Operation *producer : producers) {
      ResolvedTarget target;
      DiagnosedSilenceableFailure resolved =
          resolveTarget(self, producer, {"target", "explain"}, target, &inputs);
      if (!resolved.succeeded())
        return resolved;
      for (Operation *consumer : collectConsumers(producer)) {
        FusionPairFacts facts;
        if (!analyzeFusionPair(producer, consumer, facts))
          continue;
        llvm::Expected<FusionDecision> decision =
            decideFusion(facts, target.spec);
        if (!decision)
          return silenceable(self, decision.takeError());
        pending.push_back({producer, consumer, std::move(*decision),
                           target.spec.getName().str()});
      }
    }

    return DiagnosedSilenceableFailure::success();
  };
  DiagnosedSilenceableFailure decided = decideAll();
  if (!decided.succeeded()) {
    results.setRemainingToEmpty(self);
    return decided;
  }

  SmallVector<Operation *> fusable;
  for (Pending &entry : pending) {
    const FusionDecision &d = entry.decision;
    if (getExplain()) {
      InFlightDiagnostic remark = entry.consumer->emitRemark();
      remark << "fusion of '" << entry.consumer->getName() << "' into '"
             << entry.producer->getName() << "' on " << entry.spec << ": "
             << (d.fuse() ? "fuse" : "reject");
      if (!d.reason.empty())
        remark << " (" << d.reason << ")";
      if (d.conservative)
        remark << " [conservative: dynamic shapes]";
      remark << "; " << formatDecisionTerms(d);
      if (d.registers)
        remark << "; " << formatRegisterEstimate(*d.registers);
    } else if (d.conservative) {
      entry.consumer->emitRemark()
          << "dynamic shapes: conservative fusion decision ("
          << (d.fuse() ? "fuse" : "reject")
          << (d.reason.empty() ? "" : ": " + d.reason) << ")";
    }
    if (d.fuse() && !llvm::is_contained(fusable, entry.consumer))
      fusable.push_back(entry.consumer);
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
  auto self = cast<TransformOpInterface>(getOperation());
  StringRef metric = getMetric();
  SmallVector<Attribute> values;
  struct Computed {
    Operation *payload;
    KernelMetrics kernel;
    KernelGroup group;
  };
  std::vector<Computed> computed;
  auto computeAll = [&]() -> DiagnosedSilenceableFailure {
    NumericInputs inputs;
    DiagnosedSilenceableFailure read = NumericInputs::read(self, state, inputs);
    if (!read.succeeded())
      return read;
    if (!llvm::is_contained(getKnownMetrics(), metric)) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
                                         << "unknown metric '" << metric
                                         << "'; known metrics: ";
      llvm::interleaveComma(getKnownMetrics(), diag);
      return diag;
    }
    SmallVector<Operation *> payloads =
        llvm::to_vector(state.getPayloadOps(getOp()));
    DiagnosedSilenceableFailure structured =
        checkStructured(self, payloads, "payload op");
    if (!structured.succeeded())
      return structured;

    bool sizeDependent = metric != "registers_per_thread";
    for (Operation *payload : payloads) {
      ResolvedTarget target;
      DiagnosedSilenceableFailure resolved = resolveTarget(
          self, payload, {"target", "explain", "metric"}, target, &inputs);
      if (!resolved.succeeded())
        return resolved;
      if (metric == "registers_per_thread" &&
          target.spec.getKind() != HwKind::Gpu)
        return emitSilenceableError()
               << "metric 'registers_per_thread' is modelled for GPU targets "
                  "only; '"
               << target.spec.getName() << "' is a "
               << stringifyHwKind(target.spec.getKind());
      KernelGroup group;
      if (!collectKernelGroup(payload, group))
        return emitSilenceableError() << "cannot describe the payload op";
      if (sizeDependent && group.dynamicUnbounded) {
        DiagnosedSilenceableFailure diag =
            emitSilenceableError()
            << "metric '" << metric
            << "' needs static shapes or upper bounds of the dynamic ones";
        diag.attachNote(payload->getLoc()) << "payload op";
        return diag;
      }
      llvm::Expected<KernelMetrics> kernel =
          computeKernelMetrics(group, target.spec);
      if (!kernel)
        return silenceable(self, kernel.takeError());
      values.push_back(
          Builder(getContext())
              .getI64IntegerAttr(*hwsched::getMetric(*kernel, metric)));
      computed.push_back({payload, std::move(*kernel), std::move(group)});
    }

    return DiagnosedSilenceableFailure::success();
  };
  DiagnosedSilenceableFailure done = computeAll();
  if (!done.succeeded()) {
    results.setRemainingToEmpty(self);
    return done;
  }

  for (auto &[payload, kernel, group] : computed) {
    if (getExplain()) {
      InFlightDiagnostic remark = payload->emitRemark();
      remark << "estimate: registers_per_thread=" << kernel.registersPerThread
             << " onchip_bytes=" << kernel.onchipBytes
             << " offchip_bytes=" << kernel.offchipBytes
             << " flops=" << kernel.flops
             << " estimated_time_ns=" << kernel.estimatedTimeNs << " ("
             << (kernel.computeBound ? "compute" : "memory") << " bound)";
      if (kernel.registersPerThread)
        remark << "; " << formatRegisterEstimate(kernel.registers);
      if (kernel.conservative)
        remark << " [conservative: dynamic shapes]";
      remark << "; kernel:";
      for (const OpFeatures &member : group.ops)
        remark << " {" << formatOpFeatures(member) << "}";
    } else if (kernel.conservative) {
      payload->emitRemark()
          << "dynamic shapes: conservative estimate of '" << metric << "'";
    }
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
