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

/// Same-iteration constraints of weight <= 0 follow from the timing edges
/// (latencies are >= 0); of parallel constraints the largest weight binds.
/// Fewer constraints make every scheduling step cheaper.
static void pruneStageConstraints(const LoopDependenceGraph &graph, unsigned n,
                                  std::vector<StageConstraint> &cs) {
  std::vector<StageConstraint> kept;
  for (const StageConstraint &c : cs) {
    if (c.from == c.to ||
        (c.edge >= 0 && graph.edges[c.edge].distance == 0 && c.weight <= 0))
      continue;
    kept.push_back({c.from, c.to, c.weight, false, -1});
  }
  // Sorted by (from, to), strongest first: keep the first of each pair.
  detail::sortBySource(
      n, kept, [](const StageConstraint &a, const StageConstraint &b) {
        return std::tie(a.to, b.weight) < std::tie(b.to, a.weight);
      });
  cs.clear();
  for (const StageConstraint &c : kept)
    if (cs.empty() || cs.back().from != c.from || cs.back().to != c.to)
      cs.push_back(c);
}

namespace {
/// One scheduleWithTiming run: its inputs, the stage bound, the hard stage
/// constraints, and the best schedule found so far (with the smallest-II
/// one the capacity refused, and the exact latency-only interval of tiny
/// bodies).
struct TimingSearch {
  const LoopDependenceGraph &graph;
  const SchedulerConfig &config;
  const TimingGraph &tg;
  int64_t resMII, recMII;
  unsigned stageLimit;
  bool fitCapacity;
  int64_t mii = 0, bound = 0;
  unsigned n = 0;
  std::vector<StageConstraint> hard;
  std::optional<ModuloResult> found, rejected;
  std::optional<int64_t> exhaustiveII;

  /// Whether a schedule counts: with `fitCapacity`, only when its buffer
  /// copies fit the on-chip capacity.
  bool accept(const ModuloResult &r) const {
    if (!fitCapacity)
      return true;
    return scheduleFromTimes(graph, config, r).onChipBytes <=
           config.capacityBytes;
  }
  /// The modulo schedule with the issue cycles scheduled inside the given
  /// `stages` (hard constraints), from interval `from`; kept when it beats
  /// the one found.
  void tryFixedStages(int64_t from, const std::vector<unsigned> &stages) {
    std::optional<ModuloResult> unused;
    std::optional<ModuloResult> fixed = searchModuloSchedule(
        graph, config, tg, {hard}, stageLimit, from,
        [&](const ModuloResult &r) { return accept(r); }, unused, &stages);
    if (fixed && (!found || fixed->first < found->first))
      found = fixed;
  }
};
} // namespace

/// The heuristic search: dependent ops on different units in different
/// stages are preferred (kept where it costs no interval), or a hard rule
/// with `separateUnits`. The timing model already keeps each consumer a
/// full latency after its producer, so the rule only hides latency the
/// model does not see.
static void searchWithStageConstraints(TimingSearch &s) {
  s.hard = buildStageConstraints(s.graph);
  relaxRecurrences(s.n, s.hard);
  std::vector<StageConstraint> preferred = s.hard;
  if (!s.config.separateUnits)
    for (StageConstraint &c : s.hard)
      if (c.soft)
        c.weight = 0;
  pruneStageConstraints(s.graph, s.n, preferred);
  pruneStageConstraints(s.graph, s.n, s.hard);
  // With the rule hard both variants are the same constraints: one search.
  std::vector<std::vector<StageConstraint>> variants = {s.hard};
  if (!s.config.separateUnits)
    variants.insert(variants.begin(), preferred);
  s.found = searchModuloSchedule(
      s.graph, s.config, s.tg, variants, s.stageLimit, s.bound,
      [&](const ModuloResult &r) { return s.accept(r); }, s.rejected);
}

/// Above the bound the heuristic may have missed a better assignment: also
/// schedule the issue cycles of the level-merging stages (exact for the
/// latencies, blind to the units) and keep the better interval. Only on
/// small bodies: on ~100 ops it doubles the time for a few percent.
static void tryLevelStages(TimingSearch &s) {
  if (!((!s.found || s.found->first > s.bound) && s.n <= 64))
    return;
  StageSchedule levels =
      levelSchedule(s.graph, s.config, s.tg, s.resMII, s.recMII, s.stageLimit);
  if (!s.found || levels.achievedII < s.found->first)
    s.tryFixedStages(std::max(s.bound, levels.achievedII), levels.stage);
}

/// Whether stage assignment `st` satisfies the hard constraints and keeps
/// every same-iteration consumer at or after its producer's stage.
static bool legalAssignment(const TimingSearch &s,
                            const std::vector<unsigned> &st) {
  return llvm::all_of(s.hard,
                      [&](const StageConstraint &c) {
                        return static_cast<int64_t>(st[c.to]) - st[c.from] >=
                               c.weight;
                      }) &&
         llvm::all_of(s.tg.edges, [&](const TimingEdge &e) {
           return e.distance || st[e.to] >= st[e.from];
         });
}

/// Tiny bodies: enumerate every stage assignment the kernel allows. The
/// best latency-only interval over them is exact for the latency model (a
/// lower bound once the units count); the assignments below the current
/// interval get their issue cycles scheduled.
static void tryEveryAssignment(TimingSearch &s) {
  unsigned n = s.n, stageLimit = s.stageLimit;
  uint64_t assignments = 1;
  for (unsigned v = 0; v < n && assignments <= 512; ++v)
    assignments *= stageLimit;
  if (!((!s.found || s.found->first > s.bound) && stageLimit > 1 &&
        assignments <= 512))
    return;
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
    if (!legalAssignment(s, st))
      continue;
    int64_t ii = achievedIIOf(s.tg, st, s.bound);
    best = std::min(best, ii);
    if (!s.found || ii < s.found->first)
      candidates.push_back({ii, st});
  }
  if (best != std::numeric_limits<int64_t>::max())
    s.exhaustiveII = best;
  llvm::stable_sort(candidates, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  if (candidates.size() > 8)
    candidates.resize(8);
  for (auto &[ii, stages] : candidates) {
    if (s.found && ii >= s.found->first)
      break;
    s.tryFixedStages(ii, stages);
  }
}

/// The figures every modulo-scheduled result reports.
static void stampModuloFigures(const TimingSearch &s, StageSchedule &schedule) {
  schedule.stageLimit = s.stageLimit;
  schedule.resMII = s.resMII;
  schedule.recMII = s.recMII;
  schedule.mii = s.mii;
  schedule.stageBoundII = s.bound;
  schedule.moduloScheduled = true;
}

/// Why the interval was raised above one the capacity refused (and the
/// stage count lowered, if it was).
static ScheduleNote intervalRaisedNote(const TimingSearch &s,
                                       const StageSchedule &over) {
  StageSchedule fits = scheduleFromTimes(s.graph, s.config, *s.found);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (fits.numStages < over.numStages)
    os << "stage limit " << s.stageLimit << " reduced to " << fits.numStages
       << " stages to fit the capacity: ";
  os << "at interval " << s.rejected->first << " " << over.numStages
     << " stages need " << over.onChipBytes << " on-chip bytes > capacity "
     << s.config.capacityBytes << "; interval raised to " << s.found->first;
  return {ScheduleNote::Kind::IntervalRaised, text};
}

/// The schedule of the search's outcome: the one found, or the one over
/// capacity when none fits, or the level-merging fallback when the modulo
/// scheduler found nothing.
static StageSchedule finishSchedule(const TimingSearch &s) {
  std::vector<ScheduleNote> notes;
  if (s.rejected && (!s.found || s.found->first > s.rejected->first)) {
    StageSchedule over = scheduleFromTimes(s.graph, s.config, *s.rejected);
    if (!s.found) {
      stampModuloFigures(s, over);
      return over;
    }
    notes.push_back(intervalRaisedNote(s, over));
  }
  if (!s.found) {
    StageSchedule fallback = levelSchedule(s.graph, s.config, s.tg, s.resMII,
                                           s.recMII, s.stageLimit);
    fallback.stageBoundII = s.bound;
    if (s.n)
      fallback.notes.push_back(
          {ScheduleNote::Kind::LevelMerging,
           "no modulo schedule found: stages by level merging, interval "
           "without the reservation-table check"});
    return fallback;
  }
  StageSchedule schedule = scheduleFromTimes(s.graph, s.config, *s.found);
  stampModuloFigures(s, schedule);
  schedule.exhaustiveII = s.exhaustiveII;
  schedule.notes = std::move(notes);
  return schedule;
}

/// The schedule at stage limit `stageLimit` over the timing graph `tg`:
/// the modulo scheduler's heuristic search, then (when it stays above the
/// stage bound) the level-merging stages and, on tiny bodies, every stage
/// assignment; with `fitCapacity` only schedules whose buffers fit count.
static StageSchedule scheduleWithTiming(const LoopDependenceGraph &graph,
                                        const SchedulerConfig &config,
                                        const TimingGraph &tg, int64_t resMII,
                                        int64_t recMII, unsigned stageLimit,
                                        bool fitCapacity = false) {
  TimingSearch s{graph, config, tg, resMII, recMII, stageLimit, fitCapacity};
  s.mii = std::max(resMII, recMII);
  s.bound = stageBoundIIOf(tg, s.mii, stageLimit);
  s.n = graph.nodes.size();
  if (s.n) {
    searchWithStageConstraints(s);
    tryLevelStages(s);
    tryEveryAssignment(s);
  }
  return finishSchedule(s);
}

StageSchedule hwsched::scheduleWithLimit(const LoopDependenceGraph &graph,
                                         const SchedulerConfig &config,
                                         unsigned stageLimit) {
  TimingGraph tg = buildTimingGraph(graph, config);
  return scheduleWithTiming(graph, config, tg, computeResMII(graph, config),
                            recMIIOf(tg), stageLimit);
}

/// Without a requested stage count the limit is only the spec's maximum: a
/// stage that does not shorten the interval still costs buffer copies, a
/// longer prologue and epilogue, and values carried in registers across the
/// kernel's back edge (a fragment loaded in one stage and used in the next).
/// Returns the schedule with the fewest stages that reaches `best`'s
/// interval, with a note when that is fewer.
static StageSchedule fewestStagesForInterval(const LoopDependenceGraph &graph,
                                             const SchedulerConfig &config,
                                             const TimingGraph &tg,
                                             int64_t resMII, int64_t recMII,
                                             StageSchedule best,
                                             std::vector<ScheduleNote> &notes) {
  unsigned used = best.numStages, limit = best.stageLimit;
  int64_t bound = best.stageBoundII;
  for (unsigned s = best.numStages; s-- > 1;) {
    StageSchedule fewer = scheduleWithTiming(graph, config, tg, resMII, recMII,
                                             s, /*fitCapacity=*/true);
    if (fewer.achievedII > best.achievedII ||
        fewer.onChipBytes > config.capacityBytes)
      break;
    best = std::move(fewer);
  }
  // The limit (and its bound) stay the ones the user or the spec set.
  best.stageLimit = limit;
  best.stageBoundII = bound;
  if (best.numStages < used)
    notes.push_back(
        {ScheduleNote::Kind::FewerStages, std::to_string(best.numStages) +
                                              " stages reach the "
                                              "interval of " +
                                              std::to_string(used) + " (" +
                                              std::to_string(best.achievedII) +
                                              "): the fewer stages are kept"});
  return best;
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
      if (!config.requestedStages)
        schedule = fewestStagesForInterval(graph, config, tg, resMII, recMII,
                                           std::move(schedule), notes);
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
