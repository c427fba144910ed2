//===- TileConfigNpu.cpp - NPU rules of select_tile_config ----------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Ascend-style rules: one block tile per AI core at a time, tiles that are
// multiples of the cube fractal (npu.cube_tile, M x N x K), and the hard
// unified-buffer constraint of the fusion model:
//
//   (align(A tile) + align(B tile) + align(C tile)) * npu.ping_pong_factor
//       <= onchip.capacity_bytes (ub_limit_bytes)
//
// with every tile rounded up to onchip.alignment_bytes (elementwise ops: one
// aligned tile per operand; reductions: the input tile plus the output row).
// Score: ceil(blocks / npu.ai_cores) block times; a block takes, per K tile,
// max(cube time, MTE2 time) when ping-pong overlaps the copy with compute
// (ping_pong_factor >= 2), else their sum, plus the output write, plus the
// MTE2/MTE3 issue cost per transfer (which favours fewer, larger tiles).
//
//===----------------------------------------------------------------------===//

#include "TileConfigRules.h"

#include <algorithm>
#include <cmath>

using namespace hwsched;
using namespace hwsched::tileconfig;

namespace {
/// The figures the NPU rules read from the spec (the issue costs optional,
/// counts clamped to at least 1).
struct NpuFigures {
  int64_t cores, pingPong, capacity, alignment, maxStages;
  double clockGhz, peak, bandwidth, mte2Issue = 0, mte3Issue = 0;
  llvm::ArrayRef<int64_t> cube;
};

/// The candidate block tiles (BM, BN, BK) of one problem.
struct NpuTileSets {
  llvm::SmallVector<int64_t> bms, bns, bks;
};

/// What scoring one candidate needs beyond the view and the figures: the
/// per-core rates and the copy-engine issue time per K tile.
struct NpuRates {
  double perCoreFlopsPerNs, perCoreBytesPerNs, issueNs;
};
} // namespace

/// Reads the NPU figures; a refusal naming the first missing key.
static llvm::Error readNpuFigures(const HwSpec &spec, const GemmView &view,
                                  NpuFigures &f) {
  std::pair<llvm::StringRef, int64_t *> ints[] = {
      {"npu.ai_cores", &f.cores},
      {"npu.ping_pong_factor", &f.pingPong},
      {"onchip.capacity_bytes", &f.capacity},
      {"onchip.alignment_bytes", &f.alignment},
      {"pipeline.max_stages", &f.maxStages}};
  for (auto &[key, field] : ints)
    if (llvm::Error err = requireInteger(spec, key, *field))
      return err;
  llvm::StringRef peakKey = view.isGemm() && view.inBits < 32
                                ? "compute.peak_matrix_gflops"
                                : "compute.peak_fp32_gflops";
  std::pair<llvm::StringRef, double *> nums[] = {
      {"compute.clock_ghz", &f.clockGhz},
      {peakKey, &f.peak},
      {"offchip.bandwidth_gb_per_s", &f.bandwidth}};
  for (auto &[key, field] : nums)
    if (llvm::Error err = requireNumber(spec, key, *field))
      return err;
  // Copy-engine issue costs are optional refinements.
  if (std::optional<double> v =
          spec.getNumber("pipeline.units.mte2.issue_cycles"))
    f.mte2Issue = *v;
  if (std::optional<double> v =
          spec.getNumber("pipeline.units.mte3.issue_cycles"))
    f.mte3Issue = *v;
  f.cube = *spec.getIntegerArray("npu.cube_tile");
  f.cores = std::max<int64_t>(f.cores, 1);
  f.pingPong = std::max<int64_t>(f.pingPong, 1);
  f.alignment = std::max<int64_t>(f.alignment, 1);
  return llvm::Error::success();
}

/// Contractions: multiples of the cube fractal. Vector ops: rows x a
/// contiguous run that is a multiple of the fractal width (cube-friendly,
/// 32-byte aligned for f16/f32).
static NpuTileSets npuTileSets(const GemmView &view,
                               llvm::ArrayRef<int64_t> cube) {
  NpuTileSets s;
  for (int64_t mult : {1, 2, 4, 8, 16}) {
    if (view.isGemm()) {
      s.bms.push_back(cube[0] * mult);
      s.bns.push_back(cube[1] * mult);
      s.bks.push_back(cube[2] * mult);
    }
  }
  if (!view.isGemm()) {
    s.bms = view.hasN() ? llvm::SmallVector<int64_t>{1, 2, 4, 8, 16, 32, 64}
                        : llvm::SmallVector<int64_t>{16, 32, 64, 128, 256};
    s.bns = view.hasN() ? llvm::SmallVector<int64_t>{16,  32,   64,   128, 256,
                                                     512, 1024, 2048, 4096}
                        : llvm::SmallVector<int64_t>{1};
    s.bks = view.hasK()
                ? llvm::SmallVector<int64_t>{16, 32, 64, 128, 256, 512, 1024}
                : llvm::SmallVector<int64_t>{1};
  }
  return s;
}

/// The aligned bytes of the tiles live at once in the unified buffer (one
/// ping-pong copy): A, B and C tiles; a reduction's input tile and output
/// row; an elementwise op's tile per operand.
static int64_t liveTileBytes(const GemmView &view, const NpuFigures &f,
                             int64_t bm, int64_t bn, int64_t bk) {
  auto aligned = [&](int64_t bytes) { return roundUp(bytes, f.alignment); };
  if (view.isGemm())
    return aligned(bm * bk * view.inBytes) + aligned(bk * bn * view.inBytes) +
           aligned(bm * bn * view.accBytes);
  if (view.hasK())
    return aligned(bm * bk * view.inBytes) + aligned(bm * view.accBytes);
  return view.numOperands * aligned(bm * bn * view.inBytes);
}

/// The score of a candidate that fits (see the file header): its blocks
/// and waves over the AI cores, and per K tile the cube and MTE2 times,
/// overlapped by ping-pong, plus the output write and the issue cost.
static void scoreNpuCandidate(const GemmView &view, const NpuFigures &f,
                              const NpuRates &r, int64_t bm, int64_t bn,
                              int64_t bk, TileCandidate &c) {
  int64_t cores = f.cores;
  c.blocks = view.batch * ceilDiv(view.mPad, bm) *
             (view.hasN() ? ceilDiv(view.nPad, bn) : 1);
  c.waves = static_cast<double>(c.blocks) / cores;
  c.waveEfficiency = c.blocks / (std::ceil(c.waves) * cores);
  c.occupancy = c.occupancyFactor = 1.0;
  int64_t kTiles = view.hasK() ? ceilDiv(view.kPad, bk) : 1;
  double stepCompute, stepCopy, outCopy;
  if (view.isGemm()) {
    stepCompute = 2.0 * bm * bn * bk / r.perCoreFlopsPerNs;
    stepCopy = (bm * bk + bk * bn) * view.inBytes / r.perCoreBytesPerNs;
    outCopy = bm * bn * view.accBytes / r.perCoreBytesPerNs;
  } else if (view.hasK()) {
    stepCompute = static_cast<double>(bm) * bk / r.perCoreFlopsPerNs;
    stepCopy =
        static_cast<double>(bm) * bk * view.inBytes / r.perCoreBytesPerNs;
    outCopy = bm * view.accBytes / r.perCoreBytesPerNs;
  } else {
    stepCompute = static_cast<double>(bm) * bn / r.perCoreFlopsPerNs;
    stepCopy = static_cast<double>(bm) * bn * view.inBytes *
               std::max<int64_t>(view.numOperands - 1, 1) / r.perCoreBytesPerNs;
    outCopy = bm * bn * view.accBytes / r.perCoreBytesPerNs;
  }
  double step = f.pingPong >= 2 ? std::max(stepCompute, stepCopy)
                                : stepCompute + stepCopy;
  double blockNs = kTiles * (step + r.issueNs) + outCopy;
  c.computeNs = c.blocks * kTiles * stepCompute / cores;
  c.memoryNs = c.blocks * (kTiles * stepCopy + outCopy) / cores;
  c.timeNs = std::ceil(c.waves) * blockNs;
}

llvm::Error tileconfig::selectNpu(const GemmView &view, const HwSpec &spec,
                                  TileSelection &selection) {
  NpuFigures f;
  if (llvm::Error err = readNpuFigures(spec, view, f))
    return err;
  NpuTileSets sets = npuTileSets(view, f.cube);
  const llvm::SmallVector<int64_t> &bms = sets.bms, &bns = sets.bns,
                                   &bks = sets.bks;
  NpuRates rates{f.peak / f.cores, f.bandwidth / f.cores,
                 (f.mte2Issue + f.mte3Issue) / f.clockGhz};
  PruneLog log;
  for (int64_t bm : bms)
    for (int64_t bn : bns)
      for (int64_t bk : bks) {
        ++selection.enumerated;
        if ((bm > bms.front() && bm >= 2 * view.mPad) ||
            (bn > bns.front() && bn >= 2 * view.nPad) ||
            (bk > bks.front() && bk >= 2 * view.kPad)) {
          log.prune("tile larger than the problem");
          continue;
        }
        TileCandidate c;
        c.bm = bm;
        c.bn = view.hasN() ? bn : 1;
        c.bk = view.hasK() ? bk : 0;
        c.tm = view.isGemm() ? f.cube[0] : 1;
        c.tn = view.isGemm() ? f.cube[1] : 1;
        c.tk = view.isGemm() ? f.cube[2] : 0;
        c.stages =
            std::min<int64_t>(f.pingPong, std::max<int64_t>(f.maxStages, 1));
        c.threads = 1;
        c.onchipBytes = liveTileBytes(view, f, bm, bn, bk) * f.pingPong;
        if (c.onchipBytes > f.capacity) {
          log.prune("live tiles x ping_pong_factor > onchip.capacity_bytes");
          continue;
        }
        scoreNpuCandidate(view, f, rates, bm, bn, bk, c);
        selection.ranked.push_back(c);
      }
  selection.pruned = log.take();
  return llvm::Error::success();
}
