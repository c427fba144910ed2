//===- Refusal.cpp - The one error channel of hwsched's library -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Support/Refusal.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

using namespace hwsched;

char RefusalError::ID = 0;

void Refusal::print(llvm::raw_ostream &os) const {
  os << message;
  if (culprit)
    os << " (at '" << culprit->getName() << "' " << culprit->getLoc() << ")";
  for (const RefusalNote &n : notes) {
    os << "\n  note: " << n.message;
    if (n.loc)
      os << " (" << *n.loc << ")";
  }
}

Refusal hwsched::takeRefusal(llvm::Error error) {
  Refusal result;
  llvm::handleAllErrors(
      std::move(error), [&](const RefusalError &e) { result = e.get(); },
      [&](const llvm::ErrorInfoBase &e) { result.message = e.message(); });
  return result;
}

llvm::Error hwsched::addContext(llvm::Error error, const llvm::Twine &prefix) {
  if (!error)
    return error;
  Refusal refusal = takeRefusal(std::move(error));
  refusal.message = (prefix + refusal.message).str();
  return refuse(std::move(refusal));
}

llvm::Error hwsched::withCulprit(llvm::Error error, mlir::Operation *culprit) {
  if (!error)
    return error;
  Refusal refusal = takeRefusal(std::move(error));
  if (!refusal.culprit)
    refusal.culprit = culprit;
  return refuse(std::move(refusal));
}

std::string hwsched::takeRefusalMessage(llvm::Error error) {
  return takeRefusal(std::move(error)).message;
}
