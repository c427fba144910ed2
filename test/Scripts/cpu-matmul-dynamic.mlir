// transform-scripts/cpu-matmul.mlir on a module with a dynamic-shape matmul
// next to a static one: the schedule needs static M, N and K (its tiles must
// divide them), so the dynamic matmul is not scheduled, a remark at it says
// why, and it is left as a linalg.matmul (bufferized with the module; it
// lowers unscheduled and stays correct); the static one is scheduled as usual.
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

// The remark at the dynamic one names the dimension (from
// @hwsched_prepare_contractions, transform-scripts/matmul-frontend.mlir),
// then tiles for the static matmul only.
// REM: remark: hwsched: not scheduled: dimension M (the rows of A and of the result) has a dynamic extent; the matmul schedules need static M, N, K: any static M works
// REM-NEXT: linalg.matmul ins(%a, %b : tensor<?x512xf32>
// REM: remark: hwsched cpu matmul: MC (C block rows) = 256
// REM-NEXT: linalg.matmul ins(%a, %b : tensor<256x256xf32>
// REM-NOT: error

// CHECK-LABEL: func.func @dyn(
func.func @dyn(%a: tensor<?x512xf32>, %b: tensor<512x512xf32>, %c: tensor<?x512xf32>) -> tensor<?x512xf32> {
// CHECK-NEXT:    linalg.matmul ins(%{{.+}}, %{{.+}} : memref<?x512xf32>, memref<512x512xf32>) outs(%{{.+}} : memref<?x512xf32>)
// CHECK-NEXT:    return
  %r = linalg.matmul ins(%a, %b : tensor<?x512xf32>, tensor<512x512xf32>) outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
  return %r : tensor<?x512xf32>
}

// CHECK-LABEL: func.func @stat(
// CHECK-NOT:     linalg.matmul
// CHECK:         vector.fma
func.func @stat(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
