//===- NpuSync.h - NPU pipe synchronisation dialect -------------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The `hwsched_npu` dialect: Ascend-style set_flag / wait_flag between the
// pipes of one NPU core (see NpuSyncOps.td for the semantics).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_DIALECT_NPUSYNC_NPUSYNC_H
#define HWSCHED_DIALECT_NPUSYNC_NPUSYNC_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace hwsched::npu {

/// Event ids per (source, destination) pipe pair: 0-7 on Atlas A2 / 910B
/// (Ascend C SetFlag/WaitFlag documentation, CCE set_flag intrinsic).
constexpr unsigned kNumEventIds = 8;

/// The pipe names the ops accept, in a fixed order (the emulation indexes
/// its flag table with it).
llvm::ArrayRef<llvm::StringLiteral> getPipeNames();

/// Index of `name` in getPipeNames(), or std::nullopt.
std::optional<unsigned> getPipeIndex(llvm::StringRef name);

} // namespace hwsched::npu

#include "hwsched/Dialect/NpuSync/NpuSyncDialect.h.inc"

#define GET_OP_CLASSES
#include "hwsched/Dialect/NpuSync/NpuSyncOps.h.inc"

#endif // HWSCHED_DIALECT_NPUSYNC_NPUSYNC_H
