//===- AccumulationSplit.cpp - C += A x B as a product and an add ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/AccumulationSplit.h"

#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

bool hwsched::hasFillInit(linalg::LinalgOp op) {
  return op.getNumDpsInits() == 1 &&
         op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
}

llvm::Error hwsched::checkAccumulationSplittable(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return refuse(op, "the op is on buffers; the split makes a new tensor "
                      "for the product (split before bufferization)");
  if (op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return refuse(op, "the op has " + std::to_string(op.getNumDpsInits()) +
                          " inits; the split takes one accumulator");
  if (hasFillInit(op))
    return refuse(op, "the init is already a linalg.fill: nothing to split");
  auto type = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!type || !isa<FloatType, IntegerType>(type.getElementType()))
    return refuse(op, "the init is not a ranked tensor of floats or "
                      "integers; the split fills the product with zeros");
  return llvm::Error::success();
}

llvm::Expected<linalg::AddOp> hwsched::splitAccumulation(RewriterBase &rewriter,
                                                         linalg::LinalgOp op) {
  if (llvm::Error err = checkAccumulationSplittable(op))
    return std::move(err);
  OpOperand &initOperand = *op.getDpsInitOperand(0);
  Value init = initOperand.get();
  auto type = cast<RankedTensorType>(init.getType());
  Location loc = op.getLoc();

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  // The product's accumulator: a new tensor of the init's shape (dynamic
  // sizes read off the init), zero-filled.
  Value empty = tensor::EmptyOp::create(
      rewriter, loc, tensor::getMixedSizes(rewriter, loc, init),
      type.getElementType());
  Value zero = arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
  Value filled =
      linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
  rewriter.modifyOpInPlace(op, [&] { initOperand.set(filled); });

  // C' = P + C, into C's tensor (in place after bufferization).
  Value product = op->getResult(0);
  rewriter.setInsertionPointAfter(op);
  auto add = linalg::AddOp::create(rewriter, loc, ValueRange{product, init},
                                   ValueRange{init});
  rewriter.replaceAllUsesExcept(product, add.getResult(0), add);
  return add;
}
