//===- MmaSyncBf16.h - bf16 inputs on the mma.sync path ---------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// MLIR 22 takes bf16 tensor-core operands at neither end of the nvgpu path:
// the vector-to-nvgpu conversion has no bf16 fragments, and
// convert-nvgpu-to-nvvm cannot deduce the PTX type of a bf16
// nvgpu.mma.sync. NVVM's mma.sync multiplies bf16 (sm_80+), so these fill
// the two gaps: the conversion here, the lowering in MmaSyncToNvvm.h.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_MMASYNCBF16_H
#define HWSCHED_TRANSFORMS_MMASYNCBF16_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class Operation;
class RewriterBase;
class RewritePatternSet;
} // namespace mlir

namespace hwsched {

/// Converts the warp-level vector ops under `root` to nvgpu ops as
/// `convert-vector-to-gpu{use-nvgpu}` does (its prepare patterns, then the
/// mma.sync conversion), taking bf16 inputs too. bf16 and f16 fragments have
/// one register layout (two 16-bit elements per 32-bit register, the same
/// m16n8k16 and ldmatrix tiling): where `root` holds bf16 values, they are
/// converted as f16 stand-ins and retyped bf16 afterwards. The stand-in is
/// exact only where bf16 values are moved, not computed on: with bf16 values
/// present it is refused (an error at the offending op, before anything
/// changes) when `root` also has f16 values, or when an op other than a
/// load, store, copy, constant, element rearrangement, return or yield, or a
/// vector.contract's A and B touches bf16. Without bf16 values it is the
/// upstream conversion.
mlir::LogicalResult convertVectorToNvgpu(mlir::RewriterBase &rewriter,
                                         mlir::Operation *root);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_MMASYNCBF16_H
