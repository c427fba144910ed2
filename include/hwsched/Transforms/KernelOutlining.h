//===- KernelOutlining.h - An op into a function of its own -----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Moves one op into a new function and calls it where the op was, as
// transform.loop.outline does, with one difference: the constants the op
// uses from above are cloned into the function instead of becoming its
// arguments. A kernel schedule that runs on a whole function (the
// tensor-core kernel: its vectorization, store-to-load forwarding and mma
// conversion) then still sees them as constants: a fill value passed as an
// argument becomes a vector.broadcast of a scalar argument, which the mma
// conversion does not take.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_KERNELOUTLINING_H
#define HWSCHED_TRANSFORMS_KERNELOUTLINING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace hwsched {

struct OutlinedKernel {
  mlir::func::FuncOp function;
  mlir::func::CallOp call;
};

/// A refusal unless `op` can be outlined into a function named after
/// `name`: a non-empty name; `op` inside a function that sits in a symbol
/// table (the new function goes beside it); `op` neither a terminator, nor
/// in a terminator's region (an scf.forall's in_parallel), nor itself a
/// symbol, a symbol table or a function. Nothing is changed.
llvm::Error checkKernelOutlinable(mlir::Operation *op, llvm::StringRef name);

/// Outlines `op` into a new function named after `name` (made unique in the
/// symbol table that holds the function around `op`: `name`, else `name_0`,
/// `name_1`, ...) and replaces it with a call; constants `op` uses from
/// above are cloned into the function. A refusal when
/// checkKernelOutlinable refuses or the outlining fails.
llvm::Expected<OutlinedKernel>
outlineKernelFunction(mlir::RewriterBase &rewriter, mlir::Operation *op,
                      llvm::StringRef name);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_KERNELOUTLINING_H
