//===- MergeAllocations.h - Pack on-chip buffers into one -------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Merging the on-chip allocations of a scope into one byte buffer, in two
// steps so callers can report or refuse before the IR changes:
//   planAllocationMerge: liveness (Analysis/AllocationLiveness.h) + capacity
//     -> which buffers merge, their offsets, the peak and the lower bound;
//   applyAllocationMerge: the rewrite (one memref.alloc/alloca of
//     memref<Nxi8, space>, memref.view per buffer, gpu.barrier where bytes
//     are reused across threads).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_MERGEALLOCATIONS_H
#define HWSCHED_TRANSFORMS_MERGEALLOCATIONS_H

#include "hwsched/Analysis/AllocationLiveness.h"
#include "hwsched/Transforms/AllocationPacking.h"

#include "mlir/IR/PatternMatch.h"

namespace hwsched {

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
  /// Lower bound over all sized buffers (pinned ones live throughout), the
  /// program point where it is reached and the buffers live there.
  uint64_t lowerBoundBytes = 0;
  mlir::Operation *lowerBoundOp = nullptr;
  llvm::SmallVector<size_t> liveAtLowerBound;
  /// Greedy strategy or "exact"; whether the peak is proven optimal.
  std::string strategy;
  bool exactSearchRan = false;
  bool provedOptimal = false;
  /// The capacity used (0: unbounded) and whether the plan exceeds it.
  uint64_t capacityBytes = 0;
  bool exceedsCapacity() const {
    return capacityBytes != 0 && peakBytes > capacityBytes;
  }
};

/// Plans the merge of `liveness`. Deterministic.
AllocationMergePlan planAllocationMerge(const ScopeAllocationLiveness &liveness,
                                        uint64_t capacityBytes,
                                        const PackingOptions &options = {});

/// What the rewrite did.
struct AllocationMergeOutcome {
  /// The new byte buffer (null when nothing was merged).
  mlir::Operation *buffer = nullptr;
  /// gpu.barrier ops inserted, and existing ones found in place.
  llvm::SmallVector<mlir::Operation *> insertedBarriers;
  unsigned reusedBarriers = 0;
};

/// Rewrites the scope of `liveness` according to `plan`. With
/// `insertBarriers`, every pair of merged buffers that share bytes gets a
/// gpu.barrier between the last use of the earlier one and the first use of
/// the later one (and across the back edge of an enclosing loop) unless one
/// is already there.
AllocationMergeOutcome
applyAllocationMerge(mlir::RewriterBase &rewriter,
                     const ScopeAllocationLiveness &liveness,
                     const AllocationMergePlan &plan, bool insertBarriers);

/// "#i memref<...>" for diagnostics: the index in program order and type.
std::string describeBuffer(const ScopeAllocationLiveness &liveness,
                           size_t index);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_MERGEALLOCATIONS_H
