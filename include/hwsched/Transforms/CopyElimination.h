//===- CopyElimination.h - Remove redundant buffer copies -------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Applies the rewrites that hwsched/Analysis/CopyLegality.h proves legal,
// until none applies, and erases the allocations they leave dead. Usable from
// C++ without the Transform dialect.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_COPYELIMINATION_H
#define HWSCHED_TRANSFORMS_COPYELIMINATION_H

#include "hwsched/Analysis/CopyLegality.h"

#include "mlir/IR/Location.h"

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace hwsched {

/// One copy that the rewrite removed.
struct RemovedCopy {
  mlir::Location loc;
  std::string opName;
  /// Forward or backward; a copy into a buffer that became dead counts as
  /// forward (its target is never read).
  CopyRule rule;
  /// What happened, for remarks: which buffer the uses now read or the
  /// producers now write, and which allocation went away.
  std::string detail;
  std::optional<int64_t> bytes;
};

/// One allocation (with its deallocations) that the rewrite erased.
struct ErasedAlloc {
  mlir::Location loc;
  mlir::Attribute memorySpace;
  std::optional<int64_t> bytes;
};

/// What eliminateRedundantCopies did in one scope.
struct CopyEliminationResult {
  llvm::SmallVector<RemovedCopy> removed;
  llvm::SmallVector<ErasedAlloc> erasedAllocs;
  /// The analysis of the copies left, with the reason each one stays.
  std::vector<CopyLegality> kept;
  int64_t copiesBefore = 0;
};

/// Removes, inside `scope`, every copy that the analysis proves redundant,
/// one at a time (each removal can make another copy removable, e.g. a chain
/// through three buffers) until none is left, and erases the allocations that
/// became dead together with their deallocations and the ops that only wrote
/// them. Changes go through `rewriter`, so listeners (e.g. transform handle
/// tracking) see them.
CopyEliminationResult
eliminateRedundantCopies(mlir::RewriterBase &rewriter, mlir::Operation *scope,
                         const CopyLegalityOptions &options = {});

/// Total static bytes of the `memref.alloc` / `memref.alloca` ops nested in
/// `scope` whose memory space is `memorySpace`, and how many allocations
/// have a dynamic size (not counted).
struct AllocBytes {
  int64_t bytes = 0;
  int64_t count = 0;
  int64_t dynamicCount = 0;
};
AllocBytes countAllocBytes(mlir::Operation *scope, mlir::Attribute memorySpace);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_COPYELIMINATION_H
