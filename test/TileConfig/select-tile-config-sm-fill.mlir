// select_tile_config on GPUs: wave quantization is in every score (wave
// efficiency = blocks / (SMs x ceil(blocks / SMs))); explain's winner remark
// says how many SMs are busy and the waves; when the grid leaves SMs idle,
// what the fastest candidate busying more would cost (or that none can:
// without the split_k result K is not split, so the output tiles bound the
// grid). A grid that fills the SMs gets no such clause. With split_k, see
// select-tile-config-split-k.mlir.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter -o /dev/null 2>&1 | FileCheck %s

// 128^3 on the A100: 16x16 is the smallest block tile, 64 output tiles.
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 128, N 128, K 128)
// CHECK: remark: winner: 16x16x32 tile, 1x2 inner tile, 4 stages
// CHECK-SAME: wave efficiency 0.59
// CHECK-SAME: ; 64 of 108 SMs busy, 0.06 waves: no candidate busies more (at most 64 output tiles; K is not split across blocks: split_k not requested or not applicable)
func.func @mm128(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// 128^3 on the H100: 64 blocks of 16x16 would busy twice the SMs, but with
// 2 warps per block (2x2 threads) or a 1x2 thread tile an SM's schedulers
// cannot cover the FMA latency (occupancy factor 0.50).
// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 128, N 128, K 128)
// CHECK: remark: winner: 16x32x32 tile, 2x2 inner tile, 4 stages
// CHECK-SAME: wave efficiency 0.24
// CHECK-SAME: ; 32 of 132 SMs busy, 0.03 waves: the fastest candidate busying more, 16x16x32 tile, 2x2 inner tile, 4 stages (64 SMs, wave efficiency 0.48, occupancy factor 0.50), is 35.8% slower
func.func @mm128_h100(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// 2048^3 on the A100: 2048 blocks fill every SM, no SM-fill clause.
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 2048, N 2048, K 2048)
// CHECK: remark: winner: 32x64x8 tile, 4x4 inner tile, 3 stages
// CHECK-SAME: wave efficiency 1.00
// CHECK-SAME: ; 108 of 108 SMs busy, 1.90 waves{{$}}
func.func @mm2048(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
