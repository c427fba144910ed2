//===- Refusal.h - The one error channel of hwsched's library ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Every library function of hwsched that can decline returns
// `llvm::Expected<T>` (or `llvm::Error`), and the error it carries is a
// `Refusal`: one message in the user's terms (which op, which property, what
// would make it work), the payload op it is about, and optional notes that
// point at other ops. A transform op maps one refusal to one silenceable
// failure with a note on the culprit (TransformOps/RefusalDiagnostics.h), so
// the text a user reads is written once, next to the decision that refused.
//
// Why not `std::string &why` out-parameters or `FailureOr<T>`: the former
// leaves "empty means success" conventions and culprits passed separately;
// the latter cannot carry the reason at all.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_SUPPORT_REFUSAL_H
#define HWSCHED_SUPPORT_REFUSAL_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

/// A secondary pointer into the payload: "the other access is here".
struct RefusalNote {
  std::optional<mlir::Location> loc;
  std::string message;
};

/// Why a decision or a rewrite declined, in the user's terms.
struct Refusal {
  /// One sentence (or a few joined by "; "): what is wrong and what would
  /// make it work. No trailing period, so callers can append context.
  std::string message;
  /// The payload op the refusal is about; null when it is about the input
  /// as a whole (a spec, an attribute).
  mlir::Operation *culprit = nullptr;
  llvm::SmallVector<RefusalNote, 2> notes;

  Refusal() = default;
  Refusal(mlir::Operation *culprit, const llvm::Twine &message)
      : message(message.str()), culprit(culprit) {}

  Refusal &note(mlir::Location loc, const llvm::Twine &text) {
    notes.push_back({loc, text.str()});
    return *this;
  }
  Refusal &note(const llvm::Twine &text) {
    notes.push_back({std::nullopt, text.str()});
    return *this;
  }

  /// "message (at 'op.name' loc)" followed by one line per note.
  void print(llvm::raw_ostream &os) const;
};

/// The `llvm::Error` payload that carries a Refusal through `Expected<T>`.
class RefusalError : public llvm::ErrorInfo<RefusalError> {
public:
  static char ID;
  explicit RefusalError(Refusal refusal) : refusal(std::move(refusal)) {}
  void log(llvm::raw_ostream &os) const override { refusal.print(os); }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  const Refusal &get() const { return refusal; }

private:
  Refusal refusal;
};

/// `return refuse(op, "...")` from a function returning `Expected<T>` or
/// `Error`.
inline llvm::Error refuse(Refusal refusal) {
  return llvm::make_error<RefusalError>(std::move(refusal));
}
inline llvm::Error refuse(mlir::Operation *culprit,
                          const llvm::Twine &message) {
  return refuse(Refusal(culprit, message));
}

/// Consumes `error` (which must be a failure) and returns its refusal; an
/// error of another kind (a spec loader's `StringError`, say) becomes a
/// refusal with its message and no culprit.
Refusal takeRefusal(llvm::Error error);

/// A caller's context in front of the message of the refusal in `error`
/// ("cannot insert the async-copy group and wait: " + message); culprit and
/// notes are kept. Passes success through.
llvm::Error addContext(llvm::Error error, const llvm::Twine &prefix);

/// `culprit` as the op the refusal in `error` is about, when it names none
/// (a spec that lacks a figure the decision for `culprit` needs). Passes
/// success through.
llvm::Error withCulprit(llvm::Error error, mlir::Operation *culprit);

/// The message of the refusal in `error` (consumed), for callers that fold
/// a refusal into a larger sentence or a warning.
std::string takeRefusalMessage(llvm::Error error);

} // namespace hwsched

#endif // HWSCHED_SUPPORT_REFUSAL_H
