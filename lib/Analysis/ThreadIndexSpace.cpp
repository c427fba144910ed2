//===- ThreadIndexSpace.cpp - Index values of every thread of a block -----===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/ThreadIndexSpace.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace hwsched;

/// Index chains in real kernels are a few ops deep; a bound keeps a
/// pathological (or cyclic through a graph region) chain from recursing far.
static constexpr unsigned kMaxDepth = 64;

std::optional<std::array<int64_t, 3>>
hwsched::getKnownBlockExtents(Operation *op) {
  auto check =
      [](std::array<int64_t, 3> e) -> std::optional<std::array<int64_t, 3>> {
    int64_t total = 1;
    for (int64_t d : e) {
      if (d < 1)
        return std::nullopt;
      total *= d;
      if (total > kMaxThreadsPerBlock)
        return std::nullopt;
    }
    return e;
  };
  for (Operation *p = op; p; p = p->getParentOp()) {
    if (auto launch = dyn_cast<gpu::LaunchOp>(p)) {
      std::array<int64_t, 3> e;
      Value sizes[3] = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                        launch.getBlockSizeZ()};
      for (unsigned d = 0; d < 3; ++d) {
        APInt c;
        if (!matchPattern(sizes[d], m_ConstantInt(&c)))
          return std::nullopt;
        e[d] = c.getSExtValue();
      }
      return check(e);
    }
    DenseI32ArrayAttr known;
    if (auto func = dyn_cast<gpu::GPUFuncOp>(p))
      known = func.getKnownBlockSizeAttr();
    else if (isa<FunctionOpInterface>(p))
      known = p->getAttrOfType<DenseI32ArrayAttr>("gpu.known_block_size");
    if (isa<FunctionOpInterface>(p)) {
      if (!known || known.size() != 3)
        return std::nullopt;
      return check({known[0], known[1], known[2]});
    }
  }
  return std::nullopt;
}

SmallVector<std::array<int64_t, 3>>
hwsched::enumerateThreads(const std::array<int64_t, 3> &extents) {
  SmallVector<std::array<int64_t, 3>> ids;
  for (int64_t z = 0; z < extents[2]; ++z)
    for (int64_t y = 0; y < extents[1]; ++y)
      for (int64_t x = 0; x < extents[0]; ++x)
        ids.push_back({x, y, z});
  return ids;
}

/// The launch body argument `v` is, as the thread id (isSize false) or the
/// block size of a dimension: {dim, isSize}.
static std::optional<std::pair<unsigned, bool>> launchThreadArgument(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return std::nullopt;
  auto launch = dyn_cast<gpu::LaunchOp>(arg.getOwner()->getParentOp());
  if (!launch || arg.getOwner() != &launch.getBody().front())
    return std::nullopt;
  gpu::KernelDim3 ids = launch.getThreadIds();
  gpu::KernelDim3 sizes = launch.getBlockSize();
  Value idPerDim[3] = {ids.x, ids.y, ids.z};
  Value sizePerDim[3] = {sizes.x, sizes.y, sizes.z};
  for (unsigned d = 0; d < 3; ++d) {
    if (idPerDim[d] == v)
      return std::make_pair(d, false);
    if (sizePerDim[d] == v)
      return std::make_pair(d, true);
  }
  return std::nullopt;
}

std::optional<unsigned> hwsched::getThreadIdDimension(Value v) {
  if (auto id = v.getDefiningOp<gpu::ThreadIdOp>())
    return static_cast<unsigned>(id.getDimension());
  std::optional<std::pair<unsigned, bool>> arg = launchThreadArgument(v);
  if (arg && !arg->second)
    return arg->first;
  return std::nullopt;
}

/// The thread dimension `v` is the id of, or the block size of
/// (gpu.block_dim or a block-size argument of gpu.launch): {dim, isSize}.
static std::optional<std::pair<unsigned, bool>> threadValue(Value v) {
  if (std::optional<unsigned> dim = getThreadIdDimension(v))
    return std::make_pair(*dim, false);
  if (auto dim = v.getDefiningOp<gpu::BlockDimOp>())
    return std::make_pair(static_cast<unsigned>(dim.getDimension()), true);
  return launchThreadArgument(v);
}

namespace {
/// Evaluates one thread's values; see ThreadIndexSpace.h.
class ThreadEvaluator {
public:
  ThreadEvaluator(const std::array<int64_t, 3> &tid,
                  const std::array<int64_t, 3> &extents,
                  ArrayRef<std::pair<Value, int64_t>> leaves = {})
      : tid(tid), extents(extents), leaves(leaves) {}

  std::optional<int64_t> eval(Value v, unsigned depth = 0);

private:
  std::optional<int64_t> evalExpr(AffineExpr e, ArrayRef<int64_t> dims,
                                  ArrayRef<int64_t> syms);
  std::optional<int64_t> evalAffine(AffineMap map, ValueRange operands,
                                    unsigned depth, bool takeMax);
  std::optional<int64_t> evalBinary(Operation *op, int64_t a, int64_t b);

  const std::array<int64_t, 3> &tid;
  const std::array<int64_t, 3> &extents;
  ArrayRef<std::pair<Value, int64_t>> leaves;
};
} // namespace

/// Floor division and modulo as affine maps define them (the sign of the
/// divisor's quotient rounded down); std::nullopt on a zero divisor.
static std::optional<int64_t> floorDiv(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  return llvm::divideFloorSigned(a, b);
}

std::optional<int64_t> ThreadEvaluator::evalExpr(AffineExpr e,
                                                 ArrayRef<int64_t> dims,
                                                 ArrayRef<int64_t> syms) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return syms[s.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(e);
  std::optional<int64_t> l = evalExpr(bin.getLHS(), dims, syms);
  std::optional<int64_t> r = evalExpr(bin.getRHS(), dims, syms);
  if (!l || !r)
    return std::nullopt;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return llvm::checkedAdd(*l, *r);
  case AffineExprKind::Mul:
    return llvm::checkedMul(*l, *r);
  case AffineExprKind::FloorDiv:
    return floorDiv(*l, *r);
  case AffineExprKind::CeilDiv:
    if (*r == 0)
      return std::nullopt;
    return llvm::divideCeilSigned(*l, *r);
  case AffineExprKind::Mod: {
    std::optional<int64_t> q = floorDiv(*l, *r);
    if (!q)
      return std::nullopt;
    return *l - *q * *r;
  }
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> ThreadEvaluator::evalAffine(AffineMap map,
                                                   ValueRange operands,
                                                   unsigned depth,
                                                   bool takeMax) {
  SmallVector<int64_t> values;
  for (Value operand : operands) {
    std::optional<int64_t> x = eval(operand, depth + 1);
    if (!x)
      return std::nullopt;
    values.push_back(*x);
  }
  ArrayRef<int64_t> dims(values.data(), map.getNumDims());
  ArrayRef<int64_t> syms(values.data() + map.getNumDims(), map.getNumSymbols());
  std::optional<int64_t> result;
  for (AffineExpr e : map.getResults()) {
    std::optional<int64_t> x = evalExpr(e, dims, syms);
    if (!x)
      return std::nullopt;
    result = !result   ? *x
             : takeMax ? std::max(*result, *x)
                       : std::min(*result, *x);
  }
  return result;
}

std::optional<int64_t> ThreadEvaluator::evalBinary(Operation *op, int64_t a,
                                                   int64_t b) {
  auto wrap = [](std::optional<int64_t> x) { return x; };
  if (isa<arith::AddIOp>(op))
    return wrap(llvm::checkedAdd(a, b));
  if (isa<arith::SubIOp>(op))
    return wrap(llvm::checkedSub(a, b));
  if (isa<arith::MulIOp>(op))
    return wrap(llvm::checkedMul(a, b));
  if (isa<arith::FloorDivSIOp>(op))
    return floorDiv(a, b);
  bool isUnsigned = isa<arith::DivUIOp, arith::RemUIOp, arith::ShRUIOp>(op);
  if (isUnsigned && (a < 0 || b < 0))
    return std::nullopt; // the unsigned reading of a negative index
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(op)) {
    if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
      return std::nullopt;
    return isa<arith::DivSIOp, arith::DivUIOp>(op) ? a / b : a % b;
  }
  if (isa<arith::AndIOp>(op))
    return a & b;
  if (isa<arith::OrIOp>(op))
    return a | b;
  if (isa<arith::XOrIOp>(op))
    return a ^ b;
  if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op)) {
    if (a < 0 || b < 0 || b >= 62)
      return std::nullopt;
    return isa<arith::ShLIOp>(op) ? wrap(llvm::checkedMul(a, int64_t(1) << b))
                                  : a >> b;
  }
  if (isa<arith::MinSIOp>(op))
    return std::min(a, b);
  if (isa<arith::MaxSIOp>(op))
    return std::max(a, b);
  return std::nullopt;
}

std::optional<int64_t> ThreadEvaluator::eval(Value v, unsigned depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  for (const auto &[leaf, value] : leaves)
    if (leaf == v)
      return value;
  if (std::optional<std::pair<unsigned, bool>> t = threadValue(v))
    return t->second ? extents[t->first] : tid[t->first];
  APInt cst;
  if (matchPattern(v, m_ConstantInt(&cst)))
    return cst.getSExtValue();
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def))
    return evalAffine(apply.getAffineMap(), apply.getMapOperands(), depth,
                      false);
  if (auto min = dyn_cast<affine::AffineMinOp>(def))
    return evalAffine(min.getAffineMap(), min.getMapOperands(), depth, false);
  if (auto max = dyn_cast<affine::AffineMaxOp>(def))
    return evalAffine(max.getAffineMap(), max.getMapOperands(), depth, true);
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return eval(def->getOperand(0), depth + 1);
  if (def->getNumOperands() != 2 || def->getNumResults() != 1 ||
      !def->getResult(0).getType().isIntOrIndex())
    return std::nullopt;
  std::optional<int64_t> a = eval(def->getOperand(0), depth + 1);
  std::optional<int64_t> b =
      a ? eval(def->getOperand(1), depth + 1) : std::nullopt;
  if (!a || !b)
    return std::nullopt;
  return evalBinary(def, *a, *b);
}

std::optional<SmallVector<int64_t>>
hwsched::evaluateInThread(ValueRange indices, const std::array<int64_t, 3> &tid,
                          const std::array<int64_t, 3> &extents) {
  return evaluateInThread(indices, tid, extents, {});
}

std::optional<SmallVector<int64_t>>
hwsched::evaluateInThread(ValueRange indices, const std::array<int64_t, 3> &tid,
                          const std::array<int64_t, 3> &extents,
                          ArrayRef<std::pair<Value, int64_t>> leaves) {
  ThreadEvaluator evaluator(tid, extents, leaves);
  SmallVector<int64_t> result;
  for (Value index : indices) {
    std::optional<int64_t> x = evaluator.eval(index);
    if (!x)
      return std::nullopt;
    result.push_back(*x);
  }
  return result;
}

bool hwsched::dependsOnThreadId(ValueRange indices) {
  SmallVector<std::pair<Value, unsigned>> worklist;
  for (Value index : indices)
    worklist.push_back({index, 0});
  while (!worklist.empty()) {
    auto [v, depth] = worklist.pop_back_val();
    if (std::optional<std::pair<unsigned, bool>> t = threadValue(v))
      if (!t->second)
        return true;
    Operation *def = v.getDefiningOp();
    if (!def || depth > kMaxDepth || def->getNumRegions() != 0)
      continue;
    for (Value operand : def->getOperands())
      worklist.push_back({operand, depth + 1});
  }
  return false;
}
