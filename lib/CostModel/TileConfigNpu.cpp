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

llvm::Error tileconfig::selectNpu(const GemmView &view, const HwSpec &spec,
                                  TileSelection &selection) {
  int64_t cores, pingPong, capacity, alignment, maxStages;
  double clockGhz, peak, bandwidth, mte2Issue = 0, mte3Issue = 0;
  std::pair<llvm::StringRef, int64_t *> ints[] = {
      {"npu.ai_cores", &cores},
      {"npu.ping_pong_factor", &pingPong},
      {"onchip.capacity_bytes", &capacity},
      {"onchip.alignment_bytes", &alignment},
      {"pipeline.max_stages", &maxStages}};
  for (auto &[key, field] : ints)
    if (llvm::Error err = requireInteger(spec, key, *field))
      return err;
  llvm::StringRef peakKey = view.isGemm() && view.inBits < 32
                                ? "compute.peak_matrix_gflops"
                                : "compute.peak_fp32_gflops";
  std::pair<llvm::StringRef, double *> nums[] = {
      {"compute.clock_ghz", &clockGhz},
      {peakKey, &peak},
      {"offchip.bandwidth_gb_per_s", &bandwidth}};
  for (auto &[key, field] : nums)
    if (llvm::Error err = requireNumber(spec, key, *field))
      return err;
  // Copy-engine issue costs are optional refinements.
  if (std::optional<double> v =
          spec.getNumber("pipeline.units.mte2.issue_cycles"))
    mte2Issue = *v;
  if (std::optional<double> v =
          spec.getNumber("pipeline.units.mte3.issue_cycles"))
    mte3Issue = *v;
  llvm::ArrayRef<int64_t> cube = *spec.getIntegerArray("npu.cube_tile");
  cores = std::max<int64_t>(cores, 1);
  pingPong = std::max<int64_t>(pingPong, 1);
  alignment = std::max<int64_t>(alignment, 1);

  llvm::SmallVector<int64_t> bms, bns, bks;
  for (int64_t mult : {1, 2, 4, 8, 16}) {
    if (view.isGemm()) {
      bms.push_back(cube[0] * mult);
      bns.push_back(cube[1] * mult);
      bks.push_back(cube[2] * mult);
    }
  }
  if (!view.isGemm()) {
    // Vector ops: rows x a contiguous run that is a multiple of the fractal
    // width (cube-friendly, 32-byte aligned for f16/f32).
    bms = view.hasN() ? llvm::SmallVector<int64_t>{1, 2, 4, 8, 16, 32, 64}
                      : llvm::SmallVector<int64_t>{16, 32, 64, 128, 256};
    bns = view.hasN() ? llvm::SmallVector<int64_t>{16,  32,   64,   128, 256,
                                                   512, 1024, 2048, 4096}
                      : llvm::SmallVector<int64_t>{1};
    bks = view.hasK()
              ? llvm::SmallVector<int64_t>{16, 32, 64, 128, 256, 512, 1024}
              : llvm::SmallVector<int64_t>{1};
  }
  double perCoreFlopsPerNs = peak / cores;
  double perCoreBytesPerNs = bandwidth / cores;
  double issueNs = (mte2Issue + mte3Issue) / clockGhz;
  PruneLog log;
  auto aligned = [&](int64_t bytes) { return roundUp(bytes, alignment); };

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
        c.tm = view.isGemm() ? cube[0] : 1;
        c.tn = view.isGemm() ? cube[1] : 1;
        c.tk = view.isGemm() ? cube[2] : 0;
        c.stages = std::min<int64_t>(pingPong, std::max<int64_t>(maxStages, 1));
        c.threads = 1;
        int64_t live;
        if (view.isGemm())
          live = aligned(bm * bk * view.inBytes) +
                 aligned(bk * bn * view.inBytes) +
                 aligned(bm * bn * view.accBytes);
        else if (view.hasK())
          live = aligned(bm * bk * view.inBytes) + aligned(bm * view.accBytes);
        else
          live = view.numOperands * aligned(bm * bn * view.inBytes);
        c.onchipBytes = live * pingPong;
        if (c.onchipBytes > capacity) {
          log.prune("live tiles x ping_pong_factor > onchip.capacity_bytes");
          continue;
        }
        c.blocks = view.batch * ceilDiv(view.mPad, bm) *
                   (view.hasN() ? ceilDiv(view.nPad, bn) : 1);
        c.waves = static_cast<double>(c.blocks) / cores;
        c.waveEfficiency = c.blocks / (std::ceil(c.waves) * cores);
        c.occupancy = c.occupancyFactor = 1.0;
        int64_t kTiles = view.hasK() ? ceilDiv(view.kPad, bk) : 1;
        double stepCompute, stepCopy, outCopy;
        if (view.isGemm()) {
          stepCompute = 2.0 * bm * bn * bk / perCoreFlopsPerNs;
          stepCopy = (bm * bk + bk * bn) * view.inBytes / perCoreBytesPerNs;
          outCopy = bm * bn * view.accBytes / perCoreBytesPerNs;
        } else if (view.hasK()) {
          stepCompute = static_cast<double>(bm) * bk / perCoreFlopsPerNs;
          stepCopy =
              static_cast<double>(bm) * bk * view.inBytes / perCoreBytesPerNs;
          outCopy = bm * view.accBytes / perCoreBytesPerNs;
        } else {
          stepCompute = static_cast<double>(bm) * bn / perCoreFlopsPerNs;
          stepCopy = static_cast<double>(bm) * bn * view.inBytes *
                     std::max<int64_t>(view.numOperands - 1, 1) /
                     perCoreBytesPerNs;
          outCopy = bm * bn * view.accBytes / perCoreBytesPerNs;
        }
        double step = pingPong >= 2 ? std::max(stepCompute, stepCopy)
                                    : stepCompute + stepCopy;
        double blockNs = kTiles * (step + issueNs) + outCopy;
        c.computeNs = c.blocks * kTiles * stepCompute / cores;
        c.memoryNs = c.blocks * (kTiles * stepCopy + outCopy) / cores;
        c.timeNs = std::ceil(c.waves) * blockNs;
        selection.ranked.push_back(c);
      }
  selection.pruned = log.take();
  return llvm::Error::success();
}
