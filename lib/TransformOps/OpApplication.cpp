//===- OpApplication.cpp - One application of a deciding op ---------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/OpApplication.h"

#include "hwsched/TransformOps/RefusalDiagnostics.h"

using namespace mlir;
using namespace hwsched;

DiagnosedSilenceableFailure
OpApplication::readInputs(transform::TransformState &state,
                          ArrayRef<StringRef> listInputs) {
  return fail(NumericInputs::read(op, state, inputs, listInputs));
}

DiagnosedSilenceableFailure OpApplication::resolve(Operation *payload,
                                                   ArrayRef<StringRef> ownAttrs,
                                                   ResolvedTarget &target) {
  return fail(resolveTarget(op, payload, ownAttrs, target, &inputs));
}

DiagnosedSilenceableFailure OpApplication::resolveScopes(
    ArrayRef<Operation *> payloads, ArrayRef<StringRef> ownAttrs,
    SmallVectorImpl<std::pair<Operation *, ResolvedTarget>> &scopes) {
  for (Operation *payload : payloads) {
    if (payload->getNumRegions() == 0) {
      DiagnosedSilenceableFailure failure =
          op.emitSilenceableError()
          << "expected a scope with regions (e.g. a func.func or "
             "gpu.launch), got '"
          << payload->getName() << "'";
      failure.attachNote(payload->getLoc()) << "scope payload op";
      return fail(std::move(failure));
    }
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved = resolve(payload, ownAttrs, target);
    if (!resolved.succeeded())
      return resolved;
    scopes.emplace_back(payload, std::move(target));
  }
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
OpApplication::fail(DiagnosedSilenceableFailure failure) {
  if (!failure.succeeded())
    results.setRemainingToEmpty(op);
  return failure;
}

DiagnosedSilenceableFailure OpApplication::fail(llvm::Error error) {
  return fail(silenceable(op, std::move(error)));
}
