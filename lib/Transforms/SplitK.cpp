//===- SplitK.cpp - Split a reduction into partial sums -------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/SplitK.h"

#include "hwsched/Support/Refusal.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace hwsched;

/// Success when `op` can be split by `factor` (> 1) with splitReduction, or
/// a refusal at `op` saying why not.
static llvm::Error checkSplittable(Operation *op, int64_t factor) {
  auto refuse = [&](const Twine &why) { return hwsched::refuse(op, why); };
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return refuse("'" + op->getName().getStringRef().str() +
                  "' is not a Linalg op");
  if (!linalgOp.hasPureTensorSemantics())
    return refuse("the op is not on tensors");
  if (linalgOp.getNumDpsInits() != 1)
    return refuse("the op has other than one output");
  SmallVector<unsigned> reductions;
  linalgOp.getReductionDims(reductions);
  if (reductions.size() != 1)
    return refuse(
        llvm::formatv("the op has {0} reduction loops (split_k splits "
                      "exactly one)",
                      reductions.size())
            .str());
  if (!linalgOp.hasOnlyProjectedPermutations())
    return refuse("an indexing map is not a projected permutation");
  int64_t extent = linalgOp.getStaticLoopRanges()[reductions.front()];
  if (ShapedType::isDynamic(extent))
    return refuse("the reduction extent is dynamic");
  // Upstream splitReduction builds the partials' tensor.empty from static
  // sizes only: a dynamic parallel extent gives invalid IR (found by
  // utils/robustness/run.py on a tensor<?x64xf32> matmul).
  if (linalgOp.hasDynamicShape())
    return refuse(
        "an operand has a dynamic shape (the partial sums' buffer would "
        "need dynamic sizes, which linalg::splitReduction does not "
        "create)");
  if (extent % factor)
    return refuse(
        llvm::formatv("the reduction extent {0} is not a multiple of the "
                      "split factor {1}",
                      extent, factor)
            .str());
  SmallVector<Operation *> combiners;
  if (!matchReduction(linalgOp.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return refuse("the body's reduction is not a single combiner op");
  if (!arith::getNeutralElement(combiners.front()))
    return refuse("the reduction's combiner '" +
                  combiners.front()->getName().getStringRef().str() +
                  "' has no known neutral element");
  return llvm::Error::success();
}

llvm::Error hwsched::checkSplitK(ArrayRef<Operation *> ops,
                                 ArrayRef<int64_t> factors) {
  for (auto [op, factor] : llvm::zip_equal(ops, factors)) {
    if (factor == 1)
      continue;
    if (llvm::Error refused = checkSplittable(op, factor))
      return addContext(std::move(refused), "cannot split the reduction by " +
                                                Twine(factor) + ": ");
  }
  return llvm::Error::success();
}

FailureOr<SplitKResult> hwsched::splitK(RewriterBase &rewriter,
                                        ArrayRef<Operation *> ops,
                                        ArrayRef<int64_t> factors) {
  SplitKResult result;
  for (auto [op, factor] : llvm::zip_equal(ops, factors)) {
    if (factor == 1) {
      result.partials.push_back(op);
      continue;
    }
    // The split dimension first: each split's partial M x N plane is
    // contiguous (coalesced writes), and the partial op's loops are
    // (split, original loops with K replaced by K / s).
    auto control = [factor = factor](linalg::LinalgOp) {
      linalg::SplitReductionOptions options;
      options.ratio = factor;
      options.index = 0;
      options.innerParallel = false;
      return options;
    };
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::SplitReductionResult> split =
        linalg::splitReduction(rewriter, cast<linalg::LinalgOp>(op), control);
    if (failed(split))
      return failure();
    result.fills.push_back(split->fillOp);
    result.partials.push_back(split->splitLinalgOp);
    result.combines.push_back(split->resultCombiningLinalgOp);
  }
  return result;
}
