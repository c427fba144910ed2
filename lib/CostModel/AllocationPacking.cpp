//===- AllocationPacking.cpp - Offsets for buffers with lifetimes ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/AllocationPacking.h"
#include "hwsched/CostModel/CanonicalPackingSearch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <utility>

using namespace hwsched;

uint64_t hwsched::alignUpTo(uint64_t value, uint64_t alignment) {
  if (alignment <= 1)
    return value;
  return (value + alignment - 1) / alignment * alignment;
}

uint64_t hwsched::getFootprint(const PackingItem &item) {
  return alignUpTo(item.size, item.alignment);
}

PackingLowerBound
hwsched::computePackingLowerBound(const std::vector<PackingItem> &items) {
  PackingLowerBound result;
  // Sweep over interval end points; a buffer stops being live at end + 1, and
  // removals at a point are applied before additions.
  std::vector<std::pair<int64_t, int64_t>> events;
  events.reserve(items.size() * 2);
  for (const PackingItem &item : items) {
    int64_t bytes = static_cast<int64_t>(getFootprint(item));
    events.emplace_back(item.start, bytes);
    events.emplace_back(item.end + 1, -bytes);
  }
  std::sort(events.begin(), events.end());
  int64_t live = 0;
  for (size_t i = 0; i < events.size();) {
    int64_t point = events[i].first;
    for (; i < events.size() && events[i].first == point; ++i)
      live += events[i].second;
    if (live > static_cast<int64_t>(result.bytes)) {
      result.bytes = static_cast<uint64_t>(live);
      result.point = point;
    }
  }
  if (result.point >= 0 || !items.empty()) {
    for (size_t i = 0; i < items.size(); ++i)
      if (items[i].start <= result.point && result.point <= items[i].end)
        result.live.push_back(i);
  }
  return result;
}

namespace {
/// Interference lists and footprints shared by all strategies.
struct Instance {
  const std::vector<PackingItem> &items;
  std::vector<uint64_t> footprint;
  std::vector<std::vector<size_t>> neighbours;

  explicit Instance(const std::vector<PackingItem> &items) : items(items) {
    size_t n = items.size();
    footprint.resize(n);
    for (size_t i = 0; i < n; ++i)
      footprint[i] = getFootprint(items[i]);
    neighbours.resize(n);
    // Sweep in start order keeping the intervals still open: each new
    // interval interferes exactly with the open ones.
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return items[a].start < items[b].start;
    });
    std::vector<size_t> open;
    for (size_t i : order) {
      size_t kept = 0;
      for (size_t j : open) {
        if (items[j].end < items[i].start)
          continue;
        open[kept++] = j;
        neighbours[i].push_back(j);
        neighbours[j].push_back(i);
      }
      open.resize(kept);
      open.push_back(i);
    }
    for (std::vector<size_t> &list : neighbours)
      std::sort(list.begin(), list.end());
  }
};

enum class Fit { First, Best };

/// Places the items in `order`, each at the lowest (first fit) or tightest
/// (best fit) aligned gap left by the already placed items it interferes
/// with. Returns the peak; `offsets` receives the placement.
uint64_t placeGreedy(const Instance &inst, const std::vector<size_t> &order,
                     Fit fit, std::vector<uint64_t> &offsets) {
  constexpr uint64_t kUnplaced = std::numeric_limits<uint64_t>::max();
  offsets.assign(inst.items.size(), kUnplaced);
  uint64_t peak = 0;
  std::vector<std::pair<uint64_t, uint64_t>> taken;
  for (size_t i : order) {
    uint64_t size = inst.footprint[i];
    uint64_t align = inst.items[i].alignment;
    taken.clear();
    for (size_t j : inst.neighbours[i])
      if (offsets[j] != kUnplaced)
        taken.emplace_back(offsets[j], offsets[j] + inst.footprint[j]);
    std::sort(taken.begin(), taken.end());
    uint64_t candidate = 0;
    uint64_t bestOffset = kUnplaced;
    uint64_t bestSlack = kUnplaced;
    for (const auto &[lo, hi] : taken) {
      if (candidate + size <= lo) {
        uint64_t slack = lo - candidate - size;
        if (fit == Fit::First) {
          bestOffset = candidate;
          break;
        }
        if (slack < bestSlack) {
          bestSlack = slack;
          bestOffset = candidate;
        }
      }
      candidate = std::max(candidate, alignUpTo(hi, align));
    }
    if (bestOffset == kUnplaced)
      bestOffset = candidate;
    offsets[i] = bestOffset;
    peak = std::max(peak, bestOffset + size);
  }
  return peak;
}

} // namespace

namespace {
/// The best greedy packing of `items` (one component).
struct GreedyPacking {
  std::vector<uint64_t> offsets;
  uint64_t peak = std::numeric_limits<uint64_t>::max();
  std::string strategy;
};

/// One order the greedy placement tries: its name in the strategy and its
/// comparison.
struct GreedyOrder {
  const char *name;
  std::function<bool(size_t, size_t)> less;
};

/// What the greedy placements of one component share: the instance, the
/// bound that ends the search, the best packing with the order and fit
/// that gave it, and the work spent.
struct GreedySearch {
  const Instance &inst;
  uint64_t lowerBound;
  GreedyPacking best;
  std::vector<size_t> bestSequence;
  Fit bestFit = Fit::First;
  /// One greedy placement costs about the buffers plus their neighbours
  /// (and a sort of each list).
  uint64_t placementCost = 0;
  uint64_t work = 0;

  /// The orders and refinement rounds after the first placement stop once
  /// they have spent kGreedyWork placement costs: a few hundred
  /// milliseconds at most, whatever the size (with ~470 buffers live at
  /// every point, 10,000 buffers allow three placements), and the same
  /// count on every machine. Counts one placement when it is affordable.
  bool affordable() {
    constexpr uint64_t kGreedyWork = uint64_t(1) << 25;
    if (work != 0 && work + placementCost > kGreedyWork)
      return false;
    work += placementCost;
    return true;
  }
};

/// Lifetime of item `i` (end - start).
int64_t lifetimeOf(const std::vector<PackingItem> &items, size_t i) {
  return items[i].end - items[i].start;
}

/// Bytes of a buffer plus those of everything it interferes with.
std::vector<uint64_t> conflictBytesOf(const Instance &inst) {
  size_t n = inst.items.size();
  std::vector<uint64_t> conflictBytes(n);
  for (size_t i = 0; i < n; ++i) {
    conflictBytes[i] = inst.footprint[i];
    for (size_t j : inst.neighbours[i])
      conflictBytes[i] += inst.footprint[j];
  }
  return conflictBytes;
}

/// The orders, each tried with first fit and best fit; ties broken by start
/// and index so the outcome never depends on the sort implementation. The
/// comparisons refer to `inst` and `conflictBytes`, which must outlive
/// them.
std::vector<GreedyOrder>
greedyOrders(const Instance &inst, const std::vector<uint64_t> &conflictBytes) {
  const std::vector<PackingItem> &items = inst.items;
  auto length = [&items](size_t i) { return lifetimeOf(items, i); };
  return {
      {"size",
       [&inst, &items, length](size_t a, size_t b) {
         return std::make_tuple(inst.footprint[b], length(b), items[a].start,
                                a) < std::make_tuple(inst.footprint[a],
                                                     length(a), items[b].start,
                                                     b);
       }},
      {"area",
       [&inst, &items, length](size_t a, size_t b) {
         double areaA = double(inst.footprint[a]) * double(length(a) + 1);
         double areaB = double(inst.footprint[b]) * double(length(b) + 1);
         return std::make_tuple(areaB, items[a].start, a) <
                std::make_tuple(areaA, items[b].start, b);
       }},
      {"lifetime",
       [&inst, &items, length](size_t a, size_t b) {
         return std::make_tuple(length(b), inst.footprint[b], items[a].start,
                                a) < std::make_tuple(length(a),
                                                     inst.footprint[a],
                                                     items[b].start, b);
       }},
      {"start",
       [&inst, &items](size_t a, size_t b) {
         return std::make_tuple(items[a].start, inst.footprint[b], a) <
                std::make_tuple(items[b].start, inst.footprint[a], b);
       }},
      {"conflicts",
       [&inst, &items, &conflictBytes](size_t a, size_t b) {
         return std::make_tuple(conflictBytes[b], inst.footprint[b],
                                items[a].start, a) <
                std::make_tuple(conflictBytes[a], inst.footprint[a],
                                items[b].start, b);
       }},
  };
}

/// Every order with first fit then best fit, keeping the lowest peak, while
/// affordable; true once a placement reaches the lower bound.
bool tryGreedyOrders(GreedySearch &s, const std::vector<GreedyOrder> &orders) {
  size_t n = s.inst.items.size();
  std::vector<size_t> base(n);
  std::iota(base.begin(), base.end(), 0);
  std::vector<uint64_t> offsets;
  for (const GreedyOrder &order : orders) {
    std::vector<size_t> sequence = base;
    std::sort(sequence.begin(), sequence.end(), order.less);
    for (Fit fit : {Fit::First, Fit::Best}) {
      if (!s.affordable())
        break;
      uint64_t peak = placeGreedy(s.inst, sequence, fit, offsets);
      if (peak < s.best.peak) {
        s.best.peak = peak;
        s.best.offsets = offsets;
        s.bestSequence = sequence;
        s.bestFit = fit;
        s.best.strategy =
            std::string(fit == Fit::Best ? "best-fit/" : "first-fit/") +
            order.name;
      }
      if (s.best.peak <= s.lowerBound)
        return true;
    }
  }
  return false;
}

/// Refinement: the buffers that end at the peak were placed too late in
/// the order; moving them to the front and placing again often lowers the
/// peak (iterated greedy, deterministic).
void refineGreedy(GreedySearch &s) {
  constexpr unsigned kRefineRounds = 16;
  const Instance &inst = s.inst;
  size_t n = inst.items.size();
  std::vector<size_t> sequence = s.bestSequence;
  std::vector<uint64_t> current = s.best.offsets;
  uint64_t currentPeak = s.best.peak;
  for (unsigned round = 0;
       round < kRefineRounds && s.best.peak > s.lowerBound && s.affordable();
       ++round) {
    auto critical = [&](size_t i) {
      return current[i] + inst.footprint[i] == currentPeak;
    };
    std::vector<size_t> next;
    next.reserve(n);
    for (size_t i : sequence)
      if (critical(i))
        next.push_back(i);
    for (size_t i : sequence)
      if (!critical(i))
        next.push_back(i);
    if (next == sequence)
      break;
    sequence = std::move(next);
    currentPeak = placeGreedy(inst, sequence, s.bestFit, current);
    if (currentPeak < s.best.peak) {
      s.best.peak = currentPeak;
      s.best.offsets = current;
      if (s.best.strategy.find("+refined") == std::string::npos)
        s.best.strategy += "+refined";
    }
  }
}

/// The best greedy packing of `items`: every order with both fits, then
/// refinement of the best, stopping once a peak reaches `lowerBound`.
GreedyPacking packGreedy(const std::vector<PackingItem> &items,
                         uint64_t lowerBound) {
  Instance inst(items);
  std::vector<uint64_t> conflictBytes = conflictBytesOf(inst);
  std::vector<GreedyOrder> orders = greedyOrders(inst, conflictBytes);
  GreedySearch s{inst, lowerBound};
  s.placementCost = items.size();
  for (const std::vector<size_t> &list : inst.neighbours)
    s.placementCost += list.size();
  if (!tryGreedyOrders(s, orders))
    refineGreedy(s);
  return std::move(s.best);
}

/// Groups of item indices whose intervals never meet another group's, in
/// order of time (a sweep over start points).
std::vector<std::vector<size_t>>
splitComponents(const std::vector<PackingItem> &items) {
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return items[a].start < items[b].start;
  });
  std::vector<std::vector<size_t>> groups;
  int64_t reach = 0;
  for (size_t i : order) {
    if (groups.empty() || items[i].start > reach) {
      groups.emplace_back();
      reach = items[i].end;
    }
    groups.back().push_back(i);
    reach = std::max(reach, items[i].end);
  }
  for (std::vector<size_t> &group : groups)
    std::sort(group.begin(), group.end());
  return groups;
}

/// One component while it is being minimised.
struct Component {
  std::vector<size_t> ids;
  std::vector<PackingItem> items;
  uint64_t lowerBound = 0;
  /// The best packing so far and the smallest peak not yet excluded.
  std::vector<uint64_t> offsets;
  uint64_t peak = 0;
  uint64_t provenBound = 0;
  std::string strategy;
  bool capacityInfeasible = false;
};

/// Asks whether `comp` fits `bytes`, with `share` of `budget`'s steps, and
/// keeps the packing when it is better; returns the verdict.
PackingVerdict ask(Component &comp, uint64_t bytes, uint64_t share,
                   PackingStepBudget &budget, PackingResult &result) {
  PackingStepBudget part = budget.slice(share);
  PackingDecision decision = decidePacking(comp.items, bytes, part);
  budget.absorb(part);
  ++result.decisions;
  if (decision.verdict == PackingVerdict::Fits && decision.peak < comp.peak) {
    comp.peak = decision.peak;
    comp.offsets = std::move(decision.offsets);
    comp.strategy = "search";
  }
  if (decision.verdict == PackingVerdict::Infeasible)
    comp.provenBound = std::max(comp.provenBound, bytes + 1);
  return decision.verdict;
}

/// Lowers `comp.peak` towards `target`: the target itself first (on most
/// real problems the lower bound is reachable), then a binary search over
/// the peaks between. Each question gets half of the steps left; a fit
/// lowers the peak, a proof or a spent share raises the low end (only the
/// proof raises the proven bound).
void minimizeComponent(Component &comp, uint64_t target,
                       PackingStepBudget &budget, PackingResult &result) {
  uint64_t lo = std::max(comp.lowerBound, target);
  if (comp.peak <= lo)
    return;
  if (ask(comp, lo, budget.remaining() / 2 + 1, budget, result) ==
      PackingVerdict::Fits)
    return;
  ++lo;
  while (lo < comp.peak && !budget.exhausted()) {
    uint64_t mid = lo + (comp.peak - 1 - lo) / 2;
    if (ask(comp, mid, budget.remaining() / 2 + 1, budget, result) !=
        PackingVerdict::Fits)
      lo = mid + 1;
  }
}
} // namespace

void PackingResult::print(llvm::raw_ostream &os) const {
  os << "peak " << peak << " B, lower bound " << lowerBound.bytes << " B";
  if (provenBound > lowerBound.bytes)
    os << " (proven " << provenBound << " B)";
  os << (provedOptimal ? " (optimal)" : " (not proven optimal)");
  if (capacity != 0) {
    os << ", capacity " << capacity << " B ";
    if (fitsCapacity())
      os << "met";
    else if (capacityProvedInfeasible)
      os << "proved infeasible";
    else
      os << "not met within the budget";
  }
  os << ", " << strategy << ", " << components
     << (components == 1 ? " component" : " components");
  if (searchedComponents != 0) {
    os << ", search on " << searchedComponents << ": " << decisions
       << (decisions == 1 ? " question" : " questions") << " in " << searchSteps
       << " steps";
    if (hitDeadline)
      os << " (time budget reached)";
    else if (budgetExhausted)
      os << " (budget spent)";
  }
}

namespace {
/// One packAllocations run: its options, the components, the order they
/// are searched in (largest greedy peak first), which were searched, and
/// the time budget's deadline.
struct PackingRun {
  const PackingOptions &options;
  PackingResult &result;
  std::vector<Component> comps;
  std::vector<size_t> order;
  std::vector<bool> searched;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};
} // namespace

/// The independent components of `items`, each with its lower bound and
/// its best greedy packing.
static std::vector<Component>
greedyComponents(const std::vector<PackingItem> &items,
                 const PackingResult &result) {
  std::vector<Component> comps;
  for (std::vector<size_t> &ids : splitComponents(items)) {
    Component comp;
    comp.ids = std::move(ids);
    for (size_t i : comp.ids)
      comp.items.push_back(items[i]);
    comp.lowerBound = computePackingLowerBound(comp.items).bytes;
    comp.provenBound = comp.lowerBound;
    // A component below the global bound is done as soon as it fits there.
    GreedyPacking greedy = packGreedy(
        comp.items, std::max(comp.lowerBound, result.lowerBound.bytes));
    comp.offsets = std::move(greedy.offsets);
    comp.peak = greedy.peak;
    comp.strategy = std::move(greedy.strategy);
    comps.push_back(std::move(comp));
  }
  return comps;
}

/// Meeting the capacity decides success or failure: every component above
/// it asks first, with all the fit steps still left.
static void meetCapacity(PackingRun &run) {
  const PackingOptions &options = run.options;
  PackingResult &result = run.result;
  PackingStepBudget fit(options.fitSteps, run.deadline);
  for (size_t c : run.order) {
    Component &comp = run.comps[c];
    if (comp.peak <= options.capacity)
      continue;
    run.searched[c] = true;
    PackingVerdict verdict =
        ask(comp, options.capacity, fit.remaining(), fit, result);
    if (verdict == PackingVerdict::Fits)
      continue;
    result.capacityProvedInfeasible = verdict == PackingVerdict::Infeasible;
    break;
  }
  result.searchSteps += fit.used();
  result.budgetExhausted |= fit.exhausted();
  result.hitDeadline |= fit.hitDeadline();
  if (llvm::is_contained(run.searched, true))
    result.stepBudget = options.fitSteps;
}

/// Then lowering the peak, within the search steps: each component towards
/// the largest peak of those before it (what one component cannot go
/// below, the others need not either).
static void lowerPeaks(PackingRun &run) {
  const PackingOptions &options = run.options;
  PackingResult &result = run.result;
  uint64_t target = result.lowerBound.bytes;
  bool fits = llvm::all_of(run.comps, [&](const Component &comp) {
    return options.capacity == 0 || comp.peak <= options.capacity;
  });
  if (!fits)
    return;
  result.stepBudget += options.searchSteps;
  PackingStepBudget budget(options.searchSteps, run.deadline);
  for (size_t c : run.order) {
    Component &comp = run.comps[c];
    if (comp.peak > target && !budget.exhausted()) {
      run.searched[c] = true;
      minimizeComponent(comp, target, budget, result);
    }
    target = std::max(target, comp.peak);
  }
  result.searchSteps += budget.used();
  result.budgetExhausted |= budget.exhausted();
  result.hitDeadline |= budget.hitDeadline();
}

/// The components' packings as one: offsets, the peak and proven bound,
/// and the largest component's strategy.
static void combineComponents(PackingRun &run) {
  PackingResult &result = run.result;
  result.searchedComponents =
      static_cast<unsigned>(llvm::count(run.searched, true));
  size_t largest = run.order.front();
  result.strategy = run.comps[largest].strategy;
  for (const Component &comp : run.comps) {
    for (size_t k = 0; k < comp.ids.size(); ++k)
      result.offsets[comp.ids[k]] = comp.offsets[k];
    result.peak = std::max(result.peak, comp.peak);
    result.provenBound = std::max(result.provenBound, comp.provenBound);
  }
  result.provedOptimal = result.peak <= result.provenBound;
}

PackingResult hwsched::packAllocations(const std::vector<PackingItem> &items,
                                       const PackingOptions &options) {
  PackingResult result;
  result.lowerBound = computePackingLowerBound(items);
  result.provenBound = result.lowerBound.bytes;
  result.capacity = options.capacity;
  result.offsets.assign(items.size(), 0);
  if (items.empty()) {
    result.strategy = "empty";
    result.provedOptimal = true;
    return result;
  }
  result.capacityProvedInfeasible =
      options.capacity != 0 && result.lowerBound.bytes > options.capacity;

  PackingRun run{options, result};
  run.comps = greedyComponents(items, result);
  result.components = static_cast<unsigned>(run.comps.size());
  // The largest greedy peaks first: what one component cannot go below,
  // the others need not either.
  run.order.resize(run.comps.size());
  std::iota(run.order.begin(), run.order.end(), 0);
  std::stable_sort(run.order.begin(), run.order.end(), [&](size_t a, size_t b) {
    return run.comps[a].peak > run.comps[b].peak;
  });
  if (options.timeBudgetMs != 0)
    run.deadline = std::chrono::steady_clock::now() +
                   std::chrono::milliseconds(options.timeBudgetMs);
  run.searched.assign(run.comps.size(), false);
  if (options.capacity != 0 && !result.capacityProvedInfeasible)
    meetCapacity(run);
  lowerPeaks(run);
  combineComponents(run);
  return result;
}

bool hwsched::verifyPacking(const std::vector<PackingItem> &items,
                            const std::vector<uint64_t> &offsets) {
  if (offsets.size() != items.size())
    return false;
  Instance inst(items);
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].alignment > 1 && offsets[i] % items[i].alignment != 0)
      return false;
    for (size_t j : inst.neighbours[i])
      if (offsets[i] < offsets[j] + inst.footprint[j] &&
          offsets[j] < offsets[i] + inst.footprint[i])
        return false;
  }
  return true;
}
