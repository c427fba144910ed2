//===- OpApplication.h - One application of a deciding op ------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The opening every deciding op shares: read the numeric inputs once, resolve
// the target of each payload op with them, and fail with the results not yet
// set left empty. One object holds the three so an op's apply() keeps to its
// own steps (analyze -> decide -> refuse or explain -> rewrite).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_OPAPPLICATION_H
#define HWSCHED_TRANSFORMOPS_OPAPPLICATION_H

#include "hwsched/TransformOps/NumericInputs.h"
#include "hwsched/TransformOps/TargetResolution.h"

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

namespace hwsched {

/// One application of `op`. Every failure goes through fail(), which sets the
/// results not yet set to empty lists, as the interpreter does after a
/// silenceable failure, so the op leaves them so when called on its own too.
class OpApplication {
public:
  OpApplication(mlir::transform::TransformOpInterface op,
                mlir::transform::TransformResults &results)
      : op(op), results(results) {}

  /// Reads the op's `params(...)` into `inputs` (NumericInputs::read, with
  /// the same `listInputs`); a failure has already gone through fail().
  mlir::DiagnosedSilenceableFailure
  readInputs(mlir::transform::TransformState &state,
             llvm::ArrayRef<llvm::StringRef> listInputs = {});

  /// resolveTarget for `payload` with the inputs as overrides; a failure
  /// has already gone through fail().
  mlir::DiagnosedSilenceableFailure
  resolve(mlir::Operation *payload, llvm::ArrayRef<llvm::StringRef> ownAttrs,
          ResolvedTarget &target);

  /// The payload ops of a scope operand (`payloads`: ops with regions, such
  /// as a func.func or gpu.launch), each with its target resolved, in order,
  /// into `scopes`. A payload op without regions or a target that does not
  /// resolve fails (silenceable, with a note at the op) before the caller
  /// changes anything.
  mlir::DiagnosedSilenceableFailure resolveScopes(
      llvm::ArrayRef<mlir::Operation *> payloads,
      llvm::ArrayRef<llvm::StringRef> ownAttrs,
      llvm::SmallVectorImpl<std::pair<mlir::Operation *, ResolvedTarget>>
          &scopes);

  /// Passes `failure` on (a success unchanged).
  mlir::DiagnosedSilenceableFailure
  fail(mlir::DiagnosedSilenceableFailure failure);
  /// A refusal of the library, as the op's silenceable failure.
  mlir::DiagnosedSilenceableFailure fail(llvm::Error error);

  /// The op's numeric inputs, once readInputs() succeeded.
  NumericInputs inputs;

private:
  mlir::transform::TransformOpInterface op;
  mlir::transform::TransformResults &results;
};

} // namespace hwsched

#endif // HWSCHED_TRANSFORMOPS_OPAPPLICATION_H
