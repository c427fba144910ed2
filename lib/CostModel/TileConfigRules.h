//===- TileConfigRules.h - Per-target rules of select_tile_config -*- C++ -*-=//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/CostModel: the GEMM view of a problem and the per-target
// candidate generators, each in its own file.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_LIB_COSTMODEL_TILECONFIGRULES_H
#define HWSCHED_LIB_COSTMODEL_TILECONFIGRULES_H

#include "hwsched/CostModel/TileConfig.h"
#include "hwsched/Support/Refusal.h"

#include "llvm/ADT/StringRef.h"

namespace hwsched {
namespace tileconfig {

/// The problem as one (batched) GEMM, M x N x K. Elementwise ops have K = 1,
/// reductions N = 1. Dynamic extents are replaced by `assumedDynamic`.
struct GemmView {
  TileProblem::Kind kind;
  int64_t m = 1, n = 1, k = 1, batch = 1;
  /// The extents after padding to the alignment rule (GPU: multiples of 8).
  int64_t mPad = 1, nPad = 1, kPad = 1;
  bool dynamicM = false, dynamicN = false, dynamicK = false;
  int64_t inBytes = 4, accBytes = 4, inBits = 32, accBits = 32;
  int64_t numOperands = 3;
  /// The schedule packs A (M x K), B (K x N) or C (M x N) into contiguous
  /// buffers (TileProblem::packed*).
  bool packedA = false, packedB = false, packedC = false;
  /// K may be split across blocks (split-K): the schedule asked for it and
  /// the op is a contraction with one static reduction loop (what
  /// linalg::splitReduction rewrites).
  bool splittableK = false;
  /// The schedule keeps the accumulator tile in shared memory / its shared
  /// memory is static (TileProblem::accumulatorInSmem, staticSmem).
  bool accumulatorInSmem = false, staticSmem = false;
  /// The schedule builds the tensor-core (mma.sync) kernel
  /// (TileProblem::mmaSync).
  bool mmaSync = false;
  /// f32 inputs may be multiplied as tf32 (TileProblem::allowTf32).
  bool allowTf32 = false;
  /// The inputs are bf16 (TileProblem::bf16Inputs).
  bool bf16Inputs = false;

  bool hasK() const { return kind != TileProblem::Kind::Elementwise; }
  bool hasN() const { return kind != TileProblem::Kind::Reduction; }
  bool isGemm() const {
    return kind == TileProblem::Kind::Contraction ||
           kind == TileProblem::Kind::Convolution;
  }
  /// Useful work (FLOPs for GEMMs, element operations otherwise) of the
  /// problem when its parallel dims are padded to whole tiles.
  double work(int64_t bm, int64_t bn) const;
  /// Off-chip bytes moved when every (bm x bn) block streams its operands.
  double offchipBytes(int64_t bm, int64_t bn) const;
};

/// Counts pruned candidates per rule, keeping the order rules first fire.
class PruneLog {
public:
  void prune(llvm::StringRef rule);
  std::vector<std::pair<std::string, int64_t>> take() { return counts; }

private:
  std::vector<std::pair<std::string, int64_t>> counts;
};

/// Reads a required figure into `out`; a refusal naming the missing key.
llvm::Error requireNumber(const HwSpec &spec, llvm::StringRef key, double &out);
llvm::Error requireInteger(const HwSpec &spec, llvm::StringRef key,
                           int64_t &out);

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// The candidate generators: fill `selection.ranked` (unsorted),
/// `selection.pruned`, `selection.enumerated` and notes.
llvm::Error selectGpu(const GemmView &view, const HwSpec &spec,
                      TileSelection &selection);
llvm::Error selectNpu(const GemmView &view, const HwSpec &spec,
                      TileSelection &selection);
llvm::Error selectCpu(const GemmView &view, const HwSpec &spec,
                      TileSelection &selection);

} // namespace tileconfig
} // namespace hwsched

#endif // HWSCHED_LIB_COSTMODEL_TILECONFIGRULES_H
