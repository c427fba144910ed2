//===- TileProblem.cpp - The loop nest select_tile_config tiles -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/TileProblem.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

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

  if (linalg::isaContractionOpInterface(linalgOp)) {
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
  if (problem.k.empty() && linalg::isaConvolutionOpInterface(linalgOp)) {
    FailureOr<linalg::ConvolutionDimensions> dims =
        linalg::inferConvolutionDims(linalgOp);
    if (succeeded(dims)) {
      // Implicit GEMM: M = images x output pixels, N = output channels,
      // K = filter window x input channels; depthwise channels are batches.
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
  }
  if (problem.k.empty() && problem.m.empty() && problem.n.empty()) {
    SmallVector<utils::IteratorType> iterators =
        linalgOp.getIteratorTypesArray();
    SmallVector<unsigned> parallel, reduction;
    for (auto [i, it] : llvm::enumerate(iterators))
      (it == utils::IteratorType::parallel ? parallel : reduction).push_back(i);
    if (reduction.empty()) {
      problem.kind = TileProblem::Kind::Elementwise;
      problem.n.push_back(parallel.pop_back_val());
      problem.m = parallel;
    } else {
      problem.kind = TileProblem::Kind::Reduction;
      problem.m = parallel;
      problem.k = reduction;
      if (problem.m.empty()) {
        return refuse(
            op, "no tile rule for '" + op->getName().getStringRef() +
                    "': a full reduction to a scalar has no parallel loop to "
                    "distribute");
      }
    }
  }

  std::optional<int64_t> inBits, accBits;
  problem.numOperands = 0;
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
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

  // GEMM roles from the loops each operand's indexing map uses: A spans M
  // and K, B spans K and N, C spans M and N (batch loops aside).
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
  problem.inputBits = inBits.value_or(problem.accBits);
  return problem;
}
