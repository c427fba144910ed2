//===- PipelineBarriers.cpp - One barrier per step for async pipelines ----===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/PipelineBarriers.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>

using namespace mlir;
using namespace hwsched;

namespace {
/// The expanded loop of an order of entries (graph nodes and the barrier)
/// with their stages, for `tripCount` iterations: the instance sequence of
/// scf::pipelineForLoop with peeled epilogues.
class ExpansionModel {
public:
  ExpansionModel(ArrayRef<unsigned> order, ArrayRef<unsigned> stageOfEntry,
                 unsigned numStages, int64_t tripCount, unsigned barrier)
      : barrier(barrier) {
    auto emit = [&](unsigned entry, int64_t iteration) {
      if (entry == barrier) {
        ++barriersSoFar;
      } else {
        position[{entry, iteration}] = barriersBefore.size();
      }
      barriersBefore.push_back(barriersSoFar);
    };
    int64_t last = numStages - 1;
    // Prologue part p: stages 0..p, iteration p - stage.
    for (int64_t p = 0; p < last; ++p)
      for (unsigned entry : order)
        if (stageOfEntry[entry] <= p)
          emit(entry, p - stageOfEntry[entry]);
    // Kernel iteration k: every stage, iteration k + last - stage.
    for (int64_t k = 0; k + last < tripCount; ++k)
      for (unsigned entry : order)
        emit(entry, k + last - stageOfEntry[entry]);
    // Epilogue part e: stages above e, the iterations left.
    for (int64_t e = 0; e < last; ++e)
      for (unsigned entry : order)
        if (stageOfEntry[entry] > e)
          emit(entry, tripCount - 1 - (stageOfEntry[entry] - e - 1));
  }

  /// Whether a barrier runs between node `a` of iteration `i` and node `b`
  /// of iteration `j`, `a` first; std::nullopt when `b` runs first (the
  /// order does not respect the dependence) or an instance is missing.
  std::optional<bool> barrierBetween(unsigned a, int64_t i, unsigned b,
                                     int64_t j) const {
    auto pa = position.find({a, i});
    auto pb = position.find({b, j});
    if (pa == position.end() || pb == position.end() ||
        pa->second >= pb->second)
      return std::nullopt;
    return barriersBefore[pb->second] > barriersBefore[pa->second];
  }

private:
  unsigned barrier;
  int64_t barriersSoFar = 0;
  /// Position of each node instance in the sequence.
  llvm::DenseMap<std::pair<unsigned, int64_t>, size_t> position;
  /// Barriers emitted up to and including each position.
  SmallVector<int64_t> barriersBefore;
};
} // namespace

/// The iterations apart of the two instances that meet through `e`: a
/// dependence through a buffer with c copies (multi-buffering removed its
/// distance-1 form) is between iterations c apart, when the slot comes
/// round again.
static int64_t instanceDistance(const DepEdge &e,
                                const StageSchedule &schedule) {
  unsigned copies = e.buffer >= 0 ? schedule.copies[e.buffer] : 1;
  if (e.removableByMultiBuffering && copies > 1 && e.distance > 0)
    return e.distance + copies - 1;
  return e.distance;
}

/// The dependences the barrier must order, as (from, to, iterations apart)
/// over entries: the cross-thread edges (not those into a graph wait, whose
/// writes stand for its own thread's copies landing) and, for an inserted
/// wait (entry `waitEntry`), one from the wait to each reader of a copy.
static SmallVector<std::tuple<unsigned, unsigned, int64_t>>
orderedPairs(const LoopDependenceGraph &graph, const StageSchedule &schedule,
             const llvm::DenseSet<unsigned> &crossThreadEdges,
             const AsyncWaitPoint &wait, unsigned waitEntry) {
  auto isCopy = [&](unsigned n) {
    return graph.nodes[n].op->getName().getStringRef() ==
           "nvgpu.device_async_copy";
  };
  SmallVector<std::tuple<unsigned, unsigned, int64_t>> pairs;
  for (unsigned i : crossThreadEdges) {
    const DepEdge &e = graph.edges[i];
    if (wait.node && e.to == *wait.node)
      continue;
    pairs.emplace_back(e.from, e.to, instanceDistance(e, schedule));
    if (!wait.node && isCopy(e.from) && !isCopy(e.to))
      pairs.emplace_back(waitEntry, e.to, e.distance);
  }
  return pairs;
}

std::optional<SingleBarrierPlan>
hwsched::planSingleBarrier(const LoopDependenceGraph &graph,
                           const StageSchedule &schedule, int64_t tripCount,
                           const llvm::DenseSet<unsigned> &crossThreadEdges,
                           const AsyncWaitPoint &wait) {
  if (wait.stage <= wait.groupStage || tripCount < schedule.numStages)
    return std::nullopt;
  // Entries: the graph's nodes, then an inserted wait, then the barrier.
  unsigned n = graph.nodes.size();
  unsigned waitEntry = wait.node ? *wait.node : n;
  unsigned barrier = n + 1;
  SmallVector<unsigned> order{waitEntry, barrier};
  SmallVector<unsigned> stageOfEntry(schedule.stage.begin(),
                                     schedule.stage.end());
  stageOfEntry.push_back(wait.stage);
  stageOfEntry.push_back(wait.stage);
  for (unsigned v = 0; v < n; ++v)
    if (v != waitEntry)
      order.push_back(v);

  SmallVector<std::tuple<unsigned, unsigned, int64_t>> pairs =
      orderedPairs(graph, schedule, crossThreadEdges, wait, waitEntry);
  // Enough kernel iterations for every dependence distance to appear
  // between kernel instances; fewer when the loop is shorter.
  int64_t maxDistance = 0;
  for (auto [from, to, d] : pairs)
    maxDistance = std::max(maxDistance, d);
  int64_t simulated =
      std::min<int64_t>(tripCount, schedule.numStages + maxDistance + 2);
  ExpansionModel model(order, stageOfEntry, schedule.numStages, simulated,
                       barrier);
  for (auto [from, to, d] : pairs)
    for (int64_t it = 0; it + d < simulated; ++it) {
      std::optional<bool> ok = model.barrierBetween(from, it, to, it + d);
      if (!ok || !*ok)
        return std::nullopt;
    }
  return SingleBarrierPlan{wait.stage};
}
