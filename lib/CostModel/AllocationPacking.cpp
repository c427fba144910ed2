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

GreedyPacking packGreedy(const std::vector<PackingItem> &items,
                         uint64_t lowerBound) {
  GreedyPacking best;
  size_t n = items.size();
  Instance inst(items);

  // Orders, each tried with first fit and best fit; ties broken by start and
  // index so the outcome never depends on the sort implementation.
  std::vector<size_t> base(n);
  std::iota(base.begin(), base.end(), 0);
  auto length = [&](size_t i) { return items[i].end - items[i].start; };
  // Bytes of a buffer plus those of everything it interferes with.
  std::vector<uint64_t> conflictBytes(n);
  for (size_t i = 0; i < n; ++i) {
    conflictBytes[i] = inst.footprint[i];
    for (size_t j : inst.neighbours[i])
      conflictBytes[i] += inst.footprint[j];
  }
  struct Order {
    const char *name;
    std::function<bool(size_t, size_t)> less;
  };
  std::vector<Order> orders = {
      {"size",
       [&](size_t a, size_t b) {
         return std::make_tuple(inst.footprint[b], length(b), items[a].start,
                                a) < std::make_tuple(inst.footprint[a],
                                                     length(a), items[b].start,
                                                     b);
       }},
      {"area",
       [&](size_t a, size_t b) {
         double areaA = double(inst.footprint[a]) * double(length(a) + 1);
         double areaB = double(inst.footprint[b]) * double(length(b) + 1);
         return std::make_tuple(areaB, items[a].start, a) <
                std::make_tuple(areaA, items[b].start, b);
       }},
      {"lifetime",
       [&](size_t a, size_t b) {
         return std::make_tuple(length(b), inst.footprint[b], items[a].start,
                                a) < std::make_tuple(length(a),
                                                     inst.footprint[a],
                                                     items[b].start, b);
       }},
      {"start",
       [&](size_t a, size_t b) {
         return std::make_tuple(items[a].start, inst.footprint[b], a) <
                std::make_tuple(items[b].start, inst.footprint[a], b);
       }},
      {"conflicts",
       [&](size_t a, size_t b) {
         return std::make_tuple(conflictBytes[b], inst.footprint[b],
                                items[a].start, a) <
                std::make_tuple(conflictBytes[a], inst.footprint[a],
                                items[b].start, b);
       }},
  };

  // One greedy placement costs about the buffers plus their neighbours
  // (and a sort of each list). The orders and refinement rounds after the
  // first placement stop once they have spent kGreedyWork of that: a few
  // hundred milliseconds at most, whatever the size (with ~470 buffers
  // live at every point, 10,000 buffers allow three placements), and the
  // same count on every machine.
  uint64_t placementCost = n;
  for (const std::vector<size_t> &list : inst.neighbours)
    placementCost += list.size();
  constexpr uint64_t kGreedyWork = uint64_t(1) << 25;
  uint64_t work = 0;
  auto affordable = [&] {
    if (work != 0 && work + placementCost > kGreedyWork)
      return false;
    work += placementCost;
    return true;
  };
  std::vector<uint64_t> offsets;
  std::vector<size_t> bestSequence;
  Fit bestFit = Fit::First;
  for (const Order &order : orders) {
    std::vector<size_t> sequence = base;
    std::sort(sequence.begin(), sequence.end(), order.less);
    for (Fit fit : {Fit::First, Fit::Best}) {
      if (!affordable())
        break;
      uint64_t peak = placeGreedy(inst, sequence, fit, offsets);
      if (peak < best.peak) {
        best.peak = peak;
        best.offsets = offsets;
        bestSequence = sequence;
        bestFit = fit;
        best.strategy =
            std::string(fit == Fit::Best ? "best-fit/" : "first-fit/") +
            order.name;
      }
      if (best.peak <= lowerBound)
        return best;
    }
  }

  // Refinement: the buffers that end at the peak were placed too late in
  // the order; moving them to the front and placing again often lowers the
  // peak (iterated greedy, deterministic).
  constexpr unsigned kRefineRounds = 16;
  std::vector<size_t> sequence = bestSequence;
  std::vector<uint64_t> current = best.offsets;
  uint64_t currentPeak = best.peak;
  for (unsigned round = 0;
       round < kRefineRounds && best.peak > lowerBound && affordable();
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
    currentPeak = placeGreedy(inst, sequence, bestFit, current);
    if (currentPeak < best.peak) {
      best.peak = currentPeak;
      best.offsets = current;
      if (best.strategy.find("+refined") == std::string::npos)
        best.strategy += "+refined";
    }
  }
  return best;
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
  result.components = static_cast<unsigned>(comps.size());

  // The largest greedy peaks first: what one component cannot go below,
  // the others need not either.
  std::vector<size_t> order(comps.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return comps[a].peak > comps[b].peak;
  });
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (options.timeBudgetMs != 0)
    deadline = std::chrono::steady_clock::now() +
               std::chrono::milliseconds(options.timeBudgetMs);
  std::vector<bool> searched(comps.size(), false);

  // Meeting the capacity decides success or failure: every component above
  // it asks first, with all the fit steps still left.
  if (options.capacity != 0 && !result.capacityProvedInfeasible) {
    PackingStepBudget fit(options.fitSteps, deadline);
    for (size_t c : order) {
      Component &comp = comps[c];
      if (comp.peak <= options.capacity)
        continue;
      searched[c] = true;
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
    if (llvm::is_contained(searched, true))
      result.stepBudget = options.fitSteps;
  }

  // Then lowering the peak, within the search steps.
  uint64_t target = result.lowerBound.bytes;
  bool fits = llvm::all_of(comps, [&](const Component &comp) {
    return options.capacity == 0 || comp.peak <= options.capacity;
  });
  if (fits) {
    result.stepBudget += options.searchSteps;
    PackingStepBudget budget(options.searchSteps, deadline);
    for (size_t c : order) {
      Component &comp = comps[c];
      if (comp.peak > target && !budget.exhausted()) {
        searched[c] = true;
        minimizeComponent(comp, target, budget, result);
      }
      target = std::max(target, comp.peak);
    }
    result.searchSteps += budget.used();
    result.budgetExhausted |= budget.exhausted();
    result.hitDeadline |= budget.hitDeadline();
  }
  result.searchedComponents =
      static_cast<unsigned>(llvm::count(searched, true));

  size_t largest = order.front();
  result.strategy = comps[largest].strategy;
  for (const Component &comp : comps) {
    for (size_t k = 0; k < comp.ids.size(); ++k)
      result.offsets[comp.ids[k]] = comp.offsets[k];
    result.peak = std::max(result.peak, comp.peak);
    result.provenBound = std::max(result.provenBound, comp.provenBound);
  }
  result.provedOptimal = result.peak <= result.provenBound;
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
