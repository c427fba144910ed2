//===- RuntimeCheck.h - Checks that abort the emulated program -*- C++ -*-===//
//
// Part of the hwsched project.
//
// Shared by the emulation passes (EmulateNpuSync.cpp, EmulateGpuLaunch.cpp):
// a condition checked when the lowered program runs, which prints a message
// on stderr and aborts when it does not hold.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_LIB_TRANSFORMS_RUNTIMECHECK_H
#define HWSCHED_LIB_TRANSFORMS_RUNTIMECHECK_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace hwsched {

/// Emits "if (!ok) { write(2, message); abort(); }" (scf.if and llvm
/// calls). The message goes to stderr unbuffered: cf.assert prints with
/// puts to stdout, which abort() discards when stdout is a pipe (as in
/// exec-check.py). Each message is a private llvm.mlir.global named
/// `<prefix><n>`.
class RuntimeChecker {
public:
  RuntimeChecker(mlir::ModuleOp module, mlir::RewriterBase &rewriter,
                 llvm::StringRef messagePrefix)
      : module(module), rewriter(rewriter), prefix(messagePrefix.str()) {}

  /// At the rewriter's insertion point; `ok` is an i1.
  void check(mlir::Location loc, mlir::Value ok, const std::string &message);

private:
  /// The C library function `name` as an llvm.func: the declaration
  /// convert-cf-to-llvm looks up (and reuses) when it lowers cf.assert to a
  /// call to abort. A func.func of the same name would make it create a
  /// second `abort` symbol ("redefinition of symbol named 'abort'").
  mlir::LLVM::LLVMFuncOp declare(llvm::StringRef name,
                                 mlir::LLVM::LLVMFunctionType type);

  mlir::ModuleOp module;
  mlir::RewriterBase &rewriter;
  std::string prefix;
  unsigned counter = 0;
};

} // namespace hwsched

#endif // HWSCHED_LIB_TRANSFORMS_RUNTIMECHECK_H
