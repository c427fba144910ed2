//===- FusionOps.td - transform.fusion.* ops -------------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_FUSIONOPS
#define HWSCHED_TRANSFORMOPS_FUSIONOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def EpilogueInPlaceOp : Hwsched_FunctionalOp<"fusion.epilogue_in_place"> {
  let summary = "Makes a producer compute into its elementwise epilogue's destination";
  let description = [{
    For each payload op of `epilogue`, an all-parallel `linalg.generic` on
    tensors with one output whose body does not read the output's current
    value (a bias + activation epilogue), rewrites

    ```mlir
    %f  = linalg.fill ins(%zero) outs(%empty)
    %mm = linalg.matmul ins(%a, %b) outs(%f)
    %r  = linalg.generic ins(%mm, %bias) outs(%dest) { ^bb0(%x, %y, %o): ... }
    ```

    into

    ```mlir
    %f  = linalg.fill ins(%zero) outs(%dest)
    %mm = linalg.matmul ins(%a, %b) outs(%f)
    %r  = linalg.generic ins(%bias) outs(%mm) { ^bb0(%y, %x): ... }
    ```

    i.e. the epilogue's input number `input` (default 0: the producer's
    result, with the output's type and indexing map) becomes its output, and
    the producer chain (destination-style ops linked through their tied
    inits) starts from the epilogue's destination: the first op of the chain
    whose init is a `tensor.empty` or whose body does not read its init
    (`linalg.fill`) gets `%dest` as its init. The values are unchanged.
    Bufferized, the producer then accumulates straight into the epilogue's
    destination and the epilogue runs in place: the temporary for the
    producer's result disappears. Tiling the new epilogue with
    `transform.structured.fuse` fuses the chain through the output (the
    loop's destination) as before.

    The result is the rewritten epilogue, one per payload op, in order.

    #### Return modes

    Checks every payload op before changing any. A payload op that is not a
    `linalg.generic`, is not on tensors, has several outputs, a reduction
    loop, a body that reads the output, an `input` out of range, an input
    whose type or indexing map differs from the output's, an input not
    produced by such a chain, or a destination defined after the chain
    starts (it would not dominate the new init) is a silenceable failure
    naming the reason; nothing is changed.
  }];

  let arguments = (ins TransformHandleTypeInterface:$epilogue,
                       DefaultValuedAttr<I64Attr, "0">:$input);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat =
      "$epilogue attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_FUSIONOPS
