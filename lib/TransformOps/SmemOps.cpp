//===- SmemOps.cpp - transform.smem.* ops ---------------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/TargetResolution.h"

#include "DecisionPictureBuilders.h"

#include "hwsched/Analysis/AllocationLiveness.h"
#include "hwsched/Transforms/MergeAllocations.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

//===----------------------------------------------------------------------===//
// MergeAllocationsOp
//===----------------------------------------------------------------------===//

/// "#i memref<...> (N B), ..." for every buffer index in `indices`.
static std::string listBuffers(const ScopeAllocationLiveness &live,
                               ArrayRef<size_t> indices) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(indices, os, [&](size_t i) {
    os << describeBuffer(live, i) << " (" << live.buffers[i].bytes << " B)";
  });
  return text;
}

/// The `explain` text of a plan, written before the rewrite erases the
/// allocations it names.
static std::string explainPlan(const ScopeAllocationLiveness &live,
                               const AllocationMergePlan &plan) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "merged " << plan.merged.size() << " of " << live.buffers.size()
     << " on-chip allocations: sum " << plan.sumBytes << " B, peak "
     << plan.peakBytes << " B (buffer " << plan.mergedBytes << " B, align "
     << plan.mergedAlignment << "), lower bound " << plan.lowerBoundBytes
     << " B";
  if (plan.lowerBoundOp)
    os << " at '" << plan.lowerBoundOp->getName() << "' "
       << plan.lowerBoundOp->getLoc();
  os << "; live there: " << listBuffers(live, plan.liveAtLowerBound);
  os << "; offsets:";
  for (auto [slot, index] : llvm::enumerate(plan.merged))
    os << " #" << index << "@" << plan.offsets[slot];
  os << "; packing " << plan.strategy
     << (plan.provedOptimal ? " (optimal)" : "");
  for (size_t index : plan.pinned)
    os << "; pinned " << describeBuffer(live, index) << ": "
       << live.buffers[index].pinReason;
  for (auto [index, buffer] : llvm::enumerate(live.buffers))
    if (!buffer.widenedReason.empty() && buffer.pinReason.empty())
      os << "; #" << index << " " << buffer.widenedReason;
  if (live.nestedScopeAllocations)
    os << "; " << live.nestedScopeAllocations
       << " allocation(s) of nested scopes left to those scopes";
  if (live.launchAttributions)
    os << "; " << live.launchAttributions
       << " workgroup attribution(s) of the gpu.launch not merged";
  return text;
}

DiagnosedSilenceableFailure
hwsched::MergeAllocationsOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &results,
                                     transform::TransformState &state) {
  // Decide for every scope before changing any, so a failure leaves the
  // whole payload untouched.
  struct ScopeWork {
    ScopeAllocationLiveness liveness;
    AllocationMergePlan plan;
    bool barriers = false;
    std::string explanation;
  };
  std::vector<ScopeWork> work;
  // A scope listed twice is handled once; two scopes claiming the same
  // allocation (one nested in the other) cannot both rewrite it.
  NumericInputs inputs;
  DiagnosedSilenceableFailure read = NumericInputs::read(*this, state, inputs);
  if (!read.succeeded())
    return read;
  llvm::SetVector<Operation *> scopes;
  for (Operation *scope : state.getPayloadOps(getScope()))
    scopes.insert(scope);
  DenseMap<Value, Operation *> claimedBy;
  for (Operation *scope : scopes) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        resolveTarget(*this, scope, {"target", "explain"}, target, &inputs);
    if (!resolved.succeeded())
      return resolved;
    if (scope->getNumRegions() == 0)
      return emitSilenceableError()
             << "expected a scope with regions, got '" << scope->getName()
             << "' at " << scope->getLoc();
    uint64_t alignment =
        target.spec.getInteger("onchip.alignment_bytes").value_or(1);
    uint64_t capacity =
        target.spec.getInteger("onchip.capacity_bytes").value_or(0);
    ScopeWork item;
    item.barriers =
        target.spec.getKind() == HwKind::Gpu ||
        target.spec.getString("pipeline.sync").value_or("") == "gpu_barrier";
    item.liveness = analyzeAllocationLiveness(scope, target.onChipMemorySpace,
                                              alignment, item.barriers);
    item.plan = planAllocationMerge(item.liveness, capacity);
    const AllocationMergePlan &plan = item.plan;
    for (const OnChipBuffer &buffer : item.liveness.buffers) {
      auto [it, inserted] = claimedBy.try_emplace(buffer.memref, scope);
      if (!inserted) {
        DiagnosedSilenceableFailure failure =
            emitSilenceableError()
            << "scopes overlap: '" << scope->getName() << "' and '"
            << it->second->getName()
            << "' in the handle both hold an on-chip allocation; pass "
               "disjoint scopes";
        failure.attachNote(buffer.getLoc()) << "allocation here";
        return failure;
      }
    }
    for (const OnChipBuffer &buffer : item.liveness.buffers)
      if (buffer.sizeOverflow) {
        DiagnosedSilenceableFailure failure =
            emitSilenceableError()
            << "on-chip allocation of '" << scope->getName()
            << "' is larger than 2^62 bytes, above onchip.capacity_bytes = "
            << capacity << " of '" << target.spec.getName() << "'";
        failure.attachNote(buffer.getLoc()) << "allocation here";
        return failure;
      }
    if (capacity != 0 && plan.lowerBoundBytes > capacity) {
      DiagnosedSilenceableFailure failure =
          emitSilenceableError()
          << "on-chip allocations of '" << scope->getName()
          << "' need at least " << plan.lowerBoundBytes << " B at '"
          << plan.lowerBoundOp->getName()
          << "', above onchip.capacity_bytes = " << capacity << " of '"
          << target.spec.getName() << "' by " << plan.lowerBoundBytes - capacity
          << " B; live there: "
          << listBuffers(item.liveness, plan.liveAtLowerBound);
      failure.attachNote(plan.lowerBoundOp->getLoc())
          << "program point where the live on-chip buffers exceed the "
             "capacity";
      return failure;
    }
    if (plan.exceedsCapacity())
      return emitSilenceableError()
             << "could not pack the on-chip allocations of '"
             << scope->getName()
             << "' into onchip.capacity_bytes = " << capacity << " of '"
             << target.spec.getName() << "': best packing needs "
             << plan.peakBytes << " B, lower bound " << plan.lowerBoundBytes
             << " B";
    if (getExplain() && !item.liveness.buffers.empty())
      item.explanation = explainPlan(item.liveness, plan);
    if (!item.liveness.buffers.empty()) {
      llvm::Expected<std::optional<std::string>> picture =
          hwsched::detail::drawMergePlan(
              item.liveness, plan, target.spec.getName(),
              hwsched::detail::pictureStem(scope, "smem", work.size()));
      if (!picture)
        emitWarning() << "no picture: " << llvm::toString(picture.takeError());
      else if (*picture && getExplain())
        item.explanation += "; picture " + **picture;
    }
    work.push_back(std::move(item));
  }

  SmallVector<Operation *> buffers;
  for (ScopeWork &item : work) {
    Operation *scope = item.liveness.scope;
    AllocationMergeOutcome outcome =
        applyAllocationMerge(rewriter, item.liveness, item.plan, item.barriers);
    if (outcome.buffer)
      buffers.push_back(outcome.buffer);
    if (!getExplain())
      continue;
    if (item.liveness.buffers.empty()) {
      InFlightDiagnostic remark = scope->emitRemark()
                                  << "no on-chip allocations to merge";
      if (item.liveness.nestedScopeAllocations)
        remark << " (" << item.liveness.nestedScopeAllocations
               << " in nested scopes, left to them)";
      if (item.liveness.launchAttributions)
        remark << " (" << item.liveness.launchAttributions
               << " workgroup attribution(s) of the gpu.launch not merged)";
      continue;
    }
    InFlightDiagnostic remark = scope->emitRemark() << item.explanation;
    if (item.barriers)
      remark << "; barriers: " << outcome.insertedBarriers.size()
             << " inserted, " << outcome.reusedBarriers << " reused";
  }
  results.set(cast<OpResult>(getMerged()), buffers);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::MergeAllocationsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getScopeMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/SmemOps.cpp.inc"
