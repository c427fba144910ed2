//===- StageScheduler.cpp - Resource-aware stage assignment ---------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/StageScheduler.h"
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

llvm::Expected<SchedulerConfig>
hwsched::readSchedulerConfig(const HwSpec &spec) {
  auto missing = [&](const llvm::Twine &key) {
    return refuse(nullptr,
                  "spec '" + spec.getPath() + "' lacks a valid '" + key + "'");
  };
  SchedulerConfig config;
  config.specName = spec.getName().str();
  for (const std::string &name : spec.getPipelineUnits()) {
    PipelineUnit unit;
    unit.name = name;
    std::string prefix = "pipeline.units." + name + ".";
    for (auto [field, dest] :
         {std::pair<const char *, int64_t *>{"count", &unit.count},
          {"latency_cycles", &unit.latencyCycles},
          {"issue_cycles", &unit.issueCycles}}) {
      std::optional<int64_t> v = spec.getInteger(prefix + field);
      if (!v || *v < (std::string(field) == "latency_cycles" ? 0 : 1))
        return missing(prefix + field);
      *dest = *v;
    }
    config.units.push_back(unit);
  }
  if (config.units.empty())
    return missing("pipeline.units");
  std::optional<int64_t> capacity = spec.getInteger("onchip.capacity_bytes");
  if (!capacity)
    return missing("onchip.capacity_bytes");
  config.capacityBytes = *capacity;
  std::optional<int64_t> maxStages = spec.getInteger("pipeline.max_stages");
  if (!maxStages || *maxStages < 1)
    return missing("pipeline.max_stages");
  // An override may exceed what `unsigned` holds: saturate, do not wrap.
  config.maxStages = static_cast<unsigned>(
      std::min<int64_t>(*maxStages, std::numeric_limits<unsigned>::max()));
  return config;
}

namespace {
/// Unit figures per node, resolved once.
struct NodeTiming {
  std::vector<int> unit;
  std::vector<int64_t> latency;
};
} // namespace

static const PipelineUnit *findUnit(const SchedulerConfig &config,
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
static int64_t edgeLatency(const LoopDependenceGraph &graph,
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
static bool isActive(const DepEdge &e) {
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

namespace {
/// Active edges merged per (from, to, distance) with the largest latency:
/// parallel RAW/WAR/WAW/SSA edges constrain timing once.
struct TimingEdge {
  unsigned from, to, distance;
  int64_t latency;
};
} // namespace

namespace {
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
} // namespace

/// Flat in- and out-adjacency (CSR: node v's arcs are [begin[v],
/// begin[v + 1]), in the order of `edges`) of the edges `keep` accepts, over
/// `n` nodes; `inArc(i, e)` / `outArc(i, e)` make the arc that edge i stores
/// at its target / source. The scheduler walks these arrays in its inner
/// loops, so they are flat rather than vectors per node.
template <typename Edge, typename InArc, typename OutArc, typename KeepFn,
          typename InArcFn, typename OutArcFn>
static void buildFlatAdjacency(unsigned n, llvm::ArrayRef<Edge> edges,
                               KeepFn keep, InArcFn inArc, OutArcFn outArc,
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

static TimingGraph buildTimingGraph(const LoopDependenceGraph &graph,
                                    const SchedulerConfig &config) {
  TimingGraph tg;
  tg.numNodes = graph.nodes.size();
  // One edge per (from, to, distance) with the largest latency.
  std::vector<TimingEdge> merged;
  merged.reserve(graph.edges.size());
  // edgeLatency without a unit lookup by name per edge: the producer's
  // latency (0 for a sync node that is not a group) per node, resolved once.
  std::vector<int64_t> producerLatency(tg.numNodes, 0);
  for (auto [v, node] : llvm::enumerate(graph.nodes)) {
    if (node.isSync && !isGroupNode(node))
      continue;
    if (const PipelineUnit *unit = findUnit(config, node.unit))
      producerLatency[v] = unit->latencyCycles;
  }
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
  // Sorted by (from, to, distance): bucketed by source first (a counting
  // sort), then each short bucket sorted by (to, distance).
  {
    std::vector<unsigned> begin(tg.numNodes + 1, 0);
    for (const TimingEdge &e : merged)
      ++begin[e.from + 1];
    for (unsigned v = 0; v < tg.numNodes; ++v)
      begin[v + 1] += begin[v];
    std::vector<TimingEdge> bucketed(merged.size());
    std::vector<unsigned> fill(begin.begin(), begin.end() - 1);
    for (const TimingEdge &e : merged)
      bucketed[fill[e.from]++] = e;
    for (unsigned v = 0; v < tg.numNodes; ++v)
      std::sort(bucketed.begin() + begin[v], bucketed.begin() + begin[v + 1],
                [](const TimingEdge &a, const TimingEdge &b) {
                  return std::tie(a.to, a.distance) <
                         std::tie(b.to, b.distance);
                });
    merged = std::move(bucketed);
  }
  size_t kept = 0;
  for (size_t i = 0; i < merged.size(); ++i) {
    if (kept && key(merged[kept - 1]) == key(merged[i]))
      merged[kept - 1].latency =
          std::max(merged[kept - 1].latency, merged[i].latency);
    else
      merged[kept++] = merged[i];
  }
  merged.resize(kept);
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
  // By decreasing source position (the edges of one source stay in edge
  // order; the heights do not depend on the order, only the sweep count).
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

/// Smallest value in [lo, cap] satisfying the monotone predicate `ok`
/// (exponential then binary search: results are usually close to `lo`);
/// `cap` when none does.
template <typename Pred>
static int64_t smallestFeasible(int64_t lo, int64_t cap, Pred ok) {
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

/// RecMII by cycle jumping: while the constraints at II have a positive
/// cycle C, raise II to ceil(latency(C) / distance(C)), a bound that cycle
/// imposes. Every step lands on a real cycle's ratio, so it ends at the
/// maximum ratio after few iterations.
static int64_t recMIIOf(const TimingGraph &tg) {
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

static int64_t achievedIIOf(const TimingGraph &tg,
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

//===----------------------------------------------------------------------===//
// Stage assignment
//===----------------------------------------------------------------------===//

namespace {
/// Integer stage constraints s[to] - s[from] >= weight.
struct StageConstraint {
  unsigned from, to;
  int64_t weight;
  bool soft; // the unit-separation preference (may be dropped)
  int edge;  // originating graph edge, -1 for none
};
} // namespace

static std::vector<StageConstraint>
buildStageConstraints(const LoopDependenceGraph &graph) {
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
    // Loop-carried: `from` of iteration i must run before `to` of i+1 in a
    // body-ordered kernel: stage(from) <= stage(to) + (from earlier ? 1 : 0).
    int64_t slack = from.position < to.position ? 1 : 0;
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
static void relaxRecurrences(unsigned n, std::vector<StageConstraint> &cs) {
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

static void computeCopies(const LoopDependenceGraph &graph,
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

static StageSchedule levelSchedule(const LoopDependenceGraph &graph,
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

  std::vector<StageConstraint> cs = buildStageConstraints(graph);
  relaxRecurrences(n, cs);
  auto toStages = [&](const std::vector<StageConstraint> &constraints)
      -> std::optional<std::vector<unsigned>> {
    std::optional<std::vector<int64_t>> asap = asapStages(n, constraints);
    if (!asap)
      return std::nullopt;
    int64_t depth = *std::max_element(asap->begin(), asap->end()) + 1;
    std::vector<unsigned> stages(n);
    if (depth <= stageLimit) {
      for (unsigned v = 0; v < n; ++v)
        stages[v] = static_cast<unsigned>((*asap)[v]);
      return stages;
    }
    // The graph is deeper than the limit: merge neighbouring levels. Any map
    // that keeps `stageLimit - 1` of the `depth - 1` level boundaries is
    // monotone and grows by at most 1 per level, so every constraint stays
    // satisfied. Try every choice of boundaries when there are few (keeping
    // the boundaries on the longest latencies matters: merging a copy with
    // its reader costs far more than merging a load with its compute), else
    // spread them evenly.
    auto apply = [&](const std::vector<unsigned> &levelStage) {
      for (unsigned v = 0; v < n; ++v)
        stages[v] = levelStage[(*asap)[v]];
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
        choices * tg.edges.size() > 20000) {
      apply(even);
      return stages;
    }
    std::vector<unsigned> bestLevels = even;
    apply(even);
    int64_t bestII = achievedIIOf(tg, stages, schedule.mii);
    // Enumerate boundary subsets as bit masks over the depth - 1 boundaries.
    for (uint64_t mask = 0; mask < (uint64_t(1) << (depth - 1)); ++mask) {
      if (static_cast<unsigned>(llvm::popcount(mask)) != stageLimit - 1)
        continue;
      std::vector<unsigned> levels(depth, 0);
      for (int64_t l = 1; l < depth; ++l)
        levels[l] = levels[l - 1] + ((mask >> (l - 1)) & 1);
      apply(levels);
      int64_t ii = achievedIIOf(tg, stages, schedule.mii);
      if (ii < bestII) {
        bestII = ii;
        bestLevels = levels;
      }
    }
    apply(bestLevels);
    return stages;
  };
  std::optional<std::vector<unsigned>> stages = toStages(cs);
  if (!stages) {
    // Hard constraints alone are always satisfiable by one stage.
    stages = std::vector<unsigned>(n, 0);
  }
  int64_t best = achievedIIOf(tg, *stages, schedule.mii);

  // Spend unused stages on the edges whose latency bounds the interval:
  // separating producer and consumer by one more stage hides II more cycles.
  auto used = [&](const std::vector<unsigned> &s) {
    return *std::max_element(s.begin(), s.end()) + 1;
  };
  for (unsigned round = 0;
       round < stageLimit && used(*stages) < stageLimit && best > schedule.mii;
       ++round) {
    // Candidate moves: for one (producer unit, consumer unit) pair, separate
    // every latency-bound edge of that pair by one more stage (edges of a
    // pair usually bound the interval together, e.g. the two operand copies
    // of a matmul).
    auto isTight = [&](const StageConstraint &c) {
      if (c.edge < 0 || graph.edges[c.edge].distance != 0 || c.weight < 0 ||
          c.from == c.to)
        return false;
      const DepEdge &e = graph.edges[c.edge];
      int64_t lat = edgeLatency(graph, config, e);
      int64_t delta = (*stages)[e.to] - static_cast<int64_t>((*stages)[e.from]);
      return lat > 0 && lat > delta * best;
    };
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const StageConstraint &c : cs)
      if (isTight(c)) {
        std::pair<std::string, std::string> key{graph.nodes[c.from].unit,
                                                graph.nodes[c.to].unit};
        if (!llvm::is_contained(pairs, key))
          pairs.push_back(key);
      }
    std::vector<StageConstraint> bestCs;
    std::vector<unsigned> bestStages;
    int64_t bestII = best;
    // A few unit pairs per round bound the search on large graphs.
    if (pairs.size() > 8)
      pairs.resize(8);
    for (const auto &key : pairs) {
      std::vector<StageConstraint> trial = cs;
      for (StageConstraint &c : trial) {
        if (!isTight(c) || graph.nodes[c.from].unit != key.first ||
            graph.nodes[c.to].unit != key.second)
          continue;
        int64_t delta =
            (*stages)[c.to] - static_cast<int64_t>((*stages)[c.from]);
        c.weight = std::max<int64_t>(c.weight, delta + 1);
      }
      std::optional<std::vector<unsigned>> s = toStages(trial);
      // Unchanged stages (hard constraints keep the ops together) cannot
      // lower the interval.
      if (!s || used(*s) > stageLimit || *s == *stages)
        continue;
      int64_t ii = achievedIIOf(tg, *s, schedule.mii);
      if (ii < bestII) {
        bestII = ii;
        bestCs = trial;
        bestStages = *s;
      }
    }
    if (bestStages.empty())
      break;
    cs = bestCs;
    stages = bestStages;
    best = bestII;
  }

  schedule.stage = *stages;
  schedule.numStages = used(*stages);
  schedule.achievedII = best;
  computeCopies(graph, config, schedule);
  return schedule;
}

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
static int64_t stageBoundIIOf(const TimingGraph &tg, int64_t mii,
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
  using Arc = TimingGraph::Arc;
  const TimingGraph &tg = p.tg;
  unsigned n = tg.numNodes;
  auto weightOf = [ii](int64_t latency, unsigned distance) {
    return latency - static_cast<int64_t>(distance) * ii;
  };
  for (const TimingEdge &e : tg.selfLoops)
    if (weightOf(e.latency, e.distance) > 0)
      return std::nullopt;
  // Height: longest path to the end of the iteration.
  std::vector<int64_t> height(n, 0);
  for (unsigned round = 0;; ++round) {
    if (round > n)
      return std::nullopt; // positive cycle: ii < RecMII
    bool changed = false;
    for (const TimingEdge &e : tg.heightOrder) {
      int64_t h = height[e.to] + weightOf(e.latency, e.distance);
      if (h > height[e.from]) {
        height[e.from] = h;
        changed = true;
      }
    }
    if (!changed)
      break;
  }
  int64_t deadline = static_cast<int64_t>(p.stageLimit) * ii - 1;
  // sigma: issue time (-1: unscheduled); stage: sigma / ii when scheduled.
  std::vector<int64_t> sigma(n, -1), previous(n, -1), stage(n, 0);
  // One flat reservation row per unit (counts of at most n ops).
  std::vector<int32_t> mrt(p.unitCount.size() * ii, 0);
  auto row = [&](int unit) { return mrt.data() + unit * ii; };
  auto reserve = [&](unsigned v, int64_t t, int delta) {
    if (p.unit[v] < 0)
      return;
    int32_t *slots = row(p.unit[v]);
    int64_t slot = t % ii;
    for (int64_t k = 0; k < p.issue[v]; ++k) {
      slots[slot] += delta;
      if (++slot == ii)
        slot = 0;
    }
  };
  auto resourcesFree = [&](unsigned v, int64_t t) {
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
  };
  // Every op before `cursor` in `order` is scheduled: the next op to place
  // is found by scanning forward from it, and an eviction moves it back.
  size_t cursor = 0;
  std::vector<size_t> rank(n);
  unsigned unscheduled = n;
  auto unschedule = [&](unsigned v) {
    reserve(v, sigma[v], -1);
    sigma[v] = -1;
    cursor = std::min(cursor, rank[v]);
    ++unscheduled;
  };
  std::vector<unsigned> order(n);
  for (unsigned v = 0; v < n; ++v)
    order[v] = v;
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return height[a] > height[b] ||
           (height[a] == height[b] && p.position[a] < p.position[b]);
  });
  for (size_t i = 0; i < n; ++i)
    rank[order[i]] = i;
  int64_t budget = std::max<int64_t>(4 * n, 64);
  const Arc *inArcs = tg.inArcs.data(), *outArcs = tg.outArcs.data();
  const std::pair<unsigned, int64_t> *csInArcs = p.csInArcs.data(),
                                     *csOutArcs = p.csOutArcs.data();
  while (unscheduled && budget-- > 0) {
    // The unscheduled op of greatest height (ties: body order).
    while (sigma[order[cursor]] >= 0)
      ++cursor;
    unsigned v = order[cursor];
    int64_t estart = 0, lstart = deadline;
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
    if (estart > deadline)
      return std::nullopt; // the predecessors already reach the deadline
    int64_t slot = -1;
    for (int64_t t = estart, last = std::min(estart + ii - 1, lstart);
         t <= last; ++t)
      if (resourcesFree(v, t)) {
        slot = t;
        break;
      }
    bool forced = slot < 0;
    if (forced) {
      // Forced: at the earliest start, or one past the previous attempt so
      // that repeated forcing makes progress.
      slot = previous[v] < 0 || estart > previous[v] ? estart : previous[v] + 1;
      if (slot > deadline ||
          (!p.fixedStage.empty() && slot / ii != p.fixedStage[v]))
        return std::nullopt;
      // Evict the ops of the same unit that overlap the slot (in index
      // order, until the slot is free).
      if (p.unit[v] >= 0)
        for (unsigned w : p.unitNodes[p.unit[v]]) {
          if (resourcesFree(v, slot))
            break;
          if (w == v || sigma[w] < 0)
            continue;
          // Circular intervals [slot, slot + issue) and [sigma, sigma +
          // issue) modulo ii.
          int64_t d = (sigma[w] - slot) % ii;
          d = d < 0 ? d + ii : d;
          bool overlaps = p.issue[v] >= ii || p.issue[w] >= ii ||
                          d < p.issue[v] || ii - d < p.issue[w];
          if (overlaps)
            unschedule(w);
        }
    }
    int64_t slotStage = slot / ii;
    sigma[v] = previous[v] = slot;
    stage[v] = slotStage;
    reserve(v, slot, 1);
    --unscheduled;
    // Evict the neighbours whose constraints the slot violates. The slot is
    // never below `estart`, which every scheduled predecessor bounds, so
    // only successors can be violated, and only by a forced slot: a free
    // slot is at most `lstart`, which every scheduled successor bounds.
    // Which successors does not depend on the order of the walks: an
    // eviction changes no other op's time.
    if (!forced)
      continue;
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

/// Modulo schedule with at most `stageLimit` stages at the smallest interval
/// the scheduler finds: II = bound, bound + 1, ... first, then growing steps
/// and a bisection back down. `variants` are the stage-constraint sets to try
/// at each II, preferred first; a schedule counts only if `accept` takes it
/// (the capacity check). Returns (II, issue times); `firstRejected` receives
/// the smallest-II schedule that `accept` refused, if any.
using ModuloResult = std::pair<int64_t, std::vector<int64_t>>;
static std::optional<ModuloResult>
searchModuloSchedule(const LoopDependenceGraph &graph,
                     const SchedulerConfig &config, const TimingGraph &tg,
                     const std::vector<std::vector<StageConstraint>> &variants,
                     unsigned stageLimit, int64_t bound,
                     llvm::function_ref<bool(const ModuloResult &)> accept,
                     std::optional<ModuloResult> &firstRejected,
                     const std::vector<unsigned> *fixedStages = nullptr) {
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
static StageSchedule scheduleFromTimes(const LoopDependenceGraph &graph,
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
static StageSchedule scheduleWithTiming(const LoopDependenceGraph &graph,
                                        const SchedulerConfig &config,
                                        const TimingGraph &tg, int64_t resMII,
                                        int64_t recMII, unsigned stageLimit,
                                        bool fitCapacity = false) {
  int64_t mii = std::max(resMII, recMII);
  int64_t bound = stageBoundIIOf(tg, mii, stageLimit);
  unsigned n = graph.nodes.size();
  std::optional<ModuloResult> found, rejected;
  std::optional<int64_t> exhaustiveII;
  if (n) {
    // Dependent ops on different units in different stages: preferred (kept
    // where it costs no interval), or a hard rule with `separateUnits`. The
    // timing model already keeps each consumer a full latency after its
    // producer, so the rule only hides latency the model does not see.
    std::vector<StageConstraint> hard = buildStageConstraints(graph);
    relaxRecurrences(n, hard);
    std::vector<StageConstraint> preferred = hard;
    if (!config.separateUnits)
      for (StageConstraint &c : hard)
        if (c.soft)
          c.weight = 0;
    // Same-iteration constraints of weight <= 0 follow from the timing
    // edges (latencies are >= 0); of parallel constraints the largest weight
    // binds. Fewer constraints make every scheduling step cheaper.
    auto prune = [&](std::vector<StageConstraint> &cs) {
      std::vector<StageConstraint> kept;
      for (const StageConstraint &c : cs) {
        if (c.from == c.to ||
            (c.edge >= 0 && graph.edges[c.edge].distance == 0 && c.weight <= 0))
          continue;
        kept.push_back({c.from, c.to, c.weight, false, -1});
      }
      // Sorted by (from, to), strongest first: keep the first of each pair.
      // Bucketed by source first (a counting sort), then each short bucket
      // sorted.
      {
        std::vector<unsigned> begin(n + 1, 0);
        for (const StageConstraint &c : kept)
          ++begin[c.from + 1];
        for (unsigned v = 0; v < n; ++v)
          begin[v + 1] += begin[v];
        std::vector<StageConstraint> bucketed(kept.size());
        std::vector<unsigned> fill(begin.begin(), begin.end() - 1);
        for (const StageConstraint &c : kept)
          bucketed[fill[c.from]++] = c;
        for (unsigned v = 0; v < n; ++v)
          std::sort(
              bucketed.begin() + begin[v], bucketed.begin() + begin[v + 1],
              [](const StageConstraint &a, const StageConstraint &b) {
                return std::tie(a.to, b.weight) < std::tie(b.to, a.weight);
              });
        kept = std::move(bucketed);
      }
      cs.clear();
      for (const StageConstraint &c : kept)
        if (cs.empty() || cs.back().from != c.from || cs.back().to != c.to)
          cs.push_back(c);
    };
    prune(preferred);
    prune(hard);
    auto accept = [&](const ModuloResult &r) {
      if (!fitCapacity)
        return true;
      return scheduleFromTimes(graph, config, r).onChipBytes <=
             config.capacityBytes;
    };
    // With the rule hard both variants are the same constraints: one search.
    std::vector<std::vector<StageConstraint>> variants = {hard};
    if (!config.separateUnits)
      variants.insert(variants.begin(), preferred);
    found = searchModuloSchedule(graph, config, tg, variants, stageLimit, bound,
                                 accept, rejected);
    // Above the bound the heuristic may have missed a better assignment:
    // also schedule the issue cycles of the level-merging stages (exact for
    // the latencies, blind to the units) and keep the better interval. Only
    // on small bodies: on ~100 ops it doubles the time for a few percent.
    if ((!found || found->first > bound) && n <= 64) {
      StageSchedule levels =
          levelSchedule(graph, config, tg, resMII, recMII, stageLimit);
      if (!found || levels.achievedII < found->first) {
        std::optional<ModuloResult> unused;
        std::optional<ModuloResult> fixed = searchModuloSchedule(
            graph, config, tg, {hard}, stageLimit,
            std::max(bound, levels.achievedII), accept, unused, &levels.stage);
        if (fixed && (!found || fixed->first < found->first))
          found = fixed;
      }
    }
    // Tiny bodies: enumerate every stage assignment the kernel allows. The
    // best latency-only interval over them is exact for the latency model
    // (a lower bound once the units count); the assignments below the
    // current interval get their issue cycles scheduled.
    uint64_t assignments = 1;
    for (unsigned v = 0; v < n && assignments <= 512; ++v)
      assignments *= stageLimit;
    if ((!found || found->first > bound) && stageLimit > 1 &&
        assignments <= 512) {
      std::vector<std::pair<int64_t, std::vector<unsigned>>> candidates;
      std::vector<unsigned> st(n, 0);
      int64_t best = std::numeric_limits<int64_t>::max();
      for (uint64_t code = 0; code < assignments; ++code) {
        uint64_t rest = code;
        for (unsigned v = 0; v < n; ++v) {
          st[v] = rest % stageLimit;
          rest /= stageLimit;
        }
        if (!llvm::is_contained(st, 0u))
          continue; // a shifted copy of another assignment
        bool legal =
            llvm::all_of(hard,
                         [&](const StageConstraint &c) {
                           return static_cast<int64_t>(st[c.to]) - st[c.from] >=
                                  c.weight;
                         }) &&
            llvm::all_of(tg.edges, [&](const TimingEdge &e) {
              return e.distance || st[e.to] >= st[e.from];
            });
        if (!legal)
          continue;
        int64_t ii = achievedIIOf(tg, st, bound);
        best = std::min(best, ii);
        if (!found || ii < found->first)
          candidates.push_back({ii, st});
      }
      if (best != std::numeric_limits<int64_t>::max())
        exhaustiveII = best;
      llvm::stable_sort(candidates, [](const auto &a, const auto &b) {
        return a.first < b.first;
      });
      if (candidates.size() > 8)
        candidates.resize(8);
      for (auto &[ii, stages] : candidates) {
        if (found && ii >= found->first)
          break;
        std::optional<ModuloResult> unused;
        std::optional<ModuloResult> fixed = searchModuloSchedule(
            graph, config, tg, {hard}, stageLimit, ii, accept, unused, &stages);
        if (fixed && (!found || fixed->first < found->first))
          found = fixed;
      }
    }
  }
  // The figures every modulo-scheduled result reports.
  auto stamp = [&](StageSchedule &schedule) {
    schedule.stageLimit = stageLimit;
    schedule.resMII = resMII;
    schedule.recMII = recMII;
    schedule.mii = mii;
    schedule.stageBoundII = bound;
    schedule.moduloScheduled = true;
  };
  std::vector<ScheduleNote> notes;
  if (rejected && (!found || found->first > rejected->first)) {
    StageSchedule over = scheduleFromTimes(graph, config, *rejected);
    if (!found) {
      stamp(over);
      return over;
    }
    StageSchedule fits = scheduleFromTimes(graph, config, *found);
    std::string text;
    llvm::raw_string_ostream os(text);
    if (fits.numStages < over.numStages)
      os << "stage limit " << stageLimit << " reduced to " << fits.numStages
         << " stages to fit the capacity: ";
    os << "at interval " << rejected->first << " " << over.numStages
       << " stages need " << over.onChipBytes << " on-chip bytes > capacity "
       << config.capacityBytes << "; interval raised to " << found->first;
    notes.push_back({ScheduleNote::Kind::IntervalRaised, text});
  }
  if (!found) {
    StageSchedule fallback =
        levelSchedule(graph, config, tg, resMII, recMII, stageLimit);
    fallback.stageBoundII = bound;
    if (n)
      fallback.notes.push_back(
          {ScheduleNote::Kind::LevelMerging,
           "no modulo schedule found: stages by level merging, interval "
           "without the reservation-table check"});
    return fallback;
  }
  StageSchedule schedule = scheduleFromTimes(graph, config, *found);
  stamp(schedule);
  schedule.exhaustiveII = exhaustiveII;
  schedule.notes = std::move(notes);
  return schedule;
}

StageSchedule hwsched::scheduleWithLimit(const LoopDependenceGraph &graph,
                                         const SchedulerConfig &config,
                                         unsigned stageLimit) {
  TimingGraph tg = buildTimingGraph(graph, config);
  return scheduleWithTiming(graph, config, tg, computeResMII(graph, config),
                            recMIIOf(tg), stageLimit);
}

llvm::Expected<StageSchedule>
hwsched::scheduleStages(const LoopDependenceGraph &graph,
                        const SchedulerConfig &config) {
  TimingGraph tg = buildTimingGraph(graph, config);
  int64_t resMII = computeResMII(graph, config);
  int64_t recMII = recMIIOf(tg);
  std::vector<ScheduleNote> notes;
  unsigned limit = config.maxStages;
  if (config.requestedStages) {
    limit = *config.requestedStages;
    if (limit > config.maxStages) {
      notes.push_back({ScheduleNote::Kind::StageClamp,
                       "num_stages " + std::to_string(limit) +
                           " clamped to pipeline.max_stages " +
                           std::to_string(config.maxStages)});
      limit = config.maxStages;
    }
  }
  std::optional<StageSchedule> first;
  for (unsigned s = limit; s >= 1; --s) {
    StageSchedule schedule =
        scheduleWithTiming(graph, config, tg, resMII, recMII, s,
                           /*fitCapacity=*/true);
    if (!first)
      first = schedule;
    if (schedule.onChipBytes <= config.capacityBytes) {
      if (s < limit) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << (config.requestedStages ? "requested" : "maximum") << " " << limit
           << " stages reduced to " << s << ": " << first->numStages
           << " stages need " << first->onChipBytes
           << " on-chip bytes > capacity " << config.capacityBytes;
        notes.push_back({ScheduleNote::Kind::CapacityReduction, text});
      }
      if (config.requestedStages && schedule.numStages < s &&
          schedule.achievedII == schedule.mii)
        notes.push_back({ScheduleNote::Kind::UnusedStages,
                         "the dependence graph uses " +
                             std::to_string(schedule.numStages) + " of " +
                             std::to_string(s) +
                             " allowed stages (the interval is MII: more "
                             "stages would not lower it)"});
      notes.insert(notes.end(), schedule.notes.begin(), schedule.notes.end());
      schedule.notes = notes;
      return schedule;
    }
    if (s == 1) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "on-chip buffers do not fit (spec '" << config.specName
         << "'): even 1 stage needs " << schedule.onChipBytes
         << " on-chip bytes > onchip.capacity_bytes " << config.capacityBytes;
      return refuse(nullptr, text);
    }
    // The schedule never reached the limit, so the limits between its stage
    // count and s give the same schedule (unless the scheduler's round bound,
    // also s, cuts it short), and stepping through them one by one would
    // make a huge pipeline.max_stages (an override) cost one scheduling run
    // per stage: a hang for 2^31. Continue from its stage count.
    if (schedule.numStages + 1 < s)
      s = schedule.numStages + 1;
  }
  // Unreachable with a stage limit of at least 1 (num_stages >= 1 and
  // pipeline.max_stages >= 1 are checked before).
  return refuse(nullptr, "no stage limit of at least 1 to schedule with");
}

llvm::Error hwsched::checkStageLegality(const LoopDependenceGraph &graph,
                                        const std::vector<unsigned> &stages) {
  for (const DepEdge &e : graph.edges) {
    if (!isActive(e))
      continue;
    const DepNode &from = graph.nodes[e.from];
    const DepNode &to = graph.nodes[e.to];
    int64_t sf = stages[e.from], st = stages[e.to];
    // In kernel iteration k the body-ordered kernel runs op v for iteration
    // k - stage(v): `from` of iteration i runs before `to` of iteration
    // i + d iff (i + sf, pos_f) < (i + d + st, pos_t).
    bool ok = sf < st + static_cast<int64_t>(e.distance) ||
              (sf == st + static_cast<int64_t>(e.distance) &&
               from.position < to.position);
    if (e.distance == 0 && e.from == e.to)
      ok = true;
    if (!ok) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << stringifyDepKind(e.kind) << " dependence (distance " << e.distance
         << ") from '" << from.op->getName() << "' in stage " << sf << " to '"
         << to.op->getName() << "' in stage " << st;
      return refuse(to.op, text);
    }
  }
  return llvm::Error::success();
}
