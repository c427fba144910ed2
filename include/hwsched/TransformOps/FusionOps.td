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

def EpilogueIntoStoresOp : Hwsched_FunctionalOp<"fusion.epilogue_into_stores"> {
  let summary = "Applies an elementwise epilogue where its producer stores its input";
  let description = [{
    For each payload op of `epilogue`, an elementwise `linalg.generic` on
    buffers (after bufferization), finds the op before it that computes its
    input (the *producer*: a `gpu.launch`, a loop nest, any op whose region
    stores that buffer) and applies the epilogue's body at each of the
    producer's stores of that input, then erases the epilogue:

    ```mlir
    gpu.launch ... {
      ...
      vector.store %acc, %C[%i, %j] : memref<512x512xf32>, vector<2xf32>
    }
    linalg.generic ins(%C, %bias : memref<512x512xf32>, memref<512xf32>)
                   outs(%out : memref<512x512xf32>) {   // relu(x + b)
    ```

    becomes

    ```mlir
    gpu.launch ... {
      ...
      %b = vector.transfer_read %bias[%j], %zero {in_bounds = [true]} : memref<512xf32>, vector<2xf32>
      %s = arith.addf %acc, %b : vector<2xf32>
      %r = arith.maximumf %s, %zeros : vector<2xf32>
      vector.store %r, %out[%i, %j] : memref<512x512xf32>, vector<2xf32>
    }
    ```

    Each store (`vector.store`, `vector.transfer_write` without mask and
    with a minor-identity map, `memref.store`; on the buffer or on
    unit-stride subviews of it) is one application: the epilogue's other
    inputs are read at the same elements through their indexing maps
    (`vector.transfer_read`, broadcast along the dimensions a map drops;
    `memref.load` for a scalar store), its body (elementwise arith and math
    ops, and `linalg.index`: the store's indices, plus 0, 1, ... along the
    vector) is cloned on vectors of the stored shape, and the outcome is
    stored into the epilogue's destination at the same indices. This is how
    the tensor-core kernel gets its bias and activation: the accumulators
    live in mma.sync register fragments that each lane stores as
    `vector<2xf32>` pieces, where neither tiling nor upstream's
    vector-to-nvgpu conversion can put an epilogue; fused, the kernel
    writes `relu(A x B + bias)` directly instead of writing C and running
    a second kernel that reads it back.

    The producer's result buffer keeps its stores when something reads it
    after the epilogue or when it is not a temporary of the function (an
    argument: the caller may read it); a temporary (`memref.alloc`) that
    only the epilogue read is no longer written and is erased. An epilogue
    that runs in place (its output is the producer's result, as
    `transform.fusion.epilogue_in_place` leaves it) makes each store write
    the epilogue's value instead. Allocations between the producer and the
    epilogue that the epilogue uses move before the producer.

    Legality, checked before anything changes: the epilogue has all loops
    parallel, one output with the identity map, inputs with projected
    permutation maps, a body of elementwise ops on scalars (and
    `linalg.index`), and does not read its destination (unless in place);
    it reads the producer's result (with the identity map) as the buffer
    itself, not a view; the producer only stores that buffer (it neither
    reads it nor passes it on), does not write the epilogue's other inputs
    and does not touch its destination; nothing between the producer and
    the epilogue touches memory; the epilogue's operands are defined before
    the producer (or are such allocations). Distinct function arguments are
    taken not to alias, as bufferization takes them.

    With `explain`, a remark at each epilogue says what was done: how many
    stores of which kind in which producer, and what happened to the
    result buffer.

    #### Return modes

    A payload op that is not a `linalg.generic`, or that fails a check
    above, is a silenceable failure naming the op in the way and what
    would make it work; every payload op is checked before any is changed,
    so on a failure nothing is. The handle is consumed; there are no
    results (the epilogue is erased).
  }];

  let arguments = (ins TransformHandleTypeInterface:$epilogue,
                       UnitAttr:$explain);
  let results = (outs);
  let assemblyFormat = "$epilogue attr-dict `:` type($epilogue)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def CheckEpilogueForStoresOp
    : Hwsched_NavigationOp<"fusion.check_epilogue_for_stores"> {
  let summary = "Succeeds when epilogue_into_stores will take an epilogue of a producer";
  let description = [{
    Before bufferization, checks that `transform.fusion.epilogue_into_stores`
    can apply the payload op of `epilogue` (a Linalg op on tensors, named or
    generic) at the stores of the payload op of `producer` once both are
    bufferized and the producer has stores: the epilogue has one output
    with the identity indexing map, all loops parallel, inputs through
    projected permutations, a body of elementwise ops on scalars (and
    `linalg.index`), reads a result of the producer once through the
    identity map, and does not read its destination's contents.

    A schedule uses it to decide, before the payload changes, whether to
    keep an epilogue for the producer's stores or to run it on its own
    (`transform-scripts/gpu-matmul.mlir`'s tensor-core route: an epilogue
    that would be refused after bufferization runs as a kernel of its own
    instead of failing the schedule).

    #### Return modes

    Succeeds (no results) when the epilogue qualifies; otherwise a
    silenceable failure naming the reason, as `epilogue_into_stores` would
    give it. A handle that does not hold exactly one op each, or an
    epilogue that is not a Linalg op, is a silenceable failure too. Never
    changes the payload.
  }];

  let arguments = (ins TransformHandleTypeInterface:$epilogue,
                       TransformHandleTypeInterface:$producer);
  let results = (outs);
  let assemblyFormat =
      "$epilogue `,` $producer attr-dict `:` type($epilogue) `,` type($producer)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_FUSIONOPS
