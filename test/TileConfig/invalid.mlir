// Bad input for transform.cost_model.select_tile_config: a clear silenceable
// failure naming the op, file or field; the payload is never changed.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics

func.func @not_linalg(%x: f32, %y: f32) -> f32 {
  // expected-note @below {{payload op}}
  %s = arith.addf %x, %y : f32
  return %s : f32
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no tile rule for 'arith.addf': expected a Linalg contraction, convolution, elementwise or reduction op}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

#id = affine_map<(i) -> (i)>
#scalar = affine_map<(i) -> ()>
func.func @full_reduction(%a: tensor<1024xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction"]}
    ins(%a : tensor<1024xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no tile rule for 'linalg.generic': a full reduction to a scalar has no parallel loop to distribute}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

func.func @unknown_target(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no-such-gpu}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "no-such-gpu" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A unified buffer too small for any cube-aligned tile with ping-pong.
func.func @ub_too_small(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no tile candidate satisfies the npu rules of spec 'ascend-910b' (125 enumerated; pruned live tiles x ping_pong_factor > onchip.capacity_bytes: 27, tile larger than the problem: 98)}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "ascend-910b", ub_limit_bytes = 2048 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// Unknown attributes are spec overrides: a misspelt option is reported.
func.func @unknown_option(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown override 'measure_top_k'}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", measure_top_k = 3 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A handle to several ops: one without a rule fails the whole application
// before any result is produced.
func.func @mixed(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-note @below {{payload op}}
  %e = tensor.empty() : tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.structured.match ops{["tensor.empty"]} in %root : (!transform.any_op) -> !transform.any_op
    %both = transform.merge_handles %mm, %e : !transform.any_op
    // expected-error @below {{no tile rule for 'tensor.empty'}}
    %t:5 = transform.cost_model.select_tile_config %both { target = "nvidia-h100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
