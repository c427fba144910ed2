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
//     memref<Nxi8, space>, or a launch's gpu.dynamic_shared_memory,
//     memref.view per buffer, gpu.barrier where bytes are reused across
//     threads).
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

/// The gpu.launch whose dynamic shared memory can hold the merged buffer of
/// `plan` (every merged buffer a memref.alloc in one launch that uses no
/// dynamic shared memory yet), or a refusal at the op in the way saying
/// why. What a GPU kernel needs beyond 48 KiB of shared memory (the static
/// limit), and what avoids the malloc a workgroup memref.alloc in a launch
/// otherwise lowers to.
llvm::Expected<mlir::Operation *>
findDynamicSharedMemoryLaunch(const ScopeAllocationLiveness &liveness,
                              const AllocationMergePlan &plan);

/// Rewrites the scope of `liveness` according to `plan`. With
/// `insertBarriers`, every pair of merged buffers that share bytes gets a
/// gpu.barrier between the last use of the earlier one and the first use of
/// the later one (and across the back edge of an enclosing loop) unless one
/// is already there. With `dynamicSharedMemoryLaunch` (from
/// findDynamicSharedMemoryLaunch), the merged buffer is that launch's
/// gpu.dynamic_shared_memory and the launch's dynamic_shared_memory_size
/// its bytes.
AllocationMergeOutcome
applyAllocationMerge(mlir::RewriterBase &rewriter,
                     const ScopeAllocationLiveness &liveness,
                     const AllocationMergePlan &plan, bool insertBarriers,
                     mlir::Operation *dynamicSharedMemoryLaunch = nullptr);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_MERGEALLOCATIONS_H
