//===- AccumulationSplit.h - C += A x B as a product and an add -*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// A contraction that accumulates into its init (C += A x B, the init not a
// linalg.fill) rewritten as a product into a zero-filled tensor followed by
// an elementwise addition of the old init: the tensor-core kernel fuses a
// fill into its accumulators (they start as registers, C is stored once)
// and takes nothing else, so this is what lets it take frontends' C += A x B
// (the most common matmul it refused in the foreign corpus). The addition
// is an elementwise consumer of the product, which the routing schedules as
// a kernel of its own.
//
// The contraction op is modified in place (its init operand changes), so
// handles to it stay valid; the addition is new.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_ACCUMULATIONSPLIT_H
#define HWSCHED_TRANSFORMS_ACCUMULATIONSPLIT_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Error.h"

namespace hwsched {

/// Whether `op`'s single init is already a linalg.fill (nothing to split).
bool hasFillInit(mlir::linalg::LinalgOp op);

/// A refusal unless `op` can be split: a Linalg op on ranked tensors with
/// one init whose element type is a float or an integer (the zero to fill
/// with), not already filled. Nothing is changed.
llvm::Error checkAccumulationSplittable(mlir::linalg::LinalgOp op);

/// Rewrites `op` (C += A x B) into `P = op(A, B, fill(0))` followed by
/// `C' = linalg.add(P, C)` written into C, and replaces the other uses of
/// `op`'s result with C'. Returns the addition. Refuses as
/// checkAccumulationSplittable does.
llvm::Expected<mlir::linalg::AddOp>
splitAccumulation(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_ACCUMULATIONSPLIT_H
