//===- TileConfigCpu.cpp - CPU rules of select_tile_config ----------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// BLIS-style loop nest: cache tiles MC x NC x KC around a register
// kernel of MR rows x NR columns (NR = NRV vectors of cpu.vector_width_bits)
// that steps K by 1 (an outer product: MR broadcasts of A, NRV loads of B,
// MR*NRV FMAs into accumulators held in registers across the K tile).
//  - vector registers: MR*NRV accumulators + 2 x NRV B vectors + 1
//    broadcast <= cpu.vector_registers. The B vectors count twice because
//    the kernel is compiled, not hand-scheduled: the compiler loads the next
//    K step's B vectors before the current step's FMAs (to cover the load
//    latency), so a tile that fills the register file to the last register
//    spills. Measured on the conv-like sweep (bench/tileconfig): 14x32
//    (28 accumulators + 2 + 1 = 31 of 32 registers) ran 14% below 28x16
//    (30 registers with one B vector) and 4x64; the matmul picks (8x32,
//    4x64) are below both counts;
//  - L1: the kernel's A sliver (MR x KC), reused across the NR loop,
//    <= cpu.l1d_bytes / 2 (the rest for the streamed B and C lines);
//  - L2: the cache tile's B panel (KC x NC) and C block (MC x NC), which
//    the register-tile loops reuse, <= cpu.l2_bytes / 2 (unpacked operands
//    with power-of-two leading dimensions conflict in few sets), and an
//    unpacked B panel's rows span no more than L2. An operand the schedule
//    packs (TileProblem::packed*, the op's packed_operands) is contiguous:
//    it counts at its size against the whole L2 (packed + 2 x unpacked
//    <= L2) and the span bound does not apply;
//  - tiles divide the static extents (a remainder tile would need masked
//    vectors); if nothing divides, remainders are allowed with a note.
//  - threads (GEMMs): the schedule runs its column panels (NC blocks, times
//    the batch) in parallel on cpu.cores threads, each thread packing its
//    own B panel; the busiest thread runs ceil(panels / threads) of them,
//    so panel counts that are multiples of the thread count score best.
// Score (ns): the larger of compute and memory (hardware prefetch overlaps
// them), per thread. Compute: K steps x cycles per step, where a step costs
// max(MR*NRV / FMA units, (MR + NRV) / load units, FMA latency) + 1 cycles
// (loop overhead), plus loading and storing the accumulators once per K
// tile, over the busiest thread's share. Memory: the off-chip traffic over
// the bandwidth of the threads used (cores' shares of
// offchip.bandwidth_gb_per_s): A and B read once, C read and written once
// (its block stays in L2 across the K tiles), B's packed panel re-read per
// MC block (every L2 miss priced at the off-chip rate, a conservative
// stand-in for the L3 the spec gives no bandwidth for), and A re-read per
// NC panel: at a quarter of the off-chip price while A stays in the L3
// between panels (kL3OverOffchipBandwidth), at the full price when it does
// not. And a GEMM's off-chip streams are only partly hidden behind its
// FMAs: the smaller of compute and memory counts at kOffchipOverlapLoss on
// top of the larger. Why: on the tuning bench (bench/tuning, AMD EPYC Zen 3
// class, one core, 4096x256x1024) an unpacked A of 16 MiB leaves the
// 32 MiB L3 between NC panels, and 16- and 32-column panels, which re-read
// it 16 and 8 times, ran 1.3-1.5x slower than 128- and 256-column ones;
// the pure max(compute, memory) score rated them all equal: its Kendall
// tau over its own top 40 was -0.19 to -0.25 there (three runs), 0.30 to
// 0.37 with these terms, and 0.19 to 0.34 at 1024^3 (bench/tuning/
// RESULTS.md).
// Plus a cold-start load latency per cache tile and K tile.
//  - L3 (GEMMs): each thread's packed K x NC panel, re-read by its MC
//    blocks, fits its share of the L3: cpu.l3_bytes over the threads on one
//    L3 (min(threads, cpu.l3_sharing_cores)); candidates over it are
//    dropped unless nothing else is left.
//    A stays in the L3 between its NC panels when it counts twice (it is
//    unpacked: power-of-two leading dimensions conflict in few sets, as in
//    L2) beside the packed panels of the threads on that L3: 2 x M x K
//    + threads x K x NC <= cpu.l3_bytes.
// Stages = pipeline.max_stages (prefetch depth).
//
//===----------------------------------------------------------------------===//

#include "TileConfigRules.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace hwsched;
using namespace hwsched::tileconfig;

/// Loop control and address arithmetic per K step of the register kernel
/// that the out-of-order core does not hide behind the FMAs (a modelling
/// constant, not a spec figure).
static constexpr double kLoopOverheadCycles = 1.0;

/// The share of the smaller of a GEMM's compute and off-chip time that is
/// not hidden behind the larger (a modelling constant; replaying the tuning
/// bench's recorded sweeps, the ranking of the skinny shape is the same
/// from 0.25 to 1.0, and 0 rates its 16-column panels, measured 1.4x
/// slower, equal to the best).
static constexpr double kOffchipOverlapLoss = 0.5;

/// How much faster the L3 serves a core's re-reads than its share of the
/// off-chip bandwidth (a modelling constant: the specs give no L3
/// bandwidth; x86 server L3s deliver some 16-32 bytes per cycle to a core,
/// several times a core's share of DRAM). An operand re-read from the L3
/// is priced at this fraction of its off-chip bytes.
static constexpr double kL3OverOffchipBandwidth = 4.0;

namespace {
struct CpuFigures {
  int64_t vectorBits, vectorRegs, l1, l2, l3, cores, maxStages, fmaUnits;
  int64_t l3Sharing = 0;
  double clockGhz, bandwidth, loadUnits = 1, fmaLatency = 1, loadLatency = 0;
};
} // namespace

/// Candidate block sizes: multiples of `unit` up to `limit`, powers of two
/// times the unit plus the whole extent.
static llvm::SmallVector<int64_t> blockSizes(int64_t unit, int64_t extent,
                                             int64_t limit) {
  llvm::SmallVector<int64_t> sizes;
  for (int64_t s = unit; s <= std::min(extent, limit); s *= 2)
    sizes.push_back(s);
  for (int64_t mult : {3, 6, 12, 24, 48})
    if (unit * mult <= std::min(extent, limit))
      sizes.push_back(unit * mult);
  if (extent <= limit)
    sizes.push_back(extent);
  llvm::sort(sizes);
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

/// The figures the CPU rules read from the spec: the required ones (a
/// refusal naming the first missing key), the optional unit figures, and
/// the L3 sharing and L2 cap.
static llvm::Error readCpuFigures(const HwSpec &spec, CpuFigures &f) {
  std::pair<llvm::StringRef, int64_t *> ints[] = {
      {"cpu.vector_width_bits", &f.vectorBits},
      {"cpu.vector_registers", &f.vectorRegs},
      {"cpu.l1d_bytes", &f.l1},
      {"cpu.l2_bytes", &f.l2},
      {"cpu.l3_bytes", &f.l3},
      {"cpu.cores", &f.cores},
      {"cpu.fma_units_per_core", &f.fmaUnits},
      {"pipeline.max_stages", &f.maxStages}};
  for (auto &[key, field] : ints)
    if (llvm::Error err = requireInteger(spec, key, *field))
      return err;
  std::pair<llvm::StringRef, double *> nums[] = {
      {"compute.clock_ghz", &f.clockGhz},
      {"offchip.bandwidth_gb_per_s", &f.bandwidth}};
  for (auto &[key, field] : nums)
    if (llvm::Error err = requireNumber(spec, key, *field))
      return err;
  if (std::optional<double> v = spec.getNumber("pipeline.units.load.count"))
    f.loadUnits = std::max(*v, 1.0);
  if (std::optional<double> v =
          spec.getNumber("pipeline.units.load.latency_cycles"))
    f.loadLatency = *v;
  if (std::optional<double> v =
          spec.getNumber("pipeline.units.vector.latency_cycles"))
    f.fmaLatency = std::max(*v, 1.0);
  f.cores = std::max<int64_t>(f.cores, 1);
  // One L3 instance serves this many cores (all of them when the spec does
  // not say).
  f.l3Sharing = std::max<int64_t>(
      spec.getInteger("cpu.l3_sharing_cores").value_or(f.cores), 1);
  // The L2 figure of the spec is the on-chip capacity overridable with
  // l2_limit_bytes; prefer it when it is lower.
  if (std::optional<int64_t> cap = spec.getInteger("onchip.capacity_bytes"))
    f.l2 = std::min(f.l2, *cap);
  return llvm::Error::success();
}

namespace {
/// What the enumeration of one problem shares: its figures, the vector
/// lanes, each thread's share of the bandwidth, and what it records.
struct CpuSearch {
  const GemmView &view;
  const CpuFigures &f;
  TileSelection &selection;
  PruneLog &log;
  int64_t lanes = 1;
  double bytesPerNs = 0;
};

/// One register kernel: MR rows x NRV vectors (NR columns), its effective
/// rows (MR x lanes for reductions) and vector registers.
struct RegisterKernel {
  int64_t mr, nrv, nr, mrEff, regs;
};
} // namespace

/// Whether `tile` divides the static `extent` (no remainder tile).
static bool dividesExtent(int64_t tile, int64_t extent) {
  return tile <= extent && extent % tile == 0;
}

/// The cache rules for one candidate, in the order they are counted: the A
/// sliver in L1, the span of an unpacked B panel's rows, and the L2 working
/// set. False (and a prune counted) when one fails; `c.l1Bytes` and
/// `c.onchipBytes` are set either way.
static bool fitsCacheRules(CpuSearch &s, const RegisterKernel &kernel,
                           int64_t mc, int64_t nc, int64_t kc,
                           TileCandidate &c) {
  const GemmView &view = s.view;
  const CpuFigures &f = s.f;
  PruneLog &log = s.log;
  int64_t mrEff = kernel.mrEff, nr = kernel.nr;
  c.l1Bytes = view.isGemm() ? mrEff * kc * view.inBytes
                            : mrEff * nr * kc * view.inBytes *
                                  std::max<int64_t>(view.numOperands, 1);
  // The A sliver is reused across the NR loop from L1; half of L1 stays for
  // the streamed B and C lines.
  if (2 * c.l1Bytes > f.l1) {
    log.prune("register kernel A sliver > cpu.l1d_bytes / 2");
    return false;
  }
  // GEMMs: what L2 must hold across the register-tile loops of one K tile,
  // the B panel (reused by every MR sliver) and the C block (reloaded every
  // K tile). The A block is not reused from L2: each MR sliver comes in
  // once and is reused from L1.
  c.onchipBytes = view.isGemm()
                      ? kc * nc * view.inBytes + mc * nc * view.accBytes
                      : mc * nc * kc * view.inBytes *
                            std::max<int64_t>(view.numOperands, 1);
  // Unpacked operands: rows sit a leading dimension apart and, with
  // power-of-two leading dimensions, fall into few cache sets, so an
  // unpacked tile gets half of L2 (measured: B panel + C block of 768 KiB,
  // 60% of L2, ran at half the speed of 384 KiB at 1024^3 and 2048^3 and 8%
  // slower at 512^3). A packed tile (packed_operands) is one contiguous
  // range, whose lines spread over all sets: it counts at its size. So
  // packed bytes + 2 x unpacked bytes <= L2 (for nothing packed, the working
  // set <= L2 / 2).
  // Elementwise ops and reductions stream (no reuse).
  // Lines within an address range no larger than the cache never conflict
  // (each set receives at most its ways from it); an unpacked B panel's KC
  // rows lie N elements apart (row-major B), so its range must fit L2 for
  // the panel to stay there. A packed panel is contiguous: no such bound.
  if (view.isGemm() && !view.packedB &&
      (kc - 1) * view.n * view.inBytes + nc * view.inBytes > f.l2) {
    log.prune("B panel rows span > cpu.l2_bytes");
    return false;
  }
  if (view.isGemm()) {
    int64_t bBytes = kc * nc * view.inBytes;
    int64_t cBytes = mc * nc * view.accBytes;
    int64_t weighted =
        (view.packedB ? 1 : 2) * bBytes + (view.packedC ? 1 : 2) * cBytes;
    if (weighted > f.l2) {
      log.prune(view.packedB || view.packedC
                    ? "cache tile working set (unpacked operands "
                      "twice) > cpu.l2_bytes"
                    : "cache tile working set > cpu.l2_bytes / 2");
      return false;
    }
  } else if (c.onchipBytes > f.l2) {
    log.prune("cache tile working set > cpu.l2_bytes");
    return false;
  }
  return true;
}

/// The score of a candidate that fits the caches (see the file header):
/// its threads and rounds, the register kernel's compute, the off-chip
/// traffic, whether a thread's packed panel exceeds its L3 share, and the
/// cold-start latency.
static void scoreCpuCandidate(const CpuSearch &s, const RegisterKernel &kernel,
                              int64_t mc, int64_t nc, int64_t kc,
                              TileCandidate &c) {
  const GemmView &view = s.view;
  const CpuFigures &f = s.f;
  int64_t mr = kernel.mr, nrv = kernel.nrv, nr = kernel.nr,
          mrEff = kernel.mrEff;
  c.blocks = view.batch * ceilDiv(view.m, mc) *
             (view.hasN() ? ceilDiv(view.n, nc) : 1);
  // GEMMs run their column panels on the cores; the busiest thread runs
  // `rounds` of them.
  int64_t panels = view.isGemm() ? view.batch * ceilDiv(view.n, nc) : 1;
  c.panelThreads = std::min(f.cores, panels);
  int64_t rounds = ceilDiv(panels, c.panelThreads);
  double busiestShare =
      static_cast<double>(rounds) / static_cast<double>(panels);
  c.waves = static_cast<double>(rounds);
  c.waveEfficiency = static_cast<double>(panels) / (rounds * c.panelThreads);
  c.occupancyFactor = c.occupancy = 1.0;
  // Register kernel: cycles per K step.
  double fmas = static_cast<double>(mr * nrv);
  double loads = view.isGemm() ? static_cast<double>(mr + nrv)
                               : fmas * (view.numOperands - 1);
  // One cycle per K step of loop and address work that does not overlap
  // the kernel (it is what makes wider register tiles pay off beyond the
  // latency bound).
  double stepCycles = std::max({fmas / f.fmaUnits, loads / f.loadUnits,
                                view.hasK() ? f.fmaLatency : 0.0}) +
                      kLoopOverheadCycles;
  double kernels = static_cast<double>(view.batch) * ceilDiv(view.m, mrEff) *
                   (view.hasN() ? ceilDiv(view.n, nr) : 1);
  double kSteps = view.hasK() ? static_cast<double>(view.k) : 1.0;
  double kTiles = view.hasK() ? static_cast<double>(ceilDiv(view.k, kc)) : 1.0;
  double accCycles = 2.0 * fmas / f.loadUnits;
  c.computeNs = busiestShare * kernels *
                (kSteps * stepCycles + kTiles * accCycles) / f.clockGhz;
  double traffic;
  if (view.isGemm()) {
    // The threads on one L3 share it: each keeps its packed K x NC panel
    // there while its MC blocks re-read it, and A stays beside the panels
    // when it fits twice over (unpacked).
    int64_t threadsOnL3 = std::min(c.panelThreads, f.l3Sharing);
    double panelBytes = static_cast<double>(view.k) * nc * view.inBytes;
    double aBytes = static_cast<double>(view.m) * view.k * view.inBytes;
    double bBytes = static_cast<double>(view.k) * view.n * view.inBytes;
    c.panelOverL3 = panelBytes > static_cast<double>(f.l3) / threadsOnL3;
    bool aInL3 =
        2.0 * aBytes + threadsOnL3 * panelBytes <= static_cast<double>(f.l3);
    double aRereads = aBytes * (ceilDiv(view.n, nc) - 1) /
                      (aInL3 ? kL3OverOffchipBandwidth : 1.0);
    // B's panel re-reads (per MC block) stay priced at the off-chip rate, a
    // conservative stand-in that keeps MC blocks large enough to amortize a
    // panel's stream (the calibration of bench/cpu-matmul's picks).
    double bRereads = bBytes * (ceilDiv(view.m, mc) - 1);
    traffic = view.batch * (aBytes + bBytes + aRereads + bRereads +
                            // C once: the K loop runs inside the cache tile,
                            // whose C block is part of the L2 working set, so
                            // the per-K-tile re-reads stay in L2.
                            2.0 * view.m * view.n * view.accBytes);
  } else {
    traffic = view.offchipBytes(mc, nc);
  }
  c.memoryNs = traffic / (s.bytesPerNs * c.panelThreads);
  // Hardware prefetch overlaps the off-chip streams with the kernel, but
  // not all of a GEMM's (see the file header); each cache tile starts with
  // cold loads (load latency).
  double overlapLoss =
      view.isGemm() ? kOffchipOverlapLoss * std::min(c.computeNs, c.memoryNs)
                    : 0.0;
  c.timeNs = std::max(c.computeNs, c.memoryNs) + overlapLoss +
             busiestShare * c.blocks * kTiles * f.loadLatency / f.clockGhz;
}

/// One cache tile (MC x NC x KC) around `kernel`: counted, pruned when it
/// does not divide the extents (`strict`) or breaks a cache rule, else
/// scored into the selection.
static void tryCacheTile(CpuSearch &s, const RegisterKernel &kernel, int64_t mc,
                         int64_t nc, int64_t kc, bool strict) {
  const GemmView &view = s.view;
  ++s.selection.enumerated;
  if (strict && (!dividesExtent(mc, view.m) ||
                 (view.hasN() && !dividesExtent(nc, view.n)) ||
                 (view.hasK() && !dividesExtent(kc, view.k)))) {
    s.log.prune("cache tile does not divide the extent");
    return;
  }
  TileCandidate c;
  c.bm = mc;
  c.bn = nc;
  c.bk = view.hasK() ? kc : 0;
  c.tm = kernel.mrEff;
  c.tn = kernel.nr;
  c.tk = view.hasK() ? 1 : 0;
  c.stages = std::max<int64_t>(s.f.maxStages, 1);
  c.threads = 1;
  c.registers = kernel.regs;
  if (!fitsCacheRules(s, kernel, mc, nc, kc, c))
    return;
  scoreCpuCandidate(s, kernel, mc, nc, kc, c);
  s.selection.ranked.push_back(c);
}

/// Every register kernel (NRV x MR) and, around the ones that fit the
/// registers (and divide the extents when `strict`), every cache tile.
static void enumerateCpuCandidates(CpuSearch &s, bool strict) {
  const GemmView &view = s.view;
  for (int64_t nrv = 1; nrv <= 8; ++nrv)
    for (int64_t mr = 1; mr <= 16; ++mr) {
      RegisterKernel kernel;
      kernel.mr = mr;
      kernel.nrv = nrv;
      kernel.nr = view.hasN() ? nrv * s.lanes : 1;
      if (!view.hasN() && nrv > 1)
        continue;
      kernel.regs = view.isGemm()
                        ? mr * nrv + 2 * nrv + 1
                        : mr * nrv * std::max<int64_t>(view.numOperands, 1);
      kernel.mrEff = view.hasN() ? mr : mr * s.lanes;
      if (kernel.regs > s.f.vectorRegs) {
        ++s.selection.enumerated;
        s.log.prune("vector registers > cpu.vector_registers");
        continue;
      }
      if (strict && (!dividesExtent(kernel.mrEff, view.m) ||
                     (view.hasN() && !dividesExtent(kernel.nr, view.n)))) {
        ++s.selection.enumerated;
        s.log.prune("register tile does not divide the extent");
        continue;
      }
      for (int64_t mc : blockSizes(kernel.mrEff, view.m, 4096))
        for (int64_t nc : view.hasN() ? blockSizes(kernel.nr, view.n, 4096)
                                      : llvm::SmallVector<int64_t>{1})
          for (int64_t kc :
               view.hasK()
                   ? blockSizes(std::min<int64_t>(16, view.k), view.k, 2048)
                   : llvm::SmallVector<int64_t>{1})
            tryCacheTile(s, kernel, mc, nc, kc, strict);
    }
}

/// A thread's packed panel larger than its share of the L3 is re-read from
/// memory by every MC block, competing with the other threads: drop such
/// candidates unless nothing else is left (a K too long for any panel).
static void dropPanelsOverL3(TileSelection &selection, PruneLog &log) {
  auto overL3 = [](const TileCandidate &c) { return c.panelOverL3; };
  int64_t over = llvm::count_if(selection.ranked, overL3);
  if (over > 0 && over < static_cast<int64_t>(selection.ranked.size())) {
    llvm::erase_if(selection.ranked, overL3);
    for (int64_t i = 0; i < over; ++i)
      log.prune("packed B panel (K x NC) > the thread's share of "
                "cpu.l3_bytes (over min(threads, cpu.l3_sharing_cores))");
  } else if (over > 0) {
    selection.notes.push_back(
        "every packed B panel (K x NC) exceeds a thread's share of the L3: "
        "kept, re-read from memory per MC block");
  }
}

llvm::Error tileconfig::selectCpu(const GemmView &view, const HwSpec &spec,
                                  TileSelection &selection) {
  CpuFigures f;
  if (llvm::Error err = readCpuFigures(spec, f))
    return err;
  PruneLog log;
  CpuSearch s{view, f, selection, log};
  s.lanes = std::max<int64_t>(f.vectorBits / view.inBits, 1);
  s.bytesPerNs = f.bandwidth / f.cores;
  enumerateCpuCandidates(s, /*strict=*/true);
  if (selection.ranked.empty()) {
    selection.notes.push_back(
        "no register/cache tile divides the extents: remainder tiles allowed "
        "(vectorize with masking or peel)");
    enumerateCpuCandidates(s, /*strict=*/false);
  }
  dropPanelsOverL3(selection, log);
  selection.pruned = log.take();
  return llvm::Error::success();
}
