// transform-scripts/npu.mlir @npu_fuse_elementwise_chain on Add + Mul + ReLU:
// on ascend-910b (192 KiB UB) both pairs fit twice over (ping-pong) and the
// whole chain is fused into one scf.forall of 16x32 tiles; the SAME script on
// a spec copy with a 128 KiB UB (HWSCHED_SPEC_PATH) rejects the first pair
// and leaves the chain unfused. Both results run on the CPU like the input
// (integration_test/Scripts/npu-chain.mlir).
//
// RUN: hwsched-opt %s --hwsched-target=ascend-910b \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/npu.mlir \
// RUN:   --transform-interpreter --verify-diagnostics | FileCheck %s
// RUN: env HWSCHED_SPEC_PATH=%S/Inputs/small-ub hwsched-opt %s --hwsched-target=ascend-910b \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/npu.mlir \
// RUN:   --transform-interpreter --mlir-print-op-on-diagnostic=false 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SMALL

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<64x64xf32>, %[[Y:[^:]+]]: tensor<64x64xf32>, %[[Z:[^:]+]]: tensor<64x64xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<64x64xf32>
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.+]] = scf.forall (%[[I:.+]], %[[J:.+]]) in (4, 2) shared_outs(%[[O:.+]] = %[[E]])
// CHECK-DAG:       %[[XS:.+]] = tensor.extract_slice %[[X]]{{.*}} [16, 32] [1, 1]
// CHECK-DAG:       %[[YS:.+]] = tensor.extract_slice %[[Y]]{{.*}} [16, 32] [1, 1]
// CHECK:           %[[A:.+]] = linalg.add ins(%[[XS]], %[[YS]] : tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK:           %[[ZS:.+]] = tensor.extract_slice %[[Z]]{{.*}} [16, 32] [1, 1]
// CHECK:           %[[M:.+]] = linalg.mul ins(%[[A]], %[[ZS]] : tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK:           %[[T:.+]] = linalg.generic {{.*}} ins(%[[M]] : tensor<16x32xf32>)
// CHECK:             arith.maximumf
// CHECK:           tensor.parallel_insert_slice %[[T]] into %[[O]]
// CHECK-NOT:     linalg.
// CHECK:         return %[[R]]

// SMALL: remark: fusion of 'linalg.mul' into 'linalg.add' on ascend-910b: reject (unified buffer overflow: 81920 live bytes x 2 > 131072); {{.*}} ub_live_bytes_x_ping_pong 163840 <= 131072 (VIOLATED)
// SMALL-NOT: remark
// SMALL-LABEL: func.func @chain(
// SMALL-NOT:     scf.forall
// SMALL:         %[[A:.+]] = linalg.add ins({{.*}} : tensor<64x64xf32>, tensor<64x64xf32>)
// SMALL:         %[[M:.+]] = linalg.mul ins(%[[A]], {{.*}} : tensor<64x64xf32>, tensor<64x64xf32>)
// SMALL:         linalg.generic {{.*}} ins(%[[M]] : tensor<64x64xf32>)
// SMALL-NOT:     scf.forall
// SMALL:         return
func.func @chain(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>, %z: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @below {{fused tile: live UB bytes (x npu.ping_pong_factor for double buffering): 12288 : i64}}
  %a = linalg.add ins(%x, %y : tensor<64x64xf32>, tensor<64x64xf32>)
                  outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @below {{fusion of 'linalg.mul' into 'linalg.add' on ascend-910b: fuse; cost=-512 = +1*format_cast_cycles(0) -1*dma_saved_cycles(512); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 163840 <= 196608 (ok)}}
  %m = linalg.mul ins(%a, %z : tensor<64x64xf32>, tensor<64x64xf32>)
                  outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.mul' on ascend-910b: fuse; cost=-512 = +1*format_cast_cycles(0) -1*dma_saved_cycles(512); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 131072 <= 196608 (ok)}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %v, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
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
