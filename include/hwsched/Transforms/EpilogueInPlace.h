//===- EpilogueInPlace.h - Run an elementwise epilogue in place -*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Rewrites producer -> elementwise epilogue chains on tensors so that the
// producer computes into the epilogue's destination and the epilogue updates
// that result in place: after bufferization there is no temporary for the
// producer's result. Usable from C++ without the Transform dialect.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_EPILOGUEINPLACE_H
#define HWSCHED_TRANSFORMS_EPILOGUEINPLACE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace hwsched {

/// Rewrites `epilogue`, an all-parallel `linalg.generic` with one output
/// whose body does not read the output's current value, so that its input
/// `inputIndex` (the producer's result: same type and indexing map as the
/// output) becomes its output and is updated in place. The producer chain
/// (DPS ops linked through their tied inits, e.g. `linalg.matmul` whose init
/// is a `linalg.fill`) then starts from the epilogue's old destination: the
/// first op of the chain whose init is a `tensor.empty` or whose body does
/// not read its init gets the epilogue's destination as its init. The values
/// computed are unchanged. On a refusal (at the epilogue) nothing is
/// changed.
llvm::Expected<mlir::linalg::GenericOp>
writeEpilogueInPlace(mlir::RewriterBase &rewriter,
                     mlir::linalg::GenericOp epilogue, unsigned inputIndex);

/// The refusal writeEpilogueInPlace would give, or success, without
/// changing anything.
llvm::Error checkEpilogueInPlace(mlir::linalg::GenericOp epilogue,
                                 unsigned inputIndex);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_EPILOGUEINPLACE_H
