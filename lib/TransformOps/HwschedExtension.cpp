//===- HwschedExtension.cpp - Registration of the hwsched extension -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/Dialect/NpuSync/NpuSync.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

namespace {
class HwschedTransformExtension
    : public transform::TransformDialectExtension<HwschedTransformExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(HwschedTransformExtension)

  HwschedTransformExtension() {
    // Specs name on-chip memory spaces such as #gpu.address_space<workgroup>;
    // the dialects must be loaded before a spec is parsed mid-transform.
    declareDependentDialect<gpu::GPUDialect>();
    declareDependentDialect<DLTIDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<gpu::GPUDialect>();
    // schedule_stages: multi-buffer slices and predicated epilogues.
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<ub::UBDialect>();
    // split_k creates tensor.expand_shape / tensor.empty,
    // decompose_quantized tensor.empty and Linalg ops.
    declareGeneratedDialect<tensor::TensorDialect>();
    declareGeneratedDialect<linalg::LinalgDialect>();
    // schedule_stages on npu_flag targets: set_flag / wait_flag.
    declareGeneratedDialect<hwsched::npu::HwschedNpuDialect>();
    // rewrite_matmul_as_wgmma: TMA, mbarriers and warpgroup MMAs.
    declareGeneratedDialect<nvgpu::NVGPUDialect>();
    declareGeneratedDialect<NVVM::NVVMDialect>();

    // One list of every op family (each .inc undefines GET_OP_LIST).
    registerTransformOps<
#define GET_OP_LIST
#include "hwsched/TransformOps/CostModelOps.cpp.inc"
        ,
#define GET_OP_LIST
#include "hwsched/TransformOps/FrontendOps.cpp.inc"
        ,
#define GET_OP_LIST
#include "hwsched/TransformOps/FusionOps.cpp.inc"
        ,
#define GET_OP_LIST
#include "hwsched/TransformOps/PipelineOps.cpp.inc"
        ,
#define GET_OP_LIST
#include "hwsched/TransformOps/SmemOps.cpp.inc"
        ,
#define GET_OP_LIST
#include "hwsched/TransformOps/SplitKOps.cpp.inc"
        ,
#define GET_OP_LIST
#include "hwsched/TransformOps/TargetOps.cpp.inc"
        ,
#define GET_OP_LIST
#include "hwsched/TransformOps/TensorCoreOps.cpp.inc"
        ,
#define GET_OP_LIST
#include "hwsched/TransformOps/WarpgroupOps.cpp.inc"
        >();
  }
};
} // namespace

void hwsched::registerTransformExtension(DialectRegistry &registry) {
  registry.addExtensions<HwschedTransformExtension>();
  // The payload dialect our ops emit, so that its IR also parses on its own.
  registry.insert<hwsched::npu::HwschedNpuDialect>();
}
