//===- TileConfigGpu.cpp - GPU rules of select_tile_config ----------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Bolt's hardware rules over a SIMT threadblock / warp / thread hierarchy:
//  - threadblock tiles BM, BN in {16, 32, 64, 128, 256}, K tiles BK in
//    {8, 16, 32, 64}, per-thread tiles TM, TN in {1, 2, 4, 8, 16} (the thread
//    steps K by 1: an outer product of a TM column of A and a TN row of B);
//    warps are 4 x 8 threads over M x N, so the warp tile is 4TM x 8TN;
//  - registers per thread from the shared register model (RegisterEstimate.h)
//    <= gpu.max_registers_per_thread (reg_limit);
//  - shared memory (BM*BK + BK*BN) * bytes * stages <= onchip.capacity_bytes,
//    plus BM*BN * accumulator bytes when the schedule keeps the accumulator
//    tile in shared memory, and capped by gpu.max_static_smem_per_block_bytes
//    when its shared memory is static (TileProblem::accumulatorInSmem,
//    staticSmem: what the script's schedule does, not a hardware figure);
//  - threads per block a multiple of the warp size, <= max_threads_per_block;
//  - stages in 2..pipeline.max_stages, no more than the K tiles;
//  - block tiles dividing the padded M and N when any feasible one does.
// After scoring, the SM-fill rule (TileConfig.cpp, applySmFillRule) may
// replace the best-scored candidate on small problems; the scores are left
// as estimated.
// Score: the roofline time max(compute, off-chip, shared-memory traffic)
// divided by wave efficiency x occupancy factor x warp preference x stage
// factor (lower is better):
//  - shared-memory traffic per FMA is (TM + TN) / (TM * TN) operands: the
//    larger the warp tile, the higher the compute-to-memory ratio;
//  - waves = blocks / (SMs x resident blocks per SM); the busiest SM runs
//    ceil(blocks / SMs) blocks, so efficiency = blocks / (SMs x
//    ceil(blocks / SMs)) (few large blocks leave SMs idle);
//  - occupancy factor = resident warps per SM / the warps its vector
//    schedulers need to cover the FMA latency (pipeline.units.vector: count
//    x ceil(latency / (issue x TM*TN independent FMAs))), capped at 1;
//  - 4 or 8 warps per block are preferred (Bolt): other counts x 0.9;
//  - stage factor = min(1, stages / stages needed to cover the off-chip
//    latency with the compute of one K tile, at most the K tile count);
//  - registers above gpu.occupancy_register_budget multiply the time by
//    1 + excess / budget;
//  - plus one off-chip latency per round of resident blocks on the busiest
//    SM (pipeline fill: the first tile's latency is never hidden).
// Split-K (when the schedule can apply it, see TileProblem::splitK): a
// factor s in {1, 2, 4, 8, 16} dividing K, with at least one BK tile per
// split, multiplies the blocks by s (each block reduces K / s). The
// partial kernel writes s x M x N partial sums instead of the result, and a
// reduce step reads them back and writes M x N: its time, (s + 1) x M x N
// bytes over the off-chip bandwidth plus one off-chip latency (the second
// kernel's dependent read), is added to the score. So a split pays only
// when more blocks fill idle SMs (wave efficiency) or raise the resident
// warps (occupancy factor) by more than that traffic: small M x N with a
// large K.
// mma_sync (TileProblem::mmaSync, the script's promise that it builds the
// tensor-core kernel of transform-scripts/gpu-matmul-tensorcore.mlir,
// @gpu_matmul_tensorcore_tiles): another candidate set and other rules.
// Each warp computes a WM x WN warp tile with nvgpu.mma.sync m16n8kMK whose
// operands it reads from shared memory (ldmatrix, and for 32-bit B single
// loads: ldmatrix transposes 16-bit elements only); the block's threads
// copy each K step's A and B tiles with 16-byte async copies over one
// thread grid.
//  - f16 x f16 -> f32 contractions (m16n8k16), and f32 x f32 -> f32 as
//    tf32 (m16n8k8) when the script allows it (TileProblem::allowTf32:
//    tf32 rounds the products' inputs to 10-bit mantissas); MLIR 22's
//    vector-to-nvgpu conversion has no bf16 fragments. MK is the K of one
//    mma.sync, 256 bits of input: 256 / input bits. Static extents that the
//    block tile and the K step divide (the kernel has no partial tiles), a
//    GPU of compute capability sm_80 or above;
//  - block tiles BM, BN in {64, 128, 256}, warp tiles WM, WN in {32, 64},
//    K steps of 64 or 128 bytes of a row (BK in {32, 64} for f16, {16, 32}
//    for f32); threads 32 x (BM / WM) x (BN / WN);
//  - the copy grid: BK / E threads along K (E = 16 / input bytes elements
//    per 16-byte copy) and T / (BK / E) along the rows, which must divide
//    BM and BK, and each thread's B piece a multiple of E elements wide;
//  - registers per thread (mmaSyncRegisters): the warp tile's accumulator
//    in f32 (WM x WN / 32) plus the A and B fragments of a K step's BK / MK
//    mma.sync steps (A 4 and B 2 registers per 16 x MK and MK x 8 in both
//    forms; ldmatrix may run a stage ahead of mma.sync) plus what ptxas
//    gave the rest of the measured kernels;
//  - shared memory (BM + BN) x BK x input bytes x stages, stages in
//    2..pipeline.max_stages and at most the K steps; per tile configuration
//    the deepest pipeline that fits, and a shallower one only where it lets
//    more blocks share an SM (the stage count is the cap schedule_stages
//    gets; it keeps fewer stages when they reach the same interval).
// Score: as above with the warp tile in place of the thread tile (ldmatrix
// reads (WM + WN) / (WM x WN) operands per multiply-add, the async copies
// (BM + BN) / (BM x BN)), off-chip traffic A + B + C once (the blocks of a
// wave share operands through L2), the compute at
// compute.peak_matrix_gflops (the f16 rate; tf32 at MK / 16 of it: both
// mma.sync forms multiply 256 bits of K per instruction), and
// the occupancy factor from pipeline.units.tensor_core (count x ceil(latency
// / (issue x the warp's (WM / 16) x (WN / 8) independent mma.sync))); one
// barrier per K step and block is charged at the off-chip latency / 8
// (measured on an H100: a K step of 64 beat 32 by 4-11% at 4096-8192).
//
//===----------------------------------------------------------------------===//

#include "TileConfigRules.h"

#include "hwsched/Analysis/RegisterEstimate.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace hwsched;
using namespace hwsched::tileconfig;

namespace {
struct GpuFigures {
  int64_t warpSize, smCount, regsPerSm, regLimit, regBudget, allocUnit,
      maxThreadsPerSm, maxThreadsPerBlock, maxBlocksPerSm, smemPerSm,
      smemPerBlock, maxStages, banks, bankWidth;
  double clockGhz, peakGflops, bandwidth, latencyCycles, fillThreshold;
  double vectorUnits, vectorLatency, vectorIssue;
  RegisterCalibration weights;
};
} // namespace

/// Whether the tensor-core kernel multiplies this problem's f32 inputs as
/// tf32 (the script allowed it: TileProblem::allowTf32).
static bool isTf32(const GemmView &view) {
  return view.mmaSync && view.allowTf32 && view.inBits == 32;
}

/// The K of one mma.sync of the tensor-core kernel: both of its forms
/// multiply 256 bits of K per instruction, two of the tensor cores'
/// 8 x 8 x 128-bit tiles (m16n8k16 for f16, m16n8k8 for tf32).
static int64_t mmaSyncK(const GemmView &view) { return 256 / view.inBits; }

static llvm::Error readFigures(const HwSpec &spec, const GemmView &view,
                               GpuFigures &f) {
  std::pair<llvm::StringRef, int64_t *> ints[] = {
      {"gpu.warp_size", &f.warpSize},
      {"gpu.sm_count", &f.smCount},
      {"gpu.registers_per_sm", &f.regsPerSm},
      {"gpu.max_registers_per_thread", &f.regLimit},
      {"gpu.occupancy_register_budget", &f.regBudget},
      {"gpu.register_allocation_unit", &f.allocUnit},
      {"gpu.max_threads_per_sm", &f.maxThreadsPerSm},
      {"gpu.max_threads_per_block", &f.maxThreadsPerBlock},
      {"gpu.max_blocks_per_sm", &f.maxBlocksPerSm},
      {"gpu.shared_memory_per_sm_bytes", &f.smemPerSm},
      {"onchip.capacity_bytes", &f.smemPerBlock},
      {"pipeline.max_stages", &f.maxStages},
      {"onchip.banks", &f.banks},
      {"onchip.bank_width_bytes", &f.bankWidth}};
  for (auto &[key, field] : ints)
    if (llvm::Error err = requireInteger(spec, key, *field))
      return err;
  // Without tensor cores in the SIMT lowering, f32 runs on the FP32 units;
  // narrower inputs are assumed to use the matrix units, and so are tf32
  // inputs of the tensor-core kernel.
  bool matrixUnits = view.inBits < 32 || isTf32(view);
  llvm::StringRef peakKey =
      matrixUnits ? "compute.peak_matrix_gflops" : "compute.peak_fp32_gflops";
  std::pair<llvm::StringRef, double *> nums[] = {
      {"compute.clock_ghz", &f.clockGhz},
      {peakKey, &f.peakGflops},
      {"offchip.bandwidth_gb_per_s", &f.bandwidth},
      {"offchip.latency_cycles", &f.latencyCycles},
      {"pipeline.units.vector.count", &f.vectorUnits},
      {"pipeline.units.vector.latency_cycles", &f.vectorLatency},
      {"pipeline.units.vector.issue_cycles", &f.vectorIssue},
      {"cost_weights.sm_fill_threshold", &f.fillThreshold}};
  for (auto &[key, field] : nums)
    if (llvm::Error err = requireNumber(spec, key, *field))
      return err;
  // The matrix peak is the f16 rate; a tf32 mma.sync issues at the same
  // rate with half the K (the same 256 bits of K per instruction), so half
  // the multiply-adds (A100: 312 vs 156 TFLOPS).
  if (isTf32(view))
    f.peakGflops *= static_cast<double>(mmaSyncK(view)) / 16;
  llvm::Expected<RegisterCalibration> weights = loadRegisterCalibration(
      spec, "the register model of the tile rules (its calibration, see "
            "estimate)");
  if (!weights)
    return weights.takeError();
  f.weights = *weights;
  return llvm::Error::success();
}

/// Registers per thread of one candidate through the shared model, counted
/// for the kernel the candidate describes: each thread steps K by 1 over a
/// BK tile (an outer product of a TM column of A and a TN row of B) whose A
/// and B tiles are staged in shared memory (the shared bytes counted below),
/// so estimate on the scheduled per-thread matmul counts the same terms.
static int64_t candidateRegisters(const GemmView &view, int64_t tm, int64_t tn,
                                  int64_t bk,
                                  const RegisterCalibration &weights) {
  RegisterModelTerms terms;
  terms.addressOperands = view.numOperands;
  if (view.isGemm()) {
    terms.accumulators = registerWords(tm * tn, view.accBits);
    terms.fragments =
        registerWords(tm, view.inBits) + registerWords(tn, view.inBits);
    terms.stagedOperands = 2;
    terms.kStepTrip = std::max<int64_t>(bk, 1);
    terms.fmasPerStep = tm * tn;
  } else if (view.hasK()) {
    // Reduction: one accumulator and one input element per output per step,
    // read from global memory (nothing is staged), K stepped by 1 over BK.
    terms.accumulators = registerWords(tm * tn, view.accBits);
    terms.fragments = registerWords(tm * tn, view.inBits);
    terms.kStepTrip = std::max<int64_t>(bk, 1);
    terms.fmasPerStep = tm * tn;
  } else {
    terms.temporaries = registerWords(tm * tn, view.accBits);
    terms.epilogueInputs = registerWords(
        tm * tn * std::max<int64_t>(view.numOperands - 1, 1), view.inBits);
  }
  return evaluateRegisterModel(terms, weights);
}

namespace {
/// The per-block shared-memory cap, with the rule name its prunes are
/// counted under and the spec keys a refusal names.
struct SmemCap {
  int64_t bytes = 0;
  const char *ruleName = "shared memory > onchip.capacity_bytes";
  const char *source = "onchip.capacity_bytes";
};

/// The candidate tile sizes of one problem: threadblock (BM, BN), K (BK)
/// and per-thread (TM, TN) tiles.
struct GpuTileSets {
  llvm::SmallVector<int64_t> bms, bns, bks, tms, tns;
};

/// What the enumeration of one problem shares: its figures, the cap, the
/// stage range and derived rates, and what it records (the selection, the
/// prune counts and the smallest candidate over the cap).
struct GpuSearch {
  const GemmView &view;
  const GpuFigures &f;
  const SmemCap &cap;
  TileSelection &selection;
  PruneLog &log;
  /// Contractions stage their A and B tiles in shared memory.
  bool stagesTiles = false;
  int64_t minStages = 1, maxStages = 1;
  double smemBytesPerNs = 0, flopsPerCyclePerSm = 0;
  int64_t smallestOverCap = -1;
};

/// One configuration (block, K and thread tiles, stages) with the figures
/// that do not depend on the split factor.
struct GpuConfig {
  int64_t bm, bn, bk, tm, tn, stages;
  /// A block tile twice the (padded) M or N extent.
  bool largeMN;
  int64_t threads;
  /// Threads per block not a multiple of the warp size (and not the whole
  /// problem) or above the block limit.
  bool badThreads;
  int64_t registers, accumulatorBytes, onchipBytes, warps, blocksPerSm;
  double work, offchip;
};
} // namespace

/// The per-block shared-memory cap: dynamic shared memory up to the opt-in
/// limit, or the static limit when the schedule declares its buffers
/// statically (ptxas refuses more; the opt-in does not apply).
static llvm::Error readSmemCap(const HwSpec &spec, const GemmView &view,
                               const GpuFigures &f, SmemCap &cap) {
  cap.bytes = f.smemPerBlock;
  if (view.staticSmem) {
    int64_t staticCap = 0;
    if (llvm::Error err = requireInteger(
            spec, "gpu.max_static_smem_per_block_bytes", staticCap))
      return err;
    if (staticCap < cap.bytes) {
      cap.bytes = staticCap;
      cap.ruleName =
          "shared memory > gpu.max_static_smem_per_block_bytes (static)";
      cap.source = "gpu.max_static_smem_per_block_bytes, static_smem";
    }
  }
  return llvm::Error::success();
}

/// The shared-memory rule as the selection reports it when the schedule
/// changes it from the default (accumulator tile in shared memory, or
/// static shared memory).
static std::string describeSmemRule(const GemmView &view, const SmemCap &cap) {
  return llvm::formatv("shared memory per block: (BM*BK + BK*BN) * {0} B * "
                       "stages{1}, cap {2} B ({3})",
                       view.inBytes,
                       view.accumulatorInSmem
                           ? llvm::formatv(" + BM*BN * {0} B (accumulator "
                                           "tile, accumulator_in_smem)",
                                           view.accBytes)
                                 .str()
                           : std::string(),
                       cap.bytes, cap.source)
      .str();
}

/// Candidate sets per kind. Elementwise ops tile M x N with short rows of
/// threads along the contiguous N; reductions keep one output per thread
/// and reduce K sequentially in BK steps.
static GpuTileSets gpuTileSets(const GemmView &view) {
  GpuTileSets s;
  if (view.isGemm()) {
    s.bms = s.bns = {16, 32, 64, 128, 256};
    s.bks = {8, 16, 32, 64};
    s.tms = s.tns = {1, 2, 4, 8, 16};
  } else if (view.hasK()) {
    s.bms = {32, 64, 128, 256, 512, 1024};
    s.bns = {1};
    s.bks = {8, 16, 32, 64, 128};
    s.tms = {1, 2, 4};
    s.tns = {1};
  } else {
    s.bms = {1, 2, 4, 8, 16, 32};
    s.bns = {32, 64, 128, 256, 512, 1024};
    s.bks = {1};
    s.tms = {1};
    s.tns = {1, 2, 4, 8};
  }
  // Elementwise ops and reductions smaller than a block tile: the tiles are
  // clamped to the (padded) extent rather than dropped as larger than the
  // problem (a 16 x 16 add gets one 16 x 16 block; the CPU and NPU rules
  // clamp the same way). Contractions keep their set: their smallest tiles
  // (16) are at most twice the padded extent (8).
  if (!view.isGemm()) {
    auto clamp = [](llvm::SmallVectorImpl<int64_t> &sizes, int64_t extent) {
      for (int64_t &size : sizes)
        size = std::min(size, std::max<int64_t>(extent, 1));
      sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    };
    clamp(s.bms, view.mPad);
    if (view.hasN())
      clamp(s.bns, view.nPad);
  }
  return s;
}

/// What does not depend on the split factor, once per configuration
/// (split-K multiplies the candidates): threads, registers, shared memory
/// and the resident blocks per SM.
static GpuConfig describeConfig(const GpuSearch &s, int64_t bm, int64_t bn,
                                int64_t bk, int64_t tm, int64_t tn,
                                int64_t stages) {
  const GemmView &view = s.view;
  const GpuFigures &f = s.f;
  GpuConfig cfg;
  cfg.bm = bm;
  cfg.bn = bn;
  cfg.bk = bk;
  cfg.tm = tm;
  cfg.tn = tn;
  cfg.stages = stages;
  cfg.largeMN = (bm > 16 && bm >= 2 * view.mPad) ||
                (bn > 16 && view.hasN() && bn >= 2 * view.nPad);
  cfg.threads = (bm / tm) * (bn / tn);
  // A block that covers the whole (padded) problem may have fewer threads
  // than a warp, or not a multiple of it: there is no more work to give the
  // idle lanes.
  bool wholeProblem = bm >= view.mPad && (!view.hasN() || bn >= view.nPad);
  cfg.badThreads = (cfg.threads % f.warpSize && !wholeProblem) ||
                   cfg.threads > f.maxThreadsPerBlock;
  cfg.registers = candidateRegisters(view, tm, tn, bk, f.weights);
  cfg.accumulatorBytes =
      s.stagesTiles && view.accumulatorInSmem ? bm * bn * view.accBytes : 0;
  cfg.onchipBytes =
      s.stagesTiles
          ? (bm * bk + bk * bn) * view.inBytes * stages + cfg.accumulatorBytes
          : 0;
  // A partial warp (a sub-warp block) still takes a warp slot.
  cfg.warps = ceilDiv(cfg.threads, f.warpSize);
  cfg.blocksPerSm = 0;
  if (!cfg.badThreads) {
    int64_t regsPerWarp =
        roundUp(cfg.registers * f.warpSize, std::max<int64_t>(f.allocUnit, 1));
    int64_t byRegs = f.regsPerSm / (regsPerWarp * cfg.warps);
    int64_t bySmem =
        cfg.onchipBytes ? f.smemPerSm / cfg.onchipBytes : f.maxBlocksPerSm;
    int64_t byThreads = f.maxThreadsPerSm / cfg.threads;
    cfg.blocksPerSm = std::min({byRegs, bySmem, byThreads, f.maxBlocksPerSm});
  }
  cfg.work = view.work(bm, bn);
  cfg.offchip = view.offchipBytes(bm, bn);
  return cfg;
}

/// The hardware rules for one configuration at one split factor, in the
/// order they are counted: false (and a prune counted) when one fails;
/// otherwise `kTiles` gets the K tiles of one split.
static bool passesGpuRules(GpuSearch &s, const GpuConfig &cfg, int64_t split,
                           int64_t &kTiles) {
  const GemmView &view = s.view;
  PruneLog &log = s.log;
  // Each split reduces kSplit of the (padded) K.
  int64_t kSplit = ceilDiv(view.kPad, split);
  if (split > 1 && (view.k % split || kSplit < cfg.bk)) {
    log.prune("split-K: K not a multiple of the split or below "
              "one K tile per split");
    return false;
  }
  // A tile twice the (padded) problem only computes padding.
  if (cfg.largeMN || (view.hasK() && cfg.bk > 8 && cfg.bk >= 2 * kSplit)) {
    log.prune("tile larger than the problem");
    return false;
  }
  if (cfg.badThreads) {
    log.prune("threads per block");
    return false;
  }
  kTiles = view.hasK() ? ceilDiv(kSplit, cfg.bk) : 1;
  if (cfg.stages > s.minStages && cfg.stages > kTiles) {
    log.prune("stages above the K tile count");
    return false;
  }
  if (cfg.registers > s.f.regLimit) {
    log.prune("registers per thread > gpu.max_registers_per_thread");
    return false;
  }
  if (cfg.onchipBytes > s.cap.bytes) {
    log.prune(s.cap.ruleName);
    if (s.smallestOverCap < 0 || cfg.onchipBytes < s.smallestOverCap)
      s.smallestOverCap = cfg.onchipBytes;
    return false;
  }
  if (cfg.blocksPerSm < 1) {
    log.prune("no block fits an SM");
    return false;
  }
  return true;
}

/// A feasible candidate's tiles and how its grid fills the GPU: blocks,
/// waves, wave efficiency, occupancy and the occupancy factor.
static TileCandidate placeGpuCandidate(const GpuSearch &s, const GpuConfig &cfg,
                                       int64_t split) {
  const GemmView &view = s.view;
  const GpuFigures &f = s.f;
  TileCandidate c;
  c.bm = cfg.bm;
  c.bn = cfg.bn;
  c.bk = view.hasK() ? cfg.bk : 0;
  c.tm = cfg.tm;
  c.tn = cfg.tn;
  c.tk = view.hasK() ? 1 : 0;
  c.wm = view.isGemm() ? 4 * cfg.tm : 0;
  c.wn = view.isGemm() ? 8 * cfg.tn : 0;
  c.stages = cfg.stages;
  c.threads = cfg.threads;
  c.splitK = split;
  c.registers = cfg.registers;
  c.onchipBytes = cfg.onchipBytes;
  c.accumulatorBytes = cfg.accumulatorBytes;
  c.blocksPerSm = cfg.blocksPerSm;
  c.blocks = view.batch * ceilDiv(view.mPad, cfg.bm) *
             (view.hasN() ? ceilDiv(view.nPad, cfg.bn) : 1) * split;
  double slots = static_cast<double>(f.smCount * c.blocksPerSm);
  c.waves = c.blocks / slots;
  // The busiest SM runs ceil(blocks / SMs) blocks; the others idle for the
  // difference (a small problem in few large blocks leaves SMs empty; a
  // partial last wave idles some).
  c.waveEfficiency =
      static_cast<double>(c.blocks) /
      (static_cast<double>(ceilDiv(c.blocks, f.smCount)) * f.smCount);
  int64_t resident =
      std::min<int64_t>(c.blocksPerSm, ceilDiv(c.blocks, f.smCount));
  c.occupancy = static_cast<double>(resident * cfg.threads) / f.maxThreadsPerSm;
  // Each of the SM's vector schedulers needs enough independent warp
  // instructions in flight to cover the FMA latency; the thread tile
  // supplies TM*TN independent FMAs per warp.
  double ilp = static_cast<double>(std::max<int64_t>(cfg.tm * cfg.tn, 1));
  double neededWarps =
      f.vectorUnits *
      std::max(1.0, std::ceil(f.vectorLatency / (f.vectorIssue * ilp)));
  c.occupancyFactor =
      std::min(1.0, static_cast<double>(resident * cfg.warps) / neededWarps);
  return c;
}

/// The score of a placed candidate (see the file header): the roofline
/// time over the efficiency factors, the register excess, the pipeline fill
/// and the split-K reduce step.
static void scoreGpuCandidate(const GpuSearch &s, const GpuConfig &cfg,
                              int64_t split, int64_t kTiles, TileCandidate &c) {
  const GemmView &view = s.view;
  const GpuFigures &f = s.f;
  c.computeNs = cfg.work / f.peakGflops;
  // The blocks of all splits together stream A and B once over K, as
  // unsplit; the result tile is written once per split (partials), then
  // reduced.
  double resultBytes = static_cast<double>(view.batch) * view.mPad *
                       (view.hasN() ? view.nPad : 1) * view.accBytes;
  c.memoryNs = (cfg.offchip + (split - 1) * resultBytes) / f.bandwidth;
  if (split > 1)
    c.reduceNs =
        (split + 1) * resultBytes / f.bandwidth + f.latencyCycles / f.clockGhz;
  double operandsPerFma =
      view.isGemm() ? static_cast<double>(cfg.tm + cfg.tn) / (cfg.tm * cfg.tn)
                    : 0.0;
  c.onchipNs =
      (cfg.work / 2.0) * operandsPerFma * view.inBytes / s.smemBytesPerNs;
  double warpPreference = (cfg.warps == 4 || cfg.warps == 8) ? 1.0 : 0.9;
  double stageFactor = 1.0;
  if (view.isGemm()) {
    double tileCycles = 2.0 * cfg.bm * cfg.bn * cfg.bk / s.flopsPerCyclePerSm;
    // A K loop of fewer tiles keeps all of them in flight with as many
    // stages as tiles.
    double needed = std::min<double>(
        1.0 + std::ceil(f.latencyCycles / std::max(tileCycles, 1.0)),
        std::max<int64_t>(kTiles, s.minStages));
    stageFactor = std::min(1.0, cfg.stages / needed);
  }
  c.timeNs =
      std::max({c.computeNs, c.memoryNs, c.onchipNs}) /
      (c.waveEfficiency * c.occupancyFactor * warpPreference * stageFactor);
  // Above the occupancy budget: feasible, but the excess is charged in
  // proportion (Bolt keeps the register file for occupancy before raising
  // the warp tile further).
  if (c.registers > f.regBudget)
    c.timeNs *=
        1.0 + static_cast<double>(c.registers - f.regBudget) / f.regBudget;
  // Pipeline fill: a block waits one off-chip latency for its first tile
  // whatever its stages; the blocks resident on an SM wait together, so the
  // busiest SM waits once per round of resident blocks. (The stage factor
  // covers the latency of the later tiles; a short K loop, e.g. one split
  // of split-K, has few of them.)
  if (view.isGemm()) {
    int64_t rounds = ceilDiv(ceilDiv(c.blocks, f.smCount), c.blocksPerSm);
    c.timeNs += rounds * f.latencyCycles / f.clockGhz;
  }
  c.timeNs += c.reduceNs;
}

/// Every configuration of `sets` at every split factor, in enumeration
/// order: the feasible ones scored into `s.selection.ranked`.
static void enumerateGpuCandidates(GpuSearch &s, const GpuTileSets &sets) {
  // Split factors; only contractions whose schedule can split K.
  llvm::SmallVector<int64_t> splits = {1};
  if (s.view.splittableK)
    splits = {1, 2, 4, 8, 16};
  for (int64_t bm : sets.bms)
    for (int64_t bn : sets.bns)
      for (int64_t bk : sets.bks)
        for (int64_t tm : sets.tms)
          for (int64_t tn : sets.tns)
            for (int64_t stages = s.minStages; stages <= s.maxStages;
                 ++stages) {
              if (bm % tm || bn % tn)
                continue; // not a tiling: not enumerated
              // The rules below still fire in the same order for every
              // split.
              GpuConfig cfg = describeConfig(s, bm, bn, bk, tm, tn, stages);
              for (int64_t split : splits) {
                ++s.selection.enumerated;
                int64_t kTiles = 1;
                if (!passesGpuRules(s, cfg, split, kTiles))
                  continue;
                TileCandidate c = placeGpuCandidate(s, cfg, split);
                scoreGpuCandidate(s, cfg, split, kTiles, c);
                s.selection.ranked.push_back(c);
              }
            }
}

/// Block tiles divide the (padded) extents when some feasible candidate's
/// do: a partial block makes the thread-level forall inside it dynamically
/// sized, which the upstream GPU mapping (map_nested_forall_to_threads)
/// refuses (the padded work is already in the score). Seen with 3136 x 256
/// on nvidia-rtx4090 (128-row blocks, 24.5 per column).
static void dropNonDividingBlocks(const GemmView &view,
                                  TileSelection &selection, PruneLog &log) {
  auto divides = [&](const TileCandidate &c) {
    return view.mPad % c.bm == 0 && (!view.hasN() || view.nPad % c.bn == 0);
  };
  if (llvm::any_of(selection.ranked, divides)) {
    for (const TileCandidate &c : selection.ranked)
      if (!divides(c))
        log.prune("block tile does not divide the extent");
    llvm::erase_if(selection.ranked,
                   [&](const TileCandidate &c) { return !divides(c); });
  }
}

//===----------------------------------------------------------------------===//
// mma_sync: the tensor-core kernel's candidates
//===----------------------------------------------------------------------===//

/// Registers per thread of the tensor-core kernel with a WM x WN warp tile,
/// K step BK and mma.sync K `mmaK`: the accumulator (f32, spread over the
/// warp's 32 lanes), the fragments of a whole K step (A: 4 registers per 16
/// rows, B: 2 per 8 columns, for each of the BK / mmaK mma.sync steps: 16
/// x 16 f16 or 16 x 8 tf32 are both 4 32-bit registers of A per lane, so
/// tf32 holds twice the fragment registers per K of f16; schedule_stages
/// may place the step's operand reads a stage ahead of its mma.sync, and
/// then they are all live at once) and what ptxas gave the rest on the
/// measured kernels
/// (addresses, loop state, the copies' indices). Against ptxas (sm_80 /
/// sm_90, nvidia-a100 schedule): 64x64 K32 216 vs 222-240, 64x32 K64 184
/// vs 166-168, 32x64 K64 184 vs 198-199, 32x32 K32 88 vs 90; 64x64 K64
/// 280 > 255, where ptxas spills 360-508 bytes. Not the SIMT register
/// model: that one counts a thread's outer products, while an mma.sync
/// warp tile keeps its operands in the PTX fragment layouts.
///
/// tf32's B loads: ldmatrix transposes 16-bit elements only, so a lane
/// reads each of its tf32 B registers with its own 32-bit ld.shared (BK / 8
/// x WN / 8 x 2 a K step). With the swizzle of
/// transform.smem.avoid_bank_conflicts (chunk ^= row & 3 on B's rows) a
/// lane's loads keep one XOR pattern through the K step and share a base +
/// immediates, as A's ldmatrix do: up to 32 loads a K step cost nothing
/// more (32x32 K32, 64x32 K32, 64x64 K16: ptxas -11%..+7% of the model on
/// 35 kernels, sm_80 / sm_90). At 64 loads (32x64 K32) ptxas needs 168-224
/// registers on sm_80 (64 threads, 2 stages: 168; 128-256 threads: 224)
/// and 200 on sm_90, against 184 without a term: counted as half a
/// register per load beyond 32 (200). (Upstream's
/// nvgpu-optimize-shared-memory swizzles with row & 15, which changes with
/// every 8 rows of K: one address register per load from the first, the
/// term this model carried until the schedule took our swizzle; the model
/// assumes the schedule of @gpu_matmul_tensorcore_tiles, whose tiles the
/// op always analyses. The fixed _swizzled entries with upstream's swizzle
/// take no tiles from this model.)
static int64_t mmaSyncRegisters(int64_t wm, int64_t wn, int64_t bk,
                                int64_t mmaK, bool tf32) {
  int64_t accumulator = wm * wn / 32;
  int64_t fragments = (bk / mmaK) * ((wm / 16) * 4 + (wn / 8) * 2);
  int64_t bLoads = tf32 ? (bk / mmaK) * (wn / 8) * 2 : 0;
  int64_t bAddresses = std::max<int64_t>(0, bLoads - 32) / 2;
  return accumulator + fragments + bAddresses + 24;
}

std::optional<int64_t> hwsched::gpuComputeCapability(const HwSpec &spec) {
  std::optional<llvm::StringRef> capability =
      spec.getString("gpu.compute_capability");
  int64_t cc = 0;
  if (spec.getKind() != HwKind::Gpu || !capability ||
      !capability->starts_with("sm_") ||
      capability->drop_front(3).take_while(llvm::isDigit).getAsInteger(10, cc))
    return std::nullopt;
  return cc;
}

bool hwsched::isMmaSyncTarget(const HwSpec &spec) {
  std::optional<int64_t> cc = gpuComputeCapability(spec);
  return cc && *cc >= 80;
}

/// Refuses a problem the tensor-core kernel cannot take, in the user's
/// terms: what is wrong and what would make it work.
static llvm::Error checkMmaSyncProblem(const GemmView &view,
                                       const HwSpec &spec) {
  auto refuseWith = [&](const llvm::Twine &why) {
    return refuse(nullptr, "mma_sync: " + why.str());
  };
  if (view.kind != TileProblem::Kind::Contraction)
    return refuseWith("the tensor-core kernel takes contractions (a "
                      "linalg.matmul), not this " +
                      stringifyTileProblemKind(view.kind).str() +
                      "; drop mma_sync to use the SIMT rules");
  bool inputsTaken = view.inBits == 16 || isTf32(view);
  if (!inputsTaken || view.accBits != 32)
    return refuseWith(llvm::formatv(
        "the kernel multiplies f16 or bf16 inputs (mma.sync m16n8k16), or "
        "f32 inputs as tf32 with allow_tf32 (m16n8k8), into an f32 "
        "accumulator; this contraction has {0}-bit inputs{1} and a {2}-bit "
        "accumulator",
        view.inBits,
        view.inBits == 32 && !view.allowTf32 ? " (allow_tf32 not set)" : "",
        view.accBits));
  if (view.accumulatorInSmem)
    return refuseWith("the kernel keeps its accumulator in registers (the "
                      "warps' mma.sync fragments); drop accumulator_in_smem");
  if (view.dynamicM || view.dynamicN || view.dynamicK || view.batch != 1)
    return refuseWith("the kernel needs static M, N and K and no batch "
                      "dimension; pad or specialise the shape first");
  std::optional<int64_t> cc = gpuComputeCapability(spec);
  if (!cc)
    return refuseWith("spec '" + spec.getName() + "' (" + spec.getPath() +
                      ") has no gpu.compute_capability of the form sm_XY");
  if (*cc < 80)
    return refuseWith("spec '" + spec.getName() + "' is sm_" +
                      std::to_string(*cc) +
                      ": the kernel's cp.async and ldmatrix + mma.sync "
                      "need sm_80 or above");
  return llvm::Error::success();
}

namespace {
/// The tensor-core unit's figures (pipeline.units.tensor_core).
struct TensorCoreUnit {
  double count = 0, latency = 0, issue = 0;
};

/// One configuration of the tensor-core kernel with the figures its rules
/// and score read.
struct MmaSyncConfig {
  int64_t bm, bn, bk, wm, wn, stages;
  int64_t warps = 0, threads = 0, kTiles = 0, registers = 0, smem = 0,
          blocksPerSm = 0;
};
} // namespace

/// The hardware and kernel rules for one configuration, in the order they
/// are counted: false (and a prune counted) when one fails; otherwise the
/// derived figures are set.
static bool passesMmaSyncRules(GpuSearch &s, MmaSyncConfig &cfg) {
  const GemmView &view = s.view;
  const GpuFigures &f = s.f;
  PruneLog &log = s.log;
  if (view.m % cfg.bm || view.n % cfg.bn || view.k % cfg.bk) {
    log.prune("mma_sync: block tile or K step does not divide M, N, K");
    return false;
  }
  cfg.warps = (cfg.bm / cfg.wm) * (cfg.bn / cfg.wn);
  cfg.threads = cfg.warps * f.warpSize;
  if (cfg.threads > f.maxThreadsPerBlock) {
    log.prune("threads per block");
    return false;
  }
  // One thread grid copies both tiles in 16-byte pieces: BK / E threads
  // along K (A's rows, E elements per copy), the rest along the rows.
  const int64_t copyElems = 16 / view.inBytes;
  int64_t colThreads = cfg.bk / copyElems;
  int64_t rowThreads = cfg.threads / colThreads;
  if (cfg.threads % colThreads || cfg.bm % rowThreads || cfg.bk % rowThreads ||
      (cfg.bn / colThreads) % copyElems) {
    log.prune("mma_sync: 16-byte copies of A and B do not share one thread "
              "grid");
    return false;
  }
  cfg.kTiles = view.k / cfg.bk;
  if (cfg.stages > cfg.kTiles) {
    log.prune("stages above the K tile count");
    return false;
  }
  cfg.registers =
      mmaSyncRegisters(cfg.wm, cfg.wn, cfg.bk, mmaSyncK(view), isTf32(view));
  if (cfg.registers > f.regLimit) {
    log.prune("registers per thread > gpu.max_registers_per_thread");
    return false;
  }
  cfg.smem = (cfg.bm + cfg.bn) * cfg.bk * view.inBytes * cfg.stages;
  if (cfg.smem > s.cap.bytes) {
    log.prune(s.cap.ruleName);
    if (s.smallestOverCap < 0 || cfg.smem < s.smallestOverCap)
      s.smallestOverCap = cfg.smem;
    return false;
  }
  int64_t regsPerWarp =
      roundUp(cfg.registers * f.warpSize, std::max<int64_t>(f.allocUnit, 1));
  cfg.blocksPerSm =
      std::min({f.regsPerSm / (regsPerWarp * cfg.warps), f.smemPerSm / cfg.smem,
                f.maxThreadsPerSm / cfg.threads, f.maxBlocksPerSm});
  if (cfg.blocksPerSm < 1) {
    log.prune("no block fits an SM");
    return false;
  }
  return true;
}

/// A feasible configuration placed on the SMs and scored (see the file
/// header).
static TileCandidate scoreMmaSyncCandidate(const GpuSearch &s,
                                           const MmaSyncConfig &cfg,
                                           const TensorCoreUnit &tc) {
  const GemmView &view = s.view;
  const GpuFigures &f = s.f;
  TileCandidate c;
  c.mmaSync = true;
  c.tf32 = isTf32(view);
  c.bf16 = view.bf16Inputs;
  c.bm = cfg.bm;
  c.bn = cfg.bn;
  c.bk = cfg.bk;
  c.tm = c.wm = cfg.wm;
  c.tn = c.wn = cfg.wn;
  c.tk = mmaSyncK(view);
  c.stages = cfg.stages;
  c.threads = cfg.threads;
  c.registers = cfg.registers;
  c.onchipBytes = cfg.smem;
  c.blocksPerSm = cfg.blocksPerSm;
  c.blocks = (view.m / cfg.bm) * (view.n / cfg.bn);
  c.waves = c.blocks / static_cast<double>(f.smCount * cfg.blocksPerSm);
  int64_t blocksOnBusiestSm = ceilDiv(c.blocks, f.smCount);
  c.waveEfficiency = static_cast<double>(c.blocks) /
                     (static_cast<double>(blocksOnBusiestSm) * f.smCount);
  int64_t resident = std::min<int64_t>(cfg.blocksPerSm, blocksOnBusiestSm);
  c.occupancy = static_cast<double>(resident * cfg.threads) / f.maxThreadsPerSm;
  double ilp = static_cast<double>((cfg.wm / 16) * (cfg.wn / 8));
  double neededWarps =
      tc.count * std::max(1.0, std::ceil(tc.latency / (tc.issue * ilp)));
  c.occupancyFactor =
      std::min(1.0, static_cast<double>(resident * cfg.warps) / neededWarps);
  double work = view.work(cfg.bm, cfg.bn);
  c.computeNs = work / f.peakGflops;
  // Off-chip: A, B and C once. The blocks of a wave share A's rows and B's
  // columns through L2 (the SIMT rule's streaming of each block's operands
  // from DRAM made every large problem memory-bound, against the measured
  // kernels); the tile's reuse is in the on-chip term below.
  c.memoryNs = ((static_cast<double>(view.m) * view.k +
                 static_cast<double>(view.k) * view.n) *
                    view.inBytes +
                static_cast<double>(view.m) * view.n * view.accBytes) /
               f.bandwidth;
  double operandsPerMac =
      static_cast<double>(cfg.wm + cfg.wn) / (cfg.wm * cfg.wn) +
      static_cast<double>(cfg.bm + cfg.bn) / (cfg.bm * cfg.bn);
  c.onchipNs = (work / 2.0) * operandsPerMac * view.inBytes / s.smemBytesPerNs;
  double tileCycles = 2.0 * cfg.bm * cfg.bn * cfg.bk / s.flopsPerCyclePerSm;
  double needed = std::min<double>(
      1.0 + std::ceil(f.latencyCycles / std::max(tileCycles, 1.0)), cfg.kTiles);
  double stageFactor = std::min(1.0, cfg.stages / needed);
  c.timeNs = std::max({c.computeNs, c.memoryNs, c.onchipNs}) /
             (c.waveEfficiency * c.occupancyFactor * stageFactor);
  // Pipeline fill, once per round of resident blocks; and each block's
  // barrier per K step, which the blocks beside it do not hide (charged per
  // block: on the H100, K steps of 64 beat 32 by 4-11%).
  int64_t rounds = ceilDiv(blocksOnBusiestSm, cfg.blocksPerSm);
  c.timeNs += rounds * f.latencyCycles / f.clockGhz;
  c.timeNs +=
      blocksOnBusiestSm * cfg.kTiles * (f.latencyCycles / 8) / f.clockGhz;
  return c;
}

/// Enumerates and scores the tensor-core kernel's configurations.
static void enumerateMmaSyncCandidates(GpuSearch &s, const TensorCoreUnit &tc) {
  for (int64_t bm : {64, 128, 256})
    for (int64_t bn : {64, 128, 256})
      // K steps of 64 or 128 bytes of a row: 4 or 8 16-byte copies.
      for (int64_t bk : {64 / s.view.inBytes, 128 / s.view.inBytes})
        for (int64_t wm : {32, 64})
          for (int64_t wn : {32, 64}) {
            if (bm % wm || bn % wn)
              continue; // not a tiling: not enumerated
            // Deepest first: a shallower pipeline is only a candidate when
            // it lets more blocks share an SM (its stage count is a cap for
            // schedule_stages, which takes fewer when they reach the same
            // interval).
            int64_t deeperBlocksPerSm = 0;
            for (int64_t stages = s.maxStages; stages >= s.minStages;
                 --stages) {
              ++s.selection.enumerated;
              MmaSyncConfig cfg{bm, bn, bk, wm, wn, stages};
              if (!passesMmaSyncRules(s, cfg))
                continue;
              if (cfg.blocksPerSm <= deeperBlocksPerSm) {
                s.log.prune("mma_sync: a deeper pipeline fits as many "
                            "blocks per SM");
                continue;
              }
              deeperBlocksPerSm = cfg.blocksPerSm;
              s.selection.ranked.push_back(scoreMmaSyncCandidate(s, cfg, tc));
            }
          }
}

/// The tensor-core kernel's selection (mma_sync).
static llvm::Error selectMmaSync(GpuSearch &s, const HwSpec &spec) {
  if (llvm::Error err = checkMmaSyncProblem(s.view, spec))
    return err;
  TensorCoreUnit tc;
  std::pair<llvm::StringRef, double *> nums[] = {
      {"pipeline.units.tensor_core.count", &tc.count},
      {"pipeline.units.tensor_core.latency_cycles", &tc.latency},
      {"pipeline.units.tensor_core.issue_cycles", &tc.issue}};
  for (auto &[key, field] : nums)
    if (llvm::Error err = requireNumber(spec, key, *field))
      return err;
  s.selection.smemRule = llvm::formatv(
      "mma_sync: shared memory per block (BM + BN) * BK * {0} B * stages, "
      "cap {1} B ({2}); registers per thread WM*WN/32 (accumulator) + "
      "BK/{3} * (WM/16*4 + WN/8*2) (fragments){4} + 24",
      s.view.inBytes, s.cap.bytes, s.cap.source, mmaSyncK(s.view),
      isTf32(s.view) ? " + max(0, BK/8 * WN/8*2 - 32) / 2 (B load addresses)"
                     : "");
  enumerateMmaSyncCandidates(s, tc);
  const GemmView &v = s.view;
  int64_t smallestK = 64 / v.inBytes;
  if (s.selection.ranked.empty() && (v.m % 64 || v.n % 64 || v.k % smallestK))
    s.selection.capacityDetail = llvm::formatv(
        "the tensor-core kernel has no partial tiles: it needs M and N "
        "multiples of 64 and K of {3}, this is {0} x {1} x {2}; pad the "
        "operands first (transform.structured.pad) or drop mma_sync",
        v.m, v.n, v.k, smallestK);
  return llvm::Error::success();
}

llvm::Error tileconfig::selectGpu(const GemmView &view, const HwSpec &spec,
                                  TileSelection &selection) {
  GpuFigures f;
  if (llvm::Error err = readFigures(spec, view, f))
    return err;
  PruneLog log;
  SmemCap cap;
  if (llvm::Error err = readSmemCap(spec, view, f, cap))
    return err;
  GpuSearch s{view, f, cap, selection, log};
  s.stagesTiles = view.isGemm();
  if (s.stagesTiles && (view.accumulatorInSmem || view.staticSmem))
    selection.smemRule = describeSmemRule(view, cap);
  s.minStages = view.isGemm() ? std::min<int64_t>(2, f.maxStages) : 1;
  s.maxStages = view.isGemm() ? std::max<int64_t>(f.maxStages, 1) : 1;
  s.smemBytesPerNs =
      static_cast<double>(f.banks * f.bankWidth) * f.clockGhz * f.smCount;
  s.flopsPerCyclePerSm = f.peakGflops / (f.clockGhz * f.smCount);
  if (view.mmaSync) {
    if (llvm::Error err = selectMmaSync(s, spec))
      return err;
  } else {
    enumerateGpuCandidates(s, gpuTileSets(view));
    dropNonDividingBlocks(view, selection, log);
  }
  selection.pruned = log.take();
  if (selection.ranked.empty() && s.smallestOverCap >= 0)
    selection.capacityDetail =
        llvm::formatv("the smallest candidate over the shared-memory cap "
                      "needs {0} bytes > {1} ({2}){3}",
                      s.smallestOverCap, cap.bytes, cap.source,
                      view.accumulatorInSmem
                          ? ", accumulator tile included (accumulator_in_smem)"
                          : "")
            .str();
  selection.smCount = f.smCount;
  selection.fillThreshold = f.fillThreshold;
  return llvm::Error::success();
}
