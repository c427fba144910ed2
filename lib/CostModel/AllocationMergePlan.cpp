//===- AllocationMergePlan.cpp - Where each on-chip buffer goes -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/AllocationMergePlan.h"

#include "hwsched/Support/Refusal.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace hwsched;

/// "#i memref<...> (N B), ..." for every buffer index in `indices`.
static void printBufferList(llvm::raw_ostream &os,
                            const ScopeAllocationLiveness &live,
                            llvm::ArrayRef<size_t> indices) {
  llvm::interleaveComma(indices, os, [&](size_t i) {
    os << describeBuffer(live, i) << " (" << live.buffers[i].bytes << " B)";
  });
}

void AllocationMergePlan::print(llvm::raw_ostream &os,
                                const ScopeAllocationLiveness &live) const {
  os << "merged " << merged.size() << " of " << live.buffers.size()
     << " on-chip allocations: sum " << sumBytes << " B, peak " << peakBytes
     << " B (buffer " << mergedBytes << " B, align " << mergedAlignment
     << "), lower bound " << lowerBoundBytes << " B";
  if (lowerBoundOp)
    os << " at '" << lowerBoundOp->getName() << "' " << lowerBoundOp->getLoc();
  os << "; live there: ";
  printBufferList(os, live, liveAtLowerBound);
  os << "; offsets:";
  for (auto [slot, index] : llvm::enumerate(merged))
    os << " #" << index << "@" << offsets[slot];
  os << "; packing " << packing.strategy;
  // "optimal" only when the peak meets a bound proven for these lifetimes:
  // the lower bound above, or one raised by an exhaustive search.
  if (packing.provedOptimal)
    os << " (optimal";
  else
    os << " (not proven optimal: proven bound "
       << packing.provenBound + pinnedBytes << " B";
  if (packing.searchedComponents != 0) {
    os << ", search";
    if (packing.components > 1)
      os << " on " << packing.searchedComponents << " of " << packing.components
         << " independent groups";
    os << ": " << packing.decisions
       << (packing.decisions == 1 ? " question, " : " questions, ")
       << packing.searchSteps << " steps";
    if (packing.hitDeadline)
      os << ", time budget reached";
    else if (packing.budgetExhausted)
      os << ", budget spent";
  }
  os << ")";
  for (size_t index : pinned)
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
}

llvm::Expected<AllocationMergePlan>
hwsched::planAllocationMerge(const ScopeAllocationLiveness &liveness,
                             const AllocationCapacity &capacity,
                             const PackingOptions &options) {
  AllocationMergePlan plan;
  plan.capacityBytes = capacity.bytes;
  int64_t lastPoint = static_cast<int64_t>(liveness.programOrder.size()) - 1;

  std::vector<PackingItem> all, mergedItems;
  std::vector<size_t> allIndex;
  for (auto [index, buffer] : llvm::enumerate(liveness.buffers)) {
    bool pinned = !buffer.pinReason.empty();
    if (pinned)
      plan.pinned.push_back(index);
    if (buffer.unboundedSize)
      continue;
    PackingItem item{buffer.start, buffer.end, buffer.bytes, buffer.alignment};
    plan.sumBytes += getFootprint(item);
    if (pinned) {
      // A pinned buffer keeps its own allocation for the whole scope.
      plan.pinnedBytes += getFootprint(item);
      item.start = 0;
      item.end = lastPoint;
    } else {
      plan.merged.push_back(index);
      mergedItems.push_back(item);
      plan.mergedAlignment = std::max(plan.mergedAlignment, buffer.alignment);
    }
    all.push_back(item);
    allIndex.push_back(index);
  }

  PackingLowerBound bound = computePackingLowerBound(all);
  plan.lowerBoundBytes = bound.bytes;
  if (bound.point >= 0)
    plan.lowerBoundOp = liveness.programOrder[bound.point];
  for (size_t i : bound.live)
    plan.liveAtLowerBound.push_back(allIndex[i]);

  Operation *scope = liveness.scope;
  std::string scopeName = scope->getName().getStringRef().str();
  if (capacity.bytes != 0 && plan.lowerBoundBytes > capacity.bytes) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "on-chip allocations of '" << scopeName << "' need at least "
       << plan.lowerBoundBytes << " B at '" << plan.lowerBoundOp->getName()
       << "', above " << capacity.source << " by "
       << plan.lowerBoundBytes - capacity.bytes << " B; live there: ";
    printBufferList(os, liveness, plan.liveAtLowerBound);
    Refusal refusal(nullptr, text);
    refusal.note(plan.lowerBoundOp->getLoc(),
                 "program point where the live on-chip buffers exceed the "
                 "capacity");
    return refuse(std::move(refusal));
  }

  PackingOptions packing = options;
  // The lower bound counts the pinned buffers, so they fit the capacity.
  packing.capacity =
      capacity.bytes == 0
          ? 0
          : std::max<uint64_t>(capacity.bytes - plan.pinnedBytes, 1);
  plan.packing = packAllocations(mergedItems, packing);
  const PackingResult &packed = plan.packing;
  // Nothing is rewritten on the packer's word alone.
  if (!verifyPacking(mergedItems, packed.offsets))
    return refuse(scope, "internal error: the packing of the on-chip "
                         "allocations of '" +
                             scopeName +
                             "' failed verification (two buffers live "
                             "together overlap, or an offset is misaligned); "
                             "payload left unchanged");
  plan.offsets.assign(packed.offsets.begin(), packed.offsets.end());
  plan.mergedBytes = packed.peak;
  plan.peakBytes = packed.peak + plan.pinnedBytes;

  if (capacity.bytes != 0 && plan.peakBytes > capacity.bytes) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (packed.capacityProvedInfeasible) {
      os << "on-chip allocations of '" << scopeName << "' do not fit "
         << capacity.source
         << ": proved infeasible (an exhaustive search over canonical "
            "packings found none; lower bound "
         << plan.lowerBoundBytes << " B, proven bound "
         << std::max(packed.provenBound + plan.pinnedBytes, capacity.bytes + 1)
         << " B, best packing " << plan.peakBytes << " B)";
    } else {
      os << "no packing of the on-chip allocations of '" << scopeName
         << "' into " << capacity.source
         << " found within the budget: best peak " << plan.peakBytes
         << " B, lower bound " << plan.lowerBoundBytes << " B, "
         << packed.searchSteps << " of " << packed.stepBudget << " search steps"
         << (packed.hitDeadline ? " (time budget reached)" : "")
         << "; a larger search_steps or time_budget_ms may find one";
    }
    return refuse(scope, text);
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// One scope of merge_allocations
//===----------------------------------------------------------------------===//

AllocationCapacity hwsched::onChipCapacity(const HwSpec &spec) {
  AllocationCapacity capacity;
  capacity.bytes = spec.getInteger("onchip.capacity_bytes").value_or(0);
  capacity.source = ("onchip.capacity_bytes = " + llvm::Twine(capacity.bytes) +
                     " of '" + spec.getName() + "'")
                        .str();
  return capacity;
}

llvm::Expected<ScopeMergeDecision>
hwsched::decideScopeMerge(Operation *scope, const HwSpec &spec,
                          Attribute onChipMemorySpace,
                          const PackingOptions &packing,
                          llvm::DenseMap<Value, Operation *> &claimedBy) {
  if (scope->getNumRegions() == 0) {
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "expected a scope with regions, got '" << scope->getName() << "' at "
       << scope->getLoc();
    return refuse(nullptr, message);
  }
  uint64_t alignment = spec.getInteger("onchip.alignment_bytes").value_or(1);
  AllocationCapacity capacity = onChipCapacity(spec);
  ScopeMergeDecision decision;
  decision.barriers = spec.getKind() == HwKind::Gpu ||
                      spec.getPipelineSync() == PipelineSync::GpuBarrier;
  decision.liveness = analyzeAllocationLiveness(scope, onChipMemorySpace,
                                                alignment, decision.barriers);
  // Two scopes claiming the same allocation (one nested in the other)
  // cannot both rewrite it.
  for (const OnChipBuffer &buffer : decision.liveness.buffers) {
    auto [it, inserted] = claimedBy.try_emplace(buffer.memref, scope);
    if (!inserted)
      return refuse(Refusal(nullptr, "scopes overlap: '" +
                                         scope->getName().getStringRef() +
                                         "' and '" +
                                         it->second->getName().getStringRef() +
                                         "', given together, both hold an "
                                         "on-chip allocation; pass disjoint "
                                         "scopes")
                        .note(buffer.getLoc(), "allocation here"));
  }
  for (const OnChipBuffer &buffer : decision.liveness.buffers)
    if (buffer.sizeOverflow)
      return refuse(Refusal(nullptr, "on-chip allocation of '" +
                                         scope->getName().getStringRef() +
                                         "' is larger than 2^62 bytes, above " +
                                         capacity.source)
                        .note(buffer.getLoc(), "allocation here"));
  llvm::Expected<AllocationMergePlan> plan =
      planAllocationMerge(decision.liveness, capacity, packing);
  if (!plan)
    return plan.takeError();
  decision.plan = std::move(*plan);
  return decision;
}

void ScopeMergeDecision::print(llvm::raw_ostream &os) const {
  if (liveness.buffers.empty()) {
    os << "no on-chip allocations to merge";
    if (liveness.nestedScopeAllocations)
      os << " (" << liveness.nestedScopeAllocations
         << " in nested scopes, left to them)";
    if (liveness.launchAttributions)
      os << " (" << liveness.launchAttributions
         << " workgroup attribution(s) of the gpu.launch not merged)";
    return;
  }
  plan.print(os, liveness);
  if (picture)
    os << "; picture " << *picture;
}

void ScopeMergeDecision::printBarriers(llvm::raw_ostream &os, size_t inserted,
                                       unsigned reused) const {
  if (!barriers || liveness.buffers.empty())
    return;
  os << "; barriers: " << inserted << " inserted, " << reused << " reused";
}
