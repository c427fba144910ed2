// RUN: hwsched-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// GPU (seed case): matmul + bias/ReLU is fused, matmul + transpose is
// rejected because the transposed write is uncoalesced. With reg_limit = 16
// (the same script, one attribute changed) the register floor of the fused
// kernel no longer fits and nothing is fused.

func.func @gpu_matmul(%A: tensor<512x256xf32>, %B: tensor<256x512xf32>,
                      %bias: tensor<512xf32>, %out: tensor<512x512xf32>)
    -> (tensor<512x512xf32>, tensor<512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<512x512xf32>) -> tensor<512x512xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<512x256xf32>, tensor<256x512xf32>)
                      outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.matmul' on nvidia-a100: fuse; cost=-0.3998 = +1*reg_pressure(0) +1*coalescing_penalty(0) -1*bandwidth_saved(0.3998); limits: recompute_factor 1 <= 16 (ok), register_floor 24 <= 255 (ok), occupancy_register_budget 66 <= 128 (ok, soft); registers=66 (acc=16 frag=32 epi=4 tmp=0 addr=5 staged=0 inflight=1 step=8 floor=24 tile=[4,4,4] default)}}
  // expected-remark @below {{fusable}}
  // expected-remark @below {{on nvidia-a100: reject (spills: at least 24 registers per thread > limit 16)}}
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<512x512xf32>, tensor<512xf32>) outs(%out : tensor<512x512xf32>) {
  ^bb0(%acc: f32, %b: f32, %o: f32):
    %sum = arith.addf %acc, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<512x512xf32>
  // expected-remark @below {{fusion of 'linalg.transpose' into 'linalg.matmul' on nvidia-a100: reject (not profitable: cost >= 0, dominated by coalescing_penalty); cost=1 = +1*reg_pressure(0) +1*coalescing_penalty(1.4) -1*bandwidth_saved(0.4)}}
  // expected-remark @below {{fusion of 'linalg.transpose' into 'linalg.matmul' on nvidia-a100: reject (spills}}
  %t = linalg.transpose ins(%mm : tensor<512x512xf32>) outs(%out : tensor<512x512xf32>) permutation = [1, 0]
  return %res, %t : tensor<512x512xf32>, tensor<512x512xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %mm {target = "nvidia-a100", explain} : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c, "fusable" : !transform.any_op
    %c2 = transform.cost_model.filter_fusable_consumers %mm {target = "nvidia-a100", reg_limit = 16, explain} : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %c2 : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{with reg_limit = 16: 0 : i64}}
    transform.debug.emit_param_as_remark %n, "with reg_limit = 16:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// NPU: a cube producer (matmul) feeding a LayerNorm-style row reduction pays
// the fractal -> ND format cast and is rejected; feeding an elementwise
// consumer it is fused.

func.func @npu_cube(%A: tensor<32x32xf32>, %B: tensor<32x32xf32>, %out: tensor<32x32xf32>, %acc: tensor<32xf32>)
    -> (tensor<32xf32>, tensor<32x32xf32>) {
  %mm = linalg.matmul ins(%A, %B : tensor<32x32xf32>, tensor<32x32xf32>)
                      outs(%out : tensor<32x32xf32>) -> tensor<32x32xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.matmul' on ascend-910b: reject (not profitable: cost >= 0, dominated by format_cast_cycles); cost=128 = +1*format_cast_cycles(256) -1*dma_saved_cycles(128); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 33024 <= 196608 (ok)}}
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%mm : tensor<32x32xf32>) outs(%acc : tensor<32xf32>) {
  ^bb0(%x: f32, %s: f32):
    %x2 = arith.mulf %x, %x : f32
    %r = arith.addf %s, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.matmul' on ascend-910b: fuse; cost=-128 = +1*format_cast_cycles(0) -1*dma_saved_cycles(128); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 32768 <= 196608 (ok)}}
  // expected-remark @below {{fusable}}
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<32x32xf32>) outs(%out : tensor<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  return %sq, %relu : tensor<32xf32>, tensor<32x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %mm {target = "ascend-910b", explain} : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c, "fusable" : !transform.any_op
    transform.yield
  }
}

// -----

// NPU: an Add + Mul + ReLU chain is fused while the live tiles, twice over
// (ping-pong), fit the unified buffer; ub_limit_bytes = 120000 (the same
// script, one attribute changed) rejects both fusions.

func.func @npu_chain(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>, %z: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %a = linalg.add ins(%x, %y : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @below {{fusion of 'linalg.mul' into 'linalg.add' on ascend-910b: fuse; cost=-512 = +1*format_cast_cycles(0) -1*dma_saved_cycles(512); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 163840 <= 196608 (ok)}}
  // expected-remark @below {{add-fusable}}
  // expected-remark @below {{on ascend-910b: reject (unified buffer overflow: 81920 live bytes x 2 > 120000); cost=-512 = +1*format_cast_cycles(0) -1*dma_saved_cycles(512); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 163840 <= 120000 (VIOLATED)}}
  %m = linalg.mul ins(%a, %z : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.mul' on ascend-910b: fuse}}
  // expected-remark @below {{mul-fusable}}
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.mul' on ascend-910b: reject (unified buffer overflow}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %v, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["linalg.add"]} in %root : (!transform.any_op) -> !transform.any_op
    %mul = transform.structured.match ops{["linalg.mul"]} in %root : (!transform.any_op) -> !transform.any_op
    %c1 = transform.cost_model.filter_fusable_consumers %add {target = "ascend-910b", explain} : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c1, "add-fusable" : !transform.any_op
    %c2 = transform.cost_model.filter_fusable_consumers %mul {target = "ascend-910b", explain} : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c2, "mul-fusable" : !transform.any_op
    %c3 = transform.cost_model.filter_fusable_consumers %add {target = "ascend-910b", ub_limit_bytes = 120000, explain} : (!transform.any_op) -> !transform.any_op
    %c4 = transform.cost_model.filter_fusable_consumers %mul {target = "ascend-910b", ub_limit_bytes = 120000, explain} : (!transform.any_op) -> !transform.any_op
    %both = transform.merge_handles %c3, %c4 : !transform.any_op
    %n = transform.num_associations %both : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{with ub_limit_bytes = 120000: 0 : i64}}
    transform.debug.emit_param_as_remark %n, "with ub_limit_bytes = 120000:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// CPU: an elementwise consumer is fused; a consumer that broadcasts the
// producer's result over 1024 rows would recompute it 1024 times.

func.func @cpu_recompute(%x: tensor<1024xf32>, %m: tensor<1024x1024xf32>) -> (tensor<1024xf32>, tensor<1024x1024xf32>) {
  %e1 = tensor.empty() : tensor<1024xf32>
  %e2 = tensor.empty() : tensor<1024x1024xf32>
  %p = linalg.exp ins(%x : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.exp' on x86-avx512: fuse; cost=-40 = +1*cache_pressure_ns(0) +1*recompute_ns(0) -1*bandwidth_saved_ns(40); limits: recompute_factor 1 <= 16 (ok), l2_live_bytes 12288 <= 1310720 (ok, soft), l1_live_bytes 12288 <= 49152 (ok, soft)}}
  // expected-remark @below {{fusable}}
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
      ins(%p : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<1024xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.exp' on x86-avx512: reject (illegal: recomputation blow-up, the consumer reads each producer element 1024 times (limit 16)); cost=4774 = +1*cache_pressure_ns(0) +1*recompute_ns(4814) -1*bandwidth_saved_ns(40); limits: recompute_factor 1024 <= 16 (VIOLATED)}}
  %bc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %m : tensor<1024xf32>, tensor<1024x1024xf32>) outs(%e2 : tensor<1024x1024xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.mulf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<1024x1024xf32>
  return %neg, %bc : tensor<1024xf32>, tensor<1024x1024xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %p {target = "x86-avx512", explain} : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c, "fusable" : !transform.any_op
    transform.yield
  }
}

// -----

// NPU: a Conv2D (cube) producer feeding a channel reduction pays the format
// cast and is rejected.

func.func @npu_conv(%in: tensor<1x18x18x16xf16>, %f: tensor<3x3x16x16xf16>, %out: tensor<1x16x16x16xf16>, %acc: tensor<1x16x16xf16>)
    -> tensor<1x16x16xf16> {
  %c = linalg.conv_2d_nhwc_hwcf ins(%in, %f : tensor<1x18x18x16xf16>, tensor<3x3x16x16xf16>) outs(%out : tensor<1x16x16x16xf16>) -> tensor<1x16x16x16xf16>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.conv_2d_nhwc_hwcf' on ascend-910b: reject (not profitable: cost >= 0, dominated by format_cast_cycles); cost=256 = +1*format_cast_cycles(512) -1*dma_saved_cycles(256); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 63744 <= 196608 (ok)}}
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%c : tensor<1x16x16x16xf16>) outs(%acc : tensor<1x16x16xf16>) {
  ^bb0(%x: f16, %s: f16):
    %a = arith.addf %s, %x : f16
    linalg.yield %a : f16
  } -> tensor<1x16x16xf16>
  return %r : tensor<1x16x16xf16>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.cost_model.filter_fusable_consumers %c {target = "ascend-910b", explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// CPU, tiled ops: the fused tile must fit the L2; l2_limit_bytes = 131072
// (the same script, one attribute changed) flips the decision.

func.func @cpu_tiled(%x: tensor<256x256xf32>, %y: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %e) -> tensor<256x256xf32> {
    %off = affine.apply affine_map<(d0) -> (d0 * 64)>(%i)
    %xs = tensor.extract_slice %x[%off, 0] [64, 256] [1, 1] : tensor<256x256xf32> to tensor<64x256xf32>
    %ys = tensor.extract_slice %y[%off, 0] [64, 256] [1, 1] : tensor<256x256xf32> to tensor<64x256xf32>
    %os = tensor.extract_slice %o[%off, 0] [64, 256] [1, 1] : tensor<256x256xf32> to tensor<64x256xf32>
    %a = linalg.add ins(%xs, %ys : tensor<64x256xf32>, tensor<64x256xf32>) outs(%os : tensor<64x256xf32>) -> tensor<64x256xf32>
    // expected-remark @below {{fusion of 'linalg.mul' into 'linalg.add' on x86-avx512: fuse; cost=-640 = +1*cache_pressure_ns(0) +1*recompute_ns(0) -1*bandwidth_saved_ns(640); limits: recompute_factor 1 <= 16 (ok), l2_live_bytes 262144 <= 1310720 (ok), l1_live_bytes 262144 <= 49152 (VIOLATED, soft)}}
    // expected-remark @below {{fusable}}
    // expected-remark @below {{fusion of 'linalg.mul' into 'linalg.add' on x86-avx512: reject (L2 overflow: 262144 live bytes > 131072); cost=0 = +1*cache_pressure_ns(640) +1*recompute_ns(0) -1*bandwidth_saved_ns(640); limits: recompute_factor 1 <= 16 (ok), l2_live_bytes 262144 <= 131072 (VIOLATED)}}
    %m = linalg.mul ins(%a, %ys : tensor<64x256xf32>, tensor<64x256xf32>) outs(%os : tensor<64x256xf32>) -> tensor<64x256xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[%off, 0] [64, 256] [1, 1] : tensor<64x256xf32> into tensor<256x256xf32>
    }
  }
  return %r : tensor<256x256xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["linalg.add"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %a {target = "x86-avx512", explain} : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c, "fusable" : !transform.any_op
    %c2 = transform.cost_model.filter_fusable_consumers %a {target = "x86-avx512", l2_limit_bytes = 131072, explain} : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %c2 : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{with l2_limit_bytes = 131072: 0 : i64}}
    transform.debug.emit_param_as_remark %n, "with l2_limit_bytes = 131072:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A TilingInterface consumer that is not a Linalg op (tensor.pad) is
// considered too (GPU: elementwise-like, fused).

func.func @pad(%x: tensor<30x30xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<30x30xf32>
  %z = arith.constant 0.0 : f32
  %a = linalg.exp ins(%x : tensor<30x30xf32>) outs(%e : tensor<30x30xf32>) -> tensor<30x30xf32>
  // expected-remark @below {{fusion of 'tensor.pad' into 'linalg.exp' on nvidia-a100: fuse}}
  %p = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<30x30xf32> to tensor<32x32xf32>
  return %p : tensor<32x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %e {target = "nvidia-a100", explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// GPU: a producer already tiled to threads (8x8 outputs per thread, the
// whole K = 4 per step) sets the fused kernel's per-thread tile; its
// register floor (64 accumulators + 16 fragment registers of one step) fits
// 255 registers but not reg_limit = 64.

func.func @thread_tiled_producer(%A: tensor<128x4xf32>, %B: tensor<4x128xf32>, %out: tensor<128x128xf32>)
    -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<128x128xf32>
  %mm = scf.forall (%i, %j) in (16, 16) shared_outs(%o = %out) -> tensor<128x128xf32> {
    %oi = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %oj = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
    %as = tensor.extract_slice %A[%oi, 0] [8, 4] [1, 1] : tensor<128x4xf32> to tensor<8x4xf32>
    %bs = tensor.extract_slice %B[0, %oj] [4, 8] [1, 1] : tensor<4x128xf32> to tensor<4x8xf32>
    %os = tensor.extract_slice %o[%oi, %oj] [8, 8] [1, 1] : tensor<128x128xf32> to tensor<8x8xf32>
    %m = linalg.matmul {producer} ins(%as, %bs : tensor<8x4xf32>, tensor<4x8xf32>) outs(%os : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[%oi, %oj] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<128x128xf32>
    }
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  // expected-remark @below {{on nvidia-a100: fuse; cost=-0.374 = +1*reg_pressure(0.125) +1*coalescing_penalty(0) -1*bandwidth_saved(0.499); limits: recompute_factor 1 <= 16 (ok), register_floor 80 <= 255 (ok), occupancy_register_budget 144 <= 128 (VIOLATED, soft); registers=144 (acc=64 frag=64 epi=0 tmp=0 addr=4 staged=0 inflight=1 step=16 floor=80 tile=[8,8,4] tiled)}}
  // expected-remark @below {{on nvidia-a100: reject (spills: at least 80 registers per thread > limit 64)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<128x128xf32>) outs(%e : tensor<128x128xf32>) {
  ^bb0(%x: f32, %y: f32):
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %x, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match attributes {producer} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %p {target = "nvidia-a100", explain} : (!transform.any_op) -> !transform.any_op
    %c2 = transform.cost_model.filter_fusable_consumers %p {target = "nvidia-a100", reg_limit = 64, explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Dynamic shapes with upper bounds (a tile of at most 64 rows): the pair is
// scored on the bounds and the decision says it is conservative.

func.func @bounded_dynamic(%x: tensor<1024x64xf32>, %n: index) -> tensor<?x64xf32> {
  %sz = affine.min affine_map<(d0) -> (d0, 64)>(%n)
  %s = tensor.extract_slice %x[0, 0] [%sz, 64] [1, 1] : tensor<1024x64xf32> to tensor<?x64xf32>
  %e = tensor.empty(%sz) : tensor<?x64xf32>
  %a = linalg.exp ins(%s : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  // expected-remark @below {{fusion of 'linalg.negf' into 'linalg.exp' on ascend-910b: fuse [conservative: dynamic shapes]; cost=-512 = +1*format_cast_cycles(0) -1*dma_saved_cycles(512); limits: recompute_factor 1 <= 16 (ok), ub_live_bytes_x_ping_pong 98304 <= 196608 (ok)}}
  %r = linalg.negf ins(%a : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %a {target = "ascend-910b", explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
