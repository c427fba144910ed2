//===- SchedulerTiming.cpp - Interval bounds and timing -------------------===//
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

namespace {
/// Unit figures per node, resolved once.
struct NodeTiming {
  std::vector<int> unit;
  std::vector<int64_t> latency;
};
} // namespace

const PipelineUnit *detail::findUnit(const SchedulerConfig &config,
                                     const std::string &name) {
  for (const PipelineUnit &u : config.units)
    if (u.name == name)
      return &u;
  return nullptr;
}

static bool isGroupNode(const DepNode &node) {
  return node.isSync && node.op &&
         node.op->getName().getStringRef() == "nvgpu.device_async_create_group";
}

/// Latency carried by edge `e`: the producer's unit latency for value and
/// RAW edges; sync nodes forward the latency of the copies they group.
int64_t detail::edgeLatency(const LoopDependenceGraph &graph,
                            const SchedulerConfig &config, const DepEdge &e) {
  if (e.kind == DepKind::WAR || e.kind == DepKind::WAW)
    return 0;
  const DepNode &from = graph.nodes[e.from];
  const DepNode &to = graph.nodes[e.to];
  if (to.isSync && to.unit == from.unit)
    return 0;
  if (from.isSync && !isGroupNode(from))
    return 0;
  const PipelineUnit *unit = findUnit(config, from.unit);
  return unit ? unit->latencyCycles : 0;
}

/// The edges that constrain the schedule: multi-buffering removes some,
/// and a loop-carried RAW whose read is killed by writes earlier in its
/// iteration carries no value (the covering writes' edges order the ops).
bool detail::isActive(const DepEdge &e) {
  return !e.removableByMultiBuffering && !e.killedRead;
}

int64_t hwsched::computeResMII(const LoopDependenceGraph &graph,
                               const SchedulerConfig &config) {
  int64_t mii = 1;
  for (const PipelineUnit &unit : config.units) {
    int64_t cycles = 0;
    for (const DepNode &node : graph.nodes)
      if (!node.isSync && node.unit == unit.name)
        cycles += unit.issueCycles;
    mii = std::max(mii, (cycles + unit.count - 1) / unit.count);
  }
  return mii;
}

/// Marks the distance-0 edges of `edges` (merged: one per (from, to,
/// distance)) that a path of two or more edges implies: a -> c is redundant
/// when some b with an edge b -> c has longest(a ~> b) + latency(b -> c) >=
/// latency(a -> c). Same-iteration edges point forward in the body, so the
/// body order is a topological order; each removed edge is implied by edges
/// of strictly shorter body span, so removing all of them at once is sound.
/// Marks nothing when an edge does not point forward (not a DAG).
static std::vector<char>
redundantSameIterationEdges(const LoopDependenceGraph &graph,
                            const std::vector<TimingEdge> &edges) {
  std::vector<char> redundant(edges.size(), 0);
  unsigned n = graph.nodes.size();
  for (const TimingEdge &e : edges)
    if (e.distance == 0 &&
        graph.nodes[e.from].position >= graph.nodes[e.to].position)
      return redundant;
  // Flat adjacency of the distance-0 edges: (source, latency) per target,
  // (target, latency, edge index) per source.
  std::vector<unsigned> outBegin, inBegin;
  std::vector<std::tuple<unsigned, int64_t, unsigned>> out;
  std::vector<std::pair<unsigned, int64_t>> in;
  buildFlatAdjacency(
      n, llvm::ArrayRef(edges),
      [](const TimingEdge &e) { return e.distance == 0; },
      [](unsigned, const TimingEdge &e) {
        return std::pair<unsigned, int64_t>(e.from, e.latency);
      },
      [](unsigned i, const TimingEdge &e) {
        return std::tuple<unsigned, int64_t, unsigned>(e.to, e.latency, i);
      },
      inBegin, in, outBegin, out);
  std::vector<unsigned> order(n);
  for (unsigned v = 0; v < n; ++v)
    order[v] = v;
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return graph.nodes[a].position < graph.nodes[b].position;
  });
  std::vector<unsigned> rank(n);
  for (unsigned i = 0; i < n; ++i)
    rank[order[i]] = i;
  constexpr int64_t kNone = std::numeric_limits<int64_t>::min();
  std::vector<int64_t> longest(n);
  for (unsigned a = 0; a < n; ++a) {
    if (outBegin[a + 1] - outBegin[a] < 2)
      continue; // a single out-edge cannot be implied by another path
    std::fill(longest.begin(), longest.end(), kNone);
    longest[a] = 0;
    for (unsigned i = rank[a]; i < n; ++i) {
      unsigned u = order[i];
      if (longest[u] == kNone)
        continue;
      for (unsigned k = outBegin[u]; k < outBegin[u + 1]; ++k) {
        auto [w, lat, idx] = out[k];
        longest[w] = std::max(longest[w], longest[u] + lat);
      }
    }
    for (unsigned k = outBegin[a]; k < outBegin[a + 1]; ++k) {
      auto [c, lat, idx] = out[k];
      for (unsigned j = inBegin[c]; j < inBegin[c + 1]; ++j) {
        auto [b, latBC] = in[j];
        if (b != a && longest[b] != kNone && longest[b] + latBC >= lat) {
          redundant[idx] = 1;
          break;
        }
      }
    }
  }
  return redundant;
}

/// edgeLatency without a unit lookup by name per edge: the producer's
/// latency (0 for a sync node that is not a group) per node, resolved once.
static std::vector<int64_t> producerLatencies(const LoopDependenceGraph &graph,
                                              const SchedulerConfig &config) {
  std::vector<int64_t> producerLatency(graph.nodes.size(), 0);
  for (auto [v, node] : llvm::enumerate(graph.nodes)) {
    if (node.isSync && !isGroupNode(node))
      continue;
    if (const PipelineUnit *unit = findUnit(config, node.unit))
      producerLatency[v] = unit->latencyCycles;
  }
  return producerLatency;
}

/// Sorts `edges` by (from, to, distance).
static void sortBySource(unsigned n, std::vector<TimingEdge> &edges) {
  detail::sortBySource(n, edges, [](const TimingEdge &a, const TimingEdge &b) {
    return std::tie(a.to, a.distance) < std::tie(b.to, b.distance);
  });
}

/// The active edges (without same-iteration self loops) with their
/// latencies, one per (from, to, distance) with the largest latency,
/// sorted by that key.
static std::vector<TimingEdge>
mergedTimingEdges(const LoopDependenceGraph &graph,
                  const SchedulerConfig &config) {
  unsigned n = graph.nodes.size();
  std::vector<TimingEdge> merged;
  merged.reserve(graph.edges.size());
  std::vector<int64_t> producerLatency = producerLatencies(graph, config);
  for (const DepEdge &e : graph.edges) {
    if (!isActive(e) || (e.distance == 0 && e.from == e.to))
      continue;
    int64_t latency = 0;
    if (e.kind != DepKind::WAR && e.kind != DepKind::WAW &&
        !(graph.nodes[e.to].isSync &&
          graph.nodes[e.to].unit == graph.nodes[e.from].unit))
      latency = producerLatency[e.from];
    merged.push_back({e.from, e.to, e.distance, latency});
  }
  auto key = [](const TimingEdge &e) {
    return std::make_tuple(e.from, e.to, e.distance);
  };
  sortBySource(n, merged);
  size_t kept = 0;
  for (size_t i = 0; i < merged.size(); ++i) {
    if (kept && key(merged[kept - 1]) == key(merged[i]))
      merged[kept - 1].latency =
          std::max(merged[kept - 1].latency, merged[i].latency);
    else
      merged[kept++] = merged[i];
  }
  merged.resize(kept);
  return merged;
}

/// The modulo scheduler's view of `tg.edges`: the self loops apart, the
/// flat in- and out-arcs of the others, and the edges by decreasing source
/// position (the edges of one source stay in edge order; the heights do not
/// depend on the order, only the sweep count).
static void buildSchedulerView(const LoopDependenceGraph &graph,
                               TimingGraph &tg) {
  unsigned n = tg.numNodes;
  for (const TimingEdge &e : tg.edges)
    if (e.from == e.to)
      tg.selfLoops.push_back(e);
  using Arc = TimingGraph::Arc;
  buildFlatAdjacency(
      n, llvm::ArrayRef(tg.edges),
      [](const TimingEdge &e) { return e.from != e.to; },
      [](unsigned, const TimingEdge &e) {
        return Arc{e.from, e.distance, e.latency};
      },
      [](unsigned, const TimingEdge &e) {
        return Arc{e.to, e.distance, e.latency};
      },
      tg.inBegin, tg.inArcs, tg.outBegin, tg.outArcs);
  std::vector<unsigned> byPosition(n);
  for (unsigned v = 0; v < n; ++v)
    byPosition[v] = v;
  llvm::stable_sort(byPosition, [&](unsigned a, unsigned b) {
    return graph.nodes[a].position > graph.nodes[b].position;
  });
  tg.heightOrder.reserve(tg.edges.size());
  for (unsigned v : byPosition)
    for (unsigned ei : tg.out[v])
      tg.heightOrder.push_back(tg.edges[ei]);
}

TimingGraph detail::buildTimingGraph(const LoopDependenceGraph &graph,
                                     const SchedulerConfig &config) {
  TimingGraph tg;
  tg.numNodes = graph.nodes.size();
  // One edge per (from, to, distance) with the largest latency.
  std::vector<TimingEdge> merged = mergedTimingEdges(graph, config);
  std::vector<int64_t> nodeLatency(tg.numNodes, 0);
  for (const TimingEdge &e : merged)
    nodeLatency[e.from] = std::max(nodeLatency[e.from], e.latency);
  for (int64_t l : nodeLatency)
    tg.latencySum += l;
  // Same-iteration edges implied by a longer path (a -> ... -> b -> c at
  // least as long as a -> c) constrain nothing: every timing check holds
  // on the path. Memory dependences make these graphs dense (every pair of
  // accesses to a buffer), and every scheduling step walks the edges, so
  // the redundant ones are dropped once here.
  std::vector<char> redundant = redundantSameIterationEdges(graph, merged);
  tg.out.resize(tg.numNodes);
  for (auto [i, e] : llvm::enumerate(merged)) {
    if (redundant[i])
      continue;
    tg.out[e.from].push_back(tg.edges.size());
    tg.edges.push_back(e);
  }
  buildSchedulerView(graph, tg);
  return tg;
}

/// Longest paths (queue-based Bellman-Ford) for t[to] >= t[from] + w(edge),
/// t >= 0 and optionally t <= upperBound. Returns true when feasible, and
/// then the earliest such t in `times` (if given). On a positive cycle,
/// `cycle` (if given) receives its edge indices.
template <typename Weight>
static bool longestPathsFeasible(const TimingGraph &tg, Weight weight,
                                 std::optional<int64_t> upperBound,
                                 std::vector<unsigned> *cycle,
                                 std::vector<int64_t> *times = nullptr) {
  unsigned n = tg.numNodes;
  std::vector<int64_t> dist(n, 0);
  std::vector<unsigned> length(n, 0);
  std::vector<int> pred(n, -1);
  std::vector<char> queued(n, 1);
  std::deque<unsigned> queue;
  for (unsigned v = 0; v < n; ++v)
    queue.push_back(v);
  uint64_t relaxations = 0;
  bool found = false;
  unsigned foundNode = 0;
  while (!queue.empty()) {
    unsigned u = queue.front();
    queue.pop_front();
    queued[u] = 0;
    for (unsigned ei : tg.out[u]) {
      const TimingEdge &e = tg.edges[ei];
      int64_t candidate = dist[u] + weight(e);
      if (candidate <= dist[e.to])
        continue;
      dist[e.to] = candidate;
      pred[e.to] = ei;
      length[e.to] = length[u] + 1;
      if (upperBound && candidate > *upperBound)
        return false;
      // Amortised cycle check: every n relaxations look for a cycle in the
      // predecessor graph (any such cycle is positive), which finds positive
      // cycles long before a path of n edges builds up.
      if (++relaxations % n == 0 && !found) {
        std::vector<unsigned> stamp(n, 0);
        for (unsigned v = 0; v < n && !found; ++v) {
          unsigned x = v;
          while (!stamp[x] && pred[x] >= 0) {
            stamp[x] = v + 1;
            x = tg.edges[pred[x]].from;
          }
          if (stamp[x] == v + 1)
            found = true, foundNode = x;
        }
      }
      if (found || length[e.to] >= n) {
        if (cycle) {
          // Walk back n steps to land on the cycle, then collect it.
          unsigned x = found ? foundNode : e.to;
          for (unsigned i = 0; i < n && !found; ++i)
            x = tg.edges[pred[x]].from;
          unsigned y = x;
          cycle->clear();
          do {
            cycle->push_back(pred[y]);
            y = tg.edges[pred[y]].from;
          } while (y != x && cycle->size() <= n);
        }
        return false;
      }
      if (!queued[e.to]) {
        queued[e.to] = 1;
        queue.push_back(e.to);
      }
    }
  }
  if (times)
    *times = std::move(dist);
  return true;
}

/// RecMII by cycle jumping: while the constraints at II have a positive
/// cycle C, raise II to ceil(latency(C) / distance(C)), a bound that cycle
/// imposes. Every step lands on a real cycle's ratio, so it ends at the
/// maximum ratio after few iterations.
int64_t detail::recMIIOf(const TimingGraph &tg) {
  if (llvm::none_of(tg.edges, [](const TimingEdge &e) { return e.distance; }))
    return 1;
  int64_t ii = 1;
  std::vector<unsigned> cycle;
  while (ii <= tg.latencySum) {
    auto weight = [&](const TimingEdge &e) {
      return e.latency - static_cast<int64_t>(e.distance) * ii;
    };
    if (longestPathsFeasible(tg, weight, std::nullopt, &cycle))
      return ii;
    int64_t latency = 0, distance = 0;
    for (unsigned ei : cycle) {
      latency += tg.edges[ei].latency;
      distance += tg.edges[ei].distance;
    }
    int64_t next = distance > 0 ? (latency + distance - 1) / distance : ii + 1;
    ii = std::max(ii + 1, next);
  }
  return ii;
}

/// Whether the stage assignment `stages` admits issue offsets in [0, ii)
/// under the timing model (an edge u -> v of distance d needs t(v) +
/// (d + stage(v) - stage(u)) * ii >= t(u) + latency(u)); the earliest
/// offsets go to `times` (if given).
static bool offsetsFeasible(const TimingGraph &tg,
                            const std::vector<unsigned> &stages, int64_t ii,
                            std::vector<int64_t> *times = nullptr) {
  auto weight = [&](const TimingEdge &e) {
    int64_t delta = static_cast<int64_t>(e.distance) + stages[e.to] -
                    static_cast<int64_t>(stages[e.from]);
    return e.latency - delta * ii;
  };
  return longestPathsFeasible(tg, weight, ii - 1, nullptr, times);
}

int64_t detail::achievedIIOf(const TimingGraph &tg,
                             const std::vector<unsigned> &stages,
                             int64_t lowerBound) {
  auto ok = [&](int64_t ii) { return offsetsFeasible(tg, stages, ii); };
  int64_t lo = std::max<int64_t>(lowerBound, 1);
  // Every kernel-iteration chain fits once II exceeds the sum of latencies,
  // and every cycle spans at least one kernel iteration.
  return smallestFeasible(lo, lo + tg.latencySum, ok);
}

int64_t hwsched::computeRecMII(const LoopDependenceGraph &graph,
                               const SchedulerConfig &config) {
  return recMIIOf(buildTimingGraph(graph, config));
}

std::vector<unsigned>
hwsched::findCriticalRecurrence(const LoopDependenceGraph &graph,
                                const SchedulerConfig &config) {
  TimingGraph tg = buildTimingGraph(graph, config);
  int64_t recMII = recMIIOf(tg);
  if (recMII <= 1)
    return {};
  // One below RecMII, only the cycles that set it are positive.
  std::vector<unsigned> cycle;
  auto weight = [&](const TimingEdge &e) {
    return e.latency - static_cast<int64_t>(e.distance) * (recMII - 1);
  };
  if (longestPathsFeasible(tg, weight, std::nullopt, &cycle))
    return {};
  // The cycle is collected back to front. Each timing edge stands for the
  // active dependences it merged; name one, preferring one through memory
  // reached by two roots that may alias (the cause a user can lift).
  std::vector<unsigned> edges;
  for (unsigned ei : llvm::reverse(cycle)) {
    const TimingEdge &t = tg.edges[ei];
    std::optional<unsigned> pick;
    for (auto [i, e] : llvm::enumerate(graph.edges))
      if (isActive(e) && e.from == t.from && e.to == t.to &&
          e.distance == t.distance &&
          (!pick || (e.aliasBuffer >= 0 && graph.edges[*pick].aliasBuffer < 0)))
        pick = i;
    if (pick)
      edges.push_back(*pick);
  }
  return edges;
}

std::vector<int64_t>
hwsched::computeIssueOffsets(const LoopDependenceGraph &graph,
                             const SchedulerConfig &config,
                             const std::vector<unsigned> &stages, int64_t ii) {
  std::vector<int64_t> times;
  if (!offsetsFeasible(buildTimingGraph(graph, config), stages, ii, &times))
    return {};
  return times;
}

int64_t hwsched::computeAchievedII(const LoopDependenceGraph &graph,
                                   const SchedulerConfig &config,
                                   const std::vector<unsigned> &stages,
                                   int64_t lowerBound) {
  return achievedIIOf(buildTimingGraph(graph, config), stages, lowerBound);
}
