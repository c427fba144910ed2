//===- SharedMemorySwizzle.h - Rewrite a buffer's layout --------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Applies an XOR swizzle (CostModel/BankConflictPlan.h) to every access of
// a shared buffer: the innermost index of each access becomes
// col ^ (((row >> shift) & mask) << log2(chunk)). The buffer's type does not
// change, so views, allocation merging and multi-buffering see the same
// tile; only where each chunk of a row is stored moves. Decides nothing.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_SHAREDMEMORYSWIZZLE_H
#define HWSCHED_TRANSFORMS_SHAREDMEMORYSWIZZLE_H

#include "hwsched/Analysis/SharedMemoryBanks.h"
#include "hwsched/CostModel/BankConflictPlan.h"

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace hwsched {

/// Rewrites the indices of every access in `buffer` (as collected by
/// collectBankAccesses, which accepted each access kind) for `swizzle`.
void applyXorSwizzle(mlir::RewriterBase &rewriter, const BufferAccesses &buffer,
                     const XorSwizzle &swizzle);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_SHAREDMEMORYSWIZZLE_H
