//===- WarpgroupTiles.cpp - Tiles of the Hopper wgmma + TMA matmul --------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/WarpgroupTiles.h"

#include "hwsched/Support/Refusal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace hwsched;

namespace {
/// Shared memory the driver keeps per resident block on sm_90 (CUDA C++
/// Programming Guide, "Shared Memory" of compute capability 9.0: 1 KB per
/// block is reserved for system use).
constexpr int64_t kDriverSharedBytesPerBlock = 1024;
/// Registers besides the accumulator: ptxas gave the measured kernels
/// exactly 26 more than their accumulator (154 for 128 accumulator
/// registers, 90 for 64, 58 for 32: descriptors, addresses, loop state);
/// rounded up to the allocation granule.
constexpr int64_t kNonAccumulatorRegisters = 32;
/// Registers are allocated per warp in units of 256 (8 per thread).
constexpr int64_t kRegisterGranule = 8;
/// The wgmma M, and the largest N and TMA box dimension.
constexpr int64_t kWgmmaM = 64;
constexpr int64_t kMaxWgmmaN = 256;
constexpr int64_t kMaxBoxDim = 256;
/// The raster group used when the request leaves it open: on an H100 and
/// an H200 it was never slower than row-by-row order and up to 1.38x
/// faster (8192^3, bench/gpu-runner/README.md).
constexpr int64_t kDefaultRasterGroup = 8;
/// Configurations within this fraction of the best time at the matrix peak
/// count as equally fast: below it, wave quantization is smaller than what
/// the extra memory traffic of smaller tiles costs (at 8192^3 on an H100,
/// 64x64 blocks quantize 2.4% better than 128x256 ones, whose traffic per
/// multiply-add is 2.7x lower; the model has no bandwidth term to weigh
/// them).
constexpr double kEqualTimeTolerance = 0.05;
} // namespace

void WarpgroupTiles::print(llvm::raw_ostream &os) const {
  os << llvm::formatv("block {0}x{1}, {2} warpgroup(s) of {3}x{1}, {4} "
                      "stage(s)",
                      blockM, blockN, warpgroups, warpgroupM(), numStages);
  if (rasterGroup > 1)
    os << ", raster group " << rasterGroup;
  if (producerWarp)
    os << ", producer warp";
}

bool hwsched::isWarpgroupTarget(const HwSpec &spec) {
  std::optional<llvm::StringRef> capability =
      spec.getString("gpu.compute_capability");
  return spec.getKind() == HwKind::Gpu && capability &&
         capability->starts_with("sm_90");
}

llvm::Expected<WarpgroupLimits>
hwsched::readWarpgroupLimits(const HwSpec &spec) {
  if (spec.getKind() != HwKind::Gpu)
    return refuse(nullptr,
                  llvm::formatv("target '{0}' is a {1} spec: wgmma and TMA are "
                                "NVIDIA Hopper (sm_90a) instructions",
                                spec.getName(),
                                stringifyHwKind(spec.getKind())));
  std::optional<llvm::StringRef> capability =
      spec.getString("gpu.compute_capability");
  if (!capability || !capability->starts_with("sm_90"))
    return refuse(
        nullptr,
        llvm::formatv("target '{0}' has compute capability {1}: "
                      "wgmma and TMA need sm_90 (compiled for "
                      "sm_90a); use the mma.sync schedule "
                      "(transform-scripts/gpu-matmul-tensorcore.mlir) "
                      "on other GPUs",
                      spec.getName(), capability ? *capability : "(none)"));
  double f[9];
  if (llvm::Error err = spec.getNumbers(
          {"onchip.capacity_bytes", "gpu.shared_memory_per_sm_bytes",
           "gpu.max_threads_per_block", "gpu.max_threads_per_sm",
           "gpu.max_registers_per_thread", "gpu.registers_per_sm",
           "gpu.sm_count", "compute.peak_matrix_gflops", "pipeline.max_stages"},
          f, "the wgmma + TMA matmul"))
    return std::move(err);
  WarpgroupLimits limits;
  limits.target = spec.getName().str();
  limits.computeCapability = capability->str();
  limits.sharedBytesPerBlock = static_cast<int64_t>(f[0]);
  limits.sharedBytesPerSm = static_cast<int64_t>(f[1]);
  limits.maxThreadsPerBlock = static_cast<int64_t>(f[2]);
  limits.maxThreadsPerSm = static_cast<int64_t>(f[3]);
  limits.maxRegistersPerThread = static_cast<int64_t>(f[4]);
  limits.registersPerSm = static_cast<int64_t>(f[5]);
  limits.smCount = static_cast<int64_t>(f[6]);
  limits.peakMatrixGflops = f[7];
  limits.maxStages = static_cast<int64_t>(f[8]);
  return limits;
}

int64_t hwsched::warpgroupSharedBytes(const WarpgroupTiles &tiles) {
  return tiles.numStages * (tiles.blockM + tiles.blockN) * kWgmmaSwizzleBytes +
         kWgmmaSwizzleAtomBytes;
}

int64_t hwsched::warpgroupAccumulatorRegisters(const WarpgroupTiles &tiles) {
  return tiles.warpgroupM() * tiles.blockN / kThreadsPerWarpgroup;
}

int64_t hwsched::warpgroupRegisters(const WarpgroupTiles &tiles) {
  int64_t regs =
      warpgroupAccumulatorRegisters(tiles) + kNonAccumulatorRegisters;
  return (regs + kRegisterGranule - 1) / kRegisterGranule * kRegisterGranule;
}

namespace {
/// A rule a configuration breaks: a short name (the ranking counts them)
/// and the message for the user.
struct Violation {
  llvm::StringRef rule;
  std::string message;
};
} // namespace

/// The rules of the kernel's shape: how warpgroups, wgmma, TMA boxes and
/// the pipeline prologue cut the problem (independent of the target's
/// resources).
static std::optional<Violation>
findShapeViolation(const WarpgroupProblem &problem, const WarpgroupTiles &t) {
  int64_t blockK = problem.blockK();
  if (t.warpgroups < 1 || t.blockM % (kWgmmaM * t.warpgroups))
    return Violation{"warpgroup rows",
                     llvm::formatv("block_m = {0} does not split into {1} "
                                   "warpgroup(s) of a multiple of "
                                   "64 rows (a wgmma is 64 rows)",
                                   t.blockM, t.warpgroups)
                         .str()};
  // nvgpu.warpgroup.mma.store puts a warpgroup's second 64-row fragment as
  // many rows below the first as a fragment has registers per thread, which
  // is 64 only for 128 columns.
  if (t.warpgroupM() > kWgmmaM && t.blockN != 128)
    return Violation{
        "accumulator store",
        llvm::formatv(
            "a warpgroup of {0} rows x block_n = {1}: the accumulator store "
            "(nvgpu.warpgroup.mma.store) places rows past the first 64 right "
            "only "
            "for 128 columns; use block_n = 128 or 64 rows per warpgroup",
            t.warpgroupM(), t.blockN)
            .str()};
  if (t.blockM > kMaxBoxDim)
    return Violation{
        "TMA box",
        llvm::formatv(
            "block_m = {0} is above 256, the largest TMA box dimension",
            t.blockM)
            .str()};
  if (t.blockN < 64 || t.blockN > kMaxWgmmaN || t.blockN % 64)
    return Violation{"block_n",
                     llvm::formatv("block_n = {0} is not 64, 128, 192 or 256 "
                                   "(a wgmma's N is at most 256, "
                                   "and B is loaded in 64-column chunks)",
                                   t.blockN)
                         .str()};
  if (problem.m % t.blockM || problem.n % t.blockN || problem.k % blockK)
    return Violation{
        "divisibility",
        llvm::formatv(
            "{0}x{1}x{2} is not a whole number of {3}x{4} blocks and {5}-wide "
            "K "
            "steps (partial tiles are not built yet: pad the operands or pick "
            "tiles that divide)",
            problem.m, problem.n, problem.k, t.blockM, t.blockN, blockK)
            .str()};
  if (t.numStages < 2)
    return Violation{
        "stages", llvm::formatv("num_stages = {0}: the ring needs at least 2 "
                                "buffers to overlap a load with the MMAs",
                                t.numStages)
                      .str()};
  int64_t kSteps = problem.k / blockK;
  if (kSteps < t.numStages - 1)
    return Violation{
        "K steps",
        llvm::formatv("K = {0} has {1} steps of {2}, fewer than the "
                      "{3} the prologue of {4} stages loads",
                      problem.k, kSteps, blockK, t.numStages - 1, t.numStages)
            .str()};
  return std::nullopt;
}

/// The target's resources: shared memory, threads and registers.
static std::optional<Violation>
findResourceViolation(const WarpgroupTiles &t, const WarpgroupLimits &limits) {
  int64_t shared = warpgroupSharedBytes(t);
  if (shared > limits.sharedBytesPerBlock)
    return Violation{
        "shared memory per block",
        llvm::formatv(
            "{0} stages of {1} + {2} bytes (+ {3} to align) need {4} bytes of "
            "shared memory, the target allows {5} per block: use fewer stages "
            "or "
            "smaller blocks",
            t.numStages, t.blockM * kWgmmaSwizzleBytes,
            t.blockN * kWgmmaSwizzleBytes, kWgmmaSwizzleAtomBytes, shared,
            limits.sharedBytesPerBlock)
            .str()};
  if (t.threads() > limits.maxThreadsPerBlock)
    return Violation{"threads per block",
                     llvm::formatv("{0} warpgroups are {1} threads, the target "
                                   "allows {2} per block",
                                   t.warpgroups, t.threads(),
                                   limits.maxThreadsPerBlock)
                         .str()};
  int64_t accumulator = warpgroupAccumulatorRegisters(t);
  if (accumulator + kNonAccumulatorRegisters > limits.maxRegistersPerThread)
    return Violation{
        "registers per thread",
        llvm::formatv(
            "a warpgroup's {0}x{1} f32 accumulator takes {2} registers per "
            "thread, with about {3} more the kernel would exceed the target's "
            "{4}: "
            "split the block over more warpgroups or narrow it",
            t.warpgroupM(), t.blockN, accumulator, kNonAccumulatorRegisters,
            limits.maxRegistersPerThread)
            .str()};
  if (warpgroupRegisters(t) * t.threads() > limits.registersPerSm)
    return Violation{"registers per SM",
                     llvm::formatv("{0} threads of about {1} registers need "
                                   "{2}, more than the {3} of an "
                                   "SM: use fewer warpgroups",
                                   t.threads(), warpgroupRegisters(t),
                                   warpgroupRegisters(t) * t.threads(),
                                   limits.registersPerSm)
                         .str()};
  return std::nullopt;
}

/// The first rule `t` breaks for `problem` on the target, shape first.
static std::optional<Violation> findViolation(const WarpgroupProblem &problem,
                                              const WarpgroupTiles &t,
                                              const WarpgroupLimits &limits) {
  if (std::optional<Violation> shape = findShapeViolation(problem, t))
    return shape;
  return findResourceViolation(t, limits);
}

llvm::Error hwsched::checkWarpgroupTiles(const WarpgroupProblem &problem,
                                         const WarpgroupTiles &tiles,
                                         const WarpgroupLimits &limits) {
  if (std::optional<Violation> violation =
          findViolation(problem, tiles, limits))
    return refuse(nullptr, violation->message);
  return llvm::Error::success();
}

/// The figures a configuration is ranked by.
static WarpgroupCandidate measure(const WarpgroupProblem &problem,
                                  const WarpgroupTiles &tiles,
                                  const WarpgroupLimits &limits) {
  WarpgroupCandidate c;
  c.tiles = tiles;
  c.sharedBytes = warpgroupSharedBytes(tiles);
  c.registers = warpgroupRegisters(tiles);
  c.blocks = (problem.m / tiles.blockM) * (problem.n / tiles.blockN);
  c.blocksPerSm = std::min(
      {limits.sharedBytesPerSm / (c.sharedBytes + kDriverSharedBytesPerBlock),
       limits.maxThreadsPerSm / tiles.threads(),
       limits.registersPerSm / (c.registers * tiles.threads())});
  c.blocksOnBusiestSm = (c.blocks + limits.smCount - 1) / limits.smCount;
  c.coResident = std::min(c.blocksPerSm, c.blocksOnBusiestSm);
  // The busiest SM multiplies its blocks' tiles at the SM's share of the
  // matrix peak, whether it runs them one after the other or together.
  double smFlopsPerNs = limits.peakMatrixGflops / limits.smCount;
  double blockFlops = 2.0 * tiles.blockM * tiles.blockN * problem.k;
  c.computeNs = c.blocksOnBusiestSm * blockFlops / smFlopsPerNs;
  // An element of A is used by blockN multiply-adds of a block, one of B by
  // blockM.
  c.globalBytesPerMac =
      problem.inputBytes * (1.0 / tiles.blockN + 1.0 / tiles.blockM);
  // Per 16-deep wgmma a warpgroup reads its A rows once and B once per
  // 64-row fragment: (W_M + W_M / 64 x N) x 16 elements for W_M x N x 16
  // multiply-adds.
  c.sharedBytesPerMac =
      problem.inputBytes * (1.0 / tiles.blockN + 1.0 / kWgmmaM);
  return c;
}

/// True when `a` ranks before `b`: a time within kEqualTimeTolerance of the
/// best counts as the best.
static bool ranksBefore(const WarpgroupCandidate &a,
                        const WarpgroupCandidate &b) {
  auto key = [](const WarpgroupCandidate &c) {
    return std::make_tuple(
        c.nearBest ? 0.0 : c.computeNs, c.globalBytesPerMac,
        c.sharedBytesPerMac, -c.coResident * c.tiles.warpgroups,
        -c.tiles.numStages, c.tiles.threads(), c.tiles.blockM, c.tiles.blockN);
  };
  return key(a) < key(b);
}

/// The first rank key on which `winner` beats `other`, in words.
static std::string whyBefore(const WarpgroupCandidate &winner,
                             const WarpgroupCandidate &other) {
  if (winner.nearBest != other.nearBest ||
      (!winner.nearBest && winner.computeNs != other.computeNs))
    return llvm::formatv(
        "its busiest SM multiplies {0} block(s) in {1:F1} us at the matrix "
        "peak, against {2} in {3:F1} us",
        winner.blocksOnBusiestSm, winner.computeNs / 1000.0,
        other.blocksOnBusiestSm, other.computeNs / 1000.0);
  if (winner.globalBytesPerMac != other.globalBytesPerMac)
    return llvm::formatv("both within {0}% of the best time at the peak "
                         "({1:F1} and {2:F1} us); it reads {3:F4} bytes of A "
                         "and B per multiply-add from memory, against {4:F4}",
                         static_cast<int>(kEqualTimeTolerance * 100),
                         winner.computeNs / 1000.0, other.computeNs / 1000.0,
                         winner.globalBytesPerMac, other.globalBytesPerMac);
  if (winner.sharedBytesPerMac != other.sharedBytesPerMac)
    return llvm::formatv("equal time and memory reads; its MMAs read {0:F4} "
                         "bytes per multiply-add from shared memory, against "
                         "{1:F4}",
                         winner.sharedBytesPerMac, other.sharedBytesPerMac);
  if (winner.coResident * winner.tiles.warpgroups !=
      other.coResident * other.tiles.warpgroups)
    return llvm::formatv("equal time and reads; an SM runs {0} warpgroup(s) "
                         "at once, against {1} (one block's prologue and "
                         "store overlap another's MMAs)",
                         winner.coResident * winner.tiles.warpgroups,
                         other.coResident * other.tiles.warpgroups);
  if (winner.tiles.numStages != other.tiles.numStages)
    return llvm::formatv("equal otherwise; {0} stages keep more loads in "
                         "flight than {1}",
                         winner.tiles.numStages, other.tiles.numStages);
  return "equal on every figure; fewer threads first";
}

void WarpgroupTileChoice::print(llvm::raw_ostream &os, size_t top) const {
  if (ranked.empty())
    return;
  const WarpgroupCandidate &w = ranked.front();
  os << "wgmma tiles: ";
  w.tiles.print(os);
  os << llvm::formatv(" (best of {0} legal of {1})", ranked.size(), enumerated);
  if (ranked.size() > 1)
    os << "; over the runner-up: " << whyBefore(w, ranked[1]);
  os << "\n";
  for (size_t i = 0; i < std::min(top, ranked.size()); ++i) {
    const WarpgroupCandidate &c = ranked[i];
    os << llvm::formatv("  #{0}: ", i + 1);
    c.tiles.print(os);
    os << llvm::formatv(
        " | {0} blocks, {1} per SM at once (busiest SM: {2}), {3:F1} us at "
        "peak, {4:F4} B/MAC from memory, {5:F4} B/MAC from shared memory, "
        "{6} B shared, ~{7} registers\n",
        c.blocks, c.coResident, c.blocksOnBusiestSm, c.computeNs / 1000.0,
        c.globalBytesPerMac, c.sharedBytesPerMac, c.sharedBytes, c.registers);
  }
  for (const auto &[reason, count] : pruned)
    os << llvm::formatv("  pruned by {0}: {1}\n", reason, count);
}

llvm::Expected<WarpgroupTileChoice>
hwsched::chooseWarpgroupTiles(const WarpgroupProblem &problem,
                              const WarpgroupLimits &limits,
                              const WarpgroupTileRequest &request) {
  auto options = [](std::optional<int64_t> fixed,
                    std::vector<int64_t> all) -> std::vector<int64_t> {
    return fixed ? std::vector<int64_t>{*fixed} : all;
  };
  std::vector<int64_t> stages;
  for (int64_t s = 2; s <= std::max<int64_t>(limits.maxStages, 2); ++s)
    stages.push_back(s);
  WarpgroupTileChoice choice;
  std::map<std::string, int64_t> prunedByRule;
  std::string firstMessage;
  for (int64_t bm : options(request.blockM, {64, 128, 192, 256}))
    for (int64_t bn : options(request.blockN, {64, 128, 192, 256}))
      for (int64_t w : options(request.warpgroups, {1, 2, 4}))
        for (int64_t s : options(request.numStages, stages)) {
          WarpgroupTiles tiles;
          tiles.blockM = bm;
          tiles.blockN = bn;
          tiles.warpgroups = w;
          tiles.numStages = s;
          tiles.rasterGroup = request.rasterGroup.value_or(kDefaultRasterGroup);
          tiles.producerWarp = request.producerWarp.value_or(0) != 0;
          ++choice.enumerated;
          if (std::optional<Violation> violation =
                  findViolation(problem, tiles, limits)) {
            if (firstMessage.empty())
              firstMessage = violation->message;
            ++prunedByRule[violation->rule.str()];
            continue;
          }
          WarpgroupCandidate c = measure(problem, tiles, limits);
          if (c.blocksPerSm < 1) {
            ++prunedByRule["does not fit an SM"];
            continue;
          }
          choice.ranked.push_back(c);
        }
  for (auto &[rule, count] : prunedByRule)
    choice.pruned.emplace_back(rule, count);
  if (choice.ranked.empty()) {
    if (request.complete() || choice.enumerated == 1)
      return refuse(nullptr, firstMessage);
    return refuse(nullptr,
                  llvm::formatv("no wgmma tile configuration fits {0}x{1}x{2} "
                                "on {3} ({4} tried); the first refusal: {5}",
                                problem.m, problem.n, problem.k, limits.target,
                                choice.enumerated, firstMessage));
  }
  double best = std::min_element(choice.ranked.begin(), choice.ranked.end(),
                                 [](const WarpgroupCandidate &a,
                                    const WarpgroupCandidate &b) {
                                   return a.computeNs < b.computeNs;
                                 })
                    ->computeNs;
  for (WarpgroupCandidate &c : choice.ranked)
    c.nearBest = c.computeNs <= best * (1 + kEqualTimeTolerance);
  std::stable_sort(choice.ranked.begin(), choice.ranked.end(), ranksBefore);
  return choice;
}
