//===- ModuloScheduler.cpp - Modulo scheduling ----------------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "StageSchedulerImpl.h"
#include "hwsched/Support/Refusal.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>

using namespace hwsched;
using namespace hwsched::detail;

//===----------------------------------------------------------------------===//
// Iterative modulo scheduling
//===----------------------------------------------------------------------===//

/// Longest path, over the timing edges at interval `ii`, between any two
/// nodes (0 for a graph without edges); std::nullopt on a positive cycle
/// (`ii` below RecMII).
static std::optional<int64_t> longestPathAt(const TimingGraph &tg, int64_t ii) {
  unsigned n = tg.numNodes;
  // Every node starts at 0 (a virtual source with 0-weight edges), so
  // dist(v) is the longest path ending at v.
  std::vector<int64_t> dist(n, 0);
  for (unsigned round = 0; round <= n; ++round) {
    bool changed = false;
    for (const TimingEdge &e : tg.edges) {
      int64_t w = e.latency - static_cast<int64_t>(e.distance) * ii;
      if (dist[e.from] + w > dist[e.to]) {
        dist[e.to] = dist[e.from] + w;
        changed = true;
      }
    }
    if (!changed)
      return n ? *std::max_element(dist.begin(), dist.end()) : 0;
  }
  return std::nullopt;
}

/// Smallest II >= `mii` for which the timing edges alone admit a schedule
/// within `stageLimit` stages: a path of latency P between two ops forces
/// floor(P / II) stage boundaries between them (op v of iteration j issues
/// at (j + stage(v)) * II + t(v) with 0 <= t(v) < II), so no schedule
/// exists below this II whatever the scheduler does.
int64_t detail::stageBoundIIOf(const TimingGraph &tg, int64_t mii,
                               unsigned stageLimit) {
  auto fits = [&](int64_t ii) {
    std::optional<int64_t> path = longestPathAt(tg, ii);
    return path && 1 + *path / ii <= static_cast<int64_t>(stageLimit);
  };
  int64_t lo = std::max<int64_t>(mii, 1);
  // One stage holds any path once II exceeds the sum of latencies.
  return smallestFeasible(lo, std::max(lo, tg.latencySum + 1), fits);
}

namespace {
/// One modulo scheduling problem: timing edges, stage-order constraints of
/// the body-ordered kernel, per-node units for the modulo reservation table.
struct ModuloProblem {
  const TimingGraph &tg;
  const std::vector<StageConstraint> &cs;
  /// Unit index per node (-1: a sync node, no issue slot), and per unit its
  /// count and its nodes in index order; issue cycles per node.
  std::vector<int> unit;
  std::vector<int64_t> issue;
  std::vector<int64_t> unitCount;
  std::vector<std::vector<unsigned>> unitNodes;
  std::vector<unsigned> position;
  unsigned stageLimit;
  /// The stage constraints into and out of each node without self loops, as
  /// flat arrays (CSR, like the timing arcs of `tg`): (other node, weight).
  std::vector<unsigned> csInBegin, csOutBegin;
  std::vector<std::pair<unsigned, int64_t>> csInArcs, csOutArcs;
  /// Stage per node when the stages are given (only the issue cycles within
  /// each stage are scheduled); empty otherwise.
  std::vector<unsigned> fixedStage;
};
} // namespace

/// Checks a modulo schedule independently of how it was built: every timing
/// edge, every stage constraint, the stage limit and the reservation table.
static bool verifyModuloSchedule(const ModuloProblem &p, int64_t ii,
                                 const std::vector<int64_t> &sigma) {
  unsigned n = p.tg.numNodes;
  for (const TimingEdge &e : p.tg.edges)
    if (sigma[e.to] + static_cast<int64_t>(e.distance) * ii <
        sigma[e.from] + e.latency)
      return false;
  for (const StageConstraint &c : p.cs)
    if (sigma[c.to] / ii - sigma[c.from] / ii < c.weight)
      return false;
  std::vector<int64_t> mrt(p.unitCount.size() * ii, 0);
  for (unsigned v = 0; v < n; ++v) {
    if (sigma[v] < 0 || sigma[v] / ii >= p.stageLimit)
      return false;
    if (p.unit[v] < 0)
      continue;
    for (int64_t k = 0; k < p.issue[v]; ++k)
      if (++mrt[p.unit[v] * ii + (sigma[v] + k) % ii] > p.unitCount[p.unit[v]])
        return false;
  }
  return true;
}

namespace {
/// One attempt of Rau's iterative modulo scheduling at one interval (see
/// moduloScheduleAt): the heights, the partial schedule with its modulo
/// reservation table, and the order ops are placed in.
class ModuloAttempt {
public:
  ModuloAttempt(const ModuloProblem &p, int64_t ii)
      : p(p), tg(p.tg), ii(ii), n(p.tg.numNodes) {}

  /// The issue time of every node, or std::nullopt (see moduloScheduleAt).
  std::optional<std::vector<int64_t>> run();

private:
  using Arc = TimingGraph::Arc;

  int64_t weightOf(int64_t latency, unsigned distance) const {
    return latency - static_cast<int64_t>(distance) * ii;
  }
  int32_t *row(int unit) { return mrt.data() + unit * ii; }
  bool computeHeights();
  void orderByHeight();
  void reserve(unsigned v, int64_t t, int delta);
  bool resourcesFree(unsigned v, int64_t t);
  void unschedule(unsigned v);
  void startWindow(unsigned v, int64_t &estart, int64_t &lstart) const;
  int64_t firstFreeSlot(unsigned v, int64_t estart, int64_t lstart);
  bool forceSlot(unsigned v, int64_t estart, int64_t &slot);
  void evictViolatedSuccessors(unsigned v, int64_t slot);

  const ModuloProblem &p;
  const TimingGraph &tg;
  int64_t ii;
  unsigned n;
  /// Height: longest path to the end of the iteration.
  std::vector<int64_t> height;
  int64_t deadline = 0;
  /// sigma: issue time (-1: unscheduled); stage: sigma / ii when scheduled.
  std::vector<int64_t> sigma, previous, stage;
  /// One flat reservation row per unit (counts of at most n ops).
  std::vector<int32_t> mrt;
  /// Every op before `cursor` in `order` is scheduled: the next op to place
  /// is found by scanning forward from it, and an eviction moves it back.
  size_t cursor = 0;
  std::vector<size_t> rank;
  std::vector<unsigned> order;
  unsigned unscheduled = 0;
};
} // namespace

/// The heights at `ii` (Bellman-Ford sweeps in height order); false on a
/// positive cycle (`ii` below RecMII).
bool ModuloAttempt::computeHeights() {
  height.assign(n, 0);
  for (unsigned round = 0;; ++round) {
    if (round > n)
      return false; // positive cycle: ii < RecMII
    bool changed = false;
    for (const TimingEdge &e : tg.heightOrder) {
      int64_t h = height[e.to] + weightOf(e.latency, e.distance);
      if (h > height[e.from]) {
        height[e.from] = h;
        changed = true;
      }
    }
    if (!changed)
      return true;
  }
}

/// The placement order: decreasing height, ties in body order.
void ModuloAttempt::orderByHeight() {
  rank.resize(n);
  order.resize(n);
  for (unsigned v = 0; v < n; ++v)
    order[v] = v;
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return height[a] > height[b] ||
           (height[a] == height[b] && p.position[a] < p.position[b]);
  });
  for (size_t i = 0; i < n; ++i)
    rank[order[i]] = i;
}

/// Adds `delta` to the reservation of `v`'s issue cycles from time `t`.
void ModuloAttempt::reserve(unsigned v, int64_t t, int delta) {
  if (p.unit[v] < 0)
    return;
  int32_t *slots = row(p.unit[v]);
  int64_t slot = t % ii;
  for (int64_t k = 0; k < p.issue[v]; ++k) {
    slots[slot] += delta;
    if (++slot == ii)
      slot = 0;
  }
}

/// Whether `v`'s unit has a free issue slot for each of its issue cycles
/// from time `t`.
bool ModuloAttempt::resourcesFree(unsigned v, int64_t t) {
  if (p.unit[v] < 0)
    return true;
  if (p.issue[v] <= ii) {
    // Distinct slots: one look per slot.
    const int32_t *slots = row(p.unit[v]);
    int64_t limit = p.unitCount[p.unit[v]], slot = t % ii;
    for (int64_t k = 0; k < p.issue[v]; ++k, ++slot) {
      if (slot == ii)
        slot = 0;
      if (slots[slot] >= limit)
        return false;
    }
    return true;
  }
  reserve(v, t, 1);
  bool ok = true;
  for (int64_t k = 0; k < std::min(p.issue[v], ii) && ok; ++k)
    ok = row(p.unit[v])[(t + k) % ii] <= p.unitCount[p.unit[v]];
  reserve(v, t, -1);
  return ok;
}

/// Takes `v` out of the schedule (and its slots out of the table).
void ModuloAttempt::unschedule(unsigned v) {
  reserve(v, sigma[v], -1);
  sigma[v] = -1;
  cursor = std::min(cursor, rank[v]);
  ++unscheduled;
}

/// The window the scheduled neighbours of `v` leave it: the earliest start
/// its predecessors allow and the latest its successors allow (timing edges
/// and stage constraints), within its stage when the stages are given.
void ModuloAttempt::startWindow(unsigned v, int64_t &estart,
                                int64_t &lstart) const {
  const Arc *inArcs = tg.inArcs.data(), *outArcs = tg.outArcs.data();
  const std::pair<unsigned, int64_t> *csInArcs = p.csInArcs.data(),
                                     *csOutArcs = p.csOutArcs.data();
  estart = 0;
  lstart = deadline;
  for (unsigned i = tg.inBegin[v], e = tg.inBegin[v + 1]; i < e; ++i) {
    const Arc &a = inArcs[i];
    if (sigma[a.node] >= 0)
      estart =
          std::max(estart, sigma[a.node] + weightOf(a.latency, a.distance));
  }
  for (unsigned i = p.csInBegin[v], e = p.csInBegin[v + 1]; i < e; ++i) {
    auto [u, w] = csInArcs[i];
    if (sigma[u] >= 0)
      estart = std::max(estart, (stage[u] + w) * ii);
  }
  for (unsigned i = tg.outBegin[v], e = tg.outBegin[v + 1]; i < e; ++i) {
    const Arc &a = outArcs[i];
    if (sigma[a.node] >= 0)
      lstart =
          std::min(lstart, sigma[a.node] - weightOf(a.latency, a.distance));
  }
  for (unsigned i = p.csOutBegin[v], e = p.csOutBegin[v + 1]; i < e; ++i) {
    auto [u, w] = csOutArcs[i];
    if (sigma[u] >= 0)
      lstart = std::min(lstart, (stage[u] - w + 1) * ii - 1);
  }
  if (!p.fixedStage.empty()) {
    estart = std::max<int64_t>(estart, p.fixedStage[v] * ii);
    lstart = std::min<int64_t>(lstart, p.fixedStage[v] * ii + ii - 1);
  }
}

/// The first time in [estart, min(estart + ii - 1, lstart)] whose slots
/// are free; -1 when none is.
int64_t ModuloAttempt::firstFreeSlot(unsigned v, int64_t estart,
                                     int64_t lstart) {
  for (int64_t t = estart, last = std::min(estart + ii - 1, lstart); t <= last;
       ++t)
    if (resourcesFree(v, t))
      return t;
  return -1;
}

/// Forces `v` into `slot`: at the earliest start, or one past the previous
/// attempt so that repeated forcing makes progress; the ops of the same
/// unit that overlap the slot are evicted (in index order, until the slot
/// is free). False when the slot passes the deadline or leaves the given
/// stage.
bool ModuloAttempt::forceSlot(unsigned v, int64_t estart, int64_t &slot) {
  slot = previous[v] < 0 || estart > previous[v] ? estart : previous[v] + 1;
  if (slot > deadline ||
      (!p.fixedStage.empty() && slot / ii != p.fixedStage[v]))
    return false;
  if (p.unit[v] >= 0)
    for (unsigned w : p.unitNodes[p.unit[v]]) {
      if (resourcesFree(v, slot))
        break;
      if (w == v || sigma[w] < 0)
        continue;
      // Circular intervals [slot, slot + issue) and [sigma, sigma + issue)
      // modulo ii.
      int64_t d = (sigma[w] - slot) % ii;
      d = d < 0 ? d + ii : d;
      bool overlaps = p.issue[v] >= ii || p.issue[w] >= ii || d < p.issue[v] ||
                      ii - d < p.issue[w];
      if (overlaps)
        unschedule(w);
    }
  return true;
}

/// Evicts the neighbours whose constraints a forced slot of `v` violates.
/// The slot is never below `estart`, which every scheduled predecessor
/// bounds, so only successors can be violated, and only by a forced slot: a
/// free slot is at most `lstart`, which every scheduled successor bounds.
/// Which successors does not depend on the order of the walks: an eviction
/// changes no other op's time.
void ModuloAttempt::evictViolatedSuccessors(unsigned v, int64_t slot) {
  const Arc *outArcs = tg.outArcs.data();
  const std::pair<unsigned, int64_t> *csOutArcs = p.csOutArcs.data();
  int64_t slotStage = slot / ii;
  for (unsigned i = tg.outBegin[v], e = tg.outBegin[v + 1]; i < e; ++i) {
    const Arc &a = outArcs[i];
    if (sigma[a.node] >= 0 &&
        sigma[a.node] < slot + weightOf(a.latency, a.distance))
      unschedule(a.node);
  }
  for (unsigned i = p.csOutBegin[v], e = p.csOutBegin[v + 1]; i < e; ++i) {
    auto [u, w] = csOutArcs[i];
    if (sigma[u] >= 0 && stage[u] - slotStage < w)
      unschedule(u);
  }
}

std::optional<std::vector<int64_t>> ModuloAttempt::run() {
  for (const TimingEdge &e : tg.selfLoops)
    if (weightOf(e.latency, e.distance) > 0)
      return std::nullopt;
  if (!computeHeights())
    return std::nullopt;
  deadline = static_cast<int64_t>(p.stageLimit) * ii - 1;
  sigma.assign(n, -1);
  previous.assign(n, -1);
  stage.assign(n, 0);
  mrt.assign(p.unitCount.size() * ii, 0);
  unscheduled = n;
  orderByHeight();
  int64_t budget = std::max<int64_t>(4 * n, 64);
  while (unscheduled && budget-- > 0) {
    // The unscheduled op of greatest height (ties: body order).
    while (sigma[order[cursor]] >= 0)
      ++cursor;
    unsigned v = order[cursor];
    int64_t estart, lstart;
    startWindow(v, estart, lstart);
    if (estart > deadline)
      return std::nullopt; // the predecessors already reach the deadline
    int64_t slot = firstFreeSlot(v, estart, lstart);
    bool forced = slot < 0;
    if (forced && !forceSlot(v, estart, slot))
      return std::nullopt;
    sigma[v] = previous[v] = slot;
    stage[v] = slot / ii;
    reserve(v, slot, 1);
    --unscheduled;
    if (forced)
      evictViolatedSuccessors(v, slot);
  }
  if (unscheduled)
    return std::nullopt;
  // Start at stage 0: shifting by whole intervals keeps every constraint.
  int64_t first = *std::min_element(sigma.begin(), sigma.end()) / ii;
  for (int64_t &t : sigma)
    t -= first * ii;
  if (!verifyModuloSchedule(p, ii, sigma))
    return std::nullopt;
  return sigma;
}

/// Rau's iterative modulo scheduling at interval `ii` with the stage limit as
/// a deadline: ops in decreasing height order, each at the first slot from
/// its earliest start whose units are free in the modulo reservation table;
/// when no slot is free (or the successors leave no room) the op is forced
/// and the ops it conflicts with are unscheduled, within a budget. Returns
/// the issue time of every node, std::nullopt when no schedule was found.
///
/// Every step walks the neighbours of one op, and a failing attempt spends
/// its whole budget, so the walks use the flat arc arrays and each scheduled
/// op's stage is kept beside its issue time (no division per neighbour).
static std::optional<std::vector<int64_t>>
moduloScheduleAt(const ModuloProblem &p, int64_t ii) {
  return ModuloAttempt(p, ii).run();
}

/// Modulo schedule with at most `stageLimit` stages at the smallest interval
/// the scheduler finds: II = bound, bound + 1, ... first, then growing steps
/// and a bisection back down. `variants` are the stage-constraint sets to try
/// at each II, preferred first; a schedule counts only if `accept` takes it
/// (the capacity check). Returns (II, issue times); `firstRejected` receives
/// the smallest-II schedule that `accept` refused, if any.
std::optional<ModuloResult> detail::searchModuloSchedule(
    const LoopDependenceGraph &graph, const SchedulerConfig &config,
    const TimingGraph &tg,
    const std::vector<std::vector<StageConstraint>> &variants,
    unsigned stageLimit, int64_t bound,
    llvm::function_ref<bool(const ModuloResult &)> accept,
    std::optional<ModuloResult> &firstRejected,
    const std::vector<unsigned> *fixedStages) {
  unsigned n = tg.numNodes;
  std::vector<ModuloProblem> problems;
  for (const std::vector<StageConstraint> &cs : variants) {
    ModuloProblem p{tg, cs, {}, {}, {}, {}, {}, stageLimit, {}, {}, {}, {}, {}};
    if (fixedStages)
      p.fixedStage = *fixedStages;
    for (const PipelineUnit &u : config.units)
      p.unitCount.push_back(u.count);
    p.unitNodes.resize(config.units.size());
    for (auto [v, node] : llvm::enumerate(graph.nodes)) {
      int unit = -1;
      for (auto [i, u] : llvm::enumerate(config.units))
        if (u.name == node.unit && !node.isSync)
          unit = i;
      p.unit.push_back(unit);
      p.issue.push_back(unit >= 0 ? config.units[unit].issueCycles : 0);
      p.position.push_back(node.position);
      if (unit >= 0)
        p.unitNodes[unit].push_back(v);
    }
    buildFlatAdjacency(
        n, llvm::ArrayRef(cs),
        [](const StageConstraint &c) { return c.from != c.to; },
        [](unsigned, const StageConstraint &c) {
          return std::pair<unsigned, int64_t>(c.from, c.weight);
        },
        [](unsigned, const StageConstraint &c) {
          return std::pair<unsigned, int64_t>(c.to, c.weight);
        },
        p.csInBegin, p.csInArcs, p.csOutBegin, p.csOutArcs);
    problems.push_back(std::move(p));
  }
  // The II search uses the last (least constrained) variant; the preferred
  // ones are tried at the II found (they can only succeed where it does,
  // up to the heuristic's luck), which halves the failing attempts.
  auto tryProblem = [&](const ModuloProblem &p,
                        int64_t ii) -> std::optional<ModuloResult> {
    if (std::optional<std::vector<int64_t>> sigma = moduloScheduleAt(p, ii)) {
      ModuloResult r{ii, *sigma};
      if (accept(r))
        return r;
      if (!firstRejected || firstRejected->first > ii)
        firstRejected = r;
    }
    return std::nullopt;
  };
  auto attempt = [&](int64_t ii) -> std::optional<ModuloResult> {
    return tryProblem(problems.back(), ii);
  };
  int64_t issueSum = 0;
  for (const DepNode &node : graph.nodes)
    if (const PipelineUnit *u = findUnit(config, node.unit))
      issueSum += node.isSync ? 0 : u->issueCycles;
  // Beyond this II every op fits in its own slots of one stage.
  int64_t cap = bound + tg.latencySum + issueSum + 1;
  int64_t bad = bound - 1;
  std::optional<ModuloResult> found;
  for (int64_t ii = bound; ii <= std::min(bound + 1, cap) && !found; ++ii) {
    found = attempt(ii);
    if (!found)
      bad = ii;
  }
  // Steps grow from a fraction of the bound: intervals of thousands of
  // cycles (copy-latency recurrences) would otherwise take many doublings.
  for (int64_t step = std::max<int64_t>(2, bound / 64); !found && bad < cap;
       step *= 2) {
    int64_t ii = std::min(bad + step, cap);
    found = attempt(ii);
    if (!found)
      bad = ii;
  }
  if (!found)
    return std::nullopt;
  // Bisect between the last failure and the success (the scheduler is not
  // monotone in II; this only looks for a smaller success), to within 1/256
  // of the interval: the last few cycles of a long interval are not worth
  // their scheduling time.
  int64_t good = found->first;
  while (good - bad > std::max<int64_t>(1, good / 256)) {
    int64_t mid = bad + (good - bad) / 2;
    if (auto r = attempt(mid)) {
      found = r;
      good = mid;
    } else {
      bad = mid;
    }
  }
  for (size_t i = 0; i + 1 < problems.size(); ++i)
    if (std::optional<ModuloResult> preferred =
            tryProblem(problems[i], found->first))
      return preferred;
  return found;
}

/// The schedule of `sigma` at `ii` (stages, copies, bytes).
StageSchedule detail::scheduleFromTimes(const LoopDependenceGraph &graph,
                                        const SchedulerConfig &config,
                                        const ModuloResult &r) {
  StageSchedule schedule;
  unsigned n = graph.nodes.size();
  schedule.achievedII = r.first;
  schedule.stage.resize(n);
  for (unsigned v = 0; v < n; ++v)
    schedule.stage[v] = static_cast<unsigned>(r.second[v] / r.first);
  schedule.numStages =
      *std::max_element(schedule.stage.begin(), schedule.stage.end()) + 1;
  computeCopies(graph, config, schedule);
  return schedule;
}

/// Schedules with at most `stageLimit` stages. With `fitCapacity`, the
/// interval grows until the buffer copies fit the on-chip capacity (a larger
/// II separates fewer stages); a schedule over capacity is returned only when
/// none fits (the caller then lowers the stage limit).
