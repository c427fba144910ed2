// Numeric inputs of hwsched ops as !transform.param: `params(name = %p)`
// behaves exactly like the attribute of the same name, for the op's own
// inputs (num_stages, packed_operands, ...) and for spec overrides
// (max_stages, reg_limit, "gpu.sm_count", ...). A transform.tune.knob can
// therefore drive any of them without editing the op.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s
// The custom syntax round-trips.
// RUN: hwsched-opt %s --split-input-file | FileCheck %s --check-prefix=ROUND

// schedule_stages: num_stages from a knob, the same schedule as the
// attribute (two copies of the workgroup buffer).
// CHECK-LABEL: func.func @stages_from_knob
// CHECK: memref.alloc() : memref<2x2x4xf32, #gpu.address_space<workgroup>>
// ROUND-LABEL: transform.named_sequence @__transform_main
// ROUND: transform.pipeline.schedule_stages %{{.+}} params(num_stages = %{{.+}}) {explain, target = "nvidia-h100"} : (!transform.op<"scf.for">, !transform.param<i64>) -> !transform.op<"scf.for">
module attributes {transform.with_named_sequence} {
  func.func @stages_from_knob(%G: memref<64x4xf32>, %init: vector<2x4xf32>) -> vector<2x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %pad = arith.constant 0.0 : f32
    // expected-remark @below {{buffer 2 copies x 32 bytes on chip}}
    %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{stages 2 of limit 2}}
    // expected-remark @below {{on-chip bytes 64 of capacity 232448}}
    // expected-remark-re @below {{RecMII 4 is set by the recurrence 'arith.addf' (line {{[0-9]+}}) -> 'arith.addf' (line {{[0-9]+}}) of the next iteration; 'arith.addf' (line {{[0-9]+}}) uses a value 'arith.addf' (line {{[0-9]+}}) computed in the previous iteration (an iter_arg)}}
    %r = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %init) -> (vector<2x4xf32>) {
      %g0 = memref.subview %G[%k, 0] [2, 4] [1, 1] : memref<64x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
      // expected-remark @below {{stage 0 on unit async_copy}}
      memref.copy %g0, %h : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, #gpu.address_space<workgroup>>
      // expected-remark @below {{stage 1 on unit smem_load}}
      %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
      // expected-remark @below {{stage 1 on unit vector}}
      %acc2 = arith.addf %acc, %w : vector<2x4xf32>
      scf.yield %acc2 : vector<2x4xf32>
    }
    return %r : vector<2x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %k = transform.tune.knob<"stages"> = 2 : i64 from options = [1, 2, 3] -> !transform.param<i64>
    %p = transform.pipeline.schedule_stages %loop params(num_stages = %k) { target = "nvidia-h100", explain } : (!transform.op<"scf.for">, !transform.param<i64>) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A spec override as a param: max_stages = 1 caps the stage count as the
// attribute would (one copy, no pipelining).
// CHECK-LABEL: func.func @max_stages_param
// CHECK: memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
// ROUND-LABEL: transform.named_sequence @__transform_main
// ROUND: params(max_stages = %{{.+}}, "pipeline.max_stages" = %{{.+}})
module attributes {transform.with_named_sequence} {
  func.func @max_stages_param(%G: memref<64x4xf32>, %init: vector<2x4xf32>) -> vector<2x4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %pad = arith.constant 0.0 : f32
    %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
    // expected-remark @below {{stages 1 of limit 1}}
    %r = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %init) -> (vector<2x4xf32>) {
      %g0 = memref.subview %G[%k, 0] [2, 4] [1, 1] : memref<64x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
      memref.copy %g0, %h : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, #gpu.address_space<workgroup>>
      %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
      %acc2 = arith.addf %acc, %w : vector<2x4xf32>
      scf.yield %acc2 : vector<2x4xf32>
    }
    return %r : vector<2x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    // The alias and the key path set the same figure to the same value.
    %p = transform.pipeline.schedule_stages %loop params(max_stages = %one, "pipeline.max_stages" = %one) { target = "nvidia-h100" } : (!transform.op<"scf.for">, !transform.param<i64>, !transform.param<i64>) -> !transform.op<"scf.for">
    transform.debug.emit_remark_at %p, "stages 1 of limit 1" : !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// select_tile_config: a spec override (l2_limit_bytes) and the op's own
// list input (packed_operands, every value of the param) as params give the
// attribute's decision (on one core of the spec, the halved L2 gives
// 256 x 64 cache tiles where the shipped spec gives 256 x 256).
// CHECK-LABEL: func.func @tile_params
func.func @tile_params(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-remark @below {{params: 256 : i64, 64 : i64, 0 : i64}}
  // expected-remark @below {{attributes: 256 : i64, 64 : i64, 0 : i64}}
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %l2 = transform.param.constant 262144 : i64 -> !transform.param<i64>
    %packed = transform.param.constant 1 : i64 -> !transform.param<i64>
    %t:5 = transform.cost_model.select_tile_config %mm params(l2_limit_bytes = %l2, packed_operands = %packed) { target = "x86-avx512", "cpu.cores" = 1 } : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %u:5 = transform.cost_model.select_tile_config %mm { target = "x86-avx512", "cpu.cores" = 1, l2_limit_bytes = 262144, packed_operands = array<i64: 1> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#0, "params:" at %mm : !transform.param<i64>, !transform.any_op
    transform.debug.emit_param_as_remark %u#0, "attributes:" at %mm : !transform.param<i64>, !transform.any_op
    transform.yield
  }
}
