//===- PipelineBarriers.h - One barrier per pipeline step ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Where the barriers of a pipelined GPU loop go, checked over the whole
// expanded loop. The general rule of the loop rewrite puts a barrier before
// every op that takes part in a cross-thread dependence, in that op's stage,
// so that every part of the expansion (prologue, kernel, epilogue) has it:
// for an async-copy pipeline that is two per step (before the copies, which
// overwrite a buffer other threads read in an earlier step, and after the
// wait, before the reads). The multistage order CUTLASS-style kernels use
// needs one: wait for the oldest step's copies, one barrier, then the next
// step's copies and this step's reads. With the wait moved first, that one
// barrier orders both the reads of the step after the wait and the copies
// after the reads of the previous step.
//
// We do not assume it is enough: the plan simulates the expanded loop
// (prologue parts, enough kernel iterations for every dependence distance,
// epilogue parts), maps each cross-thread dependence to its instance pairs
// (a multi-buffered buffer with c copies moves a loop-carried conflict c
// iterations apart) and accepts the order only when a barrier lies between
// every pair. Otherwise the caller keeps the general rule.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_PIPELINEBARRIERS_H
#define HWSCHED_TRANSFORMS_PIPELINEBARRIERS_H

#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/CostModel/StageScheduler.h"

#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace hwsched {

/// The body's async wait: a graph node, or the wait the rewrite inserts for
/// copies without one (not in the graph: `node` unset), with its stage and
/// the stage of its group.
struct AsyncWaitPoint {
  std::optional<unsigned> node;
  unsigned stage = 0;
  unsigned groupStage = 0;
};

/// The single-barrier order: the async wait first, then one barrier in the
/// wait's stage, then every other node in body order.
struct SingleBarrierPlan {
  unsigned barrierStage = 0;
};

/// Plans one barrier per step for `graph` under `schedule` (static trip
/// count `tripCount` >= the stage count) with the wait `wait` (in a later
/// stage than its group), or std::nullopt when the simulation finds a
/// dependence it leaves unordered. `crossThreadEdges` are the graph edges
/// that need a barrier (memory edges between different nodes that may cross
/// threads); an inserted wait orders the copies' readers as a graph wait
/// would.
std::optional<SingleBarrierPlan>
planSingleBarrier(const LoopDependenceGraph &graph,
                  const StageSchedule &schedule, int64_t tripCount,
                  const llvm::DenseSet<unsigned> &crossThreadEdges,
                  const AsyncWaitPoint &wait);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_PIPELINEBARRIERS_H
