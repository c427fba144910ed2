//===- CanonicalPackingSearch.h - Exact allocation packing ------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The exact half of allocation packing: a decision procedure for dynamic
// storage allocation. Given buffers (interval, size, alignment) and a
// capacity, it finds offsets that keep every buffer below the capacity and
// apart from the buffers it meets in time, or proves that none exist, within
// a budget of deterministic steps.
//
// The search follows the published ideas of MiniMalloc (Moffitt, ASPLOS
// 2023); the code is ours:
//   - canonical packings: letting every buffer fall as low as its alignment
//     allows puts it at 0 or directly on top of a buffer it meets in time.
//     Placing buffers in nondecreasing offset order, each at the lowest
//     aligned offset above the placed buffers it meets ("minimum offset"),
//     enumerates every such packing once (ties broken by a static order);
//   - spatial inference: a buffer whose minimum offset + size exceeds the
//     capacity can never be placed, so the branch is dead;
//   - temporal (section) inference: time is cut into sections at the buffer
//     end points; the unplaced buffers of one section are live together, so
//     they stack above the lowest of their minimum offsets (and above the
//     current offset) and must still fit;
//   - dominance: a buffer placed at or above the top of another unplaced
//     buffer resting at its minimum offset leaves a gap that buffer fits, so
//     such branches are skipped; a buffer that meets no unplaced buffer
//     ("hatless") that fails makes its siblings fail too;
//   - exclusion (ours): once a buffer failed as the next placement at its
//     minimum offset, the later siblings cannot put it there (canonical
//     order), so its minimum offset is raised for them and the section
//     inference runs again: when some point at the current level can no
//     longer be covered and its section has no bytes to spare, the
//     remaining siblings are cut at once instead of re-enumerating the rest
//     of the level (perfect packings: at most one buffer can start a
//     point's column at each level);
//   - decomposition: when the placed buffers cut the unplaced ones into
//     groups that never meet in time, each group is solved on its own;
//   - restarts: several static orders are tried round robin with a node
//     limit that doubles, which tames the heavy tail of depth-first search.
//
// Plain C++ and LLVM Support only (no MLIR), so benchmarks link it alone.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_CANONICALPACKINGSEARCH_H
#define HWSCHED_COSTMODEL_CANONICALPACKINGSEARCH_H

#include "hwsched/CostModel/AllocationPacking.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace hwsched {

/// What one feasibility question can answer.
enum class PackingVerdict {
  /// A packing within the capacity was found.
  Fits,
  /// The search finished without one: no packing within the capacity exists.
  Infeasible,
  /// The step budget (or the wall-clock cap) ran out first.
  OutOfBudget,
};

/// "fits", "infeasible", "out of budget".
const char *toString(PackingVerdict verdict);

/// Work the exact search may do, shared by the several questions one
/// minimisation asks. Steps count elementary operations of the search (a
/// buffer examined when choosing the next placement, a neighbour's minimum
/// offset raised, a section re-examined), so they track run time within a
/// small factor on any instance, and the same input always gets the same
/// answer. The optional wall-clock deadline is checked as well; hitting it
/// makes the answer depend on the machine's speed and load.
class PackingStepBudget {
public:
  explicit PackingStepBudget(uint64_t steps, uint64_t timeMs = 0);
  PackingStepBudget(
      uint64_t steps,
      std::optional<std::chrono::steady_clock::time_point> deadline)
      : stepLimit(steps), deadline(deadline) {}

  /// The wall-clock deadline, if any.
  std::optional<std::chrono::steady_clock::time_point> getDeadline() const {
    return deadline;
  }

  uint64_t limit() const { return stepLimit; }
  uint64_t used() const { return stepsUsed; }
  uint64_t remaining() const {
    return stepsUsed >= stepLimit ? 0 : stepLimit - stepsUsed;
  }
  /// Whether the steps or the deadline are spent.
  bool exhausted() const { return remaining() == 0 || deadlinePassed; }
  /// Whether the wall-clock deadline stopped a search (not deterministic).
  bool hitDeadline() const { return deadlinePassed; }

  /// Charges `steps`; returns false once the budget is spent. Looks at the
  /// clock every few thousand calls only.
  bool charge(uint64_t steps);

  /// A budget of at most `steps` of the remaining ones, with the same
  /// deadline; `absorb` charges what it spent back to this one.
  PackingStepBudget slice(uint64_t steps) const;
  void absorb(const PackingStepBudget &slice);

private:
  uint64_t stepLimit;
  uint64_t stepsUsed = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  uint64_t nextClockCheck = 0;
  bool deadlinePassed = false;
};

/// The answer to one feasibility question.
struct PackingDecision {
  PackingVerdict verdict = PackingVerdict::OutOfBudget;
  uint64_t capacity = 0;
  /// One offset per item when `verdict` is Fits (each a multiple of the
  /// item's alignment, offset + footprint <= capacity), empty otherwise.
  std::vector<uint64_t> offsets;
  /// The maximum of offset + footprint (Fits only).
  uint64_t peak = 0;
  /// Steps spent on this question, search nodes visited, and how many
  /// restarts (static order x node limit) ran.
  uint64_t steps = 0;
  uint64_t nodes = 0;
  unsigned restarts = 0;

  /// "fits 1048576 B: peak 1048576 B, 123456 steps, 2345 nodes, 3 restarts".
  void print(llvm::raw_ostream &os) const;
};

/// Decides whether `items` pack into `capacity` bytes, spending at most
/// `budget`'s remaining steps (and charging what it spends). Items of size
/// 0 go at offset 0. Deterministic unless the budget has a deadline.
PackingDecision decidePacking(const std::vector<PackingItem> &items,
                              uint64_t capacity, PackingStepBudget &budget);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_CANONICALPACKINGSEARCH_H
