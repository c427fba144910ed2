//===- AllocationMergePlan.h - Where each on-chip buffer goes ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The decision half of on-chip allocation merging: from the liveness of a
// scope's buffers (Analysis/AllocationLiveness.h) and a capacity, which
// buffers merge into one byte buffer, at which offsets, the peak and the
// lower bound under the same lifetimes. The rewrite
// (Transforms/MergeAllocations.h) takes the plan and decides nothing.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_ALLOCATIONMERGEPLAN_H
#define HWSCHED_COSTMODEL_ALLOCATIONMERGEPLAN_H

#include "hwsched/Analysis/AllocationLiveness.h"
#include "hwsched/CostModel/AllocationPacking.h"
#include "hwsched/HwSpec/HwSpec.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace hwsched {

/// The capacity a plan must meet and how to name it to the user
/// ("onchip.capacity_bytes = 1024 of 'nvidia-a100'").
struct AllocationCapacity {
  /// Bytes available (0: unbounded).
  uint64_t bytes = 0;
  std::string source;
};

/// The decision for one scope, as plain numbers.
struct AllocationMergePlan {
  /// Indices (into ScopeAllocationLiveness::buffers) of the merged buffers,
  /// and the offset of each.
  llvm::SmallVector<size_t> merged;
  llvm::SmallVector<uint64_t> offsets;
  /// Indices of buffers that keep their own allocation (pinned).
  llvm::SmallVector<size_t> pinned;
  /// Bytes of the merged buffer and its alignment.
  uint64_t mergedBytes = 0;
  uint64_t mergedAlignment = 1;
  /// Sum of the footprints of all sized buffers (no reuse at all).
  uint64_t sumBytes = 0;
  /// Our peak: merged buffer + pinned buffers with a known size.
  uint64_t peakBytes = 0;
  /// Bytes of the pinned buffers with a known size.
  uint64_t pinnedBytes = 0;
  /// Lower bound over all sized buffers (pinned ones live throughout), the
  /// program point where it is reached and the buffers live there. The
  /// lifetimes are those the packing used, so "optimal" means optimal for
  /// them.
  uint64_t lowerBoundBytes = 0;
  mlir::Operation *lowerBoundOp = nullptr;
  llvm::SmallVector<size_t> liveAtLowerBound;
  /// The packing of the merged buffers: strategy, proven bound, whether it
  /// is optimal, and what the exact search spent.
  PackingResult packing;
  /// The capacity used (0: unbounded).
  uint64_t capacityBytes = 0;

  /// Whether the peak is proven minimal for these lifetimes.
  bool provedOptimal() const { return packing.provedOptimal; }

  /// The `explain` text: allocations merged, sum, peak, lower bound with
  /// its program point and live buffers, offsets, the packing and search
  /// figures, pinned buffers with their reasons, widened lifetimes.
  void print(llvm::raw_ostream &os,
             const ScopeAllocationLiveness &liveness) const;
};

/// Plans the merge of `liveness` within `capacity`, with the exact search
/// limited by `options` (its capacity is set from `capacity`, less the pinned
/// buffers). Deterministic unless `options.timeBudgetMs` stops the search.
/// Refuses (payload untouched) when the buffers live at one program point
/// exceed the capacity, when the search proves that no packing fits it, or
/// when none was found within the budget; each message names the figures.
llvm::Expected<AllocationMergePlan>
planAllocationMerge(const ScopeAllocationLiveness &liveness,
                    const AllocationCapacity &capacity,
                    const PackingOptions &options = {});

/// The on-chip capacity of `spec` (`onchip.capacity_bytes`, 0 when absent:
/// unbounded), named for the user.
AllocationCapacity onChipCapacity(const HwSpec &spec);

/// Everything decided for one scope of transform.smem.merge_allocations
/// before the payload changes.
struct ScopeMergeDecision {
  ScopeAllocationLiveness liveness;
  AllocationMergePlan plan;
  /// Whether the rewrite separates reused bytes with gpu.barrier (GPU
  /// targets, or `pipeline.sync = "gpu_barrier"`).
  bool barriers = false;
  /// The path of the picture drawn of the plan, when one was.
  std::optional<std::string> picture;

  /// The `explain` text of the decision: the plan (AllocationMergePlan::
  /// print) and its picture, or why there is nothing to merge. It names the
  /// scope's buffers as the IR spells them: print before the rewrite.
  void print(llvm::raw_ostream &os) const;
  /// What `explain` adds once the rewrite inserted `inserted` barriers and
  /// found `reused` in place ("; barriers: ..."); nothing when the decision
  /// asked for no barriers or there was nothing to merge.
  void printBarriers(llvm::raw_ostream &os, size_t inserted,
                     unsigned reused) const;
};

/// Decides the merge of the on-chip allocations of `scope` (in
/// `onChipMemorySpace`) under `spec`: their liveness, then
/// planAllocationMerge within the spec's capacity and `packing`'s budget.
/// `claimedBy` records the scope that holds each allocation across the
/// scopes of one application. Refuses (payload untouched) when `scope` has
/// no regions, when an allocation is already claimed by another scope, when
/// one is larger than 2^62 bytes, or when planAllocationMerge refuses.
llvm::Expected<ScopeMergeDecision>
decideScopeMerge(mlir::Operation *scope, const HwSpec &spec,
                 mlir::Attribute onChipMemorySpace,
                 const PackingOptions &packing,
                 llvm::DenseMap<mlir::Value, mlir::Operation *> &claimedBy);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_ALLOCATIONMERGEPLAN_H
