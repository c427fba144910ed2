//===- TileProblem.h - The loop nest select_tile_config tiles ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Reads a Linalg op into the plain TileProblem the tile rules take: loop
// extents, the GEMM view (batch / M / N / K loops) from
// linalg::inferContractionDims or, for convolutions as implicit GEMMs,
// linalg::inferConvolutionDims, and element widths.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_TILEPROBLEM_H
#define HWSCHED_ANALYSIS_TILEPROBLEM_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

/// Marks an extent unknown at compile time.
constexpr int64_t kDynamicExtent = INT64_MIN;

/// The loop nest to tile, reduced to what the rules need.
struct TileProblem {
  enum class Kind { Contraction, Convolution, Elementwise, Reduction };
  Kind kind = Kind::Contraction;
  /// Static extent of every loop of the op, in loop order (kDynamicExtent
  /// when unknown).
  llvm::SmallVector<int64_t> loopExtents;
  /// The GEMM view: which loops form M, N, K and the batch. For elementwise
  /// ops every parallel loop is in `n` (the innermost in the last place) and
  /// `m` holds the others; for reductions the reduced loops are in `k`.
  /// Convolutions are implicit GEMMs: M = output image loops, N = output
  /// channels, K = filter window and input channels.
  llvm::SmallVector<unsigned> batch, m, n, k;
  /// Element widths of the inputs and of the accumulator/output.
  int64_t inputBits = 32;
  int64_t accBits = 32;
  /// Every input is bf16: as wide as f16 for the rules, but the tensor-core
  /// kernel multiplies it with its own mma.sync type (and says so).
  bool bf16Inputs = false;
  /// Memory operands (inputs + outputs), for the address-register term.
  int64_t numOperands = 3;

  /// The GEMM operand an operand of the op stands for.
  enum class Role {
    Lhs,  ///< M x K (A; a convolution's input image)
    Rhs,  ///< K x N (B; a convolution's filter)
    Acc,  ///< M x N (C, the output)
    Other ///< none of these (elementwise ops, reductions, extra operands)
  };
  /// One role per operand of the op (inputs then outputs), from the loops
  /// its indexing map uses; all Other unless the op is a contraction or a
  /// convolution.
  llvm::SmallVector<Role> operandRoles;

  /// Schedule assumptions, set by the caller (not by the analysis): the
  /// schedule copies these GEMM operands into contiguous buffers (packing),
  /// so their tiles do not suffer the cache-set conflicts of rows a leading
  /// dimension apart. See `packed_operands` of select_tile_config.
  bool packedLhs = false, packedRhs = false, packedAcc = false;
  /// Schedule assumption: the schedule can split the reduction across
  /// blocks (split-K: partial sums per split, then a reduction of the
  /// partials), so GPU rules may pick a split factor above 1. See `split_k`
  /// of select_tile_config.
  bool splitK = false;
  /// Schedule assumptions for the GPU rule's shared memory: the schedule
  /// keeps the block's BM x BN accumulator tile in shared memory (counted
  /// once, not multi-buffered), and its shared memory is static, so the
  /// per-block cap is gpu.max_static_smem_per_block_bytes. See
  /// `accumulator_in_smem` and `static_smem` of select_tile_config.
  bool accumulatorInSmem = false, staticSmem = false;
  /// Schedule assumption: the schedule builds the tensor-core kernel (warps
  /// of nvgpu.mma.sync tiles fed by async copies), whose candidates and
  /// rules differ from the SIMT kernel's. See `mma_sync` of
  /// select_tile_config.
  bool mmaSync = false;
  /// With `mmaSync`: the script accepts tf32 products for f32 inputs (the
  /// kernel's mma.sync m16n8k8 rounds A and B to 10-bit mantissas), so f32
  /// inputs are taken. See `allow_tf32` of select_tile_config.
  bool allowTf32 = false;
};

/// Returns "contraction", "convolution", "elementwise" or "reduction".
llvm::StringRef stringifyTileProblemKind(TileProblem::Kind kind);

/// Returns "M x K (lhs)", "K x N (rhs)", "M x N (acc)" or "none".
llvm::StringRef stringifyTileProblemRole(TileProblem::Role role);

/// Describes `op` for the tile rules; a refusal at `op` when there is no
/// rule for it (not a Linalg op, non-numeric element types).
llvm::Expected<TileProblem> analyzeTileProblem(mlir::Operation *op);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_TILEPROBLEM_H
