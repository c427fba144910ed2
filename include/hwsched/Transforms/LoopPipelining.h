//===- LoopPipelining.h - Stage-scheduled loop rewrite ----------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Applies a StageSchedule to an scf.for: multi-buffers the buffers that cross
// stages (memref::multiBuffer, after our own overwrite check), inserts the
// target's synchronisation, and expands the loop into prologue / kernel /
// epilogue with scf::pipelineForLoop (peeled for static trip counts,
// predicated for dynamic ones); trip counts below the stage count are
// unrolled completely. Usable from C++ without the Transform dialect.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_LOOPPIPELINING_H
#define HWSCHED_TRANSFORMS_LOOPPIPELINING_H

#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/CostModel/StageScheduler.h"
#include "hwsched/Transforms/NpuFlagSync.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace hwsched {

/// `pipeline.sync` of the spec.
enum class PipelineSync { None, GpuBarrier, NpuFlag };

/// What the rewrite did.
struct PipelineRewriteResult {
  /// The pipelined kernel loop (or the unchanged loop for one stage); null
  /// when the loop was unrolled completely.
  mlir::scf::ForOp loop;
  bool unrolled = false;
  bool predicated = false;
  /// Static trip count when known.
  std::optional<int64_t> tripCount;
  unsigned multiBufferedAllocations = 0;
  unsigned barriersInserted = 0;
  /// A create_group/wait pair was inserted for async copies without one.
  bool asyncGroupsInserted = false;
  /// Stage of the async wait that got group counts (static trip counts).
  std::optional<unsigned> asyncWaitStage;
  /// sync = npu_flag: flag channels, and set_flag/wait_flag ops put in the
  /// body (before expansion).
  unsigned npuFlagChannels = 0;
  unsigned npuFlagOpsInBody = 0;
};

/// True when pipelineLoop really expands `forOp` into prologue / kernel /
/// epilogue (more than one stage, trip count not statically below it).
bool expandsLoop(mlir::scf::ForOp forOp, const StageSchedule &schedule);

/// Everything decided for one loop before its IR changes: the stage
/// schedule and the synchronisation it needs. Made by planPipeline or
/// scheduleForSync (analysis), read by checkPipelinePreconditions and
/// pipelineLoop (rewrite) and by `explain`, so the flags are planned once.
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

/// Checks, without touching the IR, that the rewrite can apply `plan` to
/// `forOp`: success, or a refusal at the op in the way (the loop itself
/// when it is the loop's form).
llvm::Error checkPipelinePreconditions(mlir::scf::ForOp forOp,
                                       const LoopDependenceGraph &graph,
                                       const PipelinePlan &plan);

/// Rewrites `forOp` according to `plan` (which must come from `graph` of the
/// same, still unchanged loop and pass checkPipelinePreconditions). An error
/// here comes after the IR changed and must be treated as a definite error.
llvm::Expected<PipelineRewriteResult>
pipelineLoop(mlir::RewriterBase &rewriter, mlir::scf::ForOp forOp,
             const LoopDependenceGraph &graph, const PipelinePlan &plan);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_LOOPPIPELINING_H
