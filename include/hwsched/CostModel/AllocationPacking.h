//===- AllocationPacking.h - Offsets for buffers with lifetimes -*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The packing decision of on-chip allocation merging, as plain data: buffers
// are (interval over program points, size, alignment) and the answer is one
// byte offset per buffer such that buffers whose intervals intersect never
// share bytes. This is dynamic storage allocation (NP-hard), solved in three
// steps:
//   1. the lower bound (maximum over program points of the live bytes);
//   2. independent components (groups of buffers whose live ranges never meet
//      the rest) are packed apart, each first by greedy orders (first and
//      best fit over five orders, then iterated greedy);
//   3. the exact decision procedure (CostModel/CanonicalPackingSearch.h):
//      first, for every component whose greedy peak exceeds the capacity,
//      "does it fit the capacity?" (fit budget); then, for each component
//      above the target (the lower bound, or what another component could
//      not go below), "does it fit the target?" and a binary search between
//      the best peak found and the lowest target not yet excluded (search
//      budget, half of what is left for each question). Budgets count
//      deterministic steps.
//
// Plain C++ and LLVM Support only (no MLIR), so benchmarks link it alone.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_ALLOCATIONPACKING_H
#define HWSCHED_COSTMODEL_ALLOCATIONPACKING_H

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace hwsched {

/// One buffer to place. `start` and `end` are inclusive program points: two
/// buffers interfere when their intervals share a point.
struct PackingItem {
  int64_t start = 0;
  int64_t end = 0;
  /// Bytes the buffer occupies. The packer uses the footprint: `size`
  /// rounded up to `alignment`.
  uint64_t size = 0;
  /// Required alignment of the offset (>= 1, not necessarily a power of 2).
  uint64_t alignment = 1;
};

/// Rounds `value` up to a multiple of `alignment` (alignment 0 counts as 1).
uint64_t alignUpTo(uint64_t value, uint64_t alignment);

/// The footprint of `item`: its size rounded up to its alignment.
uint64_t getFootprint(const PackingItem &item);

/// The maximum over program points of the summed footprints of the buffers
/// live there: no packing can need fewer bytes.
struct PackingLowerBound {
  uint64_t bytes = 0;
  /// A program point where `bytes` are live (the earliest one), -1 if empty.
  int64_t point = -1;
  /// Indices of the items live at `point`, in index order.
  std::vector<size_t> live;
};

PackingLowerBound
computePackingLowerBound(const std::vector<PackingItem> &items);

/// Steps of the exact search allowed by default to lower a packing that
/// already fits (about a quarter of a second on today's machines): GPU
/// kernels with a handful of buffers finish far below it and stay instant.
/// One step is one elementary operation of the search
/// (CostModel/CanonicalPackingSearch.h), so the same input gets the same
/// answer whatever the machine or its load.
constexpr uint64_t kDefaultPackingSearchSteps = uint64_t(1) << 27;
/// Steps allowed by default to find a packing within the capacity when the
/// greedy one exceeds it (several seconds at most): there the search decides
/// between success and failure, so it may take longer.
constexpr uint64_t kDefaultPackingFitSteps = uint64_t(1) << 31;

struct PackingOptions {
  /// Bytes available (0: unbounded). When the greedy packing exceeds it, the
  /// search first asks whether the capacity can be met.
  uint64_t capacity = 0;
  /// Steps the exact search may spend to meet the capacity (when greedy
  /// does not), and then to lower the peak towards the lower bound (0:
  /// greedy only).
  uint64_t fitSteps = kDefaultPackingFitSteps;
  uint64_t searchSteps = kDefaultPackingSearchSteps;
  /// Optional wall-clock cap on the whole search in milliseconds (0: none).
  /// When it stops the search, the answer depends on the machine's speed.
  uint64_t timeBudgetMs = 0;
};

struct PackingResult {
  /// One offset per item, each a multiple of the item's alignment.
  std::vector<uint64_t> offsets;
  /// Bytes needed: the maximum of offset + footprint.
  uint64_t peak = 0;
  PackingLowerBound lowerBound;
  /// The best lower bound known: `lowerBound.bytes`, raised where the
  /// search proved that a component cannot be packed below some peak.
  uint64_t provenBound = 0;
  /// Whether `peak` equals `provenBound` (nothing smaller exists).
  bool provedOptimal = false;
  /// How the largest component was packed ("first-fit/size", "search", ...).
  std::string strategy;

  /// The capacity asked for (0: unbounded), and, when the peak exceeds it,
  /// whether that is proven (the lower bound or an exhaustive search shows
  /// no packing fits) or only the budget ran out.
  uint64_t capacity = 0;
  bool fitsCapacity() const { return capacity == 0 || peak <= capacity; }
  bool capacityProvedInfeasible = false;

  /// Components (groups of buffers whose live ranges never meet the rest),
  /// how many ran the exact search, the feasibility questions it answered,
  /// and the steps it spent out of its budget (the fit budget, when the
  /// search had to meet the capacity, plus the search budget).
  unsigned components = 0;
  unsigned searchedComponents = 0;
  unsigned decisions = 0;
  uint64_t searchSteps = 0;
  uint64_t stepBudget = 0;
  /// Whether the steps (or the wall-clock cap) ran out before the search
  /// finished: then `peak` may not be optimal even if it is.
  bool budgetExhausted = false;
  bool hitDeadline = false;

  /// "peak P B, lower bound L B (optimal), strategy S, C components, search
  /// D decisions in N of M steps".
  void print(llvm::raw_ostream &os) const;
};

/// Packs `items`. Deterministic unless `options.timeBudgetMs` stops the
/// search.
PackingResult packAllocations(const std::vector<PackingItem> &items,
                              const PackingOptions &options = {});

/// Returns true when no two interfering items of `items` share bytes at
/// `offsets` and every offset is aligned (used before every rewrite, by
/// tests and by benchmarks).
bool verifyPacking(const std::vector<PackingItem> &items,
                   const std::vector<uint64_t> &offsets);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_ALLOCATIONPACKING_H
