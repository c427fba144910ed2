//===- PrintToString.h - A printable plan as a string -----------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Plans and decisions print themselves (`void print(llvm::raw_ostream &)
// const`); a remark, a test or a bench that needs the text as a string takes
// it from here, so the text is written once, in the plan's layer.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_SUPPORT_PRINTTOSTRING_H
#define HWSCHED_SUPPORT_PRINTTOSTRING_H

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace hwsched {

/// What `value.print(os)` writes.
template <typename T> std::string printToString(const T &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

} // namespace hwsched

#endif // HWSCHED_SUPPORT_PRINTTOSTRING_H
