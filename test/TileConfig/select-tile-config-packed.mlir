// transform.cost_model.select_tile_config with packed_operands: the operands
// a schedule packs into contiguous buffers are counted at their size in L2
// and the B panel's row-span bound is dropped (CPU rule); without the
// attribute the unpacked picks are unchanged.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics -o /dev/null

// 2048^3 on x86-avx512 (1.25 MiB L2). Unpacked: the B panel's KC rows, 8 KiB
// apart, must span at most L2 (KC <= 160) and B panel + C block fit half of
// L2: 512 x 256 x 128. B packed (operand 1): the 256 KiB panel counts once,
// the 512 KiB C block twice: 1024 x 128 x 512 (K blocks of 512 as in
// 256 x 256 x 512, the tiles that measured 148 against 97 GFLOP/s for the
// unpacked pick in the packing CPU script, bench/cpu-matmul; the taller
// block re-reads B twice instead of 8 times, and A, which stays in the L3,
// 16 times at a quarter of the off-chip price). B and C packed: the C
// block counts once too, and K blocks of 256 with it.
func.func @matmul_2048(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %u:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{unpacked tile_sizes 512 : i64, 256 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %u#0, "unpacked tile_sizes" : !transform.param<i64>
    // expected-remark @below {{unpacked reduction_tile_sizes 0 : i64, 0 : i64, 128 : i64}}
    transform.debug.emit_param_as_remark %u#2, "unpacked reduction_tile_sizes" : !transform.param<i64>
    %p:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12, packed_operands = array<i64: 1> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{packed-b tile_sizes 1024 : i64, 128 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %p#0, "packed-b tile_sizes" : !transform.param<i64>
    // expected-remark @below {{packed-b thread_tile_sizes 8 : i64, 32 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %p#1, "packed-b thread_tile_sizes" : !transform.param<i64>
    // expected-remark @below {{packed-b reduction_tile_sizes 0 : i64, 0 : i64, 512 : i64}}
    transform.debug.emit_param_as_remark %p#2, "packed-b reduction_tile_sizes" : !transform.param<i64>
    %q:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12, packed_operands = array<i64: 2, 1> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{packed-bc reduction_tile_sizes 0 : i64, 0 : i64, 256 : i64}}
    transform.debug.emit_param_as_remark %q#2, "packed-bc reduction_tile_sizes" : !transform.param<i64>
    // A packed A alone changes nothing in the CPU rule.
    %a:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12, packed_operands = array<i64: 0> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{packed-a reduction_tile_sizes 0 : i64, 0 : i64, 128 : i64}}
    transform.debug.emit_param_as_remark %a#2, "packed-a reduction_tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// explain names the packed rule among the pruned counts; the span rule no
// longer fires.
func.func @matmul_1024(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  // expected-remark @below {{tile_sizes [1024, 128, 0], thread_tile_sizes [8, 32, 0], reduction_tile_sizes [0, 0, 512]}}
  // expected-remark-re @below {{candidates: {{.*}}; cache tile working set (unpacked operands twice) > cpu.l2_bytes: {{[0-9]+}}; register tile}}
  // expected-remark @below {{candidate #1: tile 1024x128x512}}
  // expected-remark @below {{candidate #2}}
  // expected-remark @below {{candidate #3}}
  // expected-remark @below {{candidate #4}}
  // expected-remark @below {{candidate #5}}
  // expected-remark @below {{winner: 1024x128x512 tile}}
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12, packed_operands = array<i64: 1>, explain } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// Roles come from the GEMM view's loops (linalg::inferContractionDims), read
// off each operand's indexing map: M is the parallel loop of the first
// input, so in a generic that takes (k, n) first and (m, k) second the GEMM
// view is the transposed product, the first input is its M x K operand and
// the second its K x N operand: packing operand 1 gives the packed-B pick,
// packing operand 0 the unpacked one.
#bmap = affine_map<(m, n, k) -> (k, n)>
#amap = affine_map<(m, n, k) -> (m, k)>
#cmap = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_view(%b: tensor<2048x2048xf32>, %a: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %r = linalg.generic {indexing_maps = [#bmap, #amap, #cmap], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%b, %a : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %y, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %p:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12, packed_operands = array<i64: 1> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{rhs reduction_tile_sizes 0 : i64, 0 : i64, 512 : i64}}
    transform.debug.emit_param_as_remark %p#2, "rhs reduction_tile_sizes" : !transform.param<i64>
    %q:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12, packed_operands = array<i64: 0> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{lhs reduction_tile_sizes 0 : i64, 0 : i64, 128 : i64}}
    transform.debug.emit_param_as_remark %q#2, "lhs reduction_tile_sizes" : !transform.param<i64>
    // The output is the M x N operand: packing it with B is accepted.
    %r:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12, packed_operands = array<i64: 1, 2> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{rhs-acc reduction_tile_sizes 0 : i64, 0 : i64, 256 : i64}}
    transform.debug.emit_param_as_remark %r#2, "rhs-acc reduction_tile_sizes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// GPU rules stage tiles in shared memory anyway: the attribute is checked,
// then ignored with a remark; the pick is the unpacked one (32x32 on the
// A100 through the SM-fill rule, as in select-tile-config.mlir).
func.func @gpu(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-remark @below {{select_tile_config: packed_operands ignored: the gpu rule stages tiles in on-chip memory}}
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", packed_operands = array<i64: 1> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{gpu tile_sizes 32 : i64, 32 : i64, 0 : i64}}
    transform.debug.emit_param_as_remark %p#0, "gpu tile_sizes" : !transform.param<i64>
    transform.yield
  }
}
