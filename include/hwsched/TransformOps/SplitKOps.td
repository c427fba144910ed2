//===- SplitKOps.td - transform.hwsched.split_k ----------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_SPLITKOPS
#define HWSCHED_TRANSFORMOPS_SPLITKOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def SplitKOp : Hwsched_TransformOp<"hwsched.split_k"> {
  let summary = "Splits the reduction of a Linalg op by a parameter (split-K)";
  let description = [{
    Applies upstream `linalg::splitReduction` to each payload op of `op`
    with the split factor s given by the parameter `split_k` (one value for
    all payload ops, or one per payload op), typically the sixth result of
    `transform.cost_model.select_tile_config`. Upstream
    `transform.structured.split_reduction` takes the factor as a static
    attribute only; this op takes it from a parameter, so a script applies
    the cost model's choice without being instantiated per value.

    The reduction loop K is split into an outer parallel loop of extent s
    and an inner reduction loop of K / s, and the new loop is the first
    loop and the first dimension of the partial result (each split's
    partial M x N plane is contiguous, so a block's partial writes
    coalesce like an unsplit result):

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<MxKxf32>, tensor<KxNxf32>)
                       outs(%c : tensor<MxNxf32>)
    ```

    becomes (s = 4)

    ```mlir
    %a4 = tensor.expand_shape %a ...  : tensor<MxKxf32> into tensor<Mx4x(K/4)xf32>
    %b4 = tensor.expand_shape %b ...  : tensor<KxNxf32> into tensor<4x(K/4)xNxf32>
    %z  = linalg.fill ins(%zero) outs(%empty : tensor<4xMxNxf32>)       // split_fill
    %p  = linalg.generic {loops (s, m, n, k), iterators
            [parallel, parallel, parallel, reduction]}                  // partial
            ins(%a4, %b4) outs(%z) -> tensor<4xMxNxf32>
    %r  = linalg.generic {loops (s, m, n), [reduction, parallel, parallel]}
            ins(%p) outs(%c) -> tensor<MxNxf32>                         // combine
    ```

    Results, one op per payload op split, in order: `split_fill` (the fill
    of the partials with the reduction's neutral element), `partial` (the
    op with the extra parallel loop) and `combine` (the reduction over s
    into the original init). A factor of 1 leaves the payload op alone: it
    is returned as `partial`, with nothing in `split_fill` and `combine`
    for it.

    #### Return modes

    Checks every payload op before changing any. A silenceable failure,
    naming the op and the reason, with the payload unchanged, when: the
    parameter holds neither one value nor one per payload op; a factor is
    below 1; a payload op is not a Linalg op on tensors, has other than one
    output or one reduction loop, an indexing map that is not a projected
    permutation, a dynamic shape (upstream builds the partials' buffer
    with static sizes only), a reduction extent not divisible by the
    factor, or a body whose reduction is not a single combiner with a known
    neutral element (`arith.addf`, `arith.maximumf`, ...). The `op` handle
    is consumed.
  }];

  let arguments = (ins TransformHandleTypeInterface:$op,
                       TransformParamTypeInterface:$split_k);
  let results = (outs TransformHandleTypeInterface:$split_fill,
                      TransformHandleTypeInterface:$partial,
                      TransformHandleTypeInterface:$combine);
  let assemblyFormat =
      "$op `by` $split_k attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_SPLITKOPS
