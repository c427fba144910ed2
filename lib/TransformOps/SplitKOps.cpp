//===- SplitKOps.cpp - transform.hwsched.split_k --------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Split-K with the factor taken from a parameter: the op checks every
// payload op against the preconditions of upstream linalg::splitReduction
// (which it then calls unchanged), so that a bad op fails before anything is
// rewritten.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::transform;

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

DiagnosedSilenceableFailure
hwsched::SplitKOp::apply(transform::TransformRewriter &rewriter,
                         transform::TransformResults &results,
                         transform::TransformState &state) {
  auto payloads = llvm::to_vector(state.getPayloadOps(getOp()));
  ArrayRef<Attribute> params = state.getParams(getSplitK());
  auto fail = [&](const Twine &message) {
    results.setRemainingToEmpty(*this);
    return emitSilenceableError() << message;
  };
  if (params.size() != 1 && params.size() != payloads.size())
    return fail(llvm::formatv("split_k holds {0} values for {1} payload ops "
                              "(expected one, or one per payload op)",
                              params.size(), payloads.size()));
  SmallVector<int64_t> factors;
  for (Attribute param : params) {
    auto value = dyn_cast<IntegerAttr>(param);
    if (!value)
      return fail("split_k is not an integer parameter");
    if (value.getInt() < 1)
      return fail(llvm::formatv("split factor {0} is below 1", value.getInt()));
    factors.push_back(value.getInt());
  }
  auto factorOf = [&](size_t i) {
    return factors.size() == 1 ? factors.front() : factors[i];
  };
  // Check every payload op before splitting any.
  for (auto [i, payload] : llvm::enumerate(payloads)) {
    if (factorOf(i) == 1)
      continue;
    llvm::Error refused = checkSplittable(payload, factorOf(i));
    if (!refused)
      continue;
    results.setRemainingToEmpty(*this);
    return hwsched::silenceable(
        *this,
        hwsched::addContext(std::move(refused),
                            "cannot split the reduction by " +
                                Twine(factorOf(i)) + ": "),
        "payload op");
  }
  SmallVector<Operation *> fills, partials, combines;
  for (auto [i, payload] : llvm::enumerate(payloads)) {
    int64_t factor = factorOf(i);
    if (factor == 1) {
      partials.push_back(payload);
      continue;
    }
    // The split dimension first: each split's partial M x N plane is
    // contiguous (coalesced writes), and the partial op's loops are
    // (split, original loops with K replaced by K / s).
    auto control = [factor](linalg::LinalgOp) {
      linalg::SplitReductionOptions options;
      options.ratio = factor;
      options.index = 0;
      options.innerParallel = false;
      return options;
    };
    rewriter.setInsertionPoint(payload);
    FailureOr<linalg::SplitReductionResult> split = linalg::splitReduction(
        rewriter, cast<linalg::LinalgOp>(payload), control);
    if (failed(split))
      return emitDefiniteFailure()
             << "linalg::splitReduction failed after its preconditions "
                "were checked";
    fills.push_back(split->fillOp);
    partials.push_back(split->splitLinalgOp);
    combines.push_back(split->resultCombiningLinalgOp);
  }
  results.set(cast<OpResult>(getSplitFill()), fills);
  results.set(cast<OpResult>(getPartial()), partials);
  results.set(cast<OpResult>(getCombine()), combines);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::SplitKOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getOpMutable(), effects);
  onlyReadsHandle(getSplitKMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/SplitKOps.cpp.inc"
