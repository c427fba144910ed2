//===- StageSchedulerImpl.h - Shared pieces of the scheduler ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// What the scheduler's files share (internal to lib/CostModel): the timing
// graph (SchedulerTiming.cpp), the stage constraints and the level-merging
// fallback (StageLevels.cpp), the modulo scheduler (ModuloScheduler.cpp),
// used by the driver (StageScheduler.cpp: the stage count, the capacity and
// the public entry points).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_LIB_COSTMODEL_STAGESCHEDULERIMPL_H
#define HWSCHED_LIB_COSTMODEL_STAGESCHEDULERIMPL_H

#include "hwsched/CostModel/StageScheduler.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace hwsched {
namespace detail {

/// Active edges merged per (from, to, distance) with the largest latency:
/// parallel RAW/WAR/WAW/SSA edges constrain timing once.
struct TimingEdge {
  unsigned from, to, distance;
  int64_t latency;
};

/// The merged timing edges of a graph with their adjacency, built once per
/// scheduling run.
struct TimingGraph {
  unsigned numNodes = 0;
  std::vector<TimingEdge> edges;
  std::vector<std::vector<unsigned>> out;
  /// 1 + the sum over nodes of their largest outgoing latency: an upper
  /// bound of any path's latency.
  int64_t latencySum = 1;

  /// The modulo scheduler's view, built once (every scheduling attempt
  /// walks it): per node, its incoming and outgoing edges without self
  /// loops, as flat arrays (CSR: the arcs of node v are [begin[v],
  /// begin[v + 1])); the self loops apart; and the edges by decreasing body
  /// position of their source for the height sweeps.
  struct Arc {
    unsigned node; // the other end
    unsigned distance;
    int64_t latency;
  };
  std::vector<unsigned> inBegin, outBegin;
  std::vector<Arc> inArcs, outArcs;
  std::vector<TimingEdge> selfLoops;
  std::vector<TimingEdge> heightOrder;
};

/// Integer stage constraints s[to] - s[from] >= weight.
struct StageConstraint {
  unsigned from, to;
  int64_t weight;
  bool soft; // the unit-separation preference (may be dropped)
  int edge;  // originating graph edge, -1 for none
};

/// (II, issue time per node) of a modulo schedule.
using ModuloResult = std::pair<int64_t, std::vector<int64_t>>;

/// Flat in- and out-adjacency (CSR: node v's arcs are [begin[v],
/// begin[v + 1]), in the order of `edges`) of the edges `keep` accepts, over
/// `n` nodes; `inArc(i, e)` / `outArc(i, e)` make the arc that edge i stores
/// at its target / source. The scheduler walks these arrays in its inner
/// loops, so they are flat rather than vectors per node.
template <typename Edge, typename InArc, typename OutArc, typename KeepFn,
          typename InArcFn, typename OutArcFn>
void buildFlatAdjacency(unsigned n, llvm::ArrayRef<Edge> edges, KeepFn keep,
                        InArcFn inArc, OutArcFn outArc,
                        std::vector<unsigned> &inBegin,
                        std::vector<InArc> &inArcs,
                        std::vector<unsigned> &outBegin,
                        std::vector<OutArc> &outArcs) {
  inBegin.assign(n + 1, 0);
  outBegin.assign(n + 1, 0);
  for (const Edge &e : edges) {
    if (!keep(e))
      continue;
    ++inBegin[e.to + 1];
    ++outBegin[e.from + 1];
  }
  for (unsigned v = 0; v < n; ++v) {
    inBegin[v + 1] += inBegin[v];
    outBegin[v + 1] += outBegin[v];
  }
  inArcs.resize(inBegin[n]);
  outArcs.resize(outBegin[n]);
  std::vector<unsigned> inFill(inBegin.begin(), inBegin.end() - 1);
  std::vector<unsigned> outFill(outBegin.begin(), outBegin.end() - 1);
  for (auto [i, e] : llvm::enumerate(edges)) {
    if (!keep(e))
      continue;
    inArcs[inFill[e.to]++] = inArc(static_cast<unsigned>(i), e);
    outArcs[outFill[e.from]++] = outArc(static_cast<unsigned>(i), e);
  }
}

/// Smallest value in [lo, cap] satisfying the monotone predicate `ok`
/// (exponential then binary search: results are usually close to `lo`);
/// `cap` when none does.
template <typename Pred>
int64_t smallestFeasible(int64_t lo, int64_t cap, Pred ok) {
  if (ok(lo))
    return lo;
  int64_t step = 1, bad = lo;
  while (bad + step < cap && !ok(bad + step)) {
    bad += step;
    step *= 2;
  }
  int64_t good = std::min(bad + step, cap);
  while (good - bad > 1) {
    int64_t mid = bad + (good - bad) / 2;
    if (ok(mid))
      good = mid;
    else
      bad = mid;
  }
  return good;
}

// SchedulerTiming.cpp (each documented at its definition): the unit of a
// node, the latency an edge carries, whether multi-buffering or a killed
// read removed it, the merged timing graph, RecMII and the smallest interval
// a stage assignment supports.
const PipelineUnit *findUnit(const SchedulerConfig &config,
                             const std::string &name);

int64_t edgeLatency(const LoopDependenceGraph &graph,
                    const SchedulerConfig &config, const DepEdge &e);

bool isActive(const DepEdge &e);

TimingGraph buildTimingGraph(const LoopDependenceGraph &graph,
                             const SchedulerConfig &config);

int64_t recMIIOf(const TimingGraph &tg);

int64_t achievedIIOf(const TimingGraph &tg, const std::vector<unsigned> &stages,
                     int64_t lowerBound);

// StageLevels.cpp: the stage constraints of the body-ordered kernel, the
// soft ones dropped on recurrences, the buffer copies of a schedule, and the
// level-merging fallback.
std::vector<StageConstraint>
buildStageConstraints(const LoopDependenceGraph &graph);

void relaxRecurrences(unsigned n, std::vector<StageConstraint> &cs);

void computeCopies(const LoopDependenceGraph &graph,
                   const SchedulerConfig &config, StageSchedule &schedule);

StageSchedule levelSchedule(const LoopDependenceGraph &graph,
                            const SchedulerConfig &config,
                            const TimingGraph &tg, int64_t resMII,
                            int64_t recMII, unsigned stageLimit);

// ModuloScheduler.cpp: the smallest interval a stage limit allows, the
// modulo scheduler with its reservation table, and the schedule of its issue
// times.
int64_t stageBoundIIOf(const TimingGraph &tg, int64_t mii, unsigned stageLimit);

std::optional<ModuloResult>
searchModuloSchedule(const LoopDependenceGraph &graph,
                     const SchedulerConfig &config, const TimingGraph &tg,
                     const std::vector<std::vector<StageConstraint>> &variants,
                     unsigned stageLimit, int64_t bound,
                     llvm::function_ref<bool(const ModuloResult &)> accept,
                     std::optional<ModuloResult> &firstRejected,
                     const std::vector<unsigned> *fixedStages = nullptr);

StageSchedule scheduleFromTimes(const LoopDependenceGraph &graph,
                                const SchedulerConfig &config,
                                const ModuloResult &r);

/// Sorts `items` (each with a `from` node below `n`) by source node, then
/// within one source by `less`: a counting sort into per-source buckets,
/// then each (short) bucket sorted. The timing edges and the stage
/// constraints are both sorted this way, in linear time in the graph.
template <typename T, typename Less>
void sortBySource(unsigned n, std::vector<T> &items, Less less) {
  std::vector<unsigned> begin(n + 1, 0);
  for (const T &item : items)
    ++begin[item.from + 1];
  for (unsigned v = 0; v < n; ++v)
    begin[v + 1] += begin[v];
  std::vector<T> bucketed(items.size());
  std::vector<unsigned> fill(begin.begin(), begin.end() - 1);
  for (const T &item : items)
    bucketed[fill[item.from]++] = item;
  for (unsigned v = 0; v < n; ++v)
    std::sort(bucketed.begin() + begin[v], bucketed.begin() + begin[v + 1],
              less);
  items = std::move(bucketed);
}

} // namespace detail
} // namespace hwsched

#endif // HWSCHED_LIB_COSTMODEL_STAGESCHEDULERIMPL_H
