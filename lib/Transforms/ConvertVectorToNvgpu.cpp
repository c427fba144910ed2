//===- ConvertVectorToNvgpu.cpp - vector to nvgpu, bf16 included ----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The pass form of hwsched::convertVectorToNvgpu, for the tensor-core
// script's step 11 (transform.apply_registered_pass) in place of upstream's
// convert-vector-to-gpu{use-nvgpu}.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/Passes.h"

#include "hwsched/Transforms/MmaSyncBf16.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace hwsched {
#define GEN_PASS_DEF_HWSCHEDCONVERTVECTORTONVGPU
#include "hwsched/Transforms/Passes.h.inc"
} // namespace hwsched

using namespace mlir;

namespace {
struct ConvertVectorToNvgpuPass
    : hwsched::impl::HwschedConvertVectorToNvgpuBase<ConvertVectorToNvgpuPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    if (failed(hwsched::convertVectorToNvgpu(rewriter, getOperation())))
      signalPassFailure();
  }
};
} // namespace
