//===- OpHelpers.cpp - Small pieces shared by hwsched op files ------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

using namespace mlir;

DiagnosedSilenceableFailure hwsched::detail::reportNotImplemented(
    transform::TransformOpInterface op, transform::TransformState &state,
    transform::TransformResults &results, Value handle,
    ArrayRef<StringRef> ownAttrs, StringRef issue) {
  results.setRemainingToEmpty(op);
  auto payloads = llvm::to_vector(state.getPayloadOps(handle));
  if (payloads.empty())
    payloads.push_back(nullptr);
  for (Operation *payload : payloads) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        resolveTarget(op, payload, ownAttrs, target);
    if (!resolved.succeeded())
      return resolved;
  }
  return op.emitSilenceableError()
         << op->getName() << " is not implemented yet (" << issue << ")";
}
