// select_tile_config with accumulator_in_smem and static_smem: the script
// tells the GPU rule what its schedule keeps in shared memory (the block's
// BM x BN accumulator tile, single-buffered) and that the shared memory is
// static (one merged memref.global: ptxas caps it at
// gpu.max_static_smem_per_block_bytes, 48 KiB on NVIDIA). The picks change
// with each; without them they are those of select-tile-config.mlir.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter -o /dev/null 2>&1 | FileCheck %s

// RTX 4090 2048^3, A/B stages only: 128x256 blocks, 24576 shared bytes; the
// shipped schedule would add a 128 KiB accumulator tile (143360 B > 101376).
// CHECK-LABEL: select_tile_config on 'nvidia-rtx4090' for a contraction (batch 1, M 2048, N 2048, K 2048): tile_sizes [128, 256, 0]
// CHECK-NOT: shared memory per block
// CHECK: candidate #1: tile 128x256x8, {{.*}}, 24576 shared bytes, 1 blocks/SM
func.func @rtx4090_2048_default(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-rtx4090", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// The accumulator tile counted: 128x128 blocks, 16384 A/B + 65536
// accumulator bytes, within onchip.capacity_bytes (101376) but not 48 KiB.
// CHECK-LABEL: select_tile_config on 'nvidia-rtx4090' for a contraction (batch 1, M 2048, N 2048, K 2048): tile_sizes [128, 128, 0], thread_tile_sizes [8, 8, 0], reduction_tile_sizes [0, 0, 8], num_stages 2
// CHECK: candidates: 5000 enumerated, 2372 feasible, 2628 pruned; threads per block: 1536; shared memory > onchip.capacity_bytes: 905;
// CHECK: shared memory per block: (BM*BK + BK*BN) * 4 B * stages + BM*BN * 4 B (accumulator tile, accumulator_in_smem), cap 101376 B (onchip.capacity_bytes)
// CHECK: candidate #1: tile 128x128x8, {{.*}}, 81920 shared bytes (accumulator 65536), 1 blocks/SM
func.func @rtx4090_2048_acc(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-rtx4090", explain, accumulator_in_smem } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// And static: capped at 49152, 64x64x16 blocks with 3 stages (24576 A/B +
// 16384 accumulator = 40960 B), two blocks per SM.
// CHECK-LABEL: select_tile_config on 'nvidia-rtx4090' for a contraction (batch 1, M 2048, N 2048, K 2048): tile_sizes [64, 64, 0], thread_tile_sizes [4, 8, 0], reduction_tile_sizes [0, 0, 16], num_stages 3
// CHECK: shared memory > gpu.max_static_smem_per_block_bytes (static): 1810;
// CHECK: shared memory per block: (BM*BK + BK*BN) * 4 B * stages + BM*BN * 4 B (accumulator tile, accumulator_in_smem), cap 49152 B (gpu.max_static_smem_per_block_bytes, static_smem)
// CHECK: candidate #1: tile 64x64x16, {{.*}}, 40960 shared bytes (accumulator 16384), 2 blocks/SM
func.func @rtx4090_2048_acc_static(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-rtx4090", explain, accumulator_in_smem, static_smem } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// RTX 4090 1024^3, static only: the A/B-only pick (18432 B) fits 48 KiB
// and stays 64x128x8.
// CHECK-LABEL: select_tile_config on 'nvidia-rtx4090' for a contraction (batch 1, M 1024, N 1024, K 1024): tile_sizes [64, 128, 0], thread_tile_sizes [8, 8, 0], reduction_tile_sizes [0, 0, 8], num_stages 3
// CHECK: shared memory per block: (BM*BK + BK*BN) * 4 B * stages, cap 49152 B (gpu.max_static_smem_per_block_bytes, static_smem)
// CHECK: candidate #1: tile 64x128x8, {{.*}}, 18432 shared bytes, 4 blocks/SM
func.func @rtx4090_1024_static(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-rtx4090", explain, static_smem } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// Both: 64x128 would need 18432 + 32768 = 51200 B > 49152: 64x64x16.
// CHECK-LABEL: select_tile_config on 'nvidia-rtx4090' for a contraction (batch 1, M 1024, N 1024, K 1024): tile_sizes [64, 64, 0], thread_tile_sizes [4, 8, 0], reduction_tile_sizes [0, 0, 16], num_stages 3
// CHECK: candidate #1: tile 64x64x16, {{.*}}, 40960 shared bytes (accumulator 16384), 2 blocks/SM
func.func @rtx4090_1024_acc_static(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-rtx4090", explain, accumulator_in_smem, static_smem } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// H100 1024^3: the A/B-only pick 64x128x8 x 3 stages would need 50 KiB
// with its accumulator; with both, 64x64x8 and 4 stages (32768 B).
// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 1024, N 1024, K 1024): tile_sizes [64, 64, 0], thread_tile_sizes [8, 8, 0], reduction_tile_sizes [0, 0, 8], num_stages 4
// CHECK: candidate #1: tile 64x64x8, {{.*}}, 32768 shared bytes (accumulator 16384), 7 blocks/SM
func.func @h100_1024_acc_static(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", explain, accumulator_in_smem, static_smem } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
