//===- FrontendOps.td - frontend forms brought to the schedules' -*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_FRONTENDOPS
#define HWSCHED_TRANSFORMOPS_FRONTENDOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def DecomposeQuantizedOp : Hwsched_TransformOp<"hwsched.decompose_quantized"> {
  let summary = "Rewrites a quantized contraction or convolution into its plain form";
  let description = [{
    Rewrites each payload op of `target`, a quantized Linalg op as int8
    frontends emit them (TFLite / TOSA models through IREE, torch-mlir's
    quantized ops), into its plain counterpart on operands whose zero points
    are subtracted, so that the matmul schedules and the im2col rewrite,
    which know only the plain ops, take it:

    | quantized | plain |
    |---|---|
    | `linalg.quantized_matmul`, `linalg.quantized_batch_matmul` | `linalg.matmul`, `linalg.batch_matmul` |
    | `linalg.conv_2d_nhwc_hwcf_q`, `_nhwc_fhwc_q`, `_nchw_fchw_q`, `_ngchw_gfchw_q`, `_nhwgc_gfhwc_q`, `linalg.conv_3d_ndhwc_dhwcf_q` | the same names without `_q` |
    | `linalg.depthwise_conv_2d_nhwc_hwc_q`, `_nhwc_hwcm_q` | the same names without `_q` |

    The quantized op computes `C += (ext(A) - ext(zA)) * (ext(B) - ext(zB))`
    in C's element type. Where a zero point is not the constant 0, the
    operand minus its zero point is computed first, as a tensor of C's
    element type (an elementwise `linalg.generic`); where it is the constant
    0 (symmetric quantization, usual for weights), the operand is passed as
    it is and the plain op extends it in its body. The result is exact
    (integer arithmetic); strides and dilations are kept.

    ```mlir
    %r = linalg.conv_2d_nhwc_hwcf_q ins(%img, %flt, %zi, %c0 : tensor<1x10x10x8xi8>,
           tensor<3x3x8x16xi8>, i32, i32) outs(%acc : tensor<1x8x8x16xi32>) -> tensor<1x8x8x16xi32>
    ```

    becomes

    ```mlir
    %img2 = linalg.generic ... ins(%img, %zi) outs(%e : tensor<1x10x10x8xi32>)  // extsi, subi
    %r = linalg.conv_2d_nhwc_hwcf ins(%img2, %flt : tensor<1x10x10x8xi32>, tensor<3x3x8x16xi8>)
           outs(%acc : tensor<1x8x8x16xi32>) -> tensor<1x8x8x16xi32>
    ```

    With `explain`, a remark at each op says what was done, e.g.
    "linalg.conv_2d_nhwc_hwcf_q -> linalg.conv_2d_nhwc_hwcf on the image
    minus its zero point (i32) and the filter as it is (zero point 0)"
    (A and B for the matmuls). The result `plain`
    holds the plain ops, one per payload op, in order.

    #### Return modes

    Checks every payload op before rewriting any. A silenceable failure,
    naming the op and what would make it work, with the payload unchanged,
    when a payload op is not one of the quantized ops above, works on
    buffers (subtracting a zero point needs a new tensor: write the op on
    tensors), or has an element type that is not an integer. The `target`
    handle is consumed.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       UnitAttr:$explain);
  let results = (outs TransformHandleTypeInterface:$plain);
  let assemblyFormat =
      "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_FRONTENDOPS
