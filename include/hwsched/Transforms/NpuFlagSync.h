//===- NpuFlagSync.h - set_flag/wait_flag insertion -------------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Inserts the hwsched_npu.set_flag / wait_flag ops of an NpuFlagPlan
// (CostModel/NpuFlagPlanning.h, where the model is described) into a
// stage-scheduled scf.for. The plan decides every channel, event and stage;
// this rewrite only places the ops and computes the event ids in the IR.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_NPUFLAGSYNC_H
#define HWSCHED_TRANSFORMS_NPUFLAGSYNC_H

#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/CostModel/NpuFlagPlanning.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace hwsched {

/// Inserts the flags of `plan` into `forOp` (whose body is still the one
/// `graph` was built from): set/wait ops in the body, initial sets before the
/// loop, final waits after it. Records the stage of every inserted body op
/// that has side effects in `stageOf`. Returns the number of flag ops in the
/// body.
unsigned insertNpuFlags(mlir::RewriterBase &rewriter, mlir::scf::ForOp forOp,
                        const LoopDependenceGraph &graph,
                        const NpuFlagPlan &plan,
                        llvm::DenseMap<mlir::Operation *, int64_t> &stageOf);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_NPUFLAGSYNC_H
