// transform-scripts/gpu-matmul.mlir @gpu_matmul_epilogue on matmul + bias +
// ReLU: the model keeps the epilogue, the matmul and its fill are fused into
// it at block and thread level, and the result is one gpu.launch of 8x8
// blocks of 16x16 threads, each computing a 4x4 output tile with the
// accumulator in registers over a K loop of step 4.
//
// RUN: hwsched-opt %s --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/gpu-matmul.mlir,%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter --verify-diagnostics | FileCheck %s

#map_bias = affine_map<(d0, d1) -> (d1)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @matmul_bias_relu(
// CHECK-SAME:      %[[A:[^:]+]]: memref<512x256xf32>, %[[B:[^:]+]]: memref<256x512xf32>, %[[BIAS:[^:]+]]: memref<512xf32>, %[[OUT:[^:]+]]: memref<512x512xf32>)
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C256:.+]] = arith.constant 256 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-NOT:     linalg.
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C8]], {{.*}} = %[[C8]], {{.*}} = %[[C1]]) threads({{.*}}) in ({{.*}} = %[[C16]], {{.*}} = %[[C16]], {{.*}} = %[[C1]])
// CHECK:           gpu.block_id
// CHECK:           gpu.thread_id
// CHECK:           %[[ACC:.+]] = scf.for %{{.+}} = %{{.+}} to %[[C256]] step %[[C4]] iter_args(%{{.+}} = %{{.+}}) -> (vector<4x4xf32>)
// CHECK:             vector.fma
// CHECK:             scf.yield
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.alloc
// CHECK:         return
func.func @matmul_bias_relu(%A: tensor<512x256xf32>, %B: tensor<256x512xf32>,
                            %bias: tensor<512xf32>, %out: tensor<512x512xf32>)
    -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<512x512xf32>)
      -> tensor<512x512xf32>
  // expected-remark @below {{predicted registers per thread: 64 : i64}}
  %mm = linalg.matmul ins(%A, %B : tensor<512x256xf32>, tensor<256x512xf32>)
                      outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.matmul' on nvidia-a100: fuse; cost=-0.3998}}
  %res = linalg.generic {indexing_maps = [#map_id, #map_bias, #map_id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<512x512xf32>, tensor<512xf32>)
      outs(%out : tensor<512x512xf32>) {
  ^bb0(%acc: f32, %b: f32, %o: f32):
    %sum = arith.addf %acc, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<512x512xf32>
  return %res : tensor<512x512xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @gpu_matmul_epilogue(
      !transform.any_op {transform.consumed},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %block = transform.param.constant 64 : i64 -> !transform.param<i64>
    %thread = transform.param.constant 4 : i64 -> !transform.param<i64>
    %k = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_epilogue failures(propagate) (%root, %block, %thread, %k)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}

