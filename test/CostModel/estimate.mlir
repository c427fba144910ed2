// RUN: hwsched-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Every metric of one matmul on the A100 spec: offchip = A + B + C read
// (it is accumulated into) and written = 512 KB + 512 KB + 2 x 1 MB,
// onchip = A + B + C, flops = 2*M*N*K,
// time = max(flops / 19.5 TFLOP/s, bytes / 2039 GB/s).

func.func @metrics(%A: tensor<512x256xf32>, %B: tensor<256x512xf32>, %C: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-remark @below {{estimate: registers_per_thread=62 onchip_bytes=2097152 offchip_bytes=3145728 flops=134217728 estimated_time_ns=6883 (compute bound); registers=62 (acc=16 frag=32 epi=0 tmp=0 addr=3 staged=0 inflight=1 step=8 floor=24 tile=[4,4,4] default)}}
  %mm = linalg.matmul ins(%A, %B : tensor<512x256xf32>, tensor<256x512xf32>)
                      outs(%C : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %mm : tensor<512x512xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.cost_model.estimate %mm {target = "nvidia-a100", metric = "registers_per_thread", explain} : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{registers_per_thread 62 : i64}}
    transform.debug.emit_param_as_remark %r, "registers_per_thread" : !transform.param<i64>
    %on = transform.cost_model.estimate %mm {target = "nvidia-a100", metric = "onchip_bytes"} : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{onchip_bytes 2097152 : i64}}
    transform.debug.emit_param_as_remark %on, "onchip_bytes" : !transform.param<i64>
    %off = transform.cost_model.estimate %mm {target = "nvidia-a100", metric = "offchip_bytes"} : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{offchip_bytes 3145728 : i64}}
    transform.debug.emit_param_as_remark %off, "offchip_bytes" : !transform.param<i64>
    %fl = transform.cost_model.estimate %mm {target = "nvidia-a100", metric = "flops"} : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{flops 134217728 : i64}}
    transform.debug.emit_param_as_remark %fl, "flops" : !transform.param<i64>
    %t = transform.cost_model.estimate %mm {target = "nvidia-a100", metric = "estimated_time_ns"} : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{estimated_time_ns 6883 : i64}}
    transform.debug.emit_param_as_remark %t, "estimated_time_ns" : !transform.param<i64>
    // On the CPU spec (one core's peak) the same op takes far longer.
    %tc = transform.cost_model.estimate %mm {target = "x86-avx512", metric = "estimated_time_ns"} : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{cpu estimated_time_ns 616810 : i64}}
    transform.debug.emit_param_as_remark %tc, "cpu estimated_time_ns" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A script that branches on the estimate: a kernel that needs few registers
// takes the first alternative, one above the budget the second. The same
// script gives different answers for a 4x4 and an 8x8 per-thread tile
// (default_thread_tile_elements override).

func.func @branch(%A: tensor<512x256xf32>, %B: tensor<256x512xf32>, %C: tensor<512x512xf32>) -> tensor<512x512xf32> {
  // expected-remark @below {{small kernel: 62 registers}}
  // expected-remark @below {{big kernel}}
  %mm = linalg.matmul ins(%A, %B : tensor<512x256xf32>, tensor<256x512xf32>)
                      outs(%C : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %mm : tensor<512x512xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @classify(%mm: !transform.any_op {transform.readonly},
                                     %regs: !transform.param<i64> {transform.readonly}) {
    %budget = transform.param.constant 100 : i64 -> !transform.param<i64>
    // if regs < budget: ... else: ... (a failed match ends its sequence).
    transform.sequence %mm : !transform.any_op failures(suppress) {
    ^bb0(%op: !transform.any_op):
      transform.match.param.cmpi lt %regs, %budget : !transform.param<i64>
      transform.debug.emit_remark_at %op, "small kernel: 62 registers" : !transform.any_op
    }
    transform.sequence %mm : !transform.any_op failures(suppress) {
    ^bb0(%op: !transform.any_op):
      transform.match.param.cmpi ge %regs, %budget : !transform.param<i64>
      transform.debug.emit_remark_at %op, "big kernel" : !transform.any_op
    }
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %r4 = transform.cost_model.estimate %mm {target = "nvidia-a100", metric = "registers_per_thread"} : (!transform.any_op) -> !transform.param<i64>
    transform.include @classify failures(propagate) (%mm, %r4) : (!transform.any_op, !transform.param<i64>) -> ()
    %r8 = transform.cost_model.estimate %mm {target = "nvidia-a100", metric = "registers_per_thread", "cost_weights.default_thread_tile_elements" = 64} : (!transform.any_op) -> !transform.param<i64>
    transform.include @classify failures(propagate) (%mm, %r8) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}

// -----

// An op tiled to GPU threads: the per-thread tile comes from the tiled IR
// (here 8x8 outputs, 2 reduction elements per step), and the kernel group is
// every structured op in the thread-level scf.forall (fill, matmul, bias).

func.func @thread_tiled(%A: tensor<128x64xf32>, %B: tensor<64x128xf32>, %bias: tensor<128xf32>,
                        %out: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %r = scf.forall (%i, %j) in (16, 16) shared_outs(%o = %out) -> tensor<128x128xf32> {
    %oi = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %oj = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
    %os = tensor.extract_slice %o[%oi, %oj] [8, 8] [1, 1] : tensor<128x128xf32> to tensor<8x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%os : tensor<8x8xf32>) -> tensor<8x8xf32>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c2 = arith.constant 2 : index
    %acc = scf.for %k = %c0 to %c64 step %c2 iter_args(%a = %f) -> tensor<8x8xf32> {
      %as = tensor.extract_slice %A[%oi, %k] [8, 2] [1, 1] : tensor<128x64xf32> to tensor<8x2xf32>
      %bs = tensor.extract_slice %B[%k, %oj] [2, 8] [1, 1] : tensor<64x128xf32> to tensor<2x8xf32>
      %m = linalg.matmul ins(%as, %bs : tensor<8x2xf32>, tensor<2x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
      scf.yield %m : tensor<8x8xf32>
    }
    %bs2 = tensor.extract_slice %bias[%oj] [8] [1] : tensor<128xf32> to tensor<8xf32>
    // expected-remark @below {{estimate: registers_per_thread=112 onchip_bytes=928 offchip_bytes=416 flops=320 estimated_time_ns=1 (memory bound); registers=112 (acc=64 frag=32 epi=8 tmp=0 addr=4 staged=0 inflight=1 step=16 floor=80 tile=[8,8,2] tiled)}}
    %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%acc, %bs2 : tensor<8x8xf32>, tensor<8xf32>) outs(%os : tensor<8x8xf32>) {
    ^bb0(%x: f32, %b: f32, %y: f32):
      %s = arith.addf %x, %b : f32
      linalg.yield %s : f32
    } -> tensor<8x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%oi, %oj] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<128x128xf32>
    }
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  return %r : tensor<128x128xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.cost_model.estimate %e {target = "nvidia-a100", metric = "registers_per_thread", explain} : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// Dynamic shapes with a known upper bound (a tile of at most 64 rows):
// the estimate uses the bound and says it is conservative.

func.func @bounded(%x: tensor<1024x64xf32>, %n: index) -> tensor<?x64xf32> {
  %sz = affine.min affine_map<(d0) -> (d0, 64)>(%n)
  %s = tensor.extract_slice %x[0, 0] [%sz, 64] [1, 1] : tensor<1024x64xf32> to tensor<?x64xf32>
  %e = tensor.empty(%sz) : tensor<?x64xf32>
  // expected-remark @below {{dynamic shapes: conservative estimate of 'offchip_bytes'}}
  %r = linalg.exp ins(%s : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.cost_model.estimate %e {target = "x86-avx512", metric = "offchip_bytes"} : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{bounded offchip_bytes 32768 : i64}}
    transform.debug.emit_param_as_remark %r, "bounded offchip_bytes" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A convolution tiled to threads: the input tile of a window access spans
// tw + kw - 1 = 4 + 3 - 1 = 6 columns (6x4 input words), the filter 3x4x8,
// the accumulators 4x8; one reduction step reads 4 input and 8 filter
// words.

func.func @conv_thread_tile(%in: tensor<1x66x4xf32>, %f: tensor<3x4x128xf32>, %out: tensor<1x64x128xf32>) -> tensor<1x64x128xf32> {
  %r = scf.forall (%i, %j) in (16, 16) shared_outs(%o = %out) -> tensor<1x64x128xf32> {
    %ow = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %of = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
    %is = tensor.extract_slice %in[0, %ow, 0] [1, 6, 4] [1, 1, 1] : tensor<1x66x4xf32> to tensor<1x6x4xf32>
    %fs = tensor.extract_slice %f[0, 0, %of] [3, 4, 8] [1, 1, 1] : tensor<3x4x128xf32> to tensor<3x4x8xf32>
    %os = tensor.extract_slice %o[0, %ow, %of] [1, 4, 8] [1, 1, 1] : tensor<1x64x128xf32> to tensor<1x4x8xf32>
    // expected-remark @below {{registers=166 (acc=32 frag=120 epi=0 tmp=0 addr=3 staged=0 inflight=1 step=12 floor=44 tile=[1,4,8,3,4] tiled)}}
    %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
        ins(%is, %fs : tensor<1x6x4xf32>, tensor<3x4x8xf32>) outs(%os : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %o[0, %ow, %of] [1, 4, 8] [1, 1, 1] : tensor<1x4x8xf32> into tensor<1x64x128xf32>
    }
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  return %r : tensor<1x64x128xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["linalg.conv_1d_nwc_wcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.cost_model.estimate %c {target = "nvidia-a100", metric = "registers_per_thread", explain} : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}
