// transform-scripts/npu.mlir @npu_fuse_elementwise_chain when only the first
// pair is kept: the tail broadcasts the mul's result over 32 planes, so
// fusing it would recompute each mul element 32 times (limit 16). The script
// fuses add + mul into one scf.forall and leaves the tail outside.
//
// RUN: hwsched-opt %s --hwsched-target=ascend-910b \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/npu.mlir \
// RUN:   --transform-interpreter --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @chain_broadcast_tail(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<64x64xf32>, %[[Y:[^:]+]]: tensor<64x64xf32>, %[[Z:[^:]+]]: tensor<64x64xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[M:.+]] = scf.forall ({{.*}}) in (4, 2)
// CHECK:           %[[A:.+]] = linalg.add ins({{.*}} : tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK:           %[[T:.+]] = linalg.mul ins(%[[A]], {{.*}} : tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK:           tensor.parallel_insert_slice %[[T]]
// CHECK:         %[[R:.+]] = linalg.generic {{.*}} ins(%[[M]] : tensor<64x64xf32>) outs({{.*}} : tensor<32x64x64xf32>)
// CHECK:         return %[[R]]
func.func @chain_broadcast_tail(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>, %z: tensor<64x64xf32>)
    -> tensor<32x64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %e3 = tensor.empty() : tensor<32x64x64xf32>
  // expected-remark @below {{fused tile: live UB bytes}}
  %a = linalg.add ins(%x, %y : tensor<64x64xf32>, tensor<64x64xf32>)
                  outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @below {{fusion of 'linalg.mul' into 'linalg.add' on ascend-910b: fuse}}
  %m = linalg.mul ins(%a, %z : tensor<64x64xf32>, tensor<64x64xf32>)
                  outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.mul' on ascend-910b: reject (illegal: recomputation blow-up}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m : tensor<64x64xf32>) outs(%e3 : tensor<32x64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %v, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<32x64x64xf32>
  return %r : tensor<32x64x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @npu_fuse_elementwise_chain(
      !transform.any_op {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    %cols = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @npu_fuse_elementwise_chain failures(propagate) (%f, %rows, %cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
