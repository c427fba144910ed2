//===- RefusalDiagnostics.h - A Refusal as a failure ------------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The one place where the library's error channel (Support/Refusal.h) meets
// the Transform dialect's: an op turns one refusal into one silenceable
// failure at the transform op, with a note at the payload op it is about.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_REFUSALDIAGNOSTICS_H
#define HWSCHED_TRANSFORMOPS_REFUSALDIAGNOSTICS_H

#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

namespace hwsched {

/// `return silenceable(*this, refusal)` in an op's apply(): the message at
/// the transform op, then a note at the culprit (`culpritNote`, by default
/// "'op.name' here") and one per note of the refusal.
inline mlir::DiagnosedSilenceableFailure
silenceable(mlir::transform::TransformOpInterface transformOp,
            const Refusal &refusal, llvm::StringRef culpritNote = {}) {
  mlir::DiagnosedSilenceableFailure failure =
      mlir::emitSilenceableFailure(transformOp.getOperation())
      << refusal.message;
  if (refusal.culprit) {
    mlir::Diagnostic &note = failure.attachNote(refusal.culprit->getLoc());
    if (culpritNote.empty())
      note << "'" << refusal.culprit->getName() << "' here";
    else
      note << culpritNote;
  }
  for (const RefusalNote &note : refusal.notes) {
    if (note.loc)
      failure.attachNote(*note.loc) << note.message;
    else
      failure.attachNote() << note.message;
  }
  return failure;
}

/// The same for an `llvm::Error` taken out of an `Expected<T>`.
inline mlir::DiagnosedSilenceableFailure
silenceable(mlir::transform::TransformOpInterface transformOp,
            llvm::Error error, llvm::StringRef culpritNote = {}) {
  return silenceable(transformOp, takeRefusal(std::move(error)), culpritNote);
}

} // namespace hwsched

#endif // HWSCHED_TRANSFORMOPS_REFUSALDIAGNOSTICS_H
