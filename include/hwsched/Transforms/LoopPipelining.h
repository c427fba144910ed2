//===- LoopPipelining.h - Stage-scheduled loop rewrite ----------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Applies a PipelinePlan (CostModel/PipelinePlan.h) to an scf.for:
// multi-buffers the buffers that cross stages (memref::multiBuffer, after our
// own overwrite check), inserts the target's synchronisation, and expands the
// loop into prologue / kernel / epilogue with scf::pipelineForLoop (peeled for
// static trip counts, predicated for dynamic ones); trip counts below the stage
// count are unrolled completely. Usable from C++ without the Transform dialect.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_LOOPPIPELINING_H
#define HWSCHED_TRANSFORMS_LOOPPIPELINING_H

#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/CostModel/PipelinePlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace hwsched {

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

/// Checks, without touching the IR, that the rewrite can apply `plan` to
/// `forOp`: success, or a refusal at the op in the way (the loop itself
/// when it is the loop's form).
llvm::Error checkPipelinePreconditions(mlir::scf::ForOp forOp,
                                       const LoopDependenceGraph &graph,
                                       const PipelinePlan &plan);

/// Refuses when one of `loops` is nested in another: rewriting the outer
/// loop clones and erases its body, which would leave the inner one
/// dangling. The note points at the inner loop.
llvm::Error checkNotNested(llvm::ArrayRef<mlir::scf::ForOp> loops);

/// Rewrites `forOp` according to `plan` (which must come from `graph` of the
/// same, still unchanged loop and pass checkPipelinePreconditions). An error
/// here comes after the IR changed and must be treated as a definite error.
llvm::Expected<PipelineRewriteResult>
pipelineLoop(mlir::RewriterBase &rewriter, mlir::scf::ForOp forOp,
             const LoopDependenceGraph &graph, const PipelinePlan &plan);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_LOOPPIPELINING_H
