//===- TileConfig.h - Bolt-style tile configuration selection ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Chooses tile sizes, per-thread (or register) tiles, a reduction tile, a
// stage count and a thread count for one loop nest from a hardware spec, the
// way Bolt (MLSys 2022) prunes CUTLASS templates: enumerate a small candidate
// set per target family, drop what breaks a hardware rule (register file,
// on-chip capacity with multi-buffering, threads per block, unified buffer
// with ping-pong, vector registers), score the rest with a roofline estimate
// and keep the best. Plain data in and out: no IR here, so benchmarks and
// tests can call it directly.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_TILECONFIG_H
#define HWSCHED_COSTMODEL_TILECONFIG_H

#include "hwsched/Analysis/TileProblem.h"
#include "hwsched/HwSpec/HwSpec.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hwsched {

/// One scored candidate, in the GEMM view.
struct TileCandidate {
  /// Block (GPU threadblock, NPU core, CPU cache) tile of M, N, K.
  int64_t bm = 1, bn = 1, bk = 1;
  /// Per-thread (GPU) or register (CPU) tile of M and N and the reduction
  /// step the thread (or register kernel) takes; NPU: cube fractal.
  int64_t tm = 1, tn = 1, tk = 1;
  /// GPU: warp tile (4 x 8 threads of a warp over M x N; with `mmaSync`
  /// the warp's tile of nvgpu.mma.sync m16n8k`tk`, also in tm, tn).
  int64_t wm = 0, wn = 0;
  /// GPU: a configuration of the tensor-core kernel (mma_sync); `tf32`
  /// when its f32 inputs are multiplied as tf32 (mma.sync m16n8k8), `bf16`
  /// when its inputs are bf16 (m16n8k16, the f16 rules).
  bool mmaSync = false, tf32 = false, bf16 = false;
  int64_t stages = 1;
  /// GPU: threads per block.
  int64_t threads = 1;
  /// CPU GEMMs: threads the column panels (NC blocks) run on, at most
  /// `cpu.cores`; 0 elsewhere.
  int64_t panelThreads = 0;
  /// GPU split-K factor: the K extent is split into `splitK` equal parts,
  /// each computed by its own blocks into a partial sum (1 = no split).
  int64_t splitK = 1;
  /// Estimated registers per thread (GPU: the shared register model; CPU:
  /// vector registers of the register tile).
  int64_t registers = 0;
  /// On-chip bytes the candidate keeps live (GPU: shared memory per block
  /// with all stages; NPU: aligned live tiles times ping-pong; CPU: L2
  /// working set of the cache tile).
  int64_t onchipBytes = 0;
  /// GPU: the part of `onchipBytes` that is the block's accumulator tile
  /// (0 unless the schedule keeps it in shared memory).
  int64_t accumulatorBytes = 0;
  /// CPU: L1 working set of the register kernel over one K tile.
  int64_t l1Bytes = 0;
  /// CPU GEMMs: the thread's packed K x NC panel exceeds its share of the L3.
  bool panelOverL3 = false;
  /// Blocks (tiles of the parallel dims) and waves over the parallel units.
  int64_t blocks = 0;
  double waves = 0;
  double waveEfficiency = 1;
  /// GPU: resident blocks per SM and the occupancy (resident threads /
  /// maximum) and the factor it applies to the roofline time.
  int64_t blocksPerSm = 0;
  double occupancy = 0;
  double occupancyFactor = 1;
  /// Roofline terms (ns) and the final estimate (= score, lower is better).
  /// `memoryNs` includes writing the split-K partials; `reduceNs` is the
  /// separate step that reads them back and writes the result (0 unsplit).
  double computeNs = 0, memoryNs = 0, onchipNs = 0, reduceNs = 0;
  double timeNs = 0;
  /// Measured time (ns) in measurement mode, else negative.
  double measuredNs = -1;
};

/// The decision with everything `explain` prints.
struct TileSelection {
  /// Results, one value per loop of the op in loop order (0 = not tiled at
  /// that level), see the op's documentation.
  llvm::SmallVector<int64_t> tileSizes, threadTileSizes, reductionTileSizes;
  int64_t numStages = 1;
  /// GPU split-K factor (1 = K not split, always 1 on NPU/CPU).
  int64_t splitK = 1;
  /// GPU block dims (x, y, z); CPU GEMMs {panel threads, 1, 1}; {1, 1, 1}
  /// otherwise.
  llvm::SmallVector<int64_t> numThreads;
  /// Feasible candidates, best first.
  std::vector<TileCandidate> ranked;
  int64_t enumerated = 0;
  /// Candidates dropped per rule, in rule order.
  std::vector<std::pair<std::string, int64_t>> pruned;
  /// Padding applied (per GEMM dim "M 100->104"), assumptions for dynamic
  /// extents and other remarks.
  llvm::SmallVector<std::string> notes;
  /// Why the winner won, one sentence.
  std::string why;
  /// GPU: the SM count, so that `why` can say how many SMs the winner's grid
  /// keeps busy and what filling more would cost; 0 elsewhere.
  int64_t smCount = 0;
  /// GPU SM-fill rule: `cost_weights.sm_fill_threshold`, the wave efficiency
  /// below which the best-scored grid leaves too many SMs idle (a small
  /// problem), and what the rule did ("fill rule: ..."; empty when the
  /// best-scored candidate is at or above the threshold). `fillPicked` when
  /// the rule replaced the best-scored candidate (then `ranked[0]` is the
  /// rule's pick and `ranked[1]` the best-scored one).
  double fillThreshold = 0;
  std::string fillRule;
  bool fillPicked = false;
  /// GPU: what the shared-memory figure counts and the cap it is held to
  /// when the schedule said something about it (accumulator_in_smem,
  /// static_smem); empty otherwise. `explain` prints it.
  std::string smemRule;
  /// When no candidate survives: the smallest shared-memory figure among
  /// the candidates the capacity rule dropped and its cap, for the error.
  std::string capacityDetail;
  /// The GEMM-view problem after padding.
  int64_t gemmM = 0, gemmN = 0, gemmK = 0, gemmBatch = 1;
};

/// The compute capability of a GPU spec as a number (`sm_86` -> 86); none
/// when the spec has no `gpu.compute_capability` of the form `sm_XY`.
std::optional<int64_t> gpuComputeCapability(const HwSpec &spec);

/// Whether `spec` is a GPU with the tensor-core kernel's instructions
/// (cp.async, ldmatrix, mma.sync m16n8k16: sm_80 on), the targets
/// `mma_sync` takes.
bool isMmaSyncTarget(const HwSpec &spec);

/// Selects the configuration for `problem` on `spec`. A refusal when a spec
/// key the rules need is missing or no candidate survives.
llvm::Expected<TileSelection> selectTileConfig(const TileProblem &problem,
                                               const HwSpec &spec);

/// Expands a GEMM-view candidate to per-loop results for `problem` (used by
/// selectTileConfig for the winner and by measurement mode for the others).
void expandToLoops(const TileProblem &problem, const TileCandidate &candidate,
                   TileSelection &selection);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_TILECONFIG_H
