// Failures of select_tile_config with accumulator_in_smem / static_smem:
// nothing fits the static shared-memory cap (the numbers are named), a spec
// without gpu.max_static_smem_per_block_bytes. The payload is unchanged.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/drop-spec-key.py %specs/nvidia-a100.json %t/nvidia-a100.json gpu.max_static_smem_per_block_bytes
// RUN: env HWSCHED_SPEC_PATH=%t not hwsched-opt %s --split-input-file --transform-interpreter -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: spec 'nvidia-a100' ({{.*}}nvidia-a100.json) has no integer 'gpu.max_static_smem_per_block_bytes', which the tile rules need

// A static cap of 2048 B (an override of the spec key): the smallest
// candidate, 16x16x8 with 2 stages, needs 2048 A/B + 1024 accumulator bytes.
// UNCHANGED-LABEL: func.func @too_small
// UNCHANGED: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<256x256xf32>, tensor<256x256xf32>) outs(%{{.*}} : tensor<256x256xf32>) -> tensor<256x256xf32>
func.func @too_small(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no tile candidate satisfies the gpu rules of spec 'nvidia-a100' (7500 enumerated; pruned shared memory > gpu.max_static_smem_per_block_bytes (static): 5076, threads per block: 2304, registers per thread > gpu.max_registers_per_thread: 120); the smallest candidate over the shared-memory cap needs 3072 bytes > 2048 (gpu.max_static_smem_per_block_bytes, static_smem), accumulator tile included (accumulator_in_smem)}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", accumulator_in_smem, static_smem, "gpu.max_static_smem_per_block_bytes" = 2048 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// static_smem reads gpu.max_static_smem_per_block_bytes: a spec without it
// (the MISSING run) is a silenceable failure naming the key and the file;
// with the shipped spec this section succeeds.
func.func @needs_static_key(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", static_smem } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
