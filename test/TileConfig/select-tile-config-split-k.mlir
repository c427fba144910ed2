// select_tile_config with the optional sixth result split_k: the GPU rule
// may split K across blocks (split-K) when the output tiles alone leave SMs
// idle and the extra blocks gain more than the partial sums' traffic and
// reduce step cost. explain shows split_k per candidate and the winner's
// "B of S SMs busy, W waves".
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter -o /dev/null 2>&1 | FileCheck %s

// 128^3 on the H100: the unsplit pick keeps 32 of 132 SMs busy (see
// select-tile-config-sm-fill.mlir); with the split_k result the pick splits
// K by 4: 4 x 32 output tiles = 128 blocks (wave efficiency 0.97), the
// partials' reduce step included in the score.
// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 128, N 128, K 128)
// CHECK-SAME: num_threads [16, 8, 1], split_k 4
// CHECK: candidate #1: tile 16x32x8, inner 2x2, warp 8x16, 4 stages, split_k 4, 128 threads: {{.*}}, 128 blocks, 0.11 waves (efficiency 0.97)
// CHECK: remark: winner: 16x32x8 tile, 2x2 inner tile, 4 stages, split-K 4 has the lowest
// CHECK-SAME: ; split-K 4: 128 blocks, the partial sums (4 x M x N) are reduced in a second step estimated at 376 ns; 128 of 132 SMs busy, 0.11 waves
// CHECK: remark: result 5: 4 : i64
func.func @mm_128x128x128_h100(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#5, "result 5:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// 128^3 on the RTX 4090: split by 4, 128 blocks on 128 SMs.
// CHECK-LABEL: select_tile_config on 'nvidia-rtx4090' for a contraction (batch 1, M 128, N 128, K 128)
// CHECK-SAME: split_k 4
// CHECK: remark: winner: 16x32x16 tile, 2x2 inner tile, 2 stages, split-K 4
// CHECK-SAME: ; 128 of 128 SMs busy, 0.11 waves{{$}}
func.func @mm_128x128x128_rtx4090(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-rtx4090", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#5, "result 5:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// 128^3 on the A100: the score alone would not split. 108 SMs: 64 and 128
// blocks leave the busiest SM the same share of the work (1/64: one block
// of 1/64, or two of 1/128), so a split gains only from 256 blocks (split
// 4 of 64 tiles, wave efficiency 0.79), and the reduce step (one off-chip
// latency, 355 ns on this spec, plus 5 x 64 KiB) costs more than that by
// the score on a 1.4 us problem. The unsplit grid busies 64 of 108 SMs,
// below cost_weights.sm_fill_threshold, so the SM-fill rule picks the split
// (select-tile-config-sm-fill.mlir); the remarks say what the score thinks.
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 128, N 128, K 128)
// CHECK-SAME: split_k 4
// CHECK: remark: fill rule: the best-scored candidate, 16x16x32 tile, 1x2 inner tile, 4 stages, busies 64/108 SMs in its only wave (59%) < cost_weights.sm_fill_threshold 66%: picked the fastest candidate at or above it, 16x16x8 tile, 1x2 inner tile, 4 stages, split-K 4
// CHECK: remark: winner: 16x16x8 tile, 1x2 inner tile, 4 stages, split-K 4 was picked by the fill rule
// CHECK-SAME: it is estimated 16.8% slower than the best-scored candidate, 16x16x32 tile, 1x2 inner tile, 4 stages,
// CHECK-SAME: ; 108 of 108 SMs busy, 0.24 waves{{$}}
// CHECK: remark: result 5: 4 : i64
func.func @mm_128x128x128_a100(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#5, "result 5:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// 2048^3 keeps s = 1 on both: the grid fills the SMs, a split only adds
// partial-sum traffic.
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 2048, N 2048, K 2048)
// CHECK-SAME: tile_sizes [32, 64, 0], {{.*}}, split_k 1
// CHECK: remark: winner: 32x64x8 tile, 4x4 inner tile, 3 stages has the lowest
// CHECK-SAME: ; 108 of 108 SMs busy, 3.16 waves{{$}}
func.func @mm_2048x2048x2048_a100(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#5, "result 5:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 2048, N 2048, K 2048)
// CHECK-SAME: tile_sizes [128, 128, 0], {{.*}}, split_k 1
// CHECK: remark: winner: 128x128x8 tile, 8x8 inner tile, 2 stages has the lowest
// CHECK-SAME: ; 132 of 132 SMs busy, 0.97 waves{{$}}
func.func @mm_2048x2048x2048_h100(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#5, "result 5:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// Skinny 4096 x 64 x 4096 (K large against M x N): the unsplit A100 pick
// has 64 blocks; split by 4 it fills the 108 SMs.
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 4096, N 64, K 4096)
// CHECK-SAME: tile_sizes [32, 64, 0], {{.*}}, split_k 4
// CHECK: remark: winner: 32x64x8 tile, 4x4 inner tile, 3 stages, split-K 4
// CHECK-SAME: ; split-K 4: 512 blocks, {{.*}}; 108 of 108 SMs busy, 0.79 waves{{$}}
func.func @mm_4096x64x4096_a100(%a: tensor<4096x4096xf32>, %b: tensor<4096x64xf32>, %c: tensor<4096x64xf32>) -> tensor<4096x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x64xf32>) outs(%c : tensor<4096x64xf32>) -> tensor<4096x64xf32>
  return %r : tensor<4096x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#5, "result 5:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// K small against M x N (3136 x 256 x 64): no split.
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 3136, N 256, K 64)
// CHECK-SAME: split_k 1
// CHECK: remark: winner: 64x128x8 tile, 8x8 inner tile, 2 stages has the lowest
// CHECK-SAME: ; 98 of 108 SMs busy, 0.23 waves (91% of the SM time >= cost_weights.sm_fill_threshold 66%: the fill rule does not apply): the fastest candidate busying more
func.func @mm_3136x256x64_a100(%a: tensor<3136x64xf32>, %b: tensor<64x256xf32>, %c: tensor<3136x256xf32>) -> tensor<3136x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<3136x64xf32>, tensor<64x256xf32>) outs(%c : tensor<3136x256xf32>) -> tensor<3136x256xf32>
  return %r : tensor<3136x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#5, "result 5:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A dynamic K cannot be split (splitReduction needs a static extent
// divisible by the factor): split_k 1 even where a split would pay.
// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 128, N 128, K 256)
// CHECK-SAME: split_k 1
// CHECK: remark: winner: 16x32x64 tile, 2x2 inner tile, 4 stages has the lowest
// CHECK-SAME: 32 of 132 SMs busy, 0.06 waves: the fastest candidate busying more, 16x16x64 tile, 2x2 inner tile, 4 stages (64 SMs
func.func @dynamic_k(%a: tensor<128x?xf32>, %b: tensor<?x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x?xf32>, tensor<?x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// CPUs (and NPUs) never split: split_k is 1.
// CHECK-LABEL: select_tile_config on 'x86-avx512' for a contraction (batch 1, M 128, N 128, K 4096)
// CHECK-SAME: split_k 1
// CHECK: remark: result 5: 1 : i64
func.func @cpu(%a: tensor<128x4096xf32>, %b: tensor<4096x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x4096xf32>, tensor<4096x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "x86-avx512", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#5, "result 5:" : !transform.param<i64>
    transform.yield
  }
}
