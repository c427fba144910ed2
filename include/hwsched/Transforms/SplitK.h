//===- SplitK.h - Split a reduction into partial sums -----------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Split-K: each op's one reduction loop is split into `factor` equal parts
// computed into partial sums, then combined. The rewrite is upstream's
// linalg::splitReduction, called unchanged; what this layer adds is the
// check of its preconditions, in the user's terms, before any op is
// rewritten. Usable from C++ without the Transform dialect.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_SPLITK_H
#define HWSCHED_TRANSFORMS_SPLITK_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir {
class Operation;
class RewriterBase;
} // namespace mlir

namespace hwsched {

/// Success when every op of `ops` can be split by its factor in `factors`
/// (one per op; 1 leaves the op alone), else a refusal at the first op that
/// cannot, saying why ("cannot split the reduction by 4: the reduction
/// extent 30 is not a multiple of the split factor 4").
llvm::Error checkSplitK(llvm::ArrayRef<mlir::Operation *> ops,
                        llvm::ArrayRef<int64_t> factors);

/// The ops split-K produced, in the order of the ops split.
struct SplitKResult {
  /// The partial sums' initialisation and the combining op, one per op
  /// split by a factor above 1.
  llvm::SmallVector<mlir::Operation *> fills, combines;
  /// The partial-sum op of each op, or the op itself when its factor is 1.
  llvm::SmallVector<mlir::Operation *> partials;
};

/// Splits every op of `ops` by its factor (checked by checkSplitK before):
/// the split dimension first, so that each split's partial M x N plane is
/// contiguous. Failure only when upstream's rewrite fails despite the
/// check.
mlir::FailureOr<SplitKResult> splitK(mlir::RewriterBase &rewriter,
                                     llvm::ArrayRef<mlir::Operation *> ops,
                                     llvm::ArrayRef<int64_t> factors);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_SPLITK_H
