//===- SmemOps.cpp - transform.smem.* ops ---------------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
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
  // The search budget (attributes or params): each scope gets all of it.
  PackingOptions packing;
  std::optional<int64_t> steps, ms;
  for (auto [name, value] :
       {std::pair<StringRef, std::optional<int64_t> *>{"search_steps", &steps},
        {"time_budget_ms", &ms}}) {
    DiagnosedSilenceableFailure budgetRead = inputs.getInteger(name, 0, *value);
    if (!budgetRead.succeeded())
      return budgetRead;
  }
  if (steps)
    packing.searchSteps = packing.fitSteps = *steps;
  if (ms)
    packing.timeBudgetMs = *ms;
  for (Operation *scope : scopes) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved = resolveTarget(
        *this, scope, {"target", "explain", "search_steps", "time_budget_ms"},
        target, &inputs);
    if (!resolved.succeeded())
      return resolved;
    if (scope->getNumRegions() == 0)
      return emitSilenceableError()
             << "expected a scope with regions, got '" << scope->getName()
             << "' at " << scope->getLoc();
    uint64_t alignment =
        target.spec.getInteger("onchip.alignment_bytes").value_or(1);
    AllocationCapacity capacity;
    capacity.bytes =
        target.spec.getInteger("onchip.capacity_bytes").value_or(0);
    capacity.source =
        ("onchip.capacity_bytes = " + llvm::Twine(capacity.bytes) + " of '" +
         target.spec.getName() + "'")
            .str();
    ScopeWork item;
    item.barriers =
        target.spec.getKind() == HwKind::Gpu ||
        target.spec.getString("pipeline.sync").value_or("") == "gpu_barrier";
    item.liveness = analyzeAllocationLiveness(scope, target.onChipMemorySpace,
                                              alignment, item.barriers);
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
            << "' is larger than 2^62 bytes, above " << capacity.source;
        failure.attachNote(buffer.getLoc()) << "allocation here";
        return failure;
      }
    llvm::Expected<AllocationMergePlan> plan =
        planAllocationMerge(item.liveness, capacity, packing);
    if (!plan)
      return silenceable(*this, plan.takeError());
    item.plan = std::move(*plan);
    if (getExplain() && !item.liveness.buffers.empty()) {
      llvm::raw_string_ostream os(item.explanation);
      item.plan.print(os, item.liveness);
    }
    if (!item.liveness.buffers.empty()) {
      llvm::Expected<std::optional<std::string>> picture =
          hwsched::detail::drawMergePlan(
              item.liveness, item.plan, target.spec.getName(),
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
