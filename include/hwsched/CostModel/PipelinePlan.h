//===- PipelinePlan.h - Decisions before pipelining -------------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The decision half of software pipelining: the stage schedule of one
// scf.for under a spec, the synchronisation it needs (the NPU flags,
// planned once), the fallback to fewer stages when the flags do not fit,
// and the `explain` text of it all. The rewrite (Transforms/LoopPipelining.h)
// takes the plan and decides nothing, as upstream's scf::pipelineForLoop
// takes its schedule through PipeliningOption::getScheduleFn.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_PIPELINEPLAN_H
#define HWSCHED_COSTMODEL_PIPELINEPLAN_H

#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/CostModel/NpuFlagPlanning.h"
#include "hwsched/CostModel/RecurrenceExplanation.h"
#include "hwsched/CostModel/StageScheduler.h"
#include "hwsched/HwSpec/HwSpec.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace hwsched {

/// True when the rewrite really expands `forOp` into prologue / kernel /
/// epilogue (more than one stage, trip count not statically below it).
bool expandsLoop(mlir::scf::ForOp forOp, const StageSchedule &schedule);

/// Everything decided for one loop before its IR changes: the stage
/// schedule and the synchronisation it needs. Made by planPipeline or
/// scheduleForSync, read by checkPipelinePreconditions and pipelineLoop
/// (the rewrite) and by `explain`, so the flags are planned once.
struct PipelinePlan {
  StageSchedule schedule;
  PipelineSync sync = PipelineSync::None;
  /// expandsLoop(forOp, schedule) when planned.
  bool expands = false;
  /// sync == NpuFlag: the flags of `schedule`, or (verdict) why they cannot
  /// be planned.
  NpuFlagPlan npuFlags;
};

/// The plan of `schedule` for `forOp`: plans the NPU flags for npu_flag
/// sync (planNpuFlags), nothing more for the others. Does not touch the IR.
PipelinePlan planPipeline(mlir::scf::ForOp forOp,
                          const LoopDependenceGraph &graph,
                          StageSchedule schedule, PipelineSync sync);

/// scheduleStages for `forOp`, then, with `npu_flag` sync, while the flags
/// of the schedule need more event ids than the hardware has even coarsened,
/// the same with a stage limit one below the stages used (down to 1), with a
/// note saying why. Returns the plan of the last schedule tried: when even
/// one stage does not fit, its flag failure (checkPipelinePreconditions
/// reports it). A refusal (scheduleStages) when the on-chip capacity does
/// not fit one stage.
llvm::Expected<PipelinePlan> scheduleForSync(mlir::scf::ForOp forOp,
                                             const LoopDependenceGraph &graph,
                                             const SchedulerConfig &config,
                                             PipelineSync sync);

/// What a user asks of one loop besides the spec (the attributes of
/// transform.pipeline.schedule_stages).
struct LoopPipelineRequest {
  /// `num_stages`: the stage count asked for (the spec's limit still
  /// applies); std::nullopt lets the scheduler choose.
  std::optional<int64_t> numStages;
  /// `separate_unit_stages`.
  bool separateUnitStages = false;
  /// `explain`: also find the recurrence that bounds the interval.
  bool explain = false;
};

/// Everything decided for one loop before the payload is touched: its
/// dependence graph, the plan, and what `explain` and the picture show.
struct LoopPipelinePlan {
  mlir::scf::ForOp loop;
  LoopDependenceGraph graph;
  PipelinePlan pipeline;
  /// The spec's units, for the schedule picture.
  std::vector<PipelineUnit> units;
  std::string targetName;
  /// With `explain`, when a recurrence bounds the interval: its cycle and
  /// cause.
  RecurrenceExplanation recurrence;

  /// The `explain` remarks, in order, each with the op it is about: the
  /// stage and unit of every scheduled op; the copies of every on-chip or
  /// multi-buffered buffer (at its allocation, else at the loop); then, at
  /// the loop, the interval figures, the recurrence that bounds them, the
  /// enumeration bound, every schedule note, the NPU flags
  /// (NpuFlagCoarsening::print, NpuFlagChannel::print) and the on-chip
  /// bytes.
  void
  explain(llvm::function_ref<void(mlir::Operation *at, llvm::StringRef text)>
              remark) const;
  /// The same remarks, one per line.
  void print(llvm::raw_ostream &os) const;
};

/// `error` (a refusal about `forOp`) as schedule_stages words it: "cannot
/// pipeline the loop: " before the message, a note at the loop first, and
/// no culprit note when the culprit is the loop itself.
llvm::Error refuseLoop(mlir::scf::ForOp forOp, llvm::Error error);

/// Decides how `forOp` is pipelined under `spec` (whose on-chip memory space
/// is `onChipMemorySpace`): its dependence graph, the stage schedule and the
/// synchronisation (scheduleForSync). Refuses, with the payload untouched,
/// when the spec lacks a scheduler figure, when the loop is unsigned or its
/// body unsupported (refuseLoop), or when the on-chip capacity does not fit
/// one stage (with a note at the loop). The rewrite's own preconditions are
/// checkPipelinePreconditions'.
llvm::Expected<LoopPipelinePlan>
planLoopPipeline(mlir::scf::ForOp forOp, const HwSpec &spec,
                 mlir::Attribute onChipMemorySpace,
                 const LoopPipelineRequest &request);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_PIPELINEPLAN_H
