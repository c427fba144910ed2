// transform-scripts/npu.mlir @npu_cube_reduction on ascend-910b: the model
// refuses fusing the matmul (cube) into the LayerNorm-style row reduction
// (the fractal -> ND format cast costs more than the MTE traffic saved) and
// the script leaves that pair unfused, while the elementwise ReLU consumer is
// tiled 8x32 with the matmul fused into its loop. The result runs on the CPU
// like the input (integration_test/Scripts/npu-cube-reduction.mlir).
//
// RUN: hwsched-opt %s --hwsched-target=ascend-910b \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/npu.mlir \
// RUN:   --transform-interpreter --verify-diagnostics | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @cube(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<32x32xf32>, %[[B:[^:]+]]: tensor<32x32xf32>)
// CHECK:         %[[INIT:.+]] = linalg.fill {{.*}} -> tensor<32x32xf32>
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<32x32xf32>, tensor<32x32xf32>) outs(%[[INIT]]
// The reduction still reads the whole untiled matmul result.
// CHECK:         %[[SQ:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[MM]] : tensor<32x32xf32>)
// CHECK:         %[[RELU:.+]] = scf.forall (%{{.+}}, %{{.+}}) in (4, 1)
// CHECK:           %[[AS:.+]] = tensor.extract_slice %[[A]]{{.*}} [8, 32] [1, 1]
// CHECK:           %[[BS:.+]] = tensor.extract_slice %[[B]]{{.*}} [32, 32] [1, 1]
// CHECK:           %[[IS:.+]] = tensor.extract_slice %[[INIT]]{{.*}} [8, 32] [1, 1]
// CHECK:           %[[T:.+]] = linalg.matmul ins(%[[AS]], %[[BS]] : tensor<8x32xf32>, tensor<32x32xf32>) outs(%[[IS]] : tensor<8x32xf32>)
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[T]] : tensor<8x32xf32>)
// CHECK:             arith.maximumf
// CHECK:         return %[[SQ]], %[[RELU]]
func.func @cube(%A: tensor<32x32xf32>, %B: tensor<32x32xf32>)
    -> (tensor<32xf32>, tensor<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %er = tensor.empty() : tensor<32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<32x32xf32>, tensor<32x32xf32>)
                      outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.matmul' on ascend-910b: reject (not profitable: cost >= 0, dominated by format_cast_cycles); cost=128 = +1*format_cast_cycles(256) -1*dma_saved_cycles(128); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 33024 <= 196608 (ok)}}
  %sq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%mm : tensor<32x32xf32>) outs(%acc : tensor<32xf32>) {
  ^bb0(%x: f32, %s: f32):
    %x2 = arith.mulf %x, %x : f32
    %r = arith.addf %s, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.matmul' on ascend-910b: fuse; cost=-128 = +1*format_cast_cycles(0) -1*dma_saved_cycles(128); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 40960 <= 196608 (ok)}}
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  return %sq, %relu : tensor<32xf32>, tensor<32x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @npu_cube_reduction(
      !transform.any_op {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %rows = transform.param.constant 8 : i64 -> !transform.param<i64>
    %cols = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @npu_cube_reduction failures(propagate) (%f, %rows, %cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
