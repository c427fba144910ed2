//===- AllocationPacking.h - Offsets for buffers with lifetimes -*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The packing half of on-chip allocation merging, as plain data: buffers are
// (interval over program points, size, alignment) and the answer is one byte
// offset per buffer such that buffers whose intervals intersect never share
// bytes. This is dynamic storage allocation (NP-hard), so the packer computes
// the lower bound first (maximum over program points of the live bytes), runs
// several greedy orders and keeps the best, and runs an exact search with a
// step budget when the instance is small or when greedy misses the capacity
// that the lower bound says is reachable.
//
// The header depends on the C++ standard library only, so benchmarks can link
// the packer without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_ALLOCATIONPACKING_H
#define HWSCHED_TRANSFORMS_ALLOCATIONPACKING_H

#include <cstdint>
#include <string>
#include <vector>

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

struct PackingOptions {
  /// Bytes available (0: unbounded). Only decides whether the exact search
  /// runs on large instances.
  uint64_t capacity = 0;
  /// Instances with more items try only the two most effective greedy
  /// orders (decreasing size, decreasing size x lifetime), each with first
  /// fit and best fit; smaller ones try all five orders.
  size_t allOrdersMaxItems = 400;
  /// Instances with more items use first fit only (best fit rarely wins
  /// there and doubles the time).
  size_t bestFitMaxItems = 2000;
  /// Instances with at most this many items get up to `refineRounds`
  /// rounds of iterated greedy when greedy misses the lower bound: the
  /// buffers ending at the peak move to the front of the best order.
  size_t refineMaxItems = 400;
  unsigned refineRounds = 16;
  /// The exact search runs on instances with at most this many items when
  /// greedy did not reach the lower bound.
  size_t exactMaxItems = 20;
  /// Nodes the exact search may visit (a step budget rather than a time
  /// budget keeps the result deterministic).
  uint64_t exactStepBudget = 200000;
};

struct PackingResult {
  /// One offset per item, each a multiple of the item's alignment.
  std::vector<uint64_t> offsets;
  /// Bytes needed: the maximum of offset + footprint.
  uint64_t peak = 0;
  PackingLowerBound lowerBound;
  /// Which strategy produced `offsets` ("best-fit/size", "exact", ...).
  std::string strategy;
  /// Whether the exact search ran, and whether `peak` is proven optimal
  /// (it equals the lower bound, or the exact search finished).
  bool exactSearchRan = false;
  bool provedOptimal = false;
  /// Nodes the exact search visited.
  uint64_t exactSteps = 0;
};

/// Packs `items`. Deterministic: the same items give the same offsets.
PackingResult packAllocations(const std::vector<PackingItem> &items,
                              const PackingOptions &options = {});

/// Returns true when no two interfering items of `items` share bytes at
/// `offsets` and every offset is aligned (used by tests and benchmarks).
bool verifyPacking(const std::vector<PackingItem> &items,
                   const std::vector<uint64_t> &offsets);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_ALLOCATIONPACKING_H
