//===- TimeTrace.cpp - Time-trace events of hwsched's library -------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Support/TimeTrace.h"

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

std::string hwsched::timeTraceDetail(mlir::Operation *op) {
  std::string detail;
  llvm::raw_string_ostream os(detail);
  op->getLoc().print(os);
  return detail;
}
