// RUN: hwsched-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// The per-op features behind the model, printed by `estimate {explain}`:
// op class, loop extents and iterator kinds, arithmetic per point, and per
// operand the shape, element type, access pattern and bytes.

func.func @patterns(%x: tensor<64x32xf32>, %bias: tensor<32xf32>, %img: tensor<1x33x33x8xf16>,
                    %filt: tensor<3x3x8x16xf16>, %conv_out: tensor<1x16x16x16xf16>,
                    %table: tensor<128xf32>, %idx: tensor<64xindex>) {
  %e = tensor.empty() : tensor<32x64xf32>
  // expected-remark @below {{kernel: {linalg.transpose: layout-change, loops [32,64] (P,P), 0 ops/point, in 64x32xf32 transposed 8192B, out 32x64xf32 contiguous 8192B, untiled}}}
  %t = linalg.transpose ins(%x : tensor<64x32xf32>) outs(%e : tensor<32x64xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<64x32xf32>
  // expected-remark @below {{kernel: {linalg.generic: elementwise, loops [64,32] (P,P), 1 ops/point, in 64x32xf32 contiguous 8192B, in 32xf32 broadcast 128B, out 64x32xf32 contiguous 8192B, untiled}}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<64x32xf32>, tensor<32xf32>) outs(%e2 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  // expected-remark @below {{kernel: {linalg.conv_2d_nhwc_hwcf: convolution, loops [1,16,16,16,3,3,8] (P,P,P,P,R,R,R), 2 ops/point, in 1x33x33x8xf16 strided 17424B, in 3x3x8x16xf16 contiguous 2304B, out 1x16x16x16xf16 contiguous 8192B (read), untiled}}}
  %c = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %filt : tensor<1x33x33x8xf16>, tensor<3x3x8x16xf16>) outs(%conv_out : tensor<1x16x16x16xf16>) -> tensor<1x16x16x16xf16>
  %e3 = tensor.empty() : tensor<64xf32>
  // expected-remark @below {{kernel: {linalg.generic: elementwise, loops [64] (P), 0 ops/point, in 64xindex contiguous 512B, out 64xf32 contiguous 256B, gathers 1, untiled}}}
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<64xindex>) outs(%e3 : tensor<64xf32>) {
  ^bb0(%i: index, %o: f32):
    %v = tensor.extract %table[%i] : tensor<128xf32>
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.cost_model.estimate %ops {target = "x86-avx512", metric = "flops", explain} : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}
