//===- SplitKOps.cpp - transform.hwsched.split_k --------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Split-K with the factor taken from a parameter: the op reads the factors,
// checks every payload op against the preconditions of upstream
// linalg::splitReduction (Transforms/SplitK.h, which then calls it
// unchanged), so that a bad op fails before anything is rewritten.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"

#include "hwsched/Transforms/SplitK.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

/// The split factor of each of `numPayloads` payload ops: the param's one
/// value for all, or one value per payload op; each an integer >= 1.
static llvm::Expected<SmallVector<int64_t>>
readFactors(ArrayRef<Attribute> params, size_t numPayloads) {
  if (params.size() != 1 && params.size() != numPayloads)
    return refuse(nullptr,
                  llvm::formatv("split_k holds {0} values for {1} payload ops "
                                "(expected one, or one per payload op)",
                                params.size(), numPayloads));
  SmallVector<int64_t> factors;
  for (Attribute param : params) {
    auto value = dyn_cast<IntegerAttr>(param);
    if (!value)
      return refuse(nullptr, "split_k is not an integer parameter");
    if (value.getInt() < 1)
      return refuse(nullptr, llvm::formatv("split factor {0} is below 1",
                                           value.getInt()));
    factors.push_back(value.getInt());
  }
  if (factors.size() == 1)
    factors.assign(numPayloads, factors.front());
  return factors;
}

DiagnosedSilenceableFailure
hwsched::SplitKOp::apply(transform::TransformRewriter &rewriter,
                         transform::TransformResults &results,
                         transform::TransformState &state) {
  auto payloads = llvm::to_vector(state.getPayloadOps(getOp()));
  llvm::Expected<SmallVector<int64_t>> factors =
      readFactors(state.getParams(getSplitK()), payloads.size());
  if (!factors) {
    results.setRemainingToEmpty(*this);
    return silenceable(*this, factors.takeError());
  }
  // Check every payload op before splitting any.
  if (llvm::Error refused = checkSplitK(payloads, *factors)) {
    results.setRemainingToEmpty(*this);
    return silenceable(*this, std::move(refused), "payload op");
  }
  FailureOr<SplitKResult> split = splitK(rewriter, payloads, *factors);
  if (failed(split))
    return emitDefiniteFailure()
           << "linalg::splitReduction failed after its preconditions "
              "were checked";
  results.set(cast<OpResult>(getSplitFill()), split->fills);
  results.set(cast<OpResult>(getPartial()), split->partials);
  results.set(cast<OpResult>(getCombine()), split->combines);
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
