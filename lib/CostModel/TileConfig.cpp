//===- TileConfig.cpp - Bolt-style tile configuration selection -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The target-independent part: the GEMM view of a loop nest, padding,
// ranking, and the expansion of the winner back to per-loop tile sizes.
//
//===----------------------------------------------------------------------===//

#include "TileConfigRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TimeProfiler.h"

#include <algorithm>
#include <cmath>

using namespace hwsched;
using namespace hwsched::tileconfig;

/// Extent assumed for a dynamic GEMM dimension: the largest block tile any
/// rule enumerates, so that no candidate is dropped as "larger than the
/// problem" and the pick stays valid (if not tuned) for any runtime size.
static constexpr int64_t kAssumedDynamicExtent = 256;

/// Relative difference below which two estimated times are a tie.
static constexpr double kTieTolerance = 0.01;

llvm::StringRef hwsched::stringifyTileProblemKind(TileProblem::Kind kind) {
  switch (kind) {
  case TileProblem::Kind::Contraction:
    return "contraction";
  case TileProblem::Kind::Convolution:
    return "convolution";
  case TileProblem::Kind::Elementwise:
    return "elementwise";
  case TileProblem::Kind::Reduction:
    return "reduction";
  }
  return "?";
}

llvm::StringRef hwsched::stringifyTileProblemRole(TileProblem::Role role) {
  switch (role) {
  case TileProblem::Role::Lhs:
    return "M x K (lhs)";
  case TileProblem::Role::Rhs:
    return "K x N (rhs)";
  case TileProblem::Role::Acc:
    return "M x N (acc)";
  case TileProblem::Role::Other:
    return "none";
  }
  return "?";
}

double GemmView::work(int64_t bm, int64_t bn) const {
  double mm = static_cast<double>(roundUp(mPad, std::max<int64_t>(bm, 1)));
  double nn = static_cast<double>(roundUp(nPad, std::max<int64_t>(bn, 1)));
  double perElement = isGemm() ? 2.0 * kPad : static_cast<double>(kPad);
  return batch * mm * nn * perElement;
}

double GemmView::offchipBytes(int64_t bm, int64_t bn) const {
  double blocksM = static_cast<double>(ceilDiv(mPad, std::max<int64_t>(bm, 1)));
  double blocksN = static_cast<double>(ceilDiv(nPad, std::max<int64_t>(bn, 1)));
  double out = static_cast<double>(batch) * mPad * nPad * accBytes;
  if (isGemm())
    // Each block streams its A rows and B columns over the whole K.
    return batch * blocksM * blocksN *
               (static_cast<double>(bm) * kPad +
                static_cast<double>(bn) * kPad) *
               inBytes +
           out;
  // Elementwise and reductions read every input element once.
  double inputs = static_cast<double>(std::max<int64_t>(numOperands - 1, 1));
  return static_cast<double>(batch) * mPad * nPad * kPad * inputs * inBytes +
         out;
}

void PruneLog::prune(llvm::StringRef rule) {
  for (auto &entry : counts)
    if (entry.first == rule) {
      ++entry.second;
      return;
    }
  counts.emplace_back(rule.str(), 1);
}

llvm::Error tileconfig::requireNumber(const HwSpec &spec, llvm::StringRef key,
                                      double &out) {
  std::optional<double> value = spec.getNumber(key);
  if (!value)
    return refuse(nullptr, "spec '" + spec.getName() + "' (" + spec.getPath() +
                               ") has no '" + key +
                               "', which the tile rules need");
  out = *value;
  return llvm::Error::success();
}

llvm::Error tileconfig::requireInteger(const HwSpec &spec, llvm::StringRef key,
                                       int64_t &out) {
  std::optional<int64_t> value = spec.getInteger(key);
  if (!value)
    return refuse(nullptr, "spec '" + spec.getName() + "' (" + spec.getPath() +
                               ") has no integer '" + key +
                               "', which the tile rules need");
  out = *value;
  return llvm::Error::success();
}

/// Product of the extents of `dims`; sets `dynamic` when one is unknown.
static int64_t groupExtent(const TileProblem &problem,
                           llvm::ArrayRef<unsigned> dims, bool &dynamic) {
  int64_t product = 1;
  for (unsigned d : dims) {
    int64_t extent = problem.loopExtents[d];
    if (extent == kDynamicExtent) {
      dynamic = true;
      continue;
    }
    product *= extent;
  }
  if (dynamic)
    return std::max<int64_t>(product, kAssumedDynamicExtent);
  return product;
}

/// Distributes a tile of `tile` elements of a dim group over its loops,
/// innermost first: the innermost loops are covered fully before an outer
/// loop gets more than 1.
static void distribute(const TileProblem &problem,
                       llvm::ArrayRef<unsigned> dims, int64_t tile,
                       llvm::SmallVectorImpl<int64_t> &out) {
  int64_t remaining = std::max<int64_t>(tile, 1);
  for (unsigned d : llvm::reverse(dims)) {
    int64_t extent = problem.loopExtents[d];
    if (extent == kDynamicExtent || extent >= remaining) {
      out[d] = remaining;
      remaining = 1;
      continue;
    }
    out[d] = extent;
    remaining = std::max<int64_t>(remaining / extent, 1);
  }
}

void hwsched::expandToLoops(const TileProblem &problem, const TileCandidate &c,
                            TileSelection &s) {
  size_t rank = problem.loopExtents.size();
  s.tileSizes.assign(rank, 0);
  s.threadTileSizes.assign(rank, 0);
  s.reductionTileSizes.assign(rank, 0);
  for (unsigned d : problem.batch)
    s.tileSizes[d] = 1;
  distribute(problem, problem.m, c.bm, s.tileSizes);
  distribute(problem, problem.n, c.bn, s.tileSizes);
  distribute(problem, problem.k, c.bk, s.reductionTileSizes);
  llvm::SmallVector<int64_t> thread(rank, 0);
  distribute(problem, problem.m, c.tm, thread);
  distribute(problem, problem.n, c.tn, thread);
  // A loop whose block tile is 1 needs no per-thread tiling; leaving it at 0
  // keeps the number of non-zero sizes equal to the mapped thread dims.
  for (unsigned d = 0; d < rank; ++d)
    s.threadTileSizes[d] =
        (s.tileSizes[d] == 1 && thread[d] <= 1) ? 0 : thread[d];
  s.numStages = c.stages;
  s.splitK = c.splitK;
  // num_threads: the trip counts of the thread-level forall that tiles the
  // block tile by the thread tile, one per loop with a non-zero thread tile,
  // innermost first (x, y, z). This is BN / TN x BM / TM when the block tile
  // fits the problem; where it was clamped to a small extent (a 2 x 3 matmul
  // in a 16 x 16 candidate) the forall runs fewer threads, and the block
  // dims must say so. Block dims are three: outer loops beyond the third
  // mapped one get thread tile 0 (each thread walks them whole).
  s.numThreads = {1, 1, 1};
  // CPU GEMMs: the threads that run the column panels.
  if (c.panelThreads > 0) {
    s.numThreads = {c.panelThreads, 1, 1};
    return;
  }
  if (c.threads <= 1)
    return;
  // The tensor-core kernel maps its warps linearly: one thread dimension.
  if (c.mmaSync) {
    s.numThreads = {c.threads, 1, 1};
    return;
  }
  unsigned mapped = 0;
  for (unsigned d = rank; d-- > 0;) {
    if (s.threadTileSizes[d] <= 0)
      continue;
    if (mapped == 3) {
      s.threadTileSizes[d] = 0;
      continue;
    }
    s.numThreads[mapped++] = ceilDiv(s.tileSizes[d], s.threadTileSizes[d]);
  }
}

static std::string describe(const TileCandidate &c) {
  std::string text =
      llvm::formatv("{0}x{1}x{2} tile, {3}x{4} {5} tile, {6} stages", c.bm,
                    c.bn, c.bk, c.tm, c.tn, c.mmaSync ? "warp" : "inner",
                    c.stages)
          .str();
  if (c.splitK > 1)
    text += llvm::formatv(", split-K {0}", c.splitK).str();
  return text;
}

/// How a candidate's grid occupies the SMs, counted in rounds of one block
/// per SM (the busiest SM runs ceil(blocks / SMs) blocks): the SMs its only
/// (or last) round busies, and the share of the SM time the whole grid
/// keeps busy (its wave efficiency).
static std::string describeGrid(const TileCandidate &c, int64_t sms) {
  int64_t rounds = ceilDiv(c.blocks, sms);
  int64_t share = std::lround(100.0 * c.waveEfficiency);
  if (rounds <= 1)
    return llvm::formatv("busies {0}/{1} SMs in its only wave ({2}%)", c.blocks,
                         sms, share)
        .str();
  return llvm::formatv("busies {0}/{0} SMs, {1} blocks on the busiest and "
                       "{2} SMs with a block in the last round ({3}% of the "
                       "SM time)",
                       sms, rounds, c.blocks - (rounds - 1) * sms, share)
      .str();
}

/// SM fill (GPU; Bolt: small problems need small threadblocks, or here
/// split-K, so that enough blocks keep every SM busy). When the best-scored
/// candidate's grid keeps less than `cost_weights.sm_fill_threshold` of the
/// SM time busy (its wave efficiency: for a grid of one wave, the share of
/// SMs that have a block), the fastest candidate at or above the threshold
/// is picked instead, if there is one.
///
/// Why a rule beside the score rather than a heavier wave term in it: the
/// score already divides by the wave efficiency, and on these problems it is
/// least reliable. A grid of under two waves runs for ~1-10 us, where the
/// estimate is dominated by fixed latencies (pipeline fill, the split-K
/// reduce step) taken from spec figures, and its roofline gives every busy
/// SM the whole chip's off-chip bandwidth, so an idle SM costs only its
/// compute: the outstanding loads (memory-level parallelism) and the L1 /
/// shared-memory bandwidth of the idle SMs are not modelled. Bolt measured
/// the fill preference; we apply it as a stated rule and keep the scores
/// as estimated, so `explain` shows what the rule costs by the model's own
/// account (e.g. "estimated 16.8% slower") and a user can move or disable
/// the threshold in the spec or inline (0 never applies it). The default,
/// 0.66, is below 2/3: a grid of at least two full waves has an efficiency
/// of at least 2/3, so only grids of fewer than two waves (small problems)
/// can trigger the rule, and on those it fires when more than a third of the
/// SMs idle (A100 128^3: 64 of 108 SMs), not for a few idle SMs (H100
/// 1024^3: 128 of 132; 3136x256x64: 98 of 108, 128 or 132), where the gain
/// is within the model's error and the score decides.
static void applySmFillRule(TileSelection &s, bool dynamicGrid) {
  if (s.smCount <= 0 || s.ranked.empty())
    return;
  const TileCandidate &best = s.ranked.front();
  if (best.waveEfficiency >= s.fillThreshold)
    return;
  // With a dynamic M or N the grid (hence the idle SMs) is a guess from the
  // assumed extent: no reason to overrule the score for it.
  if (dynamicGrid) {
    s.fillRule = "fill rule: not applied, the grid's size is not known (a "
                 "dynamic M or N extent)";
    return;
  }
  auto fills = [&](const TileCandidate &c) {
    return c.waveEfficiency >= s.fillThreshold;
  };
  std::string head =
      llvm::formatv("fill rule: the best-scored candidate, {0}, {1} < "
                    "cost_weights.sm_fill_threshold {2}%",
                    describe(best), describeGrid(best, s.smCount),
                    std::lround(100.0 * s.fillThreshold));
  auto it = llvm::find_if(s.ranked, fills);
  if (it == s.ranked.end()) {
    double most = 0;
    for (const TileCandidate &c : s.ranked)
      most = std::max(most, c.waveEfficiency);
    s.fillRule = head + llvm::formatv(": no candidate reaches it (at most "
                                      "{0}%), kept the best-scored",
                                      std::lround(100.0 * most))
                            .str();
    return;
  }
  double slower = 100.0 * (it->timeNs / std::max(best.timeNs, 1e-9) - 1.0);
  s.fillRule =
      head + llvm::formatv(": picked the fastest candidate at or above it, "
                           "{0}, which {1}, estimated {2:F1}% slower by the "
                           "score",
                           describe(*it), describeGrid(*it, s.smCount), slower)
                 .str();
  // The pick first, the others in score order (the best-scored second).
  std::rotate(s.ranked.begin(), it, std::next(it));
  s.fillPicked = true;
}

/// The names of the GEMM dims in notes.
static const char *const kGemmDimNames[] = {"M", "N", "K"};

/// The problem as one (batched) GEMM: extents (dynamic ones assumed),
/// element widths, the schedule's packing and shared-memory choices, and
/// whether K may be split.
static GemmView buildGemmView(const TileProblem &problem) {
  GemmView view;
  view.kind = problem.kind;
  view.batch = groupExtent(problem, problem.batch, view.dynamicM);
  view.m = groupExtent(problem, problem.m, view.dynamicM);
  view.n = groupExtent(problem, problem.n, view.dynamicN);
  view.k = groupExtent(problem, problem.k, view.dynamicK);
  view.inBits = problem.inputBits;
  view.accBits = problem.accBits;
  view.inBytes = std::max<int64_t>(problem.inputBits / 8, 1);
  view.accBytes = std::max<int64_t>(problem.accBits / 8, 1);
  view.numOperands = problem.numOperands;
  view.packedA = problem.packedLhs;
  view.packedB = problem.packedRhs;
  view.packedC = problem.packedAcc;
  view.accumulatorInSmem = problem.accumulatorInSmem;
  view.staticSmem = problem.staticSmem;
  view.mmaSync = problem.mmaSync;
  view.allowTf32 = problem.allowTf32;
  view.bf16Inputs = problem.bf16Inputs;
  // linalg::splitReduction splits one reduction loop of a static op
  // (transform.hwsched.split_k refuses dynamic shapes).
  view.splittableK = problem.splitK &&
                     problem.kind == TileProblem::Kind::Contraction &&
                     problem.k.size() == 1 && !view.dynamicM &&
                     !view.dynamicN && !view.dynamicK;
  return view;
}

/// Padding: GPUs pad to multiples of 8 (Bolt; vectorized 16-byte accesses
/// and tensor-core shapes), NPUs to the cube fractal; CPUs handle remainders
/// with partial tiles and do not pad. Sets the padded extents, a note per
/// padded dim, and the selection's GEMM figures; a refusal when an NPU spec
/// has no cube tile.
static llvm::Error padExtents(const TileProblem &problem, const HwSpec &spec,
                              GemmView &view, TileSelection &selection) {
  bool dynamic[] = {view.dynamicM, view.dynamicN, view.dynamicK};
  int64_t pad[3] = {1, 1, 1};
  if (spec.getKind() == HwKind::Gpu) {
    pad[0] = pad[1] = pad[2] = 8;
  } else if (spec.getKind() == HwKind::Npu) {
    std::optional<llvm::ArrayRef<int64_t>> cube =
        spec.getIntegerArray("npu.cube_tile");
    if (!cube || cube->size() != 3)
      return refuse(nullptr, "spec '" + spec.getName() + "' (" +
                                 spec.getPath() +
                                 ") has no 3-element integer array "
                                 "'npu.cube_tile', which the tile rules need");
    for (unsigned i = 0; i < 3; ++i)
      pad[i] = std::max<int64_t>((*cube)[i], 1);
  }
  int64_t *extents[] = {&view.m, &view.n, &view.k};
  int64_t *padded[] = {&view.mPad, &view.nPad, &view.kPad};
  // An elementwise op of rank 1 has no M loop: nothing to pad there.
  bool present[] = {!problem.m.empty() || !problem.batch.empty(), view.hasN(),
                    view.hasK()};
  for (unsigned i = 0; i < 3; ++i) {
    *padded[i] = *extents[i];
    if (!present[i] || dynamic[i] || pad[i] <= 1 || *extents[i] % pad[i] == 0)
      continue;
    *padded[i] = roundUp(*extents[i], pad[i]);
    selection.notes.push_back(
        llvm::formatv("padding: {0} {1} -> {2} (not a multiple of {3})",
                      kGemmDimNames[i], *extents[i], *padded[i], pad[i]));
  }
  selection.gemmM = view.mPad;
  selection.gemmN = view.nPad;
  selection.gemmK = view.kPad;
  selection.gemmBatch = view.batch;
  return llvm::Error::success();
}

/// The candidates of the spec's target kind (its rules' file), then a
/// refusal listing the prune counts when none is left.
static llvm::Error selectCandidates(const GemmView &view, const HwSpec &spec,
                                    TileSelection &selection) {
  llvm::Error selected = llvm::Error::success();
  switch (spec.getKind()) {
  case HwKind::Gpu:
    selected = selectGpu(view, spec, selection);
    break;
  case HwKind::Npu:
    selected = selectNpu(view, spec, selection);
    break;
  case HwKind::Cpu:
    selected = selectCpu(view, spec, selection);
    break;
  }
  if (selected)
    return selected;
  if (!selection.ranked.empty())
    return llvm::Error::success();
  std::string rules;
  for (auto &[rule, count] : selection.pruned)
    rules += (rules.empty() ? "" : ", ") + rule + ": " + std::to_string(count);
  std::string error =
      llvm::formatv("no tile candidate satisfies the {0} rules of spec "
                    "'{1}' ({2} enumerated; pruned {3})",
                    stringifyHwKind(spec.getKind()), spec.getName(),
                    selection.enumerated, rules);
  if (!selection.capacityDetail.empty())
    error += "; " + selection.capacityDetail;
  return refuse(nullptr, error);
}

/// Estimates within kTieTolerance of each other are a tie (the model is not
/// that precise); ties go to the candidate with the least total busy time
/// (compute + off-chip + on-chip: fewer bytes per FLOP, as Bolt's larger
/// warp and block tiles give, and the faster kernel when both are bound by
/// the same stream), then to enumeration order (fewer stages, smaller
/// tiles).
static void rankCandidates(TileSelection &selection) {
  // The keys are computed once per candidate (split-K multiplies the GPU
  // candidates; a log per comparison dominated the selection time).
  struct Key {
    int64_t bucket;
    double busy;
    size_t index;
  };
  std::vector<Key> keys;
  keys.reserve(selection.ranked.size());
  double logTolerance = std::log1p(kTieTolerance);
  for (auto [i, c] : llvm::enumerate(selection.ranked))
    keys.push_back({static_cast<int64_t>(std::floor(
                        std::log(std::max(c.timeNs, 1e-3)) / logTolerance)),
                    c.computeNs + c.memoryNs + c.onchipNs + c.reduceNs, i});
  std::stable_sort(keys.begin(), keys.end(), [](const Key &a, const Key &b) {
    if (a.bucket != b.bucket)
      return a.bucket < b.bucket;
    return a.busy < b.busy;
  });
  std::vector<TileCandidate> sorted;
  sorted.reserve(keys.size());
  for (const Key &k : keys)
    sorted.push_back(selection.ranked[k.index]);
  selection.ranked = std::move(sorted);
}

/// Why the first candidate won: its estimate and bound, and how it compares
/// with the best-scored candidate (when the fill rule picked it) or with
/// the runner-up.
static void explainPick(TileSelection &selection) {
  const TileCandidate &best = selection.ranked.front();
  const char *bound =
      best.computeNs >= best.memoryNs && best.computeNs >= best.onchipNs
          ? "compute"
          : (best.memoryNs >= best.onchipNs ? "off-chip memory"
                                            : "on-chip memory");
  selection.why = llvm::formatv(
      "{0} {1} {2:F0} ns ({3}-bound, wave efficiency {4:F2}, occupancy "
      "factor {5:F2})",
      describe(best),
      selection.fillPicked ? "was picked by the fill rule, estimated time"
                           : "has the lowest estimated time",
      best.timeNs, bound, best.waveEfficiency, best.occupancyFactor);
  if (selection.fillPicked) {
    const TileCandidate &scored = selection.ranked[1];
    selection.why += llvm::formatv(
        "; it is estimated {1:F1}% slower than the best-scored candidate, "
        "{0}, which leaves {2} of {3} SMs without a block in its last round",
        describe(scored),
        100.0 * (best.timeNs / std::max(scored.timeNs, 1e-9) - 1.0),
        selection.smCount * ceilDiv(scored.blocks, selection.smCount) -
            scored.blocks,
        selection.smCount);
  } else if (selection.ranked.size() > 1) {
    const TileCandidate &next = selection.ranked[1];
    selection.why += llvm::formatv(
        "; runner-up {0} is {1:F1}% slower", describe(next),
        100.0 * (next.timeNs / std::max(best.timeNs, 1e-9) - 1.0));
  }
}

/// SM fill (GPU): wave quantization is in every score (wave efficiency);
/// the winner's grid is always reported as "B of S SMs busy" with its
/// waves, and a split winner with the cost of its reduce step. When the
/// grid leaves SMs idle, say what the fastest candidate that busies more
/// would cost, so that a user sees why a small problem does not fill the
/// GPU (too few output tiles and no split-K, or the smaller tiles or splits
/// it takes cost more on-chip traffic, latency cover or partial-sum traffic
/// than the idle SMs).
static void explainSmFill(TileSelection &selection) {
  if (selection.smCount <= 0)
    return;
  const TileCandidate &best = selection.ranked.front();
  auto busy = [&](const TileCandidate &c) {
    return std::min(c.blocks, selection.smCount);
  };
  if (best.splitK > 1)
    selection.why += llvm::formatv(
        "; split-K {0}: {1} blocks, the partial sums ({0} x M x N) are "
        "reduced in a second step estimated at {2:F0} ns",
        best.splitK, best.blocks, best.reduceNs);
  selection.why += llvm::formatv("; {0} of {1} SMs busy, {2:F2} waves",
                                 busy(best), selection.smCount, best.waves);
  // Idle SMs the fill rule left to the score: say so.
  if (best.blocks < selection.smCount && selection.fillRule.empty())
    selection.why += llvm::formatv(
        " ({0}% of the SM time >= cost_weights.sm_fill_threshold {1}%: "
        "the fill rule does not apply)",
        std::lround(100.0 * best.waveEfficiency),
        std::lround(100.0 * selection.fillThreshold));
  if (best.blocks >= selection.smCount)
    return;
  const TileCandidate *fuller = nullptr;
  int64_t mostBlocks = 0, mostSplit = 1;
  for (const TileCandidate &c : selection.ranked) {
    mostBlocks = std::max(mostBlocks, c.blocks);
    mostSplit = std::max(mostSplit, c.splitK);
    if (!fuller && busy(c) > busy(best))
      fuller = &c;
  }
  if (fuller)
    selection.why += llvm::formatv(
        ": the fastest candidate busying more, {0} ({1} SMs, wave "
        "efficiency {2:F2}, occupancy factor {3:F2}), is {4:F1}% slower",
        describe(*fuller), busy(*fuller), fuller->waveEfficiency,
        fuller->occupancyFactor,
        100.0 * (fuller->timeNs / std::max(best.timeNs, 1e-9) - 1.0));
  else if (mostSplit > 1)
    selection.why += llvm::formatv(
        ": no candidate busies more (at most {0} blocks with split-K up "
        "to {1})",
        mostBlocks, mostSplit);
  else
    selection.why += llvm::formatv(
        ": no candidate busies more (at most {0} output tiles; K is not "
        "split across blocks: split_k not requested or not applicable)",
        mostBlocks);
}

llvm::Expected<TileSelection>
hwsched::selectTileConfig(const TileProblem &problem, const HwSpec &spec) {
  // The enumeration and pruning alone: hwsched-tune and bench/tileconfig
  // report this event's time (hwsched-opt --hwsched-time-trace).
  llvm::TimeTraceScope trace("hwsched::selectTileConfig");
  TileSelection selection;
  GemmView view = buildGemmView(problem);
  bool dynamic[] = {view.dynamicM, view.dynamicN, view.dynamicK};
  for (unsigned i = 0; i < 3; ++i)
    if (dynamic[i])
      selection.notes.push_back(llvm::formatv(
          "dynamic extent in {0}: assumed {1} (conservative: the pick is "
          "valid for any size, waves and padding are not known)",
          kGemmDimNames[i], kAssumedDynamicExtent));
  if (llvm::Error err = padExtents(problem, spec, view, selection))
    return std::move(err);
  if (llvm::Error err = selectCandidates(view, spec, selection))
    return std::move(err);
  rankCandidates(selection);
  applySmFillRule(selection, view.dynamicM || view.dynamicN);
  expandToLoops(problem, selection.ranked.front(), selection);
  explainPick(selection);
  explainSmFill(selection);
  return selection;
}
