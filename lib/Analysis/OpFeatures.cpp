//===- OpFeatures.cpp - Structural features of Linalg / tiled ops ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/OpFeatures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;
using namespace hwsched;

llvm::StringRef hwsched::stringifyAccessPattern(AccessPattern pattern) {
  switch (pattern) {
  case AccessPattern::Contiguous:
    return "contiguous";
  case AccessPattern::Transposed:
    return "transposed";
  case AccessPattern::Broadcast:
    return "broadcast";
  case AccessPattern::Strided:
    return "strided";
  case AccessPattern::Gather:
    return "gather";
  }
  return "contiguous";
}

llvm::StringRef hwsched::stringifyOpClass(OpClass opClass) {
  switch (opClass) {
  case OpClass::Elementwise:
    return "elementwise";
  case OpClass::Contraction:
    return "contraction";
  case OpClass::Convolution:
    return "convolution";
  case OpClass::Reduction:
    return "reduction";
  case OpClass::LayoutChange:
    return "layout-change";
  case OpClass::Fill:
    return "fill";
  case OpClass::Other:
    return "other";
  }
  return "other";
}

const OperandFeatures *OpFeatures::findInput(Value value) const {
  for (const OperandFeatures &operand : operands)
    if (!operand.isInit && operand.value == value)
      return &operand;
  return nullptr;
}

const OperandFeatures *OpFeatures::getInit(unsigned result) const {
  unsigned seen = 0;
  for (const OperandFeatures &operand : operands)
    if (operand.isInit && seen++ == result)
      return &operand;
  return nullptr;
}

bool hwsched::isStructuredOp(Operation *op) {
  return op && (isa<linalg::LinalgOp>(op) || isa<TilingInterface>(op));
}

/// Element width in bits; index counts as 64.
static int64_t getBitWidth(Type type) {
  if (type.isIndex())
    return 64;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * getBitWidth(complex.getElementType());
  return 32;
}

static std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Static extent of `value`'s dim, or its constant upper bound through
/// ValueBoundsOpInterface (which sees through tensor.dim, affine.min of tile
/// sizes, ...), or std::nullopt.
static std::optional<int64_t> getExtent(Value value, int64_t dim) {
  auto shaped = dyn_cast<ShapedType>(value.getType());
  if (!shaped)
    return std::nullopt;
  if (!shaped.isDynamicDim(dim))
    return shaped.getDimSize(dim);
  FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(value, dim),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  if (failed(bound) || *bound <= 0)
    return std::nullopt;
  return *bound;
}

/// True when `expr` multiplies a dim by a constant other than 1 (a strided or
/// dilated access).
static bool hasStride(AffineExpr expr) {
  bool strided = false;
  expr.walk([&](AffineExpr sub) {
    auto bin = dyn_cast<AffineBinaryOpExpr>(sub);
    if (!bin || sub.getKind() != AffineExprKind::Mul)
      return;
    if (auto cst = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      strided |= cst.getValue() != 1;
    if (auto cst = dyn_cast<AffineConstantExpr>(bin.getLHS()))
      strided |= cst.getValue() != 1;
  });
  return strided;
}

/// Records the tiling loops around `op` (its shapes are then a tile's).
static void collectTilingContext(Operation *op, OpFeatures &features) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      break;
    if (auto forall = dyn_cast<scf::ForallOp>(parent)) {
      features.tiled = true;
      features.tilingLoops.insert(features.tilingLoops.begin(), "scf.forall");
      if (std::optional<ArrayAttr> mapping = forall.getMapping()) {
        for (Attribute attr : *mapping) {
          std::string text;
          llvm::raw_string_ostream os(text);
          attr.print(os);
          // #gpu.thread<x>, #gpu.warp<x>, #gpu.lane<x>: one iteration per
          // thread (or per warp/lane), so the op's shapes are per-thread.
          if (StringRef(text).starts_with("#gpu.thread") ||
              StringRef(text).starts_with("#gpu.lane"))
            features.threadTiled = true;
        }
      }
    } else if (isa<scf::ForOp>(parent)) {
      features.tiled = true;
      features.tilingLoops.insert(features.tilingLoops.begin(), "scf.for");
    }
  }
}

/// Counts arithmetic per point and records gathers in a Linalg body.
static void analyzeBody(linalg::LinalgOp linalgOp, OpFeatures &features) {
  Block *body = linalgOp.getBlock();
  if (!body)
    return;
  for (Operation &op : body->without_terminator()) {
    features.bodyOps++;
    if (isa<linalg::IndexOp, arith::ConstantOp>(op))
      continue;
    if (isa<tensor::ExtractOp, memref::LoadOp>(op)) {
      Value source = op.getOperand(0);
      if (!linalgOp->isAncestor(source.getParentBlock()->getParentOp()))
        features.gatheredValues.push_back(source);
      continue;
    }
    // Casts and selects move data, they do not compute.
    if (isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp, arith::BitcastOp, arith::IndexCastOp,
            arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp>(
            op))
      continue;
    StringRef dialect = op.getName().getDialectNamespace();
    if (dialect == "math")
      features.transcendentalsPerPoint++;
    if (dialect == "arith" || dialect == "math" || dialect == "complex")
      features.opsPerPoint++;
  }
}

/// Marks each loop as parallel or reduction and counts both kinds.
static void classifyLoops(linalg::LinalgOp linalgOp, OpFeatures &features) {
  unsigned numLoops = linalgOp.getNumLoops();
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  features.isReductionLoop.assign(numLoops, false);
  for (unsigned i = 0; i < numLoops; ++i) {
    bool reduction = iterators[i] == utils::IteratorType::reduction;
    features.isReductionLoop[i] = reduction;
    if (reduction)
      features.numReductionLoops++;
    else
      features.numParallelLoops++;
  }
}

/// Loop extents: static ranges, or for dynamic ones the bound of an operand
/// dim indexed exactly by that loop (the smallest when several are).
static void computeLoopRanges(linalg::LinalgOp linalgOp, OpFeatures &features) {
  unsigned numLoops = linalgOp.getNumLoops();
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  features.loopRanges.assign(numLoops, 1);
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    if (!ShapedType::isDynamic(ranges[loop])) {
      features.loopRanges[loop] = ranges[loop];
      continue;
    }
    features.dynamicShape = true;
    std::optional<int64_t> bound;
    for (OpOperand &operand : linalgOp->getOpOperands()) {
      if (linalgOp.isScalar(&operand))
        continue;
      AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
      for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        if (!dim || dim.getPosition() != loop)
          continue;
        if (std::optional<int64_t> extent = getExtent(operand.get(), pos))
          bound = bound ? std::min(*bound, *extent) : *extent;
      }
    }
    if (bound)
      features.loopRanges[loop] = *bound;
    else
      features.dynamicUnbounded = true;
  }
}

/// What the operand's type and role say: number, value, input or init,
/// element type and width, scalar or not, whether an init is read.
static OperandFeatures describeOperand(linalg::LinalgOp linalgOp,
                                       OpOperand &opOperand) {
  OperandFeatures operand;
  operand.number = opOperand.getOperandNumber();
  operand.value = opOperand.get();
  operand.isInit = linalgOp.isDpsInit(&opOperand);
  Type elementType = getElementTypeOrSelf(opOperand.get().getType());
  operand.elementType = printType(elementType);
  operand.elementBits = getBitWidth(elementType);
  operand.isScalar = linalgOp.isScalar(&opOperand);
  if (operand.isInit)
    operand.initIsRead = linalgOp.payloadUsesValueFromOperand(&opOperand);
  return operand;
}

/// The shape (bounded extents, -1 when unbounded), element count and bytes
/// of a shaped operand; dynamic dims mark the op's shape dynamic.
static void measureOperand(OpOperand &opOperand, OperandFeatures &operand,
                           OpFeatures &features) {
  auto shaped = cast<ShapedType>(opOperand.get().getType());
  operand.numElements = 1;
  for (int64_t dim = 0, e = shaped.getRank(); dim < e; ++dim) {
    std::optional<int64_t> extent = getExtent(opOperand.get(), dim);
    if (!extent) {
      features.dynamicShape = true;
      features.dynamicUnbounded = true;
    } else if (shaped.isDynamicDim(dim)) {
      features.dynamicShape = true;
    }
    operand.shape.push_back(extent ? *extent : -1);
    operand.numElements *= extent ? *extent : 1;
  }
  operand.bytes = (operand.numElements * operand.elementBits + 7) / 8;
}

/// Records the loops behind each dim of the operand's indexing `map` and
/// classifies the access: strided (a dim scaled by a constant), transposed
/// (parallel loops out of order), broadcast (an input of an op without
/// reductions that misses a parallel loop), contiguous otherwise.
static AccessPattern classifyAccess(AffineMap map, OperandFeatures &operand,
                                    const OpFeatures &features,
                                    unsigned numLoops) {
  bool strided = false, window = false;
  llvm::SmallBitVector used(numLoops);
  SmallVector<int64_t> parallelOrder;
  for (AffineExpr expr : map.getResults()) {
    SmallVector<int64_t, 2> exprDims;
    expr.walk([&](AffineExpr sub) {
      if (auto dim = dyn_cast<AffineDimExpr>(sub))
        exprDims.push_back(dim.getPosition());
    });
    operand.resultLoopDims.push_back(std::move(exprDims));
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      operand.loopDims.push_back(dim.getPosition());
      used.set(dim.getPosition());
      if (!features.isReductionLoop[dim.getPosition()])
        parallelOrder.push_back(dim.getPosition());
      continue;
    }
    operand.loopDims.push_back(-1);
    strided |= hasStride(expr);
    window = true;
    expr.walk([&](AffineExpr sub) {
      if (auto dim = dyn_cast<AffineDimExpr>(sub))
        used.set(dim.getPosition());
    });
  }
  bool increasing = llvm::is_sorted(parallelOrder);
  bool missesParallel = false;
  for (unsigned loop = 0; loop < numLoops; ++loop)
    if (!features.isReductionLoop[loop] && !used.test(loop))
      missesParallel = true;
  if (strided)
    return AccessPattern::Strided;
  if (!increasing)
    return AccessPattern::Transposed;
  if (!operand.isInit && missesParallel && !window &&
      features.numReductionLoops == 0)
    return AccessPattern::Broadcast;
  return AccessPattern::Contiguous;
}

namespace {
/// What the operands tell the op classification.
struct OperandSummary {
  /// Some input is not a scalar.
  bool anyShapedInput = false;
  /// Some operand is indexed by a permutation other than the first init's.
  bool permutedAgainstInit = false;
};
} // namespace

/// Fills `features.operands` in operand order, with each operand's shape,
/// bytes and access pattern, and adds the bytes read, written and live.
static OperandSummary collectOperandFeatures(linalg::LinalgOp linalgOp,
                                             AffineMap initMap,
                                             OpFeatures &features) {
  OperandSummary summary;
  for (OpOperand &opOperand : linalgOp->getOpOperands()) {
    OperandFeatures operand = describeOperand(linalgOp, opOperand);
    if (operand.isScalar) {
      operand.numElements = 1;
      operand.bytes = (operand.elementBits + 7) / 8;
      features.operands.push_back(std::move(operand));
      continue;
    }
    if (!operand.isInit)
      summary.anyShapedInput = true;
    measureOperand(opOperand, operand, features);

    AffineMap map = linalgOp.getMatchingIndexingMap(&opOperand);
    operand.pattern =
        classifyAccess(map, operand, features, linalgOp.getNumLoops());
    if (initMap && map.isPermutation() && initMap.isPermutation() &&
        map != initMap)
      summary.permutedAgainstInit = true;

    if (operand.isInit) {
      features.bytesWritten += operand.bytes;
      if (operand.initIsRead)
        features.bytesRead += operand.bytes;
    } else {
      features.bytesRead += operand.bytes;
    }
    features.liveTileBytes += operand.bytes;
    features.operands.push_back(std::move(operand));
  }
  return summary;
}

/// A gathered table is read at data-dependent positions: counts it whole
/// (when its shape is static) as read and live.
static void addGatheredBytes(OpFeatures &features) {
  for (Value gathered : features.gatheredValues) {
    if (auto shaped = dyn_cast<ShapedType>(gathered.getType());
        shaped && shaped.hasStaticShape()) {
      int64_t bytes =
          (shaped.getNumElements() * getBitWidth(shaped.getElementType()) + 7) /
          8;
      features.bytesRead += bytes;
      features.liveTileBytes += bytes;
    }
  }
}

/// The op's class, from its inputs, reductions and indexing maps.
static OpClass classifyLinalgOp(linalg::LinalgOp linalgOp,
                                const OpFeatures &features,
                                const OperandSummary &summary,
                                AffineMap initMap) {
  if (!summary.anyShapedInput && features.gatheredValues.empty())
    return OpClass::Fill;
  if (features.numReductionLoops > 0) {
    if (linalg::isaConvolutionOpInterface(linalgOp))
      return OpClass::Convolution;
    if (linalg::isaContractionOpInterface(linalgOp))
      return OpClass::Contraction;
    return OpClass::Reduction;
  }
  if (summary.permutedAgainstInit ||
      (initMap && !initMap.isIdentity() && initMap.isPermutation()))
    return OpClass::LayoutChange;
  return OpClass::Elementwise;
}

static bool computeLinalgFeatures(linalg::LinalgOp linalgOp,
                                  OpFeatures &features) {
  classifyLoops(linalgOp, features);
  computeLoopRanges(linalgOp, features);
  analyzeBody(linalgOp, features);

  AffineMap initMap;
  if (linalgOp.getNumDpsInits() > 0)
    initMap = linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
  OperandSummary summary = collectOperandFeatures(linalgOp, initMap, features);
  addGatheredBytes(features);
  features.opClass = classifyLinalgOp(linalgOp, features, summary, initMap);
  return true;
}

/// A TilingInterface op without Linalg structure: its results' shapes are
/// the iteration domain (no builder is needed, the payload stays untouched),
/// every shaped operand is read whole and contiguously.
static bool computeTilingFeatures(TilingInterface tilingOp,
                                  OpFeatures &features) {
  Operation *op = tilingOp.getOperation();
  SmallVector<utils::IteratorType> iterators = tilingOp.getLoopIteratorTypes();
  ShapedType resultType;
  if (op->getNumResults() > 0)
    resultType = dyn_cast<ShapedType>(op->getResult(0).getType());
  for (auto [i, it] : llvm::enumerate(iterators)) {
    bool reduction = it == utils::IteratorType::reduction;
    features.isReductionLoop.push_back(reduction);
    reduction ? features.numReductionLoops++ : features.numParallelLoops++;
    int64_t extent = 1;
    if (resultType && i < (size_t)resultType.getRank()) {
      if (resultType.isDynamicDim(i)) {
        features.dynamicShape = true;
        std::optional<int64_t> bound = getExtent(op->getResult(0), i);
        if (bound)
          extent = *bound;
        else
          features.dynamicUnbounded = true;
      } else {
        extent = resultType.getDimSize(i);
      }
    }
    features.loopRanges.push_back(extent);
  }
  auto addValue = [&](Value value, unsigned number, bool isInit) {
    auto shaped = dyn_cast<ShapedType>(value.getType());
    if (!shaped)
      return;
    OperandFeatures operand;
    operand.number = number;
    operand.value = value;
    operand.isInit = isInit;
    operand.elementType = printType(shaped.getElementType());
    operand.elementBits = getBitWidth(shaped.getElementType());
    operand.numElements = 1;
    for (int64_t dim = 0; dim < shaped.getRank(); ++dim) {
      std::optional<int64_t> extent = getExtent(value, dim);
      if (!extent || shaped.isDynamicDim(dim))
        features.dynamicShape = true;
      if (!extent)
        features.dynamicUnbounded = true;
      operand.shape.push_back(extent ? *extent : -1);
      operand.numElements *= extent ? *extent : 1;
    }
    operand.bytes = (operand.numElements * operand.elementBits + 7) / 8;
    (isInit ? features.bytesWritten : features.bytesRead) += operand.bytes;
    features.liveTileBytes += operand.bytes;
    features.operands.push_back(std::move(operand));
  };
  for (OpOperand &operand : op->getOpOperands())
    addValue(operand.get(), operand.getOperandNumber(), /*isInit=*/false);
  for (OpResult result : op->getResults())
    addValue(result, op->getNumOperands() + result.getResultNumber(),
             /*isInit=*/true);
  features.opClass = OpClass::Other;
  return true;
}

bool hwsched::computeOpFeatures(Operation *op, OpFeatures &features) {
  features = OpFeatures();
  if (!isStructuredOp(op))
    return false;
  features.op = op;
  features.opName = op->getName().getStringRef().str();
  bool ok;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    ok = computeLinalgFeatures(linalgOp, features);
  else
    ok = computeTilingFeatures(cast<TilingInterface>(op), features);
  if (!ok)
    return false;
  features.iterationPoints = 1;
  for (int64_t range : features.loopRanges)
    features.iterationPoints *= range;
  features.flops = features.iterationPoints * features.opsPerPoint;
  collectTilingContext(op, features);
  return true;
}

std::string hwsched::formatOpFeatures(const OpFeatures &f) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << f.opName << ": " << stringifyOpClass(f.opClass) << ", loops [";
  llvm::interleave(f.loopRanges, os, ",");
  os << "] (";
  llvm::interleave(
      f.isReductionLoop, os,
      [&](bool reduction) { os << (reduction ? "R" : "P"); }, ",");
  os << "), " << f.opsPerPoint << " ops/point";
  for (const OperandFeatures &operand : f.operands) {
    if (operand.isScalar)
      continue;
    os << ", " << (operand.isInit ? "out " : "in ");
    llvm::interleave(operand.shape, os, "x");
    os << "x" << operand.elementType << " "
       << stringifyAccessPattern(operand.pattern) << " " << operand.bytes
       << "B";
    if (operand.isInit && operand.initIsRead)
      os << " (read)";
  }
  if (!f.gatheredValues.empty())
    os << ", gathers " << f.gatheredValues.size();
  os << ", ";
  if (f.threadTiled)
    os << "tiled to threads";
  else if (f.tiled)
    os << "tiled";
  else
    os << "untiled";
  return text;
}

bool hwsched::isMultiplyAddBody(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp->getNumRegions() != 1 ||
      linalgOp->getRegion(0).empty())
    return false;
  auto isMulAdd = [](Operation *mul, Operation *add) {
    return (isa<arith::MulFOp>(mul) && isa<arith::AddFOp>(add)) ||
           (isa<arith::MulIOp>(mul) && isa<arith::AddIOp>(add));
  };
  return linalg::detail::isContractionBody(*linalgOp.getBlock(), isMulAdd);
}
