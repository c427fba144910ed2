// select_tile_config { mma_sync }: the tensor-core kernel's configurations
// (block tile, warp tile of mma.sync m16n8k16, or m16n8k8 for f32 inputs
// with allow_tf32, K step, stage cap, threads) instead of the SIMT ones.
// thread_tile_sizes is the warp tile, num_threads the block's linear
// threads. The register figure counts the warp tile's f32 accumulator
// (64x64: 128 per thread) and the fragments of a K step. The payloads are
// the kernel's: a linalg.matmul on tensors whose init is a linalg.fill.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter -o /dev/null 2>&1 | FileCheck %s

// A100, 4096^3: 128x128 blocks of eight 32x64 warp tiles, K steps of 64
// (one barrier per 64 of K), 4 stages in 128 KiB; 64x64 warp tiles with K
// steps of 64 would need 280 registers (pruned).
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 4096, N 4096, K 4096): tile_sizes [128, 128, 0], thread_tile_sizes [32, 64, 0], reduction_tile_sizes [0, 0, 64], num_stages 4, num_threads [256, 1, 1]
// CHECK: registers per thread > gpu.max_registers_per_thread
// CHECK: mma_sync: shared memory per block (BM + BN) * BK * 2 B * stages, cap 166912 B (onchip.capacity_bytes); registers per thread WM*WN/32 (accumulator) + BK/16 * (WM/16*4 + WN/8*2) (fragments) + 24
// CHECK: candidate #1: tile 128x128x64, warp 32x64 of mma.sync m16n8k16, 4 stages, split_k 1, 256 threads: 184 registers/thread, 131072 shared bytes, 1 blocks/SM
// CHECK: winner: 128x128x64 tile, 32x64 warp tile, 4 stages
func.func @a100_4096(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%init : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync, explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// H100, 8192^3: 128x128 blocks of four 64x64 warp tiles, K steps of 32, 5
// stages (80 KiB, two blocks per SM).
// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 8192, N 8192, K 8192): tile_sizes [128, 128, 0], thread_tile_sizes [64, 64, 0], reduction_tile_sizes [0, 0, 32], num_stages 5, num_threads [128, 1, 1]
// CHECK: candidate #1: tile 128x128x32, warp 64x64 of mma.sync m16n8k16, 5 stages, split_k 1, 128 threads: 216 registers/thread, 81920 shared bytes, 2 blocks/SM
func.func @h100_8192(%a: tensor<8192x8192xf16>, %b: tensor<8192x8192xf16>, %c: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8192x8192xf16>, tensor<8192x8192xf16>) outs(%init : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  return %r : tensor<8192x8192xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", mma_sync, explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A small problem (512^3 on 108 SMs): smaller blocks and 32x32 warp tiles
// fill more SMs; the same problem without mma_sync gets the SIMT rules'
// candidates (thread tiles, no warp tile of mma.sync).
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 512, N 512, K 512): tile_sizes [64, 64, 0], thread_tile_sizes [32, 32, 0], reduction_tile_sizes [0, 0, 64], num_stages 4, num_threads [128, 1, 1]
// CHECK: candidate #1: tile 64x64x64, warp 32x32 of mma.sync m16n8k16, 4 stages, split_k 1, 128 threads: 120 registers/thread
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 512, N 512, K 512)
// CHECK-NOT: mma.sync
// CHECK: winner:
func.func @a100_512(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf16>, tensor<512x512xf16>) outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync, explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %u:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// f32 inputs with allow_tf32: multiplied as tf32 (mma.sync m16n8k8). K
// steps are 64 or 128 bytes of a row (16 or 32 f32), the shared memory 4
// bytes an element. A tf32 fragment holds half the K of an f16 one in as
// many registers: a 32x64 warp tile with K steps of 32 has 64 accumulator
// registers and 4 k8 steps of 2 x 4 (A) + 8 x 2 (B) fragment registers, 96
// (f16 holds 48 for the same K). B is read with single 32-bit loads (64 a
// K step here) from rows swizzled by transform.smem.avoid_bank_conflicts,
// which share a base up to 32 loads; the rest cost half a register each:
// 64 + 96 + 16 + 24 = 200 (ptxas 224 on sm_80, 0 spills). The 64x32 warp
// tiles (32 loads: 64 + 4 x (4 x 4 + 4 x 2) + 24 = 184) tie with it on the
// estimate and come second; 64x64 warp tiles with K steps of 32 would need
// 280 + 48.
// CHECK-LABEL: select_tile_config on 'nvidia-a100' for a contraction (batch 1, M 4096, N 4096, K 4096): tile_sizes [128, 128, 0], thread_tile_sizes [32, 64, 0], reduction_tile_sizes [0, 0, 32], num_stages 4, num_threads [256, 1, 1]
// CHECK: registers per thread > gpu.max_registers_per_thread
// CHECK: mma_sync: shared memory per block (BM + BN) * BK * 4 B * stages, cap 166912 B (onchip.capacity_bytes); registers per thread WM*WN/32 (accumulator) + BK/8 * (WM/16*4 + WN/8*2) (fragments) + max(0, BK/8 * WN/8*2 - 32) / 2 (B load addresses) + 24
// CHECK: candidate #1: tile 128x128x32, warp 32x64 of mma.sync m16n8k8 (tf32), 4 stages, split_k 1, 256 threads: 200 registers/thread, 131072 shared bytes, 1 blocks/SM
// CHECK: candidate #2: tile 128x128x32, warp 64x32 of mma.sync m16n8k8 (tf32), 4 stages, split_k 1, 256 threads: 184 registers/thread, 131072 shared bytes, 1 blocks/SM
// CHECK: winner: 128x128x32 tile, 32x64 warp tile, 4 stages
func.func @a100_4096_tf32(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%init : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync, allow_tf32, explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// tf32 on the H100 (1024^3): 64x128 blocks of 2x2 warps of 32x64, K steps
// of 32, 5 stages of 24 KiB (120 KiB); 200 registers (ptxas sm_90: 200).
// CHECK-LABEL: select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 1024, N 1024, K 1024): tile_sizes [64, 128, 0], thread_tile_sizes [32, 64, 0], reduction_tile_sizes [0, 0, 32], num_stages 5, num_threads [128, 1, 1]
// CHECK: candidate #1: tile 64x128x32, warp 32x64 of mma.sync m16n8k8 (tf32), 5 stages, split_k 1, 128 threads: 200 registers/thread, 122880 shared bytes
func.func @h100_1024_tf32(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", mma_sync, allow_tf32, explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
