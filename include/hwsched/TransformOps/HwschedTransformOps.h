//===- HwschedTransformOps.h - hwsched transform ops ------------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_HWSCHEDTRANSFORMOPS_H
#define HWSCHED_TRANSFORMOPS_HWSCHEDTRANSFORMOPS_H

#include "hwsched/TransformOps/NumericInputs.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/MatchInterfaces.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "hwsched/TransformOps/CostModelOps.h.inc"
#define GET_OP_CLASSES
#include "hwsched/TransformOps/FrontendOps.h.inc"
#define GET_OP_CLASSES
#include "hwsched/TransformOps/FusionOps.h.inc"
#define GET_OP_CLASSES
#include "hwsched/TransformOps/PipelineOps.h.inc"
#define GET_OP_CLASSES
#include "hwsched/TransformOps/SmemOps.h.inc"
#define GET_OP_CLASSES
#include "hwsched/TransformOps/SplitKOps.h.inc"
#define GET_OP_CLASSES
#include "hwsched/TransformOps/TargetOps.h.inc"
#define GET_OP_CLASSES
#include "hwsched/TransformOps/TensorCoreOps.h.inc"
#define GET_OP_CLASSES
#include "hwsched/TransformOps/WarpgroupOps.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hwsched {
/// Registers the cost_model, fusion, pipeline, smem and hwsched (target,
/// split_k, tensor-core pattern) transform op families
/// as a Transform dialect extension.
void registerTransformExtension(mlir::DialectRegistry &registry);
} // namespace hwsched

#endif // HWSCHED_TRANSFORMOPS_HWSCHEDTRANSFORMOPS_H
