// select_tile_config's candidate_rank: the model's (r + 1)-th best feasible
// candidate instead of its pick, e.g. from a transform.tune.knob whose
// option set is a few of the model's ranks (the upstream way of resolving
// a knob: its `selected` value).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// Rank 1 on one core of x86-avx512 at 256^3: the 4 x 64 register tile
// (rank 0: 8 x 32).
func.func @rank_from_knob(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-remark @below {{rank 1: 4 : i64, 64 : i64, 0 : i64}}
  // expected-remark @below {{rank 0: 8 : i64, 32 : i64, 0 : i64}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.tune.knob<"cpu_matmul.rank"> = 1 : i64 from options = [0, 1, 2, 3] -> !transform.param<i64>
    %t:5 = transform.cost_model.select_tile_config %mm params(candidate_rank = %k) { target = "x86-avx512", "cpu.cores" = 1, packed_operands = array<i64: 1> } : (!transform.any_op, !transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#1, "rank 1:" at %mm : !transform.param<i64>, !transform.any_op
    %u:5 = transform.cost_model.select_tile_config %mm { target = "x86-avx512", "cpu.cores" = 1, packed_operands = array<i64: 1>, candidate_rank = 0 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %u#1, "rank 0:" at %mm : !transform.param<i64>, !transform.any_op
    transform.yield
  }
}

// -----

func.func @rank_too_large(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-note @below {{'linalg.matmul' here}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{candidate_rank 100000 but the model has}}
    %t:5 = transform.cost_model.select_tile_config %mm { target = "x86-avx512", candidate_rank = 100000 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

func.func @rank_negative(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.param.constant -2 : i64 -> !transform.param<i64>
    // expected-error @below {{candidate_rank (from a param) must be at least 0 (got -2)}}
    %t:5 = transform.cost_model.select_tile_config %mm params(candidate_rank = %k) { target = "x86-avx512" } : (!transform.any_op, !transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
