//===- MmaSyncToNvvm.h - mma.sync lowerings MLIR 22 lacks -------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Two nvgpu.mma.sync forms that MLIR 22's convert-nvgpu-to-nvvm lowers
// wrongly or not at all:
//  - bf16 inputs: its PTX type deduction knows no bf16 ("failed to deduce
//    operand PTX types"), though NVVM's mma.sync takes bf16 from sm_80 on
//    with the f16 shape and fragment layout.
//  - tf32 inputs: it passes the f32 registers to the tensor core through a
//    bitcast, and the tensor core reads the top 19 bits of each: the
//    operands are truncated, not rounded. Truncation is biased (every
//    product loses magnitude), so the error grows with K rather than with
//    its square root: on an H200 at 4096^3, a relative error of 1.5e-3
//    against cuBLAS' TF32 GEMM (which rounds), three times its bound.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_MMASYNCTONVVM_H
#define HWSCHED_TRANSFORMS_MMASYNCTONVVM_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace hwsched {

/// Rewrites every nvgpu.mma.sync m16n8k16 with bf16 A and B and f32
/// accumulators into nvvm.mma.sync (`mma.sync.aligned.m16n8k16.row.col.f32.
/// bf16.bf16.f32`): A's four and B's two vector<2xbf16> registers bitcast to
/// i32, the four f32 accumulators passed as scalars and the result struct
/// reassembled into vector<2x2xf32>. Other mma.sync ops are left to
/// convert-nvgpu-to-nvvm.
void populateMmaSyncBf16ToNvvmPatterns(mlir::RewritePatternSet &patterns);

/// Rewrites every nvgpu.mma.sync m16n8k8 with tf32Enabled, f32 A
/// (vector<4x1xf32>) and B (vector<2x1xf32>) and f32 accumulators
/// (vector<2x2xf32>) into nvvm.mma.sync (`mma.sync.aligned.m16n8k8.row.col.
/// f32.tf32.tf32.f32`) whose A and B registers are converted with
/// `nvvm.convert.float.to.tf32 {rnd = rna}` (round to nearest, ties away
/// from zero, as cuBLAS and CUTLASS round). Other mma.sync ops are left to
/// convert-nvgpu-to-nvvm.
void populateMmaSyncTf32ToNvvmPatterns(mlir::RewritePatternSet &patterns);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_MMASYNCTONVVM_H
