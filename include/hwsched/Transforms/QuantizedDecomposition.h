//===- QuantizedDecomposition.h - Quantized Linalg ops, plain form -*- C++
//-*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Rewrites a quantized Linalg contraction or convolution (`linalg.*_q`,
// `linalg.quantized_matmul`, `linalg.quantized_batch_matmul`) into its plain
// counterpart (`linalg.conv_2d_nhwc_hwcf`, `linalg.matmul`, ...) on operands
// whose zero points are already subtracted. Frontends (TFLite and TOSA int8
// models through IREE, torch-mlir's quantized ops) emit the quantized forms;
// the matmul schedules and the upstream im2col rewrite know only the plain
// ones. The quantized op computes
//   C += (ext(A) - ext(zA)) * (ext(B) - ext(zB))
// in C's element type; the plain op on A' = ext(A) - ext(zA) and
// B' = ext(B) - ext(zB) computes the same sums exactly (integer arithmetic).
// An operand whose zero point is the constant 0 is passed as it is (the plain
// op extends it in its body): the common symmetric-quantized weights cost
// nothing. Usable from C++ without the Transform dialect.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_QUANTIZEDDECOMPOSITION_H
#define HWSCHED_TRANSFORMS_QUANTIZEDDECOMPOSITION_H

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

/// What the rewrite of one quantized op does.
struct QuantizedDecompositionPlan {
  mlir::linalg::LinalgOp op;
  /// The plain op's name, e.g. "linalg.conv_2d_nhwc_hwcf".
  llvm::StringRef plainName;
  /// Per operand (A, B): whether its zero point must be subtracted (false:
  /// the zero point is the constant 0 and the operand is used as it is).
  bool subtract[2] = {true, true};

  /// "linalg.conv_2d_nhwc_hwcf_q -> linalg.conv_2d_nhwc_hwcf on the image
  /// minus its zero point (i32) and the filter as it is (zero point 0)".
  void print(llvm::raw_ostream &os) const;
};

/// The plan for `op`, or a refusal at `op` saying why it cannot be
/// rewritten: not one of the quantized ops above, buffer semantics (the
/// subtraction needs a new tensor), or element types other than integers.
llvm::Expected<QuantizedDecompositionPlan>
planQuantizedDecomposition(mlir::Operation *op);

/// Rewrites `plan.op` as planned; returns the plain op, which replaces it.
mlir::linalg::LinalgOp
decomposeQuantized(mlir::RewriterBase &rewriter,
                   const QuantizedDecompositionPlan &plan);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_QUANTIZEDDECOMPOSITION_H
