//===- FusionOps.cpp - transform.fusion.* ops -----------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/Transforms/EpilogueInPlace.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::transform;

DiagnosedSilenceableFailure
hwsched::EpilogueInPlaceOp::apply(transform::TransformRewriter &rewriter,
                                  transform::TransformResults &results,
                                  transform::TransformState &state) {
  auto payloads = llvm::to_vector(state.getPayloadOps(getEpilogue()));
  int64_t input = static_cast<int64_t>(getInputAttr().getInt());
  if (input < 0) {
    results.setRemainingToEmpty(*this);
    return emitSilenceableError()
           << "input must be at least 0 (got " << input << ")";
  }
  // Check every payload op first (a dry run of the rewrite's checks).
  for (Operation *payload : payloads) {
    auto generic = dyn_cast<linalg::GenericOp>(payload);
    llvm::Error refused =
        generic
            ? hwsched::checkEpilogueInPlace(generic, input)
            : hwsched::refuse(payload, "'" + payload->getName().getStringRef() +
                                           "' is not a linalg.generic");
    if (!refused)
      continue;
    results.setRemainingToEmpty(*this);
    return hwsched::silenceable(
        *this,
        hwsched::addContext(std::move(refused),
                            "cannot run the epilogue in place: "),
        "payload op");
  }
  SmallVector<Operation *> rewritten;
  for (Operation *payload : payloads) {
    llvm::Expected<linalg::GenericOp> inPlace = hwsched::writeEpilogueInPlace(
        rewriter, cast<linalg::GenericOp>(payload), input);
    if (!inPlace)
      return emitDefiniteFailure()
             << "epilogue_in_place failed after its checks passed: "
             << hwsched::takeRefusalMessage(inPlace.takeError());
    rewritten.push_back(*inPlace);
  }
  results.set(cast<OpResult>(getResult()), rewritten);
  return DiagnosedSilenceableFailure::success();
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/FusionOps.cpp.inc"
