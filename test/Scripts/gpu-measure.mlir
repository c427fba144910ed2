// transform-scripts/gpu-measure.mlir, called as the GPU benches call it
// (bench/costmodel/gpu_corpus.py, bench/tileconfig/gpu_check.py): a small
// @__transform_main makes the sizes with transform.param.constant and
// includes the sequences.
//
// RUN: hwsched-opt %s --split-input-file --hwsched-target=nvidia-a100 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/gpu-measure.mlir,%scripts/gpu-matmul.mlir,%scripts/gpu-dispatch.mlir \
// RUN:   --transform-interpreter 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// 1. @gpu_measure_chain_2d: the epilogue (`root`) tiled to 32x32 blocks
//    and 2x2 per thread, the matmul (`producer`) and its fill fused at both
//    levels, the thread's matmul K-tiled by 4; the register estimate on the
//    thread-level epilogue.

// CHECK-LABEL: func.func @chain(
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) in (2, 2)
// CHECK:           linalg.fill {{.*}} -> tensor<32x32xf32>
// CHECK:           linalg.matmul {producer} {{.*}} -> tensor<32x32xf32>
// CHECK:           scf.forall (%{{.+}}, %{{.+}}) in (16, 16)
// CHECK:             linalg.fill {{.*}} -> tensor<2x2xf32>
// CHECK:             scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}}
// CHECK:               linalg.matmul {producer} {{.*}} -> tensor<2x2xf32>
// CHECK:             linalg.generic {{.*}}root
// CHECK:           } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// REMARK: remark: estimate: registers_per_thread={{[0-9]+}} {{.*}}; registers={{[0-9]+}} (acc=4 {{.*}} step=4 floor={{[0-9]+}} tile=[2,2,4] tiled)
func.func @chain(%A: tensor<64x32xf32>, %B: tensor<32x64xf32>,
                 %bias: tensor<64xf32>, %out: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul {producer} ins(%A, %B : tensor<64x32xf32>, tensor<32x64xf32>)
      outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %res = linalg.generic {root,
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                       affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%acc: f32, %b: f32, %o: f32):
    %sum = arith.addf %acc, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<64x64xf32>
  return %res : tensor<64x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @gpu_measure_chain_2d(
      !transform.any_op {transform.readonly}, !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly}, !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence private @gpu_measure_k_tile_matmul(
      !transform.any_op {transform.consumed}, !transform.param<i64> {transform.readonly})
      -> !transform.any_op
  transform.named_sequence private @gpu_measure_registers(
      !transform.any_op {transform.readonly}) -> !transform.param<i64>
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.param.constant 32 : i64 -> !transform.param<i64>
    %t = transform.param.constant 2 : i64 -> !transform.param<i64>
    %k = transform.param.constant 4 : i64 -> !transform.param<i64>
    %epi_t, %mm_t = transform.include @gpu_measure_chain_2d failures(propagate)
        (%root, %b, %b, %t, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %mm_k = transform.include @gpu_measure_k_tile_matmul failures(propagate) (%mm_t, %k)
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %regs = transform.include @gpu_measure_registers failures(propagate) (%epi_t)
        : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// 2. A select_tile_config pick lowered as gpu_check.py lowers it (the A100
//    128^3 pick: 16x16 blocks, K tile 8, 1x2 per thread, 8 x 16 threads):
//    a gpu.launch of 8x8 blocks of 8x16 threads; the unit dimension of the
//    1x2 thread tile is why the vector lowering goes one set per rewrite.

// CHECK-LABEL: func.func @pick(
// CHECK-NOT:     linalg.matmul
// CHECK:         gpu.launch
// CHECK-SAME:      in (%{{.+}} = %[[C8:.+]], %{{.+}} = %[[C8]], %{{.+}} = %[[C1:.+]]) threads
// CHECK-SAME:      in (%{{.+}} = %[[C8]], %{{.+}} = %[[C16:.+]], %{{.+}} = %[[C1]])
// CHECK:           scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C8]]
// CHECK:             scf.for %{{.+}} = %{{.+}} to %[[C8]] step %[[C1]] iter_args({{.*}}) -> (vector<1x2xf32>)
// CHECK:               vector.fma {{.*}} : vector<2xf32>
// CHECK:           gpu.terminator
// CHECK-NEXT:    } {hwsched.block_dims_8x16}
func.func @pick(%A: tensor<128x128xf32>, %B: tensor<128x128xf32>,
                %out: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<128x128xf32>, tensor<128x128xf32>)
      outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %mm : tensor<128x128xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @gpu_measure_matmul_k_blocked(
      !transform.any_op {transform.readonly}, !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly}, !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly}, !transform.param<i64> {transform.readonly})
  transform.named_sequence private @gpu_measure_to_gpu(
      !transform.any_op {transform.consumed}, !transform.param<i64> {transform.readonly})
      -> !transform.any_op
  transform.named_sequence private @gpu_measure_lower_matmul_vectors_by_set(
      !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %c16 = transform.param.constant 16 : i64 -> !transform.param<i64>
    %c8 = transform.param.constant 8 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %c2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.include @gpu_measure_matmul_k_blocked failures(propagate)
        (%root, %c16, %c16, %c8, %c1, %c2)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    %threads = transform.merge_handles %c8, %c16, %c1 : !transform.param<i64>
    %func = transform.include @gpu_measure_to_gpu failures(propagate) (%root, %threads)
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.include @gpu_measure_lower_matmul_vectors_by_set failures(propagate) (%func)
        : (!transform.any_op) -> ()
    transform.yield
  }
}
