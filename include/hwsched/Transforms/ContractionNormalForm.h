//===- ContractionNormalForm.h - Any contraction as one (batch) matmul -*- C++
//-*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Rewrites a Linalg op that computes C += A * B (a multiply-add body, casts
// allowed) over any loops into one contraction with at most one batch loop,
// one M, one N and one K loop, which the matmul schedules take:
//
//  - each loop is classified by the operands it indexes: batch (A, B and C),
//    M (A and C), N (B and C), K (A and B, a reduction);
//  - A and B are brought to the layouts [batch..., M..., K...] and
//    [batch..., K..., N...]: as they are where their indexing already is
//    that, else through a copy (a `linalg.generic` reading the operand with
//    its own indexing). For a convolution that copy of the image is the
//    im2col gather: the image is read at (oh + kh, ow + kw) and written as
//    patches. It works for any convolution Linalg can express (named or
//    generic, batchless, depthwise, grouped, 1-D, 3-D, strided, dilated) and
//    for contractions with several M, N or K loops (linalg.mmt4d);
//  - the grouped loops are collapsed (tensor.collapse_shape), a missing N or
//    M (a depthwise convolution has no N) becomes a unit loop, the
//    contraction runs on the collapsed operands with the original body, and
//    its result is expanded and, where C's layout differs, copied back.
//
// The rewrite is exact: the same products are summed in the same order per
// output element (the K loops keep their relative order).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_CONTRACTIONNORMALFORM_H
#define HWSCHED_TRANSFORMS_CONTRACTIONNORMALFORM_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace hwsched {

/// How the loops of one contraction are grouped.
struct ContractionNormalFormPlan {
  mlir::linalg::LinalgOp op;
  /// Loop positions of each group, in loop order.
  llvm::SmallVector<unsigned> batch, m, n, k;
  /// Whether A, B and C must be copied to their grouped layout (false: the
  /// operand's indexing already lists its loops in that order).
  bool copyA = false, copyB = false, copyC = false;

  /// "5 loops -> batch [], M [d0, d1, d2], N [d3], K [d4, d5, d6]; A copied
  /// (im2col gather), B as it is, C as it is: a 2-D contraction 196 x 64 x
  /// 576".
  void print(llvm::raw_ostream &os) const;
  /// Extents of the collapsed (batch, M, N, K); batch 1 when there is none.
  int64_t extent(llvm::ArrayRef<unsigned> group) const;
};

/// The plan for `op`, or a refusal at `op` saying why it is not a
/// contraction this rewrite takes (buffer semantics, dynamic extents, not
/// two inputs and one init, a body that is not a multiply-add, a loop that
/// indexes neither or only one operand, C indexed by a non-permutation, a
/// parallel loop absent from C).
llvm::Expected<ContractionNormalFormPlan>
planContractionNormalForm(mlir::Operation *op);

/// Rewrites `plan.op` as planned; returns the new contraction (a
/// `linalg.generic` with loops (m, n, k) or (batch, m, n, k)).
mlir::linalg::LinalgOp
rewriteToContractionNormalForm(mlir::RewriterBase &rewriter,
                               const ContractionNormalFormPlan &plan);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_CONTRACTIONNORMALFORM_H
