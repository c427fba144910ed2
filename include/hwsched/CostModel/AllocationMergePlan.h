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

#include "llvm/Support/Error.h"

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

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_ALLOCATIONMERGEPLAN_H
