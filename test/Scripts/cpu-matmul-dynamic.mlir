// transform-scripts/cpu-matmul.mlir on a module with dynamic-shape matmuls
// next to a static one. A dynamic M (N and K static) is scheduled: the M
// loops run to the dynamic bound, the last register tile is padded, and
// select_tile_config's remark says which M it assumed. A dynamic N (or K)
// goes through @hwsched_prepare_contractions' chunks
// (transform.hwsched.chunk_dynamic_loops): an scf.for over chunks of 256
// columns, marked hwsched.chunk_loop, around the static schedule of one
// padded 512 x 256 x 512 chunk. The GPU entry point takes the dynamic M the
// same way (its launch grids need static shapes): no remark, no error.
//
// RUN: hwsched-opt %s --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN:   --mlir-print-op-on-diagnostic=false -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REM
// RUN: FileCheck %s < %t.mlir
//
// The same with the pipelined entry point.
// RUN: hwsched-opt %s --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main_pipelined \
// RUN:   --mlir-print-op-on-diagnostic=false -o %t.p.mlir 2>&1 | FileCheck %s --check-prefix=REM
// RUN: FileCheck %s < %t.p.mlir
//
// RUN: hwsched-opt %s --hwsched-target=nvidia-a100 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/gpu-matmul.mlir,%scripts/gpu-dispatch.mlir,%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter=entry-point=gpu_matmul_auto_sequential \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU

// REM: remark: select_tile_config: dynamic extent in M: assumed 256
// REM-NEXT: linalg.matmul ins(%a, %b : tensor<?x512xf32>
// REM: remark: hwsched cpu matmul: MC (C block rows) = 256
// REM-NEXT: linalg.matmul ins(%a, %b : tensor<?x512xf32>
// REM: remark: hwsched cpu matmul: MC (C block rows) = 256
// REM-NEXT: linalg.matmul ins(%a, %b : tensor<256x256xf32>
// REM-NOT: error

// GPU-NOT: remark: hwsched: not scheduled
// GPU-NOT: error

// CHECK-LABEL: func.func @dyn_m(
// CHECK-NOT:     linalg.matmul
// CHECK:         scf.for
// CHECK:         vector.fma
// CHECK:         return
func.func @dyn_m(%a: tensor<?x512xf32>, %b: tensor<512x512xf32>, %c: tensor<?x512xf32>) -> tensor<?x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x512xf32>, tensor<512x512xf32>) outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
  return %r : tensor<?x512xf32>
}

// CHECK-LABEL: func.func @dyn_n(
// CHECK-NOT:     linalg.matmul
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c256
// CHECK-NOT:     linalg.matmul
// CHECK:         vector.fma
// CHECK:         } {hwsched.chunk_loop = 256 : i64}
// CHECK-NEXT:    return
func.func @dyn_n(%a: tensor<512x512xf32>, %b: tensor<512x?xf32>, %c: tensor<512x?xf32>) -> tensor<512x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x?xf32>) outs(%c : tensor<512x?xf32>) -> tensor<512x?xf32>
  return %r : tensor<512x?xf32>
}

// CHECK-LABEL: func.func @stat(
// CHECK-NOT:     linalg.matmul
// CHECK:         vector.fma
func.func @stat(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
