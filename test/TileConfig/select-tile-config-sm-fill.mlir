// select_tile_config on GPUs: wave quantization is in every score (wave
// efficiency = blocks / (SMs x ceil(blocks / SMs))); explain's winner remark
// says how many SMs are busy and the waves; when the grid leaves SMs idle,
// what the fastest candidate busying more would cost (or that none can:
// without the split_k result K is not split, so the output tiles bound the
// grid). A grid that fills the SMs gets no such clause.
// The SM-fill rule (Bolt: small problems need enough blocks to keep every SM
// busy): when the best-scored candidate keeps less than
// cost_weights.sm_fill_threshold (0.66) of the SM time busy, the fastest
// candidate at or above it is picked (smaller tiles, or split-K with six
// results), with a "fill rule" remark; the scores are unchanged. With
// split_k, see also select-tile-config-split-k.mlir.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter -o /dev/null 2>&1 | FileCheck %s
//
// A GPU spec without the key (a copy of nvidia-a100 found first on
// HWSCHED_SPEC_PATH): the op fails naming the key and the file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/drop-spec-key.py %specs/nvidia-a100.json %t/nvidia-a100.json cost_weights.sm_fill_threshold
// RUN: env HWSCHED_SPEC_PATH=%t not hwsched-opt %s --split-input-file --transform-interpreter -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: spec 'nvidia-a100' ({{.*}}nvidia-a100.json) has no 'cost_weights.sm_fill_threshold', which the tile rules need

// 128^3 on the A100 without split_k: 16x16 is the smallest block tile, so
// at most 64 output tiles (59% of 108 SMs): the fill rule applies but no
// candidate reaches the threshold, and the best-scored one is kept.
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 128, N 128, K 128): tile_sizes [16, 16, 0], thread_tile_sizes [1, 2, 0], reduction_tile_sizes [0, 0, 32], num_stages 4, num_threads [8, 16, 1]{{$}}
// CHECK: remark: fill rule: the best-scored candidate, 16x16x32 tile, 1x2 inner tile, 4 stages, busies 64/108 SMs in its only wave (59%) < cost_weights.sm_fill_threshold 66%: no candidate reaches it (at most 59%), kept the best-scored
// CHECK: remark: winner: 16x16x32 tile, 1x2 inner tile, 4 stages has the lowest estimated time
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

// 128^3 on the H100 without split_k: 64 blocks of 16x16 would busy twice the
// SMs, still under the threshold (48%), so the fill rule keeps the
// best-scored 32 blocks (with 2 warps per block or a 1x2 thread tile an SM's
// schedulers cannot cover the FMA latency: occupancy factor 0.50).
// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 128, N 128, K 128)
// CHECK: remark: fill rule: the best-scored candidate, 16x32x32 tile, 2x2 inner tile, 4 stages, busies 32/132 SMs in its only wave (24%) < cost_weights.sm_fill_threshold 66%: no candidate reaches it (at most 48%), kept the best-scored
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

// 2048^3 on the A100: 2048 blocks fill every SM, no fill rule, no SM-fill
// clause.
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 2048, N 2048, K 2048)
// CHECK-NOT: fill rule
// CHECK: remark: winner: 32x64x8 tile, 4x4 inner tile, 3 stages
// CHECK-SAME: wave efficiency 1.00
// CHECK-SAME: ; 108 of 108 SMs busy, 3.16 waves{{$}}
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

// -----

// 128^3 on the A100 with split_k: the best-scored candidate is the unsplit
// 16x16 one (64 of 108 SMs); the fill rule picks split-K 4 (256 blocks, 79%
// of the SM time), which the score puts 16.8% slower (its reduce step).
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 128, N 128, K 128): tile_sizes [16, 16, 0], thread_tile_sizes [1, 2, 0], reduction_tile_sizes [0, 0, 8], num_stages 4, num_threads [8, 16, 1], split_k 4
// CHECK: remark: candidate #1: tile 16x16x8, inner 1x2, warp 4x16, 4 stages, split_k 4, {{.*}}, 256 blocks, 0.24 waves (efficiency 0.79), score 1687 ns
// CHECK: remark: candidate #2: tile 16x16x32, inner 1x2, warp 4x16, 4 stages, split_k 1, {{.*}}, 64 blocks, 0.06 waves (efficiency 0.59), score 1444 ns
// CHECK: remark: fill rule: the best-scored candidate, 16x16x32 tile, 1x2 inner tile, 4 stages, busies 64/108 SMs in its only wave (59%) < cost_weights.sm_fill_threshold 66%: picked the fastest candidate at or above it, 16x16x8 tile, 1x2 inner tile, 4 stages, split-K 4, which busies 108/108 SMs, 3 blocks on the busiest and 40 SMs with a block in the last round (79% of the SM time), estimated 16.8% slower by the score
// CHECK: remark: winner: 16x16x8 tile, 1x2 inner tile, 4 stages, split-K 4 was picked by the fill rule, estimated time 1687 ns
// CHECK-SAME: it is estimated 16.8% slower than the best-scored candidate, 16x16x32 tile, 1x2 inner tile, 4 stages, which leaves 44 of 108 SMs without a block in its last round
// CHECK-SAME: ; 108 of 108 SMs busy, 0.24 waves{{$}}
func.func @mm128_split(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// 512^3 on the A100 without split_k: smaller tiles fill the SMs (32x32,
// 256 blocks, instead of 64x64, 64 blocks).
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 512, N 512, K 512): tile_sizes [32, 32, 0], thread_tile_sizes [4, 4, 0], reduction_tile_sizes [0, 0, 16], num_stages 3, num_threads [8, 8, 1]{{$}}
// CHECK: remark: fill rule: the best-scored candidate, 64x64x8 tile, 4x8 inner tile, 2 stages, busies 64/108 SMs in its only wave (59%) < cost_weights.sm_fill_threshold 66%: picked the fastest candidate at or above it, 32x32x16 tile, 4x4 inner tile, 3 stages, which busies 108/108 SMs
// CHECK: remark: winner: 32x32x16 tile, 4x4 inner tile, 3 stages was picked by the fill rule
func.func @mm512(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// 1024^3 on the H100 with split_k: 128 blocks on 132 SMs (97%) are above the
// threshold, so the fill rule leaves the pick to the score (unsplit), which
// puts the split filling the last 4 SMs 13.5% slower.
// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 1024, N 1024, K 1024): tile_sizes [64, 128, 0], thread_tile_sizes [8, 8, 0], reduction_tile_sizes [0, 0, 8], num_stages 3, num_threads [16, 8, 1], split_k 1
// CHECK-NOT: fill rule:
// CHECK: remark: winner: 64x128x8 tile, 8x8 inner tile, 3 stages has the lowest estimated time
// CHECK-SAME: ; 128 of 132 SMs busy, 0.24 waves (97% of the SM time >= cost_weights.sm_fill_threshold 66%: the fill rule does not apply): the fastest candidate busying more, 64x128x8 tile, 8x8 inner tile, 3 stages, split-K 2 (132 SMs, wave efficiency 0.97, occupancy factor 1.00), is 13.5% slower
func.func @mm1024_h100(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// The threshold is a spec key: 0 disables the rule (A100 128^3 keeps the
// score's unsplit pick) ...
// CHECK-LABEL: select_tile_config on 'nvidia-a100' with cost_weights.sm_fill_threshold=0.000000e+00 for a contraction (batch 1, M 128, N 128, K 128): tile_sizes [16, 16, 0], thread_tile_sizes [1, 2, 0], reduction_tile_sizes [0, 0, 32], num_stages 4, num_threads [8, 16, 1], split_k 1
// CHECK-NOT: fill rule:
// CHECK: remark: winner: 16x16x32 tile, 1x2 inner tile, 4 stages has the lowest estimated time
// CHECK-SAME: ; 64 of 108 SMs busy, 0.06 waves (59% of the SM time >= cost_weights.sm_fill_threshold 0%: the fill rule does not apply): the fastest candidate busying more, 16x16x8 tile, 1x2 inner tile, 4 stages, split-K 4 (108 SMs, wave efficiency 0.79, occupancy factor 1.00), is 16.8% slower
func.func @mm128_off(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain, "cost_weights.sm_fill_threshold" = 0.0 : f64 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// ... and a higher one fills the 34 SMs that 3136x256x64 leaves idle on the
// H100 with the default (98 of 132, 74%): 32x64 tiles, 392 blocks.
// CHECK-LABEL: select_tile_config on 'nvidia-h100' with cost_weights.sm_fill_threshold=8.000000e-01 for a contraction (batch 1, M 3136, N 256, K 64): tile_sizes [32, 64, 0], thread_tile_sizes [4, 4, 0], reduction_tile_sizes [0, 0, 16], num_stages 4, num_threads [16, 8, 1], split_k 1
// CHECK: remark: fill rule: the best-scored candidate, 64x128x8 tile, 8x8 inner tile, 3 stages, busies 98/132 SMs in its only wave (74%) < cost_weights.sm_fill_threshold 80%: picked the fastest candidate at or above it, 32x64x16 tile, 4x4 inner tile, 4 stages, which busies 132/132 SMs, 3 blocks on the busiest and 128 SMs with a block in the last round (99% of the SM time), estimated 18.4% slower by the score
// CHECK: remark: winner: 32x64x16 tile, 4x4 inner tile, 4 stages was picked by the fill rule
func.func @conv_like_h100(%a: tensor<3136x64xf32>, %b: tensor<64x256xf32>, %c: tensor<3136x256xf32>) -> tensor<3136x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<3136x64xf32>, tensor<64x256xf32>) outs(%c : tensor<3136x256xf32>) -> tensor<3136x256xf32>
  return %r : tensor<3136x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", explain, "cost_weights.sm_fill_threshold" = 0.8 : f64 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// The default on the same problem: 74% is above 66%, the score decides.
// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 3136, N 256, K 64): tile_sizes [64, 128, 0], thread_tile_sizes [8, 8, 0], reduction_tile_sizes [0, 0, 8], num_stages 3, num_threads [16, 8, 1], split_k 1
// CHECK-NOT: fill rule:
// CHECK: 98 of 132 SMs busy, 0.19 waves (74% of the SM time >= cost_weights.sm_fill_threshold 66%: the fill rule does not apply)
func.func @conv_like_h100_default(%a: tensor<3136x64xf32>, %b: tensor<64x256xf32>, %c: tensor<3136x256xf32>) -> tensor<3136x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<3136x64xf32>, tensor<64x256xf32>) outs(%c : tensor<3136x256xf32>) -> tensor<3136x256xf32>
  return %r : tensor<3136x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A dynamic M (assumed 256): the grid and its idle SMs are a guess, so the
// fill rule does not overrule the score (64 blocks of 32x64 for 256 x 512).
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 256, N 512, K 256): tile_sizes [32, 64, 0]
// CHECK: remark: fill rule: not applied, the grid's size is not known (a dynamic M or N extent)
// CHECK: remark: winner: 32x64x8 tile, 4x4 inner tile, 3 stages has the lowest estimated time
func.func @dynamic_m(%a: tensor<?x256xf32>, %b: tensor<256x512xf32>, %c: tensor<?x512xf32>) -> tensor<?x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x512xf32>) outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
  return %r : tensor<?x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
