// A smaller instance of a payload too large for its unscheduled reference
// (utils/hwsched_tools/reduced_instance.py, exec-check.py --reduce-above):
// the same ops, windows and strides, each loop over the cap cut to the cap
// rounded to 16 plus its remainder mod 16, every operand type mapped to one
// new type, the reduced payload verified. (The reduced text keeps this
// file's comments: it is reprinted by mlir-opt before FileCheck reads it.)
//
// RUN: env PYTHONPATH=%utils %python -m hwsched_tools.reduced_instance %s \
// RUN:   --target 60000000 --opt mlir-opt 2>%t.err | mlir-opt | FileCheck %s
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err
//
// Already small enough: printed unchanged.
// RUN: env PYTHONPATH=%utils %python -m hwsched_tools.reduced_instance %s \
// RUN:   --target 100000000000 --opt mlir-opt 2>&1 >/dev/null | FileCheck %s --check-prefix=SMALL
//
// A tensor two ops read through different loops (a plain 2-D op and a
// window) has no consistent smaller shape: refused, saying which type.
// RUN: not env PYTHONPATH=%utils %python -m hwsched_tools.reduced_instance %S/Inputs/reduce-two-shapes.mlir \
// RUN:   --target 10000 --opt mlir-opt 2>&1 | FileCheck %s --check-prefix=TWO
//
// The static entries of a tensor.expand_shape's output_shape follow its
// reduced result type (600 = 37 x 16 + 8: 64 + 8 at a cap of 64); the
// tensor verifier would accept a stale list that bufferization refuses.
// RUN: env PYTHONPATH=%utils %python -m hwsched_tools.reduced_instance %S/Inputs/reduce-expand-shape.mlir \
// RUN:   --target 1000000 --opt mlir-opt 2>/dev/null | mlir-opt | FileCheck %s --check-prefix=EXPAND
// EXPAND: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x72x72xf32>, tensor<2x72x72xf32>)
// EXPAND: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [2, 72, 72, 1] : tensor<2x72x72xf32> into tensor<2x72x72x1xf32>
//
// A static size outside the Linalg operand types (a reshape whose result
// type no Linalg op reads) is not rewritten: the reduced payload does not
// verify and the reduction is refused with the verifier's message.
// RUN: not env PYTHONPATH=%utils %python -m hwsched_tools.reduced_instance %S/Inputs/reduce-reshape.mlir \
// RUN:   --target 10000 --opt mlir-opt 2>&1 | FileCheck %s --check-prefix=RESHAPE

// Stride 2, 3x3 window, 2 x 250 x 250 x 40 output (a 250-row output reads
// 2 * 249 + 3 = 501 rows; the input has one row of slack, 502): 250 -> 32 +
// 250 mod 16 = 42, so the input has 2 * 41 + 3 + 1 = 86 rows. 40 channels
// and 3-tap windows are under the cap and kept.
// SUMMARY: reduced-instance: loops over 32 cut to 32 + their remainder mod 16; largest op 1800000000 -> 50803200 loop iterations;
// SUMMARY-SAME: tensor<2x250x250x40xf32> -> tensor<2x42x42x40xf32>
// SUMMARY-SAME: tensor<2x502x502x40xf32> -> tensor<2x86x86x40xf32>
// CHECK-LABEL: func.func @conv_bias(
// CHECK-SAME: %{{.*}}: tensor<2x86x86x40xf32>, %{{.*}}: tensor<3x3x40x40xf32>, %{{.*}}: tensor<40xf32>) -> tensor<2x42x42x40xf32>
// CHECK: tensor.empty() : tensor<2x42x42x40xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%{{.*}} : tensor<2x86x86x40xf32>, tensor<3x3x40x40xf32>) outs(%{{.*}} : tensor<2x42x42x40xf32>)
// CHECK: linalg.generic
// CHECK: return %{{.*}} : tensor<2x42x42x40xf32>
// SMALL: reduced-instance: already small enough
// TWO: reduced-instance: tensor<301x301xf32> would need two shapes
// RESHAPE: reduced-instance: the reduced payload does not verify
// RESHAPE-SAME: error:
func.func @conv_bias(%in: tensor<2x502x502x40xf32>, %f: tensor<3x3x40x40xf32>, %bias: tensor<40xf32>) -> tensor<2x250x250x40xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<2x250x250x40xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x250x250x40xf32>) -> tensor<2x250x250x40xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<2x502x502x40xf32>, tensor<3x3x40x40xf32>) outs(%z : tensor<2x250x250x40xf32>) -> tensor<2x250x250x40xf32>
  %e2 = tensor.empty() : tensor<2x250x250x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<2x250x250x40xf32>, tensor<40xf32>) outs(%e2 : tensor<2x250x250x40xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x250x250x40xf32>
  return %r : tensor<2x250x250x40xf32>
}
