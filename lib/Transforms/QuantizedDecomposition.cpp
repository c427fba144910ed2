//===- QuantizedDecomposition.cpp - Quantized Linalg ops, plain form ------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The rewrite is exact: the quantized ops' bodies extend A, B and the zero
// points to C's element type with a signed cast and subtract there, which
// is what the subtraction ops built here do, and the plain op's body then
// extends A' and B' with the same cast (an identity on C's type). Upstream
// has no such rewrite (IREE's GlobalOptimization has one, as an algebraic
// expansion into the unquantized op plus row and column sums); this one
// keeps a single op the schedules recognise, at the cost of A' and B' as
// tensors of C's element type where a zero point is not 0.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/QuantizedDecomposition.h"

#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// Builds the plain counterpart of a quantized op on `inputs` (its strides
/// and dilations kept).
using PlainBuilder = linalg::LinalgOp (*)(RewriterBase &, linalg::LinalgOp,
                                          ValueRange);

template <typename PlainOp>
linalg::LinalgOp buildPlain(RewriterBase &rewriter, linalg::LinalgOp op,
                            ValueRange inputs) {
  SmallVector<NamedAttribute> attrs;
  for (StringRef name : {"strides", "dilations"})
    if (Attribute attr = op->getAttr(name))
      attrs.emplace_back(rewriter.getStringAttr(name), attr);
  return rewriter.create<PlainOp>(op.getLoc(), op->getResultTypes(), inputs,
                                  op.getDpsInits(), attrs);
}

struct PlainForm {
  StringRef name;
  PlainBuilder build;
};

template <typename PlainOp> PlainForm plainForm() {
  return {PlainOp::getOperationName(), &buildPlain<PlainOp>};
}

/// The plain form of `op`, if it is one of the quantized ops.
std::optional<PlainForm> getPlainForm(Operation *op) {
  using namespace linalg;
  return llvm::TypeSwitch<Operation *, std::optional<PlainForm>>(op)
      .Case([](QuantizedMatmulOp) { return plainForm<MatmulOp>(); })
      .Case([](QuantizedBatchMatmulOp) { return plainForm<BatchMatmulOp>(); })
      .Case([](Conv2DNhwcHwcfQOp) { return plainForm<Conv2DNhwcHwcfOp>(); })
      .Case([](Conv2DNhwcFhwcQOp) { return plainForm<Conv2DNhwcFhwcOp>(); })
      .Case([](Conv2DNchwFchwQOp) { return plainForm<Conv2DNchwFchwOp>(); })
      .Case([](Conv2DNgchwGfchwQOp) { return plainForm<Conv2DNgchwGfchwOp>(); })
      .Case([](Conv2DNhwgcGfhwcQOp) { return plainForm<Conv2DNhwgcGfhwcOp>(); })
      .Case([](Conv3DNdhwcDhwcfQOp) { return plainForm<Conv3DNdhwcDhwcfOp>(); })
      .Case([](DepthwiseConv2DNhwcHwcQOp) {
        return plainForm<DepthwiseConv2DNhwcHwcOp>();
      })
      .Case([](DepthwiseConv2DNhwcHwcmQOp) {
        return plainForm<DepthwiseConv2DNhwcHwcmOp>();
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// `value` (an integer scalar) in `type` with a signed cast, as the
/// quantized ops' bodies convert (cast_signed).
Value castSigned(OpBuilder &b, Location loc, Value value, Type type) {
  unsigned from = value.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (from == to)
    return value;
  if (from < to)
    return b.create<arith::ExtSIOp>(loc, type, value);
  return b.create<arith::TruncIOp>(loc, type, value);
}

/// ext(operand) - ext(zeroPoint) as a new tensor of `elementType`, the same
/// shape as `operand`.
Value subtractZeroPoint(RewriterBase &rewriter, Location loc, Value operand,
                        Value zeroPoint, Type elementType) {
  auto type = cast<RankedTensorType>(operand.getType());
  int64_t rank = type.getRank();
  Value init = rewriter.create<tensor::EmptyOp>(
      loc, tensor::getMixedSizes(rewriter, loc, operand), elementType);
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  AffineMap scalar = AffineMap::get(rank, 0, {}, rewriter.getContext());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = rewriter.create<linalg::GenericOp>(
      loc, init.getType(), ValueRange{operand, zeroPoint}, ValueRange{init},
      ArrayRef<AffineMap>{identity, scalar, identity}, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value x = castSigned(b, l, args[0], elementType);
        Value z = castSigned(b, l, args[1], elementType);
        b.create<linalg::YieldOp>(
            l, ValueRange{b.create<arith::SubIOp>(l, x, z).getResult()});
      });
  return generic.getResult(0);
}
} // namespace

void hwsched::QuantizedDecompositionPlan::print(llvm::raw_ostream &os) const {
  // (LinalgOp's accessors are not const.)
  linalg::LinalgOp linalgOp = op;
  Type accType = getElementTypeOrSelf(linalgOp.getDpsInits().front());
  os << linalgOp->getName() << " -> " << plainName << " on ";
  bool conv = isa<linalg::ConvolutionOpInterface>(linalgOp.getOperation());
  const char *names[2] = {conv ? "the image" : "A", conv ? "the filter" : "B"};
  for (int i = 0; i < 2; ++i) {
    if (i)
      os << " and ";
    if (subtract[i])
      os << names[i] << " minus its zero point (" << accType << ")";
    else
      os << names[i] << " as it is (zero point 0)";
  }
}

llvm::Expected<hwsched::QuantizedDecompositionPlan>
hwsched::planQuantizedDecomposition(Operation *op) {
  std::optional<PlainForm> plain = getPlainForm(op);
  if (!plain)
    return refuse(op, "'" + op->getName().getStringRef() +
                          "' is not a quantized Linalg op "
                          "(linalg.quantized_matmul, "
                          "linalg.quantized_batch_matmul, linalg.conv_*_q, "
                          "linalg.depthwise_conv_*_q)");
  auto linalgOp = cast<linalg::LinalgOp>(op);
  if (!linalgOp.hasPureTensorSemantics())
    return refuse(op, "the op works on buffers (memref operands): "
                      "subtracting a zero point needs a new tensor; write "
                      "the op on tensors (before bufferization)");
  // Named quantized ops: ins(A, B, zero point of A, zero point of B).
  if (linalgOp.getNumDpsInputs() != 4 || linalgOp.getNumDpsInits() != 1)
    return refuse(op, "expected four inputs (A, B and their zero points) "
                      "and one output");
  Type accType = getElementTypeOrSelf(linalgOp.getDpsInits().front());
  if (!accType.isSignlessInteger())
    return refuse(op, "the result's element type is not an integer");
  for (unsigned i = 0; i < 4; ++i) {
    Type type = getElementTypeOrSelf(linalgOp.getDpsInputs()[i]);
    if (!type.isSignlessInteger())
      return refuse(op, "input " + Twine(i) +
                            " does not have an integer element type");
  }
  QuantizedDecompositionPlan plan;
  plan.op = linalgOp;
  plan.plainName = plain->name;
  for (int i = 0; i < 2; ++i)
    plan.subtract[i] = !matchPattern(linalgOp.getDpsInputs()[2 + i], m_Zero());
  return plan;
}

linalg::LinalgOp
hwsched::decomposeQuantized(RewriterBase &rewriter,
                            const QuantizedDecompositionPlan &plan) {
  linalg::LinalgOp op = plan.op;
  Location loc = op.getLoc();
  Type accType = getElementTypeOrSelf(op.getDpsInits().front());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs;
  for (int i = 0; i < 2; ++i) {
    Value operand = op.getDpsInputs()[i];
    inputs.push_back(plan.subtract[i]
                         ? subtractZeroPoint(rewriter, loc, operand,
                                             op.getDpsInputs()[2 + i], accType)
                         : operand);
  }
  linalg::LinalgOp plain = getPlainForm(op)->build(rewriter, op, inputs);
  rewriter.replaceOp(op, plain->getResults());
  return plain;
}
