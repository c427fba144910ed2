//===- TileProblem.cpp - The loop nest select_tile_config tiles -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/TileProblem.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace hwsched;

/// Appends `dims` to `group` keeping loop order (innermost last).
static void addDims(SmallVectorImpl<unsigned> &group, ArrayRef<unsigned> dims) {
  group.append(dims.begin(), dims.end());
  llvm::sort(group);
}

static std::optional<int64_t> bitWidth(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isIntOrIndexOrFloat() && !element.isIndex())
    return element.getIntOrFloatBitWidth();
  if (element.isIndex())
    return 64;
  return std::nullopt;
}

/// A contraction with a reduction loop: batch, M, N and K loops as
/// linalg::inferContractionDims finds them.
static void classifyContraction(linalg::LinalgOp linalgOp,
                                TileProblem &problem) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(linalgOp);
  if (succeeded(dims) && !dims->k.empty()) {
    problem.kind = TileProblem::Kind::Contraction;
    addDims(problem.batch, dims->batch);
    addDims(problem.m, dims->m);
    addDims(problem.n, dims->n);
    addDims(problem.k, dims->k);
  }
}

/// Implicit GEMM: M = images x output pixels, N = output channels,
/// K = filter window x input channels; depthwise channels are batches.
static void classifyConvolution(linalg::LinalgOp linalgOp,
                                TileProblem &problem) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(linalgOp);
  if (failed(dims))
    return;
  problem.kind = TileProblem::Kind::Convolution;
  addDims(problem.batch, dims->depth);
  addDims(problem.m, dims->batch);
  addDims(problem.m, dims->outputImage);
  addDims(problem.n, dims->outputChannel);
  addDims(problem.k, dims->filterLoop);
  addDims(problem.k, dims->inputChannel);
  if (problem.n.empty() && !problem.m.empty()) {
    // No output channel (e.g. a depthwise conv): the innermost output
    // pixel loop plays N.
    problem.n.push_back(problem.m.pop_back_val());
  }
}

/// Any other op by its iterators: elementwise (the innermost parallel loop
/// plays N, the others M) or a reduction (parallel loops M, reduction loops
/// K); a refusal for a full reduction to a scalar.
static llvm::Error classifyByIterators(Operation *op, linalg::LinalgOp linalgOp,
                                       TileProblem &problem) {
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, it] : llvm::enumerate(iterators))
    (it == utils::IteratorType::parallel ? parallel : reduction).push_back(i);
  if (reduction.empty()) {
    problem.kind = TileProblem::Kind::Elementwise;
    problem.n.push_back(parallel.pop_back_val());
    problem.m = parallel;
    return llvm::Error::success();
  }
  problem.kind = TileProblem::Kind::Reduction;
  problem.m = parallel;
  problem.k = reduction;
  if (problem.m.empty()) {
    return refuse(op,
                  "no tile rule for '" + op->getName().getStringRef() +
                      "': a full reduction to a scalar has no parallel loop to "
                      "distribute");
  }
  return llvm::Error::success();
}

/// Counts the shaped operands and takes the widest input and result element
/// widths (inputs default to the accumulator's, results to 32 bits); a
/// refusal for an element type that is not an integer or float.
static llvm::Error measureElementBits(Operation *op, linalg::LinalgOp linalgOp,
                                      TileProblem &problem) {
  std::optional<int64_t> inBits, accBits;
  problem.numOperands = 0;
  problem.bf16Inputs = linalgOp.getNumDpsInputs() > 0;
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
    problem.bf16Inputs &= getElementTypeOrSelf(input->get().getType()).isBF16();
    if (!isa<ShapedType>(input->get().getType()))
      continue;
    ++problem.numOperands;
    std::optional<int64_t> bits = bitWidth(input->get().getType());
    if (!bits) {
      return refuse(op,
                    "no tile rule for '" + op->getName().getStringRef() +
                        "': operand element type is not an integer or float");
    }
    inBits = std::max(inBits.value_or(0), *bits);
  }
  for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
    ++problem.numOperands;
    std::optional<int64_t> bits = bitWidth(init.get().getType());
    if (!bits) {
      return refuse(op,
                    "no tile rule for '" + op->getName().getStringRef() +
                        "': result element type is not an integer or float");
    }
    accBits = std::max(accBits.value_or(0), *bits);
  }
  problem.accBits = accBits.value_or(32);
  problem.inputBits = inBits.value_or(problem.accBits);
  return llvm::Error::success();
}

/// GEMM roles from the loops each operand's indexing map uses: A spans M
/// and K, B spans K and N, C spans M and N (batch loops aside). Operands of
/// other kinds of problem have no role.
static void assignOperandRoles(linalg::LinalgOp linalgOp,
                               TileProblem &problem) {
  bool gemm = problem.kind == TileProblem::Kind::Contraction ||
              problem.kind == TileProblem::Kind::Convolution;
  for (OpOperand &operand : linalgOp->getOpOperands()) {
    TileProblem::Role role = TileProblem::Role::Other;
    if (gemm) {
      AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
      auto uses = [&](ArrayRef<unsigned> dims) {
        return llvm::any_of(dims,
                            [&](unsigned d) { return map.isFunctionOfDim(d); });
      };
      bool m = uses(problem.m), n = uses(problem.n), k = uses(problem.k);
      if (m && k && !n)
        role = TileProblem::Role::Lhs;
      else if (k && n && !m)
        role = TileProblem::Role::Rhs;
      else if (m && n && !k)
        role = TileProblem::Role::Acc;
    }
    problem.operandRoles.push_back(role);
  }
}

llvm::Expected<TileProblem> hwsched::analyzeTileProblem(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp) {
    return refuse(
        op, "no tile rule for '" + op->getName().getStringRef() +
                "': expected a Linalg contraction, convolution, elementwise or "
                "reduction op");
  }
  if (linalgOp.getNumLoops() == 0) {
    return refuse(op, "no tile rule for '" + op->getName().getStringRef() +
                          "': it has no loops to tile");
  }
  TileProblem problem;
  for (int64_t extent : linalgOp.getStaticLoopRanges())
    problem.loopExtents.push_back(ShapedType::isDynamic(extent) ? kDynamicExtent
                                                                : extent);

  if (linalg::isaContractionOpInterface(linalgOp))
    classifyContraction(linalgOp, problem);
  if (problem.k.empty() && linalg::isaConvolutionOpInterface(linalgOp))
    classifyConvolution(linalgOp, problem);
  if (problem.k.empty() && problem.m.empty() && problem.n.empty())
    if (llvm::Error err = classifyByIterators(op, linalgOp, problem))
      return std::move(err);

  if (llvm::Error err = measureElementBits(op, linalgOp, problem))
    return std::move(err);
  assignOperandRoles(linalgOp, problem);
  return problem;
}
