//===- StageScheduler.cpp - Resource-aware stage assignment ---------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/StageScheduler.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace hwsched;

std::optional<SchedulerConfig>
hwsched::readSchedulerConfig(const HwSpec &spec, std::string &missing) {
  SchedulerConfig config;
  for (const std::string &name : spec.getPipelineUnits()) {
    PipelineUnit unit;
    unit.name = name;
    std::string prefix = "pipeline.units." + name + ".";
    for (auto [field, dest] :
         {std::pair<const char *, int64_t *>{"count", &unit.count},
          {"latency_cycles", &unit.latencyCycles},
          {"issue_cycles", &unit.issueCycles}}) {
      std::optional<int64_t> v = spec.getInteger(prefix + field);
      if (!v || *v < (std::string(field) == "latency_cycles" ? 0 : 1)) {
        missing = prefix + field;
        return std::nullopt;
      }
      *dest = *v;
    }
    config.units.push_back(unit);
  }
  if (config.units.empty()) {
    missing = "pipeline.units";
    return std::nullopt;
  }
  std::optional<int64_t> capacity = spec.getInteger("onchip.capacity_bytes");
  if (!capacity) {
    missing = "onchip.capacity_bytes";
    return std::nullopt;
  }
  config.capacityBytes = *capacity;
  std::optional<int64_t> maxStages = spec.getInteger("pipeline.max_stages");
  if (!maxStages || *maxStages < 1) {
    missing = "pipeline.max_stages";
    return std::nullopt;
  }
  config.maxStages = static_cast<unsigned>(*maxStages);
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

/// The edges that constrain the schedule (multi-buffering removes the rest).
static bool isActive(const DepEdge &e) { return !e.removableByMultiBuffering; }

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

/// Longest-path feasibility of difference constraints `t[to] - t[from] >= w`
/// over `n` variables plus a source (index n) with t >= 0; optional upper
/// bound t <= ub. Returns false on a positive cycle or a violated bound.
static bool feasible(
    unsigned n,
    const std::vector<std::tuple<unsigned, unsigned, int64_t>> &constraints,
    std::optional<int64_t> upperBound) {
  std::vector<int64_t> dist(n, 0);
  for (unsigned iter = 0; iter <= n + 1; ++iter) {
    bool changed = false;
    for (auto &[from, to, w] : constraints) {
      if (dist[from] + w > dist[to]) {
        dist[to] = dist[from] + w;
        changed = true;
        if (upperBound && dist[to] > *upperBound)
          return false;
      }
    }
    if (!changed)
      return true;
  }
  return false;
}

int64_t hwsched::computeRecMII(const LoopDependenceGraph &graph,
                               const SchedulerConfig &config) {
  bool hasCarried = llvm::any_of(graph.edges, [](const DepEdge &e) {
    return e.distance > 0 && isActive(e);
  });
  if (!hasCarried)
    return 1;
  int64_t hi = 1;
  for (const DepEdge &e : graph.edges)
    hi += edgeLatency(graph, config, e);
  auto ok = [&](int64_t ii) {
    std::vector<std::tuple<unsigned, unsigned, int64_t>> cs;
    for (const DepEdge &e : graph.edges)
      if (isActive(e))
        cs.emplace_back(e.from, e.to,
                        edgeLatency(graph, config, e) -
                            static_cast<int64_t>(e.distance) * ii);
    return feasible(graph.nodes.size(), cs, std::nullopt);
  };
  int64_t lo = 1;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (ok(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

int64_t hwsched::computeAchievedII(const LoopDependenceGraph &graph,
                                   const SchedulerConfig &config,
                                   const std::vector<unsigned> &stages,
                                   int64_t lowerBound) {
  int64_t hi = std::max<int64_t>(lowerBound, 1);
  for (const DepEdge &e : graph.edges)
    hi += edgeLatency(graph, config, e);
  auto ok = [&](int64_t ii) {
    std::vector<std::tuple<unsigned, unsigned, int64_t>> cs;
    for (const DepEdge &e : graph.edges) {
      if (!isActive(e))
        continue;
      int64_t delta = static_cast<int64_t>(e.distance) + stages[e.to] -
                      static_cast<int64_t>(stages[e.from]);
      cs.emplace_back(e.from, e.to, edgeLatency(graph, config, e) - delta * ii);
    }
    return feasible(graph.nodes.size(), cs, ii - 1);
  };
  int64_t lo = std::max<int64_t>(lowerBound, 1);
  if (!ok(hi))
    return hi; // not expected for legal assignments; report the bound
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (ok(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
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
  std::vector<int64_t> s(n, 0);
  for (unsigned iter = 0; iter <= n + 1; ++iter) {
    bool changed = false;
    for (const StageConstraint &c : cs)
      if (s[c.from] + c.weight > s[c.to]) {
        s[c.to] = s[c.from] + c.weight;
        changed = true;
      }
    if (!changed)
      return s;
  }
  return std::nullopt;
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

StageSchedule hwsched::scheduleWithLimit(const LoopDependenceGraph &graph,
                                         const SchedulerConfig &config,
                                         unsigned stageLimit) {
  StageSchedule schedule;
  schedule.stageLimit = stageLimit;
  schedule.resMII = computeResMII(graph, config);
  schedule.recMII = computeRecMII(graph, config);
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
    for (unsigned v = 0; v < n; ++v) {
      // Merge neighbouring levels when the graph is deeper than the limit;
      // floor(s * L / D) is monotone and grows by at most 1 per level, so
      // every constraint stays satisfied.
      int64_t s = (*asap)[v];
      stages[v] = depth > stageLimit
                      ? static_cast<unsigned>(s * stageLimit / depth)
                      : static_cast<unsigned>(s);
    }
    return stages;
  };
  std::optional<std::vector<unsigned>> stages = toStages(cs);
  if (!stages) {
    // Hard constraints alone are always satisfiable by one stage.
    stages = std::vector<unsigned>(n, 0);
  }
  int64_t best = computeAchievedII(graph, config, *stages, schedule.mii);

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
      if (!s || used(*s) > stageLimit)
        continue;
      int64_t ii = computeAchievedII(graph, config, *s, schedule.mii);
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

std::optional<StageSchedule>
hwsched::scheduleStages(const LoopDependenceGraph &graph,
                        const SchedulerConfig &config, std::string &failure) {
  std::vector<std::string> notes;
  unsigned limit = config.maxStages;
  if (config.requestedStages) {
    limit = *config.requestedStages;
    if (limit > config.maxStages) {
      notes.push_back("num_stages " + std::to_string(limit) +
                      " clamped to pipeline.max_stages " +
                      std::to_string(config.maxStages));
      limit = config.maxStages;
    }
  }
  std::optional<StageSchedule> first;
  for (unsigned s = limit; s >= 1; --s) {
    StageSchedule schedule = scheduleWithLimit(graph, config, s);
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
        notes.push_back(text);
      }
      if (config.requestedStages && schedule.numStages < s)
        notes.push_back("the dependence graph uses " +
                        std::to_string(schedule.numStages) + " of " +
                        std::to_string(s) +
                        " allowed stages (more stages would not lower the "
                        "interval)");
      schedule.notes = notes;
      return schedule;
    }
    if (s == 1) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "even 1 stage needs " << schedule.onChipBytes
         << " on-chip bytes > onchip.capacity_bytes " << config.capacityBytes;
      failure = text;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string hwsched::checkStageLegality(const LoopDependenceGraph &graph,
                                        const std::vector<unsigned> &stages) {
  for (const DepEdge &e : graph.edges) {
    if (e.removableByMultiBuffering)
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
      return text;
    }
  }
  return "";
}
