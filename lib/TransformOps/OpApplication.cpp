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

DiagnosedSilenceableFailure
OpApplication::fail(DiagnosedSilenceableFailure failure) {
  if (!failure.succeeded())
    results.setRemainingToEmpty(op);
  return failure;
}

DiagnosedSilenceableFailure OpApplication::fail(llvm::Error error) {
  return fail(silenceable(op, std::move(error)));
}
