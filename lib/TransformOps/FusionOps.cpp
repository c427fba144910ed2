//===- FusionOps.cpp - transform.fusion.* ops -----------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/Support/PrintToString.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/Transforms/EpilogueInPlace.h"
#include "hwsched/Transforms/EpilogueIntoStores.h"

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

DiagnosedSilenceableFailure
hwsched::EpilogueIntoStoresOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &results,
                                     transform::TransformState &state) {
  llvm::Expected<SmallVector<EpilogueStoresPlan>> plans =
      hwsched::planEpiloguesIntoStores(
          rewriter, llvm::to_vector(state.getPayloadOps(getEpilogue())));
  if (!plans)
    return hwsched::silenceable(
        *this,
        hwsched::addContext(plans.takeError(),
                            "cannot apply the epilogue at its producer's "
                            "stores: "),
        "payload op");
  for (const EpilogueStoresPlan &plan : *plans) {
    if (getExplain())
      plan.epilogue->emitRemark() << printToString(plan);
    hwsched::applyEpilogueIntoStores(rewriter, plan);
  }
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
hwsched::CheckEpilogueForStoresOp::apply(transform::TransformRewriter &rewriter,
                                         transform::TransformResults &results,
                                         transform::TransformState &state) {
  auto epilogues = llvm::to_vector(state.getPayloadOps(getEpilogue()));
  auto producers = llvm::to_vector(state.getPayloadOps(getProducer()));
  if (epilogues.size() != 1 || producers.size() != 1)
    return emitSilenceableError()
           << "expects one epilogue and one producer, got " << epilogues.size()
           << " and " << producers.size();
  auto epilogue = dyn_cast<linalg::LinalgOp>(epilogues.front());
  llvm::Error refused =
      epilogue
          ? hwsched::checkEpilogueForStores(epilogue, producers.front())
          : hwsched::refuse(epilogues.front(),
                            "'" + epilogues.front()->getName().getStringRef() +
                                "' is not a Linalg op");
  if (refused)
    return hwsched::silenceable(
        *this,
        hwsched::addContext(std::move(refused),
                            "the epilogue cannot be applied at the "
                            "producer's stores: "),
        "payload op");
  return DiagnosedSilenceableFailure::success();
}
