//===- MergeAllocations.h - Pack on-chip buffers into one -------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Merging the on-chip allocations of a scope into one byte buffer, in two
// steps so callers can report or refuse before the IR changes:
//   planAllocationMerge (CostModel/AllocationMergePlan.h): liveness +
//     capacity -> which buffers merge, their offsets, the peak and the lower
//     bound;
//   applyAllocationMerge: the rewrite (one memref.alloc/alloca of
//     memref<Nxi8, space>, memref.view per buffer, gpu.barrier where bytes
//     are reused across threads).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_MERGEALLOCATIONS_H
#define HWSCHED_TRANSFORMS_MERGEALLOCATIONS_H

#include "hwsched/Analysis/AllocationLiveness.h"
#include "hwsched/CostModel/AllocationMergePlan.h"

#include "mlir/IR/PatternMatch.h"

namespace hwsched {

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

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_MERGEALLOCATIONS_H
