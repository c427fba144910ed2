// @gpu_matmul_auto on an A100 with an epilogue that
// transform.fusion.epilogue_into_stores cannot apply at the tensor-core
// kernel's stores (a body with an scf.if): transform.fusion.
// check_epilogue_for_stores says so before the payload changes, and the
// epilogue runs as a kernel of its own after the tensor-core kernel, as
// before the fusion existed, instead of failing the schedule.
//
// RUN: hwsched-opt %s --hwsched-target=nvidia-a100 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/gpu-matmul.mlir,%scripts/gpu-dispatch.mlir,%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter=entry-point=gpu_matmul_auto 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARKS < %t.err
// REMARKS: remark: taken by the tensor-core kernel (mma.sync)
// REMARKS-NOT: epilogue into stores
// REMARKS: remark: hwsched gpu: the tensor-core kernel before this op writes C = A x B only; this elementwise consumer runs as its own kernel after it
// REMARKS-NOT: error
// CHECK-LABEL: func.func @hwsched_tensorcore_kernel(
// CHECK:         gpu.launch
// CHECK:         nvgpu.mma.sync
// CHECK-LABEL: func.func @matmul(
// CHECK:         call @hwsched_tensorcore_kernel
// CHECK:         gpu.launch
// CHECK:           scf.if
// CHECK:             math.exp
func.func @matmul(%A: tensor<256x128xf16>, %B: tensor<128x256xf16>,
                  %C: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<256x128xf16>, tensor<128x256xf16>)
                      outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<256x256xf32>) outs(%C : tensor<256x256xf32>) {
  ^bb0(%x: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %x, %z : f32
    %m = scf.if %c -> f32 {
      %ex = math.exp %x : f32
      scf.yield %ex : f32
    } else {
      scf.yield %z : f32
    }
    linalg.yield %m : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
