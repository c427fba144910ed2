// transform-scripts/gpu-matmul.mlir @gpu_matmul_smem_pipelined on matmul +
// bias + ReLU (examples/gpu-matmul/input.mlir): the same script on two specs
// makes different decisions, all from select_tile_config, and the scheduled
// IR follows them (grid, block dims, K step, stages, shared bytes).
//
// RUN: hwsched-opt %examples/gpu-matmul/input.mlir --hwsched-target=nvidia-a100 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/gpu-matmul.mlir,%scripts/gpu-dispatch.mlir,%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter=entry-point=gpu_matmul_smem_pipelined \
// RUN:   --mlir-print-op-on-diagnostic=false -o %t.a100.mlir 2>&1 | FileCheck %s --check-prefix=A100-REM
// RUN: FileCheck %s --check-prefix=A100 < %t.a100.mlir
// RUN: hwsched-opt %examples/gpu-matmul/input.mlir --hwsched-target=nvidia-h100 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/gpu-matmul.mlir,%scripts/gpu-dispatch.mlir,%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter=entry-point=gpu_matmul_smem_pipelined \
// RUN:   --mlir-print-op-on-diagnostic=false -o %t.h100.mlir 2>&1 | FileCheck %s --check-prefix=H100-REM
// RUN: FileCheck %s --check-prefix=H100 < %t.h100.mlir
//
// On nvidia-a100: 32x32 blocks, 4x4 per thread (8x8 threads), BK 16, 3
// stages (the SM-fill rule: the best-scored 64x64 blocks would busy 64 of
// 108 SMs, 32x32 give 256 blocks): A/B tiles triple-buffered, 4 KiB
// accumulator + 3 x (2 + 2) KiB.
// A100-REM: remark: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 512, N 512, K 256): tile_sizes [32, 32, 0], thread_tile_sizes [4, 4, 0], reduction_tile_sizes [0, 0, 16], num_stages 3, num_threads [8, 8, 1]
// A100-REM: remark: fill rule: the best-scored candidate, 64x64x8 tile, 4x8 inner tile, 2 stages, busies 64/108 SMs in its only wave (59%)
// A100-REM: remark: fusion of 'linalg.generic' into 'linalg.matmul' on nvidia-a100: fuse
// A100-REM-DAG: remark: stage 0 on unit async_copy
// A100-REM-DAG: remark: stage 2 on unit tensor_core
// A100-REM-DAG: remark: buffer 3 copies x 2048 bytes on chip
// A100-REM-DAG: remark: buffer 1 copy x 4096 bytes on chip
// A100-REM: remark: stages 3 of limit 3:
// A100-REM: remark: on-chip bytes 16384 of capacity 166912
// A100-REM: remark: predicted registers per thread: [[REGS:[0-9]+]] : i64, [[REGS]] : i64, [[REGS]] : i64
// A100-REM: remark: merged 3 of 3 on-chip allocations: sum 16384 B, peak 16384 B
// A100-REM-NOT: error
//
// A100-LABEL: func.func @matmul_bias_relu(
// A100-NOT:     linalg.matmul
// A100:         gpu.launch blocks({{.*}}) in ({{.*}} = %c16, {{.*}} = %c16, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c8, {{.*}} = %c8, {{.*}} = %c1)
// A100-NEXT:      %[[SMEM:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
// A100-NOT:       memref.alloc()
// A100-DAG:       %[[ACC:[a-z_0-9]+]] = memref.view %[[SMEM]][%{{.+}}][] : memref<16384xi8, #gpu.address_space<workgroup>> to memref<32x32xf32, #gpu.address_space<workgroup>>
// A100-DAG:       memref.view %[[SMEM]][%{{.+}}][] : memref<16384xi8, #gpu.address_space<workgroup>> to memref<3x32x16xf32, #gpu.address_space<workgroup>>
// A100-DAG:       memref.view %[[SMEM]][%{{.+}}][] : memref<16384xi8, #gpu.address_space<workgroup>> to memref<3x16x32xf32, #gpu.address_space<workgroup>>
// The pipelined K loop (prologue: 2 of the 16 K tiles), barriers around it.
// Each thread's 4x4 accumulator is a loop-carried vector (registers): the
// loop does not touch the shared accumulator tile, which is read before the
// loop and written after it.
// A100:           gpu.barrier
// A100:           vector.load %[[ACC]][
// A100:           scf.for %{{.+}} = %c0 to %c224 step %c16 iter_args({{.*}}) -> ({{.*}}, vector<4x4xf32>) {
// A100-NOT:         %[[ACC]][
// A100-NOT:         memref.alloca
// A100:             scf.for %{{.+}} = %c0 to %c16 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (vector<4x4xf32>) {
// A100-NOT:         %[[ACC]][
// A100:               vector.fma
// A100-NOT:         %[[ACC]][
// A100:           } {hwsched.gpu_k_loop_pipelined}
// A100:           vector.store %{{.+}}, %[[ACC]][
// A100:           arith.maximumf
// A100:           gpu.terminator
// A100-NOT:     scf.forall
//
// On nvidia-h100: 32x64 blocks, 4x4 per thread (16x8 threads), BK 16, 4 stages: four
// copies of each A/B tile.
// H100-REM: remark: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 512, N 512, K 256): tile_sizes [32, 64, 0], thread_tile_sizes [4, 4, 0], reduction_tile_sizes [0, 0, 16], num_stages 4, num_threads [16, 8, 1]
// H100-REM-DAG: remark: stage 0 on unit async_copy
// H100-REM-DAG: remark: stage 3 on unit tensor_core
// H100-REM-DAG: remark: buffer 4 copies x 2048 bytes on chip
// H100-REM-DAG: remark: buffer 4 copies x 4096 bytes on chip
// H100-REM-DAG: remark: buffer 1 copy x 8192 bytes on chip
// H100-REM: remark: stages 4 of limit 4:
// H100-REM: remark: on-chip bytes 32768 of capacity 232448
// H100-REM: remark: merged 3 of 3 on-chip allocations: sum 32768 B, peak 32768 B
// H100-REM-NOT: error
//
// H100-LABEL: func.func @matmul_bias_relu(
// H100:         gpu.launch blocks({{.*}}) in ({{.*}} = %c8, {{.*}} = %c16, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c16, {{.*}} = %c8, {{.*}} = %c1)
// H100-NEXT:      memref.alloc() {alignment = 64 : i64} : memref<32768xi8, #gpu.address_space<workgroup>>
// H100-DAG:       memref<4x32x16xf32, #gpu.address_space<workgroup>>
// H100-DAG:       memref<4x16x64xf32, #gpu.address_space<workgroup>>
// H100:           scf.for %{{.+}} = %c0 to %c208 step %c16 iter_args({{.*}}) -> ({{.*}}, vector<4x4xf32>) {
// H100-NOT:         memref.alloca
// H100:             scf.for %{{.+}} = %c0 to %c16 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (vector<4x4xf32>) {
// H100:           } {hwsched.gpu_k_loop_pipelined}
// H100-NOT:     scf.forall
