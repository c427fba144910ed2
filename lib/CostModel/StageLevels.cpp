//===- StageLevels.cpp - Stage constraints, level merging -----------------===//
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
// Stage assignment
//===----------------------------------------------------------------------===//

std::vector<StageConstraint>
detail::buildStageConstraints(const LoopDependenceGraph &graph) {
  std::vector<StageConstraint> cs;
  for (auto [i, e] : llvm::enumerate(graph.edges)) {
    if (!isActive(e))
      continue;
    const DepNode &from = graph.nodes[e.from];
    const DepNode &to = graph.nodes[e.to];
    if (e.distance == 0) {
      bool differ = from.unit != to.unit;
      cs.push_back({e.from, e.to, differ ? 1 : 0, differ, (int)i});
      continue;
    }
    // Loop-carried: `from` of iteration i must run before `to` of i+d in a
    // body-ordered kernel: stage(from) <= stage(to) + d - 1 + (from earlier
    // ? 1 : 0). d is 1 except through the slots of a buffer the user
    // already rotates (LoopBuffer::rotatingSlots).
    int64_t slack = (from.position < to.position ? 1 : 0) +
                    static_cast<int64_t>(e.distance) - 1;
    cs.push_back({e.from, e.to, -slack, false, (int)i});
    // Iteration arguments: keep the use no later than the definition, the
    // direct-use form the pipeliner handles.
    if (e.kind == DepKind::SSA)
      cs.push_back({e.to, e.from, 0, false, (int)i});
  }
  return cs;
}

/// ASAP stages (longest path from 0); std::nullopt on a positive cycle.
static std::optional<std::vector<int64_t>>
asapStages(unsigned n, const std::vector<StageConstraint> &cs) {
  // Queue-based longest paths from 0; a path of n constraints means a
  // positive cycle (the caller removes those, so it is only a guard).
  std::vector<std::vector<unsigned>> out(n);
  for (auto [i, c] : llvm::enumerate(cs))
    out[c.from].push_back(i);
  std::vector<int64_t> s(n, 0);
  std::vector<unsigned> length(n, 0);
  std::vector<char> queued(n, 1);
  std::deque<unsigned> queue;
  for (unsigned v = 0; v < n; ++v)
    queue.push_back(v);
  while (!queue.empty()) {
    unsigned u = queue.front();
    queue.pop_front();
    queued[u] = 0;
    for (unsigned ci : out[u]) {
      const StageConstraint &c = cs[ci];
      if (s[u] + c.weight <= s[c.to])
        continue;
      s[c.to] = s[u] + c.weight;
      length[c.to] = length[u] + 1;
      if (length[c.to] > n)
        return std::nullopt;
      if (!queued[c.to]) {
        queued[c.to] = 1;
        queue.push_back(c.to);
      }
    }
  }
  return s;
}

/// Drops the soft separation inside strongly connected components (ops of one
/// recurrence stay together), so the constraint system has no positive cycle.
void detail::relaxRecurrences(unsigned n, std::vector<StageConstraint> &cs) {
  // Tarjan's SCC over the constraint graph.
  std::vector<std::vector<unsigned>> succ(n);
  for (const StageConstraint &c : cs)
    succ[c.from].push_back(c.to);
  std::vector<int> index(n, -1), low(n, 0), comp(n, -1);
  std::vector<unsigned> stack;
  std::vector<bool> onStack(n, false);
  int counter = 0, numComp = 0;
  std::function<void(unsigned)> visit = [&](unsigned v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    onStack[v] = true;
    for (unsigned w : succ[v]) {
      if (index[w] < 0) {
        visit(w);
        low[v] = std::min(low[v], low[w]);
      } else if (onStack[w]) {
        low[v] = std::min(low[v], index[w]);
      }
    }
    if (low[v] == index[v]) {
      unsigned w;
      do {
        w = stack.back();
        stack.pop_back();
        onStack[w] = false;
        comp[w] = numComp;
      } while (w != v);
      ++numComp;
    }
  };
  for (unsigned v = 0; v < n; ++v)
    if (index[v] < 0)
      visit(v);
  for (StageConstraint &c : cs)
    if (c.soft && comp[c.from] == comp[c.to])
      c.weight = 0;
}

void detail::computeCopies(const LoopDependenceGraph &graph,
                           const SchedulerConfig &config,
                           StageSchedule &schedule) {
  schedule.copies.assign(graph.buffers.size(), 1);
  std::vector<int64_t> lo(graph.buffers.size(),
                          std::numeric_limits<int64_t>::max());
  std::vector<int64_t> hi(graph.buffers.size(), -1);
  for (auto [n, accesses] : llvm::enumerate(graph.accesses))
    for (auto [b, isWrite] : accesses) {
      lo[b] = std::min<int64_t>(lo[b], schedule.stage[n]);
      hi[b] = std::max<int64_t>(hi[b], schedule.stage[n]);
    }
  schedule.onChipBytes = 0;
  schedule.dynamicOnChipBuffers = 0;
  for (auto [b, buffer] : llvm::enumerate(graph.buffers)) {
    unsigned span = hi[b] >= lo[b] ? static_cast<unsigned>(hi[b] - lo[b]) : 0;
    // A renamable buffer touched in stages s..t is live for t - s + 1
    // iterations at once; a per-iteration allocation has as many instances.
    if ((buffer.renamable || buffer.loopLocal) && span > 0)
      schedule.copies[b] = span + 1;
    if (!buffer.onChip)
      continue;
    if (buffer.bytes < 0) {
      ++schedule.dynamicOnChipBuffers;
      continue;
    }
    schedule.onChipBytes += buffer.bytes * schedule.copies[b];
  }
  schedule.capacityBytes = config.capacityBytes;
}

namespace {
/// What the steps of levelSchedule share.
struct LevelSearch {
  const LoopDependenceGraph &graph;
  const SchedulerConfig &config;
  const TimingGraph &tg;
  unsigned n;
  unsigned stageLimit;
  int64_t mii;
};

/// The current assignment while unused stages are spent: its constraints,
/// its stages and their interval.
struct LevelAssignment {
  std::vector<StageConstraint> cs;
  std::vector<unsigned> stages;
  int64_t ii = 0;
};
} // namespace

/// The stages an assignment uses.
static unsigned usedStages(const std::vector<unsigned> &s) {
  return *std::max_element(s.begin(), s.end()) + 1;
}

/// The graph is deeper than the limit: merge neighbouring levels of the
/// ASAP stages `asap` (`depth` levels). Any map that keeps `stageLimit - 1`
/// of the `depth - 1` level boundaries is monotone and grows by at most 1
/// per level, so every constraint stays satisfied. Try every choice of
/// boundaries when there are few (keeping the boundaries on the longest
/// latencies matters: merging a copy with its reader costs far more than
/// merging a load with its compute), else spread them evenly.
static std::vector<unsigned> mergeLevels(const LevelSearch &s,
                                         const std::vector<int64_t> &asap,
                                         int64_t depth) {
  unsigned n = s.n, stageLimit = s.stageLimit;
  std::vector<unsigned> stages(n);
  auto apply = [&](const std::vector<unsigned> &levelStage) {
    for (unsigned v = 0; v < n; ++v)
      stages[v] = levelStage[asap[v]];
  };
  std::vector<unsigned> even(depth);
  for (int64_t l = 0; l < depth; ++l)
    even[l] = static_cast<unsigned>(l * stageLimit / depth);
  uint64_t choices = 1;
  for (int64_t k = 1; k < stageLimit && choices <= 64; ++k)
    choices = choices * (depth - k) / k;
  // Each choice costs an interval computation: keep the search within a
  // budget proportional to the graph size.
  if (stageLimit <= 1 || choices > 64 || depth > 17 ||
      choices * s.tg.edges.size() > 20000) {
    apply(even);
    return stages;
  }
  std::vector<unsigned> bestLevels = even;
  apply(even);
  int64_t bestII = achievedIIOf(s.tg, stages, s.mii);
  // Enumerate boundary subsets as bit masks over the depth - 1 boundaries.
  for (uint64_t mask = 0; mask < (uint64_t(1) << (depth - 1)); ++mask) {
    if (static_cast<unsigned>(llvm::popcount(mask)) != stageLimit - 1)
      continue;
    std::vector<unsigned> levels(depth, 0);
    for (int64_t l = 1; l < depth; ++l)
      levels[l] = levels[l - 1] + ((mask >> (l - 1)) & 1);
    apply(levels);
    int64_t ii = achievedIIOf(s.tg, stages, s.mii);
    if (ii < bestII) {
      bestII = ii;
      bestLevels = levels;
    }
  }
  apply(bestLevels);
  return stages;
}

/// The ASAP stages of `constraints` within the stage limit (levels merged
/// when deeper); std::nullopt when the constraints have a positive cycle.
static std::optional<std::vector<unsigned>>
stagesWithin(const LevelSearch &s,
             const std::vector<StageConstraint> &constraints) {
  std::optional<std::vector<int64_t>> asap = asapStages(s.n, constraints);
  if (!asap)
    return std::nullopt;
  int64_t depth = *std::max_element(asap->begin(), asap->end()) + 1;
  if (depth <= s.stageLimit) {
    std::vector<unsigned> stages(s.n);
    for (unsigned v = 0; v < s.n; ++v)
      stages[v] = static_cast<unsigned>((*asap)[v]);
    return stages;
  }
  return mergeLevels(s, *asap, depth);
}

/// Whether constraint `c` comes from a same-iteration edge whose latency
/// bounds the interval `ii` under `stages` (more than its stage separation
/// hides).
static bool isTightConstraint(const LevelSearch &s, const StageConstraint &c,
                              const std::vector<unsigned> &stages, int64_t ii) {
  if (c.edge < 0 || s.graph.edges[c.edge].distance != 0 || c.weight < 0 ||
      c.from == c.to)
    return false;
  const DepEdge &e = s.graph.edges[c.edge];
  int64_t lat = edgeLatency(s.graph, s.config, e);
  int64_t delta = stages[e.to] - static_cast<int64_t>(stages[e.from]);
  return lat > 0 && lat > delta * ii;
}

/// The (producer unit, consumer unit) pairs of the tight constraints, in
/// constraint order; a few unit pairs per round bound the search on large
/// graphs.
static std::vector<std::pair<std::string, std::string>>
tightUnitPairs(const LevelSearch &s, const LevelAssignment &a) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const StageConstraint &c : a.cs)
    if (isTightConstraint(s, c, a.stages, a.ii)) {
      std::pair<std::string, std::string> key{s.graph.nodes[c.from].unit,
                                              s.graph.nodes[c.to].unit};
      if (!llvm::is_contained(pairs, key))
        pairs.push_back(key);
    }
  if (pairs.size() > 8)
    pairs.resize(8);
  return pairs;
}

/// One round of spending stages. Candidate moves: for one (producer unit,
/// consumer unit) pair, separate every latency-bound edge of that pair by
/// one more stage (edges of a pair usually bound the interval together,
/// e.g. the two operand copies of a matmul). Applies the move that lowers
/// the interval most; false when none lowers it.
static bool separateTightestPair(const LevelSearch &s, LevelAssignment &a) {
  std::vector<StageConstraint> bestCs;
  std::vector<unsigned> bestStages;
  int64_t bestII = a.ii;
  for (const auto &key : tightUnitPairs(s, a)) {
    std::vector<StageConstraint> trial = a.cs;
    for (StageConstraint &c : trial) {
      if (!isTightConstraint(s, c, a.stages, a.ii) ||
          s.graph.nodes[c.from].unit != key.first ||
          s.graph.nodes[c.to].unit != key.second)
        continue;
      int64_t delta = a.stages[c.to] - static_cast<int64_t>(a.stages[c.from]);
      c.weight = std::max<int64_t>(c.weight, delta + 1);
    }
    std::optional<std::vector<unsigned>> st = stagesWithin(s, trial);
    // Unchanged stages (hard constraints keep the ops together) cannot
    // lower the interval.
    if (!st || usedStages(*st) > s.stageLimit || *st == a.stages)
      continue;
    int64_t ii = achievedIIOf(s.tg, *st, s.mii);
    if (ii < bestII) {
      bestII = ii;
      bestCs = trial;
      bestStages = *st;
    }
  }
  if (bestStages.empty())
    return false;
  a.cs = bestCs;
  a.stages = bestStages;
  a.ii = bestII;
  return true;
}

StageSchedule detail::levelSchedule(const LoopDependenceGraph &graph,
                                    const SchedulerConfig &config,
                                    const TimingGraph &tg, int64_t resMII,
                                    int64_t recMII, unsigned stageLimit) {
  StageSchedule schedule;
  schedule.stageLimit = stageLimit;
  schedule.resMII = resMII;
  schedule.recMII = recMII;
  schedule.mii = std::max(schedule.resMII, schedule.recMII);
  unsigned n = graph.nodes.size();
  if (n == 0) {
    schedule.achievedII = schedule.mii;
    computeCopies(graph, config, schedule);
    return schedule;
  }

  LevelSearch s{graph, config, tg, n, stageLimit, schedule.mii};
  LevelAssignment a;
  a.cs = buildStageConstraints(graph);
  relaxRecurrences(n, a.cs);
  std::optional<std::vector<unsigned>> stages = stagesWithin(s, a.cs);
  // Hard constraints alone are always satisfiable by one stage.
  a.stages = stages ? std::move(*stages) : std::vector<unsigned>(n, 0);
  a.ii = achievedIIOf(tg, a.stages, schedule.mii);

  // Spend unused stages on the edges whose latency bounds the interval:
  // separating producer and consumer by one more stage hides II more cycles.
  for (unsigned round = 0;
       round < stageLimit && usedStages(a.stages) < stageLimit &&
       a.ii > schedule.mii;
       ++round)
    if (!separateTightestPair(s, a))
      break;

  schedule.stage = a.stages;
  schedule.numStages = usedStages(a.stages);
  schedule.achievedII = a.ii;
  computeCopies(graph, config, schedule);
  return schedule;
}
