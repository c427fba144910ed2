// The shipped measurement schedules (transform-scripts/cpu-measure.mlir),
// called the way bench/costmodel/cpu_pairs.py, bench/tileconfig/cpu_sweep.py
// and select_tile_config's measurement mode call them.
//
// RUN: hwsched-opt %s --split-input-file --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/cpu-measure.mlir \
// RUN:   --transform-interpreter --verify-diagnostics | FileCheck %s

// The fused pair: the consumer tiled by 8 rows, the producer computed per
// tile inside the loop.
// CHECK-LABEL: func.func @fused_pair
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK:   linalg.exp {producer} {{.*}} -> tensor<8x64xf32>
// CHECK:   linalg.add {consumer} {{.*}} -> tensor<8x64xf32>
// CHECK: return
func.func @fused_pair(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %p = linalg.exp {producer} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.add {consumer} ins(%p, %y : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @hwsched_cpu_measure_fused_pair(!transform.any_op {transform.readonly}, !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.include @hwsched_cpu_measure_fused_pair failures(propagate) (%root, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}

// -----

// The unfused baseline: the same tiling, the producer whole before it.
// CHECK-LABEL: func.func @unfused_pair
// CHECK: linalg.exp {producer} {{.*}} -> tensor<64x64xf32>
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK-NOT: linalg.exp
// CHECK:   linalg.add {consumer} {{.*}} -> tensor<8x64xf32>
func.func @unfused_pair(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %p = linalg.exp {producer} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.add {consumer} ins(%p, %y : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @hwsched_cpu_measure_unfused_pair(!transform.any_op {transform.readonly}, !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.include @hwsched_cpu_measure_unfused_pair failures(propagate) (%root, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}

// -----

// The decisions, as remarks, on the driver's target; nothing changes.
// CHECK-LABEL: func.func @decisions
// CHECK: linalg.exp {producer}
// CHECK-NOT: scf.forall
func.func @decisions(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %p = linalg.exp {producer} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @below {{fusion of 'linalg.add' into 'linalg.exp' on x86-avx512: fuse}}
  %r = linalg.add {consumer} ins(%p, %y : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @hwsched_cpu_measure_fusion_decision(!transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.include @hwsched_cpu_measure_fusion_decision failures(propagate) (%root) : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// The op's pick, as cpu_sweep.py reads it; nothing changes.
// CHECK-LABEL: func.func @kernel
// CHECK: linalg.matmul
func.func @kernel(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-remark @below {{select_tile_config on 'x86-avx512' for a contraction (batch 1, M 64, N 64, K 64): tile_sizes [64, 16, 0], thread_tile_sizes [16, 16, 0], reduction_tile_sizes [0, 0, 64]}}
  // expected-remark @below {{candidates: 1164 enumerated, 411 feasible}}
  // expected-remark @below {{candidate #1: tile 64x16x64, inner 16x16}}
  // expected-remark @below {{candidate #2:}}
  // expected-remark @below {{candidate #3:}}
  // expected-remark @below {{candidate #4:}}
  // expected-remark @below {{candidate #5:}}
  // expected-remark @below {{winner: 64x16x64 tile, 16x16 inner tile}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @hwsched_cpu_measure_tile_decision(!transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.include @hwsched_cpu_measure_tile_decision failures(propagate) (%root) : (!transform.any_op) -> ()
    transform.yield
  }
}

// -----

// A configuration as the measurement tiles it (register tile 4 x 16, K step
// 1), then the shipped lowering: bufferized, the register kernel as FMAs on
// 16-wide vectors with the accumulators carried through the K loop, no
// stack buffer, no Linalg op left in @kernel.
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME: memref<16x16xf32
// CHECK-NOT: memref.alloca
// CHECK: scf.for {{.*}} iter_args
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @kernel(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence private @hwsched_cpu_measure_lower(!transform.any_op {transform.consumed})
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %kf = transform.structured.match ops{["func.func"]} attributes{sym_name = "kernel"} in %root : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match interface{LinalgOp} in %kf : (!transform.any_op) -> !transform.any_op
    %reg, %loops:2 = transform.structured.tile_using_for %mm tile_sizes [4, 16, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %step, %k = transform.structured.tile_using_for %reg tile_sizes [0, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @hwsched_cpu_measure_lower failures(propagate) (%root) : (!transform.any_op) -> ()
    transform.yield
  }
}
