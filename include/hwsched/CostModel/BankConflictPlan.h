//===- BankConflictPlan.h - Swizzles against bank conflicts -----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Decides, per shared buffer, whether and how to swizzle its layout so that
// the block's accesses meet no bank conflicts, from the target's banks.
//
// The candidates are XOR swizzles of the buffer's chunks: a row's chunk c
// (chunk = the widest access of the buffer, at least one bank word) is
// stored at c ^ (((row >> shift) & (2^bits - 1)) << u), moving units of 2^u
// chunks (u > 0 keeps neighbouring chunks together, which the tf32 B tile's
// loads need: docs/Smem.md). Each candidate is scored by the wavefronts of
// every access with the exact addresses of every thread
// (Analysis/SharedMemoryBanks.h), not by a rule of thumb: the pick is the
// fewest wavefronts, then the identity layout, then the smallest unit, the
// fewest bits and the smallest shift. Padding each row by one chunk is
// scored as well and reported beside the pick (with its bytes), but not
// applied: a padded tile is no longer written whole by its copies, which
// the pipeliner's coverage proof needs (docs/Smem.md).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_BANKCONFLICTPLAN_H
#define HWSCHED_COSTMODEL_BANKCONFLICTPLAN_H

#include "hwsched/Analysis/SharedMemoryBanks.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace hwsched {

/// col' = col ^ (((row >> shift) & (2^bits - 1)) << chunkShift), on the
/// innermost index (col) with the next one out as the row: units of
/// 2^chunkShift elements (one chunk or several) move within their row. The
/// one formula the scoring and the rewrite (Transforms/SharedMemorySwizzle.h)
/// both use.
struct XorSwizzle {
  int64_t chunkShift = 0;
  int64_t shift = 0;
  int64_t bits = 0;
  int64_t chunkElements() const { return int64_t(1) << chunkShift; }
  int64_t mask() const { return (int64_t(1) << bits) - 1; }
  /// The stored column of element (row, col).
  int64_t apply(int64_t row, int64_t col) const {
    return col ^ (((row >> shift) & mask()) << chunkShift);
  }
};

/// One access kind's wavefronts before and after, for the report.
struct AccessFigure {
  std::string kind;
  unsigned ops = 0;
  Wavefronts before, after;
};

/// The decision for one buffer.
struct BufferSwizzlePlan {
  mlir::Operation *alloc = nullptr;
  mlir::MemRefType type;
  /// Why the buffer keeps its layout without being scored (it could not be
  /// analysed or swizzled); empty when it was scored.
  std::string unchangedReason;
  /// The picked swizzle; std::nullopt keeps the identity layout.
  std::optional<XorSwizzle> swizzle;
  Wavefronts before, after;
  /// Padding each row by one chunk, scored for comparison.
  std::optional<Wavefronts> padded;
  int64_t padBytes = 0;
  llvm::SmallVector<AccessFigure> figures;
  /// One line: the decision, the wavefronts before and after per access
  /// kind, and padding's figures (what `explain` shows).
  void print(llvm::raw_ostream &os) const;
};

/// The decisions for a scope's buffers.
struct BankConflictPlan {
  BankGeometry geometry;
  llvm::SmallVector<BufferSwizzlePlan> buffers;
  /// The geometry, then one line per buffer.
  void print(llvm::raw_ostream &os) const;
};

/// Scores the layouts of `buffer` and picks one (see the file comment).
BufferSwizzlePlan planBufferSwizzle(const BufferAccesses &buffer,
                                    const BankGeometry &geo);

/// A plan for a buffer that could not be analysed, with the reason.
BufferSwizzlePlan unchangedBuffer(mlir::Operation *alloc,
                                  llvm::StringRef reason);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_BANKCONFLICTPLAN_H
