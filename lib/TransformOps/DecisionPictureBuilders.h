//===- DecisionPictureBuilders.h - Pictures from op decisions ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Glue between the plans the ops compute and the SVG renderers: each builder
// turns one plan into picture data and writes it when a picture directory is
// set (hwsched-opt --hwsched-svg-dir, or $HWSCHED_SVG_DIR for the plugin).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_LIB_TRANSFORMOPS_DECISIONPICTUREBUILDERS_H
#define HWSCHED_LIB_TRANSFORMOPS_DECISIONPICTUREBUILDERS_H

#include "hwsched/Analysis/AllocationLiveness.h"
#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/CostModel/PipelinePlan.h"
#include "hwsched/CostModel/StageScheduler.h"
#include "hwsched/Transforms/MergeAllocations.h"

#include <optional>
#include <string>

namespace hwsched {
namespace detail {

/// A file-name stem for pictures of decisions at `op`: the enclosing symbol
/// name, then what the op is ("launch", "loop"), then `index`.
std::string pictureStem(mlir::Operation *op, llvm::StringRef what,
                        unsigned index);

/// Draws the on-chip layout of a merge plan (before the rewrite: buffer
/// names are taken from the IR). Returns the path written, std::nullopt when
/// pictures are off; an error when the file cannot be written.
llvm::Expected<std::optional<std::string>>
drawMergePlan(const ScopeAllocationLiveness &liveness,
              const AllocationMergePlan &plan, llvm::StringRef targetName,
              llvm::StringRef stem);

/// Draws a stage schedule as a modulo timeline over a few iterations.
llvm::Expected<std::optional<std::string>>
drawStageSchedule(const LoopDependenceGraph &graph,
                  const StageSchedule &schedule,
                  llvm::ArrayRef<PipelineUnit> units,
                  llvm::StringRef targetName, llvm::StringRef stem);

/// The path of a picture a builder drew, std::nullopt when pictures are
/// off; when it could not be written, a warning at `transformOp` ("no
/// picture: ...") and std::nullopt: a picture never fails the op.
std::optional<std::string>
pictureOrWarning(mlir::Operation *transformOp,
                 llvm::Expected<std::optional<std::string>> picture);

/// Draws the plan of `decision` when pictures are on and it has buffers
/// (the file named for the scope and `index`) and records the path in it;
/// warns at `transformOp` when the file cannot be written.
void showMergePlan(mlir::Operation *transformOp, ScopeMergeDecision &decision,
                   llvm::StringRef targetName, unsigned index);

/// Draws the schedule of `plan` when pictures are on (the file named for
/// the loop and `index`), warns at `transformOp` when it cannot be written,
/// and with `explain` remarks "schedule picture <path>" at the loop.
void showStageSchedule(mlir::Operation *transformOp,
                       const LoopPipelinePlan &plan, unsigned index,
                       bool explain);

} // namespace detail
} // namespace hwsched

#endif // HWSCHED_LIB_TRANSFORMOPS_DECISIONPICTUREBUILDERS_H
