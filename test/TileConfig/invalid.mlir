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
    // expected-error @below {{unknown override 'measure_topk'}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", measure_topk = 3 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
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

// -----

// Measurement mode: a count below 1 is refused before anything is measured.
func.func @measure_zero(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{measure_top_k must be at least 1 (got 0)}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", measure_top_k = 0 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

func.func @measure_negative_samples(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{measure_samples must be at least 1 (got -1)}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", measure_top_k = 2, measure_samples = -1 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// Measurement needs the host CPU to stand for the target: a GPU spec keeps
// the model's pick, with a remark saying why.
func.func @measure_gpu(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-remark @below {{select_tile_config: measurement impossible (measurement runs candidates on the host CPU and target 'nvidia-a100' is a gpu): kept the model's pick}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", measure_top_k = 2 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // The model's pick (as without measure_top_k).
    // expected-remark @below {{gpu tile_sizes 16 : i64, 16 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#0, "gpu tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// Dynamic shapes cannot be run standalone: the conservative model pick, with
// a remark for the assumption and one for the measurement.
func.func @measure_dynamic(%a: tensor<?x64xf32>, %b: tensor<64x64xf32>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-remark @below {{select_tile_config: dynamic extent in M: assumed 256}}
  // expected-remark @below {{select_tile_config: measurement impossible (measurement needs static shapes (operand type tensor<?x64xf32> is dynamic)): kept the model's pick}}
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x64xf32>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", measure_top_k = 2 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// Buffer semantics: the op cannot be copied into a tensor kernel.
func.func @measure_memref(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-remark @below {{select_tile_config: measurement impossible (measurement needs a Linalg op on tensors (it runs a standalone copy of the op)): kept the model's pick}}
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", measure_top_k = 2 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// packed_operands: an index past the operands (a matmul has 3).
func.func @packed_out_of_range(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{packed_operands: operand index 3 out of range: 'linalg.matmul' has 3 operands}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", packed_operands = array<i64: 3> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

func.func @packed_negative(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{packed_operands: operand index -1 out of range}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", packed_operands = array<i64: -1> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

func.func @packed_twice(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{packed_operands: operand index 1 given twice}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", packed_operands = array<i64: 1, 1> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// An elementwise op has no GEMM operands to pack.
func.func @packed_elementwise(%a: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.add ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.add"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{packed_operands: operand 0 of 'linalg.add' (elementwise op) is not an M x K, K x N or M x N operand of a GEMM view}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", packed_operands = array<i64: 0> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A generic that multiplies and adds a bias inside the reduction is no
// contraction to linalg (three inputs): the model sees a reduction, whose
// operands have no GEMM roles.
#amap = affine_map<(m, n, k) -> (m, k)>
#bmap = affine_map<(m, n, k) -> (k, n)>
#vmap = affine_map<(m, n, k) -> (n)>
#cmap = affine_map<(m, n, k) -> (m, n)>
func.func @packed_bias(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %v: tensor<64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [#amap, #bmap, #vmap, #cmap], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b, %v : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64xf32>) outs(%c : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.addf %p, %z : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{packed_operands: operand 1 of 'linalg.generic' (reduction op) is not an M x K, K x N or M x N operand of a GEMM view}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", packed_operands = array<i64: 1, 2> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// The SM-fill threshold is a share of the SM time: the spec schema bounds
// it to [0, 1], inline overrides included; the payload is not looked at.
func.func @fill_threshold_out_of_range(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{nvidia-a100.json': after applying overrides: at 'cost_weights.sm_fill_threshold': expected number >= 0 <= 1, got number 1.5 (GPU (required by transform.cost_model.select_tile_config): the SM-fill rule's threshold, a share of SM time in [0, 1].)}}
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", "cost_weights.sm_fill_threshold" = 1.5 : f64 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

func.func @fill_threshold_not_a_number(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{at 'cost_weights.sm_fill_threshold': expected number >= 0 <= 1, got string "high"}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", "cost_weights.sm_fill_threshold" = "high" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
