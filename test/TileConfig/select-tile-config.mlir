// transform.cost_model.select_tile_config: the picks of the GPU, NPU and CPU
// rules, the remarks for padding and dynamic extents, overrides, explain.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics -o /dev/null

// The same matmul on four specs gets four different configurations. (On
// the A100 64x64 tiles would busy 64 of 108 SMs: the SM-fill rule picks
// 32x32, 256 blocks; see select-tile-config-sm-fill.mlir.)
func.func @matmul_512x512x512(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %a:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{a100 tile_sizes 32 : i64, 32 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %a#0, "a100 tile_sizes" : !transform.param<i64>
    // expected-remark @below {{a100 thread_tile_sizes 4 : i64, 4 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %a#1, "a100 thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{a100 reduction_tile_sizes 0 : i64, 0 : i64, 16 : i64}}
    transform.debug.emit_param_as_remark %a#2, "a100 reduction_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{a100 num_stages 3 : i64}}
    transform.debug.emit_param_as_remark %a#3, "a100 num_stages" : !transform.param<i64>
    // expected-remark @below {{a100 num_threads 8 : i64, 8 : i64, 1 : i64}}
    transform.debug.emit_param_as_remark %a#4, "a100 num_threads" : !transform.param<i64>
    %h:5 = transform.cost_model.select_tile_config %op { target = "nvidia-h100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{h100 tile_sizes 32 : i64, 64 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %h#0, "h100 tile_sizes" : !transform.param<i64>
    // expected-remark @below {{h100 thread_tile_sizes 4 : i64, 4 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %h#1, "h100 thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{h100 reduction_tile_sizes 0 : i64, 0 : i64, 16 : i64}}
    transform.debug.emit_param_as_remark %h#2, "h100 reduction_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{h100 num_stages 4 : i64}}
    transform.debug.emit_param_as_remark %h#3, "h100 num_stages" : !transform.param<i64>
    // expected-remark @below {{h100 num_threads 16 : i64, 8 : i64, 1 : i64}}
    transform.debug.emit_param_as_remark %h#4, "h100 num_threads" : !transform.param<i64>
    %n:5 = transform.cost_model.select_tile_config %op { target = "ascend-910b", ub_limit_bytes = 65536 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{npu-64k tile_sizes 32 : i64, 32 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %n#0, "npu-64k tile_sizes" : !transform.param<i64>
    // expected-remark @below {{npu-64k thread_tile_sizes 16 : i64, 16 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %n#1, "npu-64k thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{npu-64k reduction_tile_sizes 0 : i64, 0 : i64, 64 : i64}}
    transform.debug.emit_param_as_remark %n#2, "npu-64k reduction_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{npu-64k num_stages 2 : i64}}
    transform.debug.emit_param_as_remark %n#3, "npu-64k num_stages" : !transform.param<i64>
    // expected-remark @below {{npu-64k num_threads 1 : i64, 1 : i64, 1 : i64}}
    transform.debug.emit_param_as_remark %n#4, "npu-64k num_threads" : !transform.param<i64>
    %u:5 = transform.cost_model.select_tile_config %op { target = "ascend-910b" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{npu tile_sizes 32 : i64, 32 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %u#0, "npu tile_sizes" : !transform.param<i64>
    // expected-remark @below {{npu reduction_tile_sizes 0 : i64, 0 : i64, 256 : i64}}
    transform.debug.emit_param_as_remark %u#2, "npu reduction_tile_sizes" : !transform.param<i64>
    %c:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{cpu tile_sizes 512 : i64, 256 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %c#0, "cpu tile_sizes" : !transform.param<i64>
    // expected-remark @below {{cpu thread_tile_sizes 8 : i64, 32 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %c#1, "cpu thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{cpu reduction_tile_sizes 0 : i64, 0 : i64, 128 : i64}}
    transform.debug.emit_param_as_remark %c#2, "cpu reduction_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{cpu num_stages 2 : i64}}
    transform.debug.emit_param_as_remark %c#3, "cpu num_stages" : !transform.param<i64>
    // expected-remark @below {{cpu num_threads 1 : i64, 1 : i64, 1 : i64}}
    transform.debug.emit_param_as_remark %c#4, "cpu num_threads" : !transform.param<i64>
    // All 40 cores of the spec: column panels of 16 (one zmm wide, so a
    // 16 x 16 register tile) give 32 panels on 32 threads, num_threads
    // (32, 1, 1); more panels per thread would leave cores idle.
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{cpu 40 cores tile_sizes 512 : i64, 16 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#0, "cpu 40 cores tile_sizes" : !transform.param<i64>
    // expected-remark @below {{cpu 40 cores thread_tile_sizes 16 : i64, 16 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#1, "cpu 40 cores thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{cpu 40 cores num_threads 32 : i64, 1 : i64, 1 : i64}}
    transform.debug.emit_param_as_remark %t#4, "cpu 40 cores num_threads" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A tiny problem gets a small block so that several SMs work.
func.func @matmul_32x32x32(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{tiny tile_sizes 16 : i64, 16 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#0, "tiny tile_sizes" : !transform.param<i64>
    // expected-remark @below {{tiny num_threads 8 : i64, 16 : i64, 1 : i64}}
    transform.debug.emit_param_as_remark %t#4, "tiny num_threads" : !transform.param<i64>
    transform.yield
  }
}

// -----

// Dimensions that are not multiples of 8 are padded, and the remarks say so.
func.func @unaligned(%a: tensor<100x30xf32>, %b: tensor<30x60xf32>, %c: tensor<100x60xf32>) -> tensor<100x60xf32> {
  // expected-remark @below {{select_tile_config: padding: M 100 -> 104 (not a multiple of 8)}}
  // expected-remark @below {{select_tile_config: padding: N 60 -> 64 (not a multiple of 8)}}
  // expected-remark @below {{select_tile_config: padding: K 30 -> 32 (not a multiple of 8)}}
  %r = linalg.matmul ins(%a, %b : tensor<100x30xf32>, tensor<30x60xf32>) outs(%c : tensor<100x60xf32>) -> tensor<100x60xf32>
  return %r : tensor<100x60xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{unaligned tile_sizes 16 : i64, 16 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#0, "unaligned tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A lower register limit (an inline override) changes the per-thread tile:
// at 40 registers only the 1x1 thread tile fits (35 registers; 1x2 needs 44,
// see RegisterEstimate.h).
func.func @matmul_2048x2048x2048(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %d:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{default thread_tile_sizes 4 : i64, 4 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %d#1, "default thread_tile_sizes" : !transform.param<i64>
    %l:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", reg_limit = 40 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{reg_limit=40 thread_tile_sizes 1 : i64, 1 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %l#1, "reg_limit=40 thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{reg_limit=40 tile_sizes 16 : i64, 16 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %l#0, "reg_limit=40 tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// explain: decision, candidate counts, the best candidates, and why.
func.func @explained(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  // expected-remark @below {{select_tile_config on 'nvidia-h100' for a contraction (batch 1, M 1024, N 1024, K 1024): tile_sizes}}
  // expected-remark @below {{candidates: 10000 enumerated}}
  // expected-remark @below {{candidate #1: tile}}
  // expected-remark @below {{candidate #2: tile}}
  // expected-remark @below {{candidate #3: tile}}
  // expected-remark @below {{candidate #4: tile}}
  // expected-remark @below {{candidate #5: tile}}
  // expected-remark @below {{winner: }}
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-h100", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// Dynamic extents: a conservative pick, with a remark.
func.func @dynamic(%a: tensor<?x256xf32>, %b: tensor<256x512xf32>, %c: tensor<?x512xf32>) -> tensor<?x512xf32> {
  // expected-remark @below {{select_tile_config: dynamic extent in M: assumed 256}}
  %r = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x512xf32>) outs(%c : tensor<?x512xf32>) -> tensor<?x512xf32>
  return %r : tensor<?x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{dynamic tile_sizes 32 : i64, 64 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#0, "dynamic tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// batch_matmul: one batch per block, batch loop not tiled per thread.
func.func @bmm(%a: tensor<8x256x128xf32>, %b: tensor<8x128x256xf32>, %c: tensor<8x256x256xf32>) -> tensor<8x256x256xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<8x256x128xf32>, tensor<8x128x256xf32>) outs(%c : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  return %r : tensor<8x256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.batch_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{bmm tile_sizes 1 : i64, 32 : i64, 64 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#0, "bmm tile_sizes" : !transform.param<i64>
    // expected-remark @below {{bmm thread_tile_sizes 0 : i64, 4 : i64, 4 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#1, "bmm thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{bmm reduction_tile_sizes 0 : i64, 0 : i64, 0 : i64, 8 : i64}}
    transform.debug.emit_param_as_remark %t#2, "bmm reduction_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{bmm num_stages 3 : i64}}
    transform.debug.emit_param_as_remark %t#3, "bmm num_stages" : !transform.param<i64>
    // expected-remark @below {{bmm num_threads 16 : i64, 8 : i64, 1 : i64}}
    transform.debug.emit_param_as_remark %t#4, "bmm num_threads" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A convolution is an implicit GEMM: M over (n, oh, ow), N = f, K = (kh, kw, c).
func.func @conv(%i: tensor<1x58x58x64xf32>, %f: tensor<3x3x64x128xf32>, %o: tensor<1x56x56x128xf32>) -> tensor<1x56x56x128xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %f : tensor<1x58x58x64xf32>, tensor<3x3x64x128xf32>) outs(%o : tensor<1x56x56x128xf32>) -> tensor<1x56x56x128xf32>
  return %r : tensor<1x56x56x128xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %g:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{conv gpu tile_sizes 1 : i64, 1 : i64, 56 : i64, 64 : i64, 0 : i64, 0 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %g#0, "conv gpu tile_sizes" : !transform.param<i64>
    // expected-remark @below {{conv gpu reduction_tile_sizes 0 : i64, 0 : i64, 0 : i64, 0 : i64, 1 : i64, 1 : i64, 8 : i64}}
    transform.debug.emit_param_as_remark %g#2, "conv gpu reduction_tile_sizes" : !transform.param<i64>
    %c:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{conv cpu tile_sizes 1 : i64, 8 : i64, 56 : i64, 128 : i64, 0 : i64, 0 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %c#0, "conv cpu tile_sizes" : !transform.param<i64>
    // expected-remark @below {{conv cpu thread_tile_sizes 0 : i64, 1 : i64, 7 : i64, 32 : i64, 0 : i64, 0 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %c#1, "conv cpu thread_tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A linalg.generic with contraction semantics (B transposed).
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @generic_mm(%a: tensor<256x64xf16>, %b: tensor<512x64xf16>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
    ins(%a, %b : tensor<256x64xf16>, tensor<512x64xf16>) outs(%c : tensor<256x512xf32>) {
  ^bb0(%x: f16, %y: f16, %z: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-h100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{generic tile_sizes 32 : i64, 32 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#0, "generic tile_sizes" : !transform.param<i64>
    // expected-remark @below {{generic thread_tile_sizes 2 : i64, 4 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#1, "generic thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{generic reduction_tile_sizes 0 : i64, 0 : i64, 16 : i64}}
    transform.debug.emit_param_as_remark %t#2, "generic reduction_tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// Elementwise ops and reductions use the simpler rules.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @ew_red(%a: tensor<1024x4096xf32>, %b: tensor<1024x4096xf32>, %r0: tensor<1024xf32>) -> (tensor<1024x4096xf32>, tensor<1024xf32>) {
  %e = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
    ins(%a, %b : tensor<1024x4096xf32>, tensor<1024x4096xf32>) outs(%a : tensor<1024x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1024x4096xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
    ins(%e : tensor<1024x4096xf32>) outs(%r0 : tensor<1024xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  return %e, %r : tensor<1024x4096xf32>, tensor<1024xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %op, %red = transform.split_handle %ops : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %e:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{elementwise gpu tile_sizes 1 : i64, 128 : i64}}
    transform.debug.emit_param_as_remark %e#0, "elementwise gpu tile_sizes" : !transform.param<i64>
    // expected-remark @below {{elementwise gpu thread_tile_sizes 0 : i64, 1 : i64}}
    transform.debug.emit_param_as_remark %e#1, "elementwise gpu thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{elementwise gpu num_threads 128 : i64, 1 : i64, 1 : i64}}
    transform.debug.emit_param_as_remark %e#4, "elementwise gpu num_threads" : !transform.param<i64>
    %n:5 = transform.cost_model.select_tile_config %op { target = "ascend-910b" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{elementwise npu tile_sizes 1 : i64, 4096 : i64}}
    transform.debug.emit_param_as_remark %n#0, "elementwise npu tile_sizes" : !transform.param<i64>
    %c:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{elementwise cpu tile_sizes 8 : i64, 16 : i64}}
    transform.debug.emit_param_as_remark %c#0, "elementwise cpu tile_sizes" : !transform.param<i64>
    // expected-remark @below {{elementwise cpu thread_tile_sizes 8 : i64, 16 : i64}}
    transform.debug.emit_param_as_remark %c#1, "elementwise cpu thread_tile_sizes" : !transform.param<i64>
    %r:5 = transform.cost_model.select_tile_config %red { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{reduction gpu tile_sizes 128 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %r#0, "reduction gpu tile_sizes" : !transform.param<i64>
    // expected-remark @below {{reduction gpu reduction_tile_sizes 0 : i64, 8 : i64}}
    transform.debug.emit_param_as_remark %r#2, "reduction gpu reduction_tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// GPU block tiles divide the extents when some feasible tile does: 3136 rows
// on the RTX 4090 get 64-row blocks (49 per column), not 128 (24.5), whose
// partial last block the GPU mapping cannot distribute over threads.
func.func @rows_3136(%a: tensor<3136x64xf32>, %b: tensor<64x256xf32>, %c: tensor<3136x256xf32>) -> tensor<3136x256xf32> {
  // expected-remark @below {{select_tile_config on 'nvidia-rtx4090' for a contraction (batch 1, M 3136, N 256, K 64): tile_sizes [64, 128, 0]}}
  // expected-remark @below {{block tile does not divide the extent: }}
  // expected-remark @below {{candidate #1: tile 64x128x8}}
  // expected-remark @below {{candidate #2: tile}}
  // expected-remark @below {{candidate #3: tile}}
  // expected-remark @below {{candidate #4: tile}}
  // expected-remark @below {{candidate #5: tile}}
  // expected-remark @below {{winner: 64x128x8 tile}}
  %r = linalg.matmul ins(%a, %b : tensor<3136x64xf32>, tensor<64x256xf32>) outs(%c : tensor<3136x256xf32>) -> tensor<3136x256xf32>
  return %r : tensor<3136x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-rtx4090", explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{rtx4090 3136 rows tile_sizes 64 : i64, 128 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %t#0, "rtx4090 3136 rows tile_sizes" : !transform.param<i64>
    transform.yield
  }
}
