//===- StageScheduler.cpp - Resource-aware stage assignment ---------------===//
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
