//===- FrontendOps.td - frontend forms brought to the schedules' -*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_FRONTENDOPS
#define HWSCHED_TRANSFORMOPS_FRONTENDOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def DecomposeQuantizedOp : Hwsched_FunctionalOp<"hwsched.decompose_quantized"> {
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

def ContractionToMatmulOp : Hwsched_FunctionalOp<"hwsched.contraction_to_matmul"> {
  let summary = "Rewrites any contraction or convolution into one (batch) matmul";
  let description = [{
    Rewrites each payload op of `target`, a Linalg op on tensors that
    computes `C += A * B` (a multiply-add body, casts allowed) over any
    loops, into one contraction with loops `(m, n, k)` or `(batch, m, n, k)`,
    the form the matmul schedules take. It covers what frontends emit and
    upstream's im2col does not take: convolutions written as
    `linalg.generic` (batchless, grouped, strided, dilated, 1-D, 3-D),
    depthwise convolutions, and contractions with several M, N or K loops
    (`linalg.mmt4d`).

    Each loop is classified by the operands it indexes: batch (A, B and C),
    M (A and C), N (B and C), K (A and B; a reduction). A, B and C are
    brought to the layouts `[batch..., M..., K...]`, `[batch..., K..., N...]`
    and `[batch..., M..., N...]` (a copy through the operand's own indexing
    where it is not already that; for a convolution's image this copy is
    the im2col gather), each group is collapsed to one dimension (a missing
    M or N, as in a depthwise convolution, to a unit one), and the
    contraction runs with the op's own body. Its result is expanded and,
    where C's layout differs, copied back. The sums are exact (each output
    element sums the same products in the same order).

    ```mlir
    // A batchless 3x3 convolution, as IREE's tests write it:
    %r = linalg.generic {indexing_maps = [
           affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 + d3, d1 + d4, d5)>,
           affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d2)>,
           affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>], ...}
    // becomes an im2col copy of the image (14 x 14 x 3 x 3 x 8), collapsed
    // to 196 x 72, the filter collapsed to 72 x 16, and a 196 x 16 x 72
    // contraction whose result is expanded to 14 x 14 x 16.
    ```

    With `explain`, a remark at each op prints the plan, e.g. "6 loops ->
    batch [], M [d0, d1], N [d2], K [d3, d4, d5]; A copied (im2col gather),
    B as it is, C as it is: a contraction 196 x 16 x 72". The result
    `contraction` holds the new contractions, one per payload op, in order.

    #### Return modes

    Checks every payload op before rewriting any. A silenceable failure,
    naming the op and what would make it work, with the payload unchanged,
    when a payload op is not a Linalg op on tensors with two inputs and one
    output (quantized ops take `transform.hwsched.decompose_quantized`
    first), has a dynamic loop extent, a body that is not a multiply-add, C
    indexed by something other than loops, a loop that indexes only one
    operand, no K loop, or neither an M nor an N loop. The `target` handle
    is consumed.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       UnitAttr:$explain);
  let results = (outs TransformHandleTypeInterface:$contraction);
  let assemblyFormat =
      "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def ChunkDynamicLoopsOp : Hwsched_FunctionalOp<"hwsched.chunk_dynamic_loops"> {
  let summary = "Gives an op with dynamic loop extents static shapes, one chunk at a time";
  let description = [{
    Rewrites each payload op of `target`, a Linalg op on tensors, so that
    the op the schedules see has static extents: every loop whose extent is
    dynamic (a batch of rows, a sequence length, a reduction length known
    only at run time) is tiled by a static chunk with `scf.for`, and the
    chunk is padded with zeros to its full size. The matmul schedules, whose
    block tiles, launch grids, register tiles and im2col need static
    shapes, then take the op in the loop body. Static loops are left whole.

    The chunk of a loop depends on its role:

    | loop | chunk | the padded part |
    |---|---|---|
    | parallel (M, N, batch, output image) | `parallel_chunk` (256) | computed, then cut off the result |
    | reduction (K) | `reduction_chunk` (512) | zeros, whose products add 0 |
    | convolution window (a reduction loop indexing the image through a sum, `oh + kh`) | `window_chunk` (3) | zero filter taps |

    So at most one chunk per dynamic loop is computed on padding. A
    reduction is chunked only for a multiply-add body (`C += A * B`, casts
    allowed: contractions and convolutions), where zero padding is exact; a
    dynamic parallel loop is chunked for any body.

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
           outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    // becomes three scf.for loops (M and N by 256, K by 512) around
    //   linalg.matmul ins(%pa, %pb : tensor<256x512xf32>, tensor<512x256xf32>)
    //                 outs(%pc : tensor<256x256xf32>)
    // on tensor.pad-ded slices, whose result slice is inserted back.
    ```

    Several dynamic parallel loops multiply their chunks: a convolution
    with a dynamic batch, height and width would pad a 256 x 256 x 256 x
    channels output. So no padded operand of a chunk may hold more than
    2^24 elements (64 MiB of f32): the largest parallel chunk that indexes
    an operand over it is halved, the outermost among equals, until none is
    (16 x 32 x 32 for 1024 output channels); `explain` says so.

    The chunk loops carry the attribute `hwsched.chunk_loop` (the chunk, an
    `i64`), so that
    a schedule can tell them from its own loops: the pads and copies they
    hold besides the chunk are host-side work (the shipped CPU and GPU
    scripts lower them to plain loops rather than vectorizing them whole).

    With `explain`, a remark at each op prints the plan, e.g. "3 loops: d0
    dynamic (parallel) in chunks of 256, d1 = 1024, d2 dynamic (reduction)
    in chunks of 512; padded with zeros (the padded products add 0); the op
    in the chunk loops: 256 x 1024 x 512". An op without a dynamic loop is
    left as it is (and returned), so the op can be applied to every
    contraction of a payload. The result `chunked` holds, per payload op in
    order, the op with static shapes.

    #### Return modes

    Checks every payload op before rewriting any. A silenceable failure,
    naming the op and what would make it work, with the payload unchanged,
    when a payload op is not a Linalg op on tensors, has an operand indexed
    by something other than sums of loops (the padded extent would be
    unknown), or has a dynamic reduction loop and a body that is not a
    multiply-add. A chunk size that is not positive is an error. The
    `target` handle is consumed.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       DefaultValuedAttr<I64Attr, "256">:$parallel_chunk,
                       DefaultValuedAttr<I64Attr, "512">:$reduction_chunk,
                       DefaultValuedAttr<I64Attr, "3">:$window_chunk,
                       UnitAttr:$explain);
  let results = (outs TransformHandleTypeInterface:$chunked);
  let assemblyFormat =
      "$target attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_FRONTENDOPS
