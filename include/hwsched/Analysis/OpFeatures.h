//===- OpFeatures.h - Structural features of Linalg / tiled ops -*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Plain-data facts about one structured op, read from its Linalg structure
// (indexing maps, iterator types, shapes, element types, body) or, for other
// TilingInterface ops, from the iteration domain. Cost models, remarks and
// benchmarks all consume these numbers; nothing here depends on a target.
//
// An op nested in scf.for / scf.forall is "already tiled": its static operand
// shapes are the tile's sizes, so every byte count below is then per tile.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_OPFEATURES_H
#define HWSCHED_ANALYSIS_OPFEATURES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace hwsched {

/// How an operand is walked when the op's loops run in order (innermost loop
/// fastest), derived from its indexing map.
enum class AccessPattern {
  /// Results are loop dims in increasing order: unit stride along the
  /// innermost used loop.
  Contiguous,
  /// A permutation of loop dims out of order: the innermost loop walks a
  /// non-innermost memory dimension.
  Transposed,
  /// Some parallel loop dims do not index the operand: each element is read
  /// by many iterations.
  Broadcast,
  /// Results with constant multipliers (strided / dilated windows).
  Strided,
  /// Elements addressed by data (tensor.extract / memref.load in the body).
  Gather,
};

/// "contiguous", "transposed", "broadcast", "strided" or "gather".
llvm::StringRef stringifyAccessPattern(AccessPattern pattern);

/// Coarse op class the cost models branch on.
enum class OpClass {
  Elementwise,  ///< all loops parallel, identity-like maps
  Contraction,  ///< reduction loops with a multiply-accumulate body (GEMM)
  Convolution,  ///< contraction with window (sum-of-dims) accesses
  Reduction,    ///< reduction loops, not a contraction
  LayoutChange, ///< all-parallel, operand/result permuted (transpose)
  Fill,         ///< no shaped inputs (linalg.fill, tensor.empty-like inits)
  Other,        ///< a TilingInterface op without Linalg structure
};

/// "elementwise", "contraction", ...
llvm::StringRef stringifyOpClass(OpClass opClass);

/// Facts about one operand of a structured op.
struct OperandFeatures {
  /// Operand number in the op.
  unsigned number = 0;
  /// The SSA value (identity only: which ops share data).
  mlir::Value value;
  /// True for DPS inits (outputs).
  bool isInit = false;
  /// True for scalar (non-shaped) operands such as a fill value.
  bool isScalar = false;
  /// For inits: the body reads the old value (accumulation).
  bool initIsRead = false;
  /// Element type as printed ("f32") and its width in bits.
  std::string elementType;
  int64_t elementBits = 0;
  /// Static shape; dynamic extents replaced by their upper bound when one is
  /// known, else by -1.
  llvm::SmallVector<int64_t> shape;
  /// Loop dims that index each result of the map (-1 for a non-dim result,
  /// e.g. a window or strided expression).
  llvm::SmallVector<int64_t> loopDims;
  /// For every result of the map, all loop dims it uses (a window result
  /// `d1 + d4` uses two).
  llvm::SmallVector<llvm::SmallVector<int64_t, 2>> resultLoopDims;
  /// Elements and bytes of the operand (its footprint, per tile if tiled).
  int64_t numElements = 0;
  int64_t bytes = 0;
  AccessPattern pattern = AccessPattern::Contiguous;
};

/// Facts about one structured op.
struct OpFeatures {
  mlir::Operation *op = nullptr;
  std::string opName;
  OpClass opClass = OpClass::Other;
  /// Loop extents (upper bounds for dynamic ones when known, else 1) and
  /// which loops are reductions.
  llvm::SmallVector<int64_t> loopRanges;
  llvm::SmallVector<bool> isReductionLoop;
  unsigned numParallelLoops = 0;
  unsigned numReductionLoops = 0;
  /// Some extent is dynamic; `dynamicUnbounded` when no upper bound could be
  /// derived (ValueBoundsOpInterface) for at least one of them.
  bool dynamicShape = false;
  bool dynamicUnbounded = false;
  /// Product of the loop ranges.
  int64_t iterationPoints = 0;
  /// Arithmetic ops per iteration point (FMA-like mul+add = 2) and how many
  /// of them are transcendental (math dialect).
  int64_t opsPerPoint = 0;
  int64_t transcendentalsPerPoint = 0;
  /// iterationPoints * opsPerPoint.
  int64_t flops = 0;
  /// Body ops other than the terminator (temporaries of a fused epilogue).
  int64_t bodyOps = 0;
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
  /// Sum of the shaped operands' bytes: what must be live for one tile.
  int64_t liveTileBytes = 0;
  llvm::SmallVector<OperandFeatures, 4> operands;
  /// Values read through tensor.extract / memref.load in the body (gathers).
  llvm::SmallVector<mlir::Value> gatheredValues;
  /// Nested in scf.for / scf.forall: the shapes above are a tile's.
  bool tiled = false;
  /// Nested in an scf.forall mapped to GPU threads: the loop ranges are the
  /// per-thread tile.
  bool threadTiled = false;
  /// Names of the enclosing tiling loops, outermost first ("scf.forall").
  llvm::SmallVector<std::string> tilingLoops;

  /// The operand features of `value` used as an input, if any.
  const OperandFeatures *findInput(mlir::Value value) const;
  /// The first init operand (result 0's init).
  const OperandFeatures *getInit(unsigned result = 0) const;
  bool hasReduction() const { return numReductionLoops != 0; }
  bool isCubeLike() const {
    return opClass == OpClass::Contraction || opClass == OpClass::Convolution;
  }
};

/// True when the op can be described (LinalgOp or TilingInterface).
bool isStructuredOp(mlir::Operation *op);

/// Whether `op` is a Linalg op whose body computes C += A * B (a multiply
/// and an add of the same kind, float or integer; casts of the operands
/// allowed): a contraction or convolution body, where zero operands add 0.
bool isMultiplyAddBody(mlir::Operation *op);

/// One-line summary for remarks, e.g. "linalg.matmul: contraction, loops
/// [512,512,256] (P,P,R), 2 ops/point, in 512x256xf32 contiguous 524288B,
/// ..., out 512x512xf32 contiguous 1048576B (read), untiled".
std::string formatOpFeatures(const OpFeatures &features);

/// Computes the features of `op`. Fails (returns false) when `op` is neither a
/// LinalgOp nor a TilingInterface op.
bool computeOpFeatures(mlir::Operation *op, OpFeatures &features);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_OPFEATURES_H
