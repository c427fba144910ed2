//===- ProblemSignature.h - What identifies a tuning problem ----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// A tuning database maps problems to measured configurations. A problem is
// one structured payload op as the tile rules see it: its name, loop
// extents, iterator kinds and element types, plus (for a linalg.generic,
// whose name says nothing) a digest of its indexing maps and body. Two ops
// with the same signature get the same schedule from the same script and
// spec, so a measurement of one answers for the other.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_PROBLEMSIGNATURE_H
#define HWSCHED_ANALYSIS_PROBLEMSIGNATURE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

/// The payload side of a tuning problem.
struct ProblemSignature {
  /// "linalg.matmul", "linalg.generic", ...
  std::string opName;
  /// One extent per loop, in loop order; kDynamicExtent when unknown.
  llvm::SmallVector<int64_t> loopExtents;
  /// One letter per loop: 'p' parallel, 'r' reduction.
  std::string iterators;
  /// One element type per operand (inputs then outputs), as MLIR prints it.
  llvm::SmallVector<std::string> elementTypes;
  /// For ops whose name does not fix the computation (linalg.generic): 16
  /// hex digits of a digest of the indexing maps and body op names; empty
  /// otherwise.
  std::string structure;

  /// "linalg.matmul 256x512x1024 ppr f32,f32,f32" (dynamic extents as
  /// "?", then the structure digest when there is one). The text is the
  /// payload part of a tuning database key.
  void print(llvm::raw_ostream &os) const;
  std::string str() const;
};

/// Reads the signature of a Linalg op. Refuses (naming the op) ops that are
/// not Linalg ops.
llvm::Expected<ProblemSignature> signProblem(mlir::Operation *op);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_PROBLEMSIGNATURE_H
