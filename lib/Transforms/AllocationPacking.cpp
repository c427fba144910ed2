//===- AllocationPacking.cpp - Offsets for buffers with lifetimes ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/AllocationPacking.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
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

/// Exact search over canonical placements: in any packing, letting every
/// buffer fall as low as it can makes it rest at 0 or right above (aligned)
/// a buffer it interferes with. Enumerating buffers in nondecreasing offset
/// order, each placed at 0 or on top of an already placed neighbour, visits
/// every canonical packing, so an exhausted search proves optimality.
class ExactSearch {
public:
  ExactSearch(const Instance &inst, uint64_t budget, uint64_t lowerBound)
      : inst(inst), budget(budget), lowerBound(lowerBound),
        offsets(inst.items.size(), 0), placed(inst.items.size(), false) {}

  /// Improves on `best` (peak) and `bestOffsets` if it can. Returns true when
  /// the search finished within the budget.
  bool run(uint64_t &best, std::vector<uint64_t> &bestOffsets) {
    this->best = &best;
    this->bestOffsets = &bestOffsets;
    recurse(0, 0, 0, 0);
    return !outOfBudget;
  }

  uint64_t steps = 0;

private:
  void recurse(size_t numPlaced, uint64_t level, size_t lastIndex,
               uint64_t peak) {
    size_t n = inst.items.size();
    if (outOfBudget || *best <= lowerBound)
      return;
    if (numPlaced == n) {
      if (peak < *best) {
        *best = peak;
        *bestOffsets = offsets;
      }
      return;
    }
    if (++steps > budget) {
      outOfBudget = true;
      return;
    }
    // Candidate (item, offset) pairs at or above the current level.
    std::vector<std::pair<uint64_t, size_t>> candidates;
    for (size_t i = 0; i < n; ++i) {
      if (placed[i])
        continue;
      uint64_t size = inst.footprint[i];
      uint64_t align = inst.items[i].alignment;
      auto consider = [&](uint64_t offset) {
        if (offset < level ||
            (offset == level && i < lastIndex && numPlaced > 0))
          return;
        if (std::max(peak, offset + size) >= *best)
          return;
        for (size_t j : inst.neighbours[i])
          if (placed[j] && offset < offsets[j] + inst.footprint[j] &&
              offsets[j] < offset + size)
            return;
        candidates.emplace_back(offset, i);
      };
      consider(0);
      for (size_t j : inst.neighbours[i])
        if (placed[j])
          consider(alignUpTo(offsets[j] + inst.footprint[j], align));
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()),
                     candidates.end());
    for (const auto &[offset, i] : candidates) {
      placed[i] = true;
      offsets[i] = offset;
      recurse(numPlaced + 1, offset, i,
              std::max(peak, offset + inst.footprint[i]));
      placed[i] = false;
      if (outOfBudget || *best <= lowerBound)
        return;
    }
  }

  const Instance &inst;
  uint64_t budget;
  uint64_t lowerBound;
  std::vector<uint64_t> offsets;
  std::vector<bool> placed;
  uint64_t *best = nullptr;
  std::vector<uint64_t> *bestOffsets = nullptr;
  bool outOfBudget = false;
};
} // namespace

PackingResult hwsched::packAllocations(const std::vector<PackingItem> &items,
                                       const PackingOptions &options) {
  PackingResult result;
  result.lowerBound = computePackingLowerBound(items);
  size_t n = items.size();
  if (n == 0) {
    result.strategy = "empty";
    result.provedOptimal = true;
    return result;
  }
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

  // Each greedy run costs O(sum of degrees * log); on large instances only
  // the orders that win in practice run (size, then size x lifetime; see
  // bench/smem).
  if (n > options.allOrdersMaxItems)
    orders.resize(std::min<size_t>(orders.size(), 2));

  uint64_t best = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> offsets;
  std::vector<size_t> bestSequence;
  Fit bestFit = Fit::First;
  for (const Order &order : orders) {
    std::vector<size_t> sequence = base;
    std::sort(sequence.begin(), sequence.end(), order.less);
    for (Fit fit : {Fit::First, Fit::Best}) {
      if (fit == Fit::Best && n > options.bestFitMaxItems)
        continue;
      uint64_t peak = placeGreedy(inst, sequence, fit, offsets);
      if (peak < best) {
        best = peak;
        result.offsets = offsets;
        bestSequence = sequence;
        bestFit = fit;
        result.strategy =
            std::string(fit == Fit::Best ? "best-fit/" : "first-fit/") +
            order.name;
      }
      if (best <= result.lowerBound.bytes)
        break;
    }
    if (best <= result.lowerBound.bytes)
      break;
  }

  // Refinement: the buffers that end at the peak were placed too late in
  // the order; moving them to the front and placing again often lowers the
  // peak (iterated greedy, deterministic).
  if (best > result.lowerBound.bytes && n <= options.refineMaxItems) {
    std::vector<size_t> sequence = bestSequence;
    std::vector<uint64_t> current = result.offsets;
    uint64_t currentPeak = best;
    for (unsigned round = 0;
         round < options.refineRounds && best > result.lowerBound.bytes;
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
      if (currentPeak < best) {
        best = currentPeak;
        result.offsets = current;
        if (result.strategy.find("+refined") == std::string::npos)
          result.strategy += "+refined";
      }
    }
  }

  bool greedyMissesCapacity = options.capacity != 0 &&
                              best > options.capacity &&
                              result.lowerBound.bytes <= options.capacity;
  if (best > result.lowerBound.bytes &&
      (n <= options.exactMaxItems || greedyMissesCapacity)) {
    result.exactSearchRan = true;
    ExactSearch search(inst, options.exactStepBudget, result.lowerBound.bytes);
    uint64_t before = best;
    bool finished = search.run(best, result.offsets);
    result.exactSteps = search.steps;
    if (best < before)
      result.strategy = "exact";
    result.provedOptimal = finished;
  }
  result.peak = best;
  if (best <= result.lowerBound.bytes)
    result.provedOptimal = true;
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
