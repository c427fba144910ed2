//===- TensorCoreOps.cpp - patterns of the mma.sync kernel ----------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Pattern descriptors for the tensor-core (mma.sync) kernel that upstream
// MLIR 22 has as populate functions but exposes to no transform op.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"

using namespace mlir;

void hwsched::ApplyMmaSyncF32ToTf32PatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  // One tf32 multiply (not TF32x3, three tf32 products that recover f32
  // accuracy): upstream rejects TF32x3 for nvgpu.mma.sync.
  nvgpu::populateMmaSyncF32ToTF32Patterns(patterns,
                                          nvgpu::MmaSyncF32Lowering::TF32);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/TensorCoreOps.cpp.inc"
