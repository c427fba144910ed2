//===- CostModelOps.td - transform.cost_model.* ops ------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_COSTMODELOPS
#define HWSCHED_TRANSFORMOPS_COSTMODELOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def FilterFusableConsumersOp
    : Hwsched_TransformOp<"cost_model.filter_fusable_consumers"> {
  let summary = "Selects the consumers that are legal and profitable to fuse";
  let description = !strconcat([{
    For each producer in `producer` (a Linalg or `TilingInterface` op),
    considers the consumers of its results: the Linalg / `TilingInterface`
    ops that use a result directly, read it from the results of the tiling
    loops around the producer (`scf.for` with `tensor.insert_slice`,
    `scf.forall` with `tensor.parallel_insert_slice`), or gather from it in
    their body. Each pair is decided by the target's cost model; the result
    lists the kept consumers, producers in handle order and, per producer,
    consumers in program order, each once; possibly none. The op only reads
    the payload. Fuse the result with upstream ops, e.g. tile the consumers
    with `transform.structured.tile_using_forall` and pull the producer in
    with `transform.structured.fuse_into_containing_op`.

    #### Features (from the Linalg structure)

    Loop extents and iterator types, FLOPs (arithmetic body ops times the
    iteration points), bytes read and written, element types, the access
    pattern of every operand from its indexing map (contiguous, transposed,
    broadcast, strided, gather), live tile bytes. An op nested in `scf.for`
    / `scf.forall` is already tiled: its static shapes are the tile's. An op
    in an `scf.forall` mapped to `#gpu.thread` has its per-thread tile in
    its shapes; otherwise the register model assumes the spec's
    `cost_weights.default_thread_tile_elements` outputs and
    `cost_weights.default_reduction_tile` reduction step per thread.

    #### Legality (checked first; a rejected pair is never fused)

    - a consumer that reduces along a result dim the producer's `scf.forall`
      splits across parallel workers (racy partial results);
    - a consumer operand that does not dominate the fusion point (the
      producer, or its outermost tiling loop in the consumer's block);
    - recomputation blow-up: the consumer re-reads each producer element
      more than `cost_weights.recompute_limit` times (its parallel loops not
      indexing the producer value, e.g. a broadcast), or gathers from it;
    - back-to-back GEMMs: when the consumer contracts over the producer's N,
      the producer's N tile must hold all N columns and the consumer's N
      must fit it (threadblock residence).

    #### Scores (weights, limits and constants from the spec)

    - GPU: `Cost = register_pressure*RegPressure +
      coalescing_penalty*CoalescingPenalty - bandwidth_saved*BandwidthSaved`.
      The fused kernel's registers per thread come from a two-phase model
      (main loop: accumulators + operand fragments; epilogue: accumulators +
      epilogue inputs + temporaries; plus a base) calibrated against ptxas
      (`cost_weights.reg_*`, see `bench/costmodel/`). Hard limit: the
      register floor (accumulators + one reduction step's fragments +
      `reg_floor_base`) must not exceed `gpu.max_registers_per_thread`
      (`reg_limit`), else the kernel spills. RegPressure: registers above
      `gpu.occupancy_register_budget`, relative to it. CoalescingPenalty: a
      consumer writing in another dim order than the producer's tile (a
      transpose, a strided write) costs `memory_transaction_bytes` per
      element, relative to the unfused traffic, so MatMul + transpose is
      rejected. BandwidthSaved: the intermediate's write and re-read,
      relative to the unfused traffic.
    - NPU: hard limit `LiveBytes (each aligned to onchip.alignment_bytes) *
      npu.ping_pong_factor <= onchip.capacity_bytes` (`ub_limit_bytes`);
      `Cost = format_cast*FormatCastOverhead - dma_saved*DMASaved` in cycles:
      a cube producer (contraction/convolution) feeding a vector consumer
      that reduces or changes the layout pays a cube->vector format cast
      (read + write at `npu.format_cast_bytes_per_cycle`); the saved MTE
      traffic moves at `npu.mte_bytes_per_cycle`. An untiled op counts as
      one tile: tile first for tile-level numbers.
    - CPU: `Cost = cache_pressure*CachePressure + recompute*Recompute -
      bandwidth_saved*BandwidthSaved` in ns at `offchip.bandwidth_gb_per_s`
      and `compute.peak_fp32_gflops` (divided by the vector lanes of
      `cpu.vector_width_bits` when the consumer reads the producer against
      its memory order); for tiled ops the fused live bytes must fit
      `onchip.capacity_bytes` (L2, `l2_limit_bytes`), `cpu.l1d_bytes` is
      reported.

    A pair is fused when it is legal, every hard limit holds and the cost is
    negative.

    #### Dynamic shapes

    Dynamic extents are replaced by their upper bounds
    (`ValueBoundsOpInterface`) and the decision is marked conservative; when
    an extent has no bound the pair is not fused. Either way the op emits a
    remark on the consumer.

    #### Explain

    With `explain`, one remark per consumer on the consumer op:
    `fusion of '<consumer>' into '<producer>' on <spec>: fuse|reject
    (<reason>); cost=<c> = <sign><weight>*<term>(<value>)...; limits:
    <limit> <value> <= <limit> (ok|VIOLATED[, soft]), ...` and, on GPUs,
    `registers=<n> (acc=.. frag=.. epi=.. tmp=.. addr=.. step=.. floor=..
    tile=[..] tiled|default)`.

    #### Return modes

    Succeeds with the (possibly empty) list of consumers; a producer without
    consumers gives an empty result and no error. A producer that is not a
    Linalg / `TilingInterface` op, or a spec lacking a figure the model
    reads (the message names the file and the key), is a silenceable failure
    and nothing is returned.
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$producer,
                       OptionalAttr<StrAttr>:$target,
                       UnitAttr:$explain);
  let results = (outs TransformHandleTypeInterface:$fusable);
  let assemblyFormat =
      "$producer attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def EstimateOp : Hwsched_TransformOp<"cost_model.estimate"> {
  let summary = "Exposes one number of the cost model as a parameter";
  let description = !strconcat([{
    Returns, for each payload op in `op` (a Linalg or `TilingInterface`
    op), one `i64` parameter with the value of `metric` for the kernel the
    op belongs to, so scripts can branch with `transform.match.param.cmpi`
    or feed other ops. The kernel is the op alone, or, when the op is
    nested in a tiling loop, every structured op in the innermost
    `scf.forall` around it (else the outermost `scf.for`): the ops already
    fused with it. Values produced inside the kernel are not counted as
    off-chip traffic or register loads.

    Metrics:
    - `registers_per_thread` (GPU targets only): the register demand per
      thread of the two-phase register model (see
      `filter_fusable_consumers`), from the per-thread tile of ops tiled to
      `#gpu.thread`, else the spec's default per-thread tile;
    - `onchip_bytes`: live tile bytes, each operand once, aligned to
      `onchip.alignment_bytes`;
    - `offchip_bytes`: bytes the kernel reads from and writes to off-chip
      memory;
    - `flops`: arithmetic operations (FMA = 2);
    - `estimated_time_ns`: roofline, `max(flops / peak, offchip_bytes /
      offchip.bandwidth_gb_per_s)` with `compute.peak_matrix_gflops` for
      contractions on 16-bit inputs and `compute.peak_fp32_gflops`
      otherwise.

    With `explain`, one remark per payload op with every metric, the
    register terms and the features of every op of the kernel (class, loop
    extents and kinds, arithmetic per point, and per operand its shape,
    element type, access pattern and bytes). Dynamic extents with upper bounds are replaced by them
    and a remark says the value is conservative.

    #### Return modes

    An unknown metric is a silenceable failure naming the known ones.
    A payload op that is not a Linalg / `TilingInterface` op,
    `registers_per_thread` on a non-GPU spec, a size-dependent metric on an
    op with an unbounded dynamic extent, and a spec lacking a figure the
    model reads are silenceable failures. The payload is never modified.
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$op,
                       OptionalAttr<StrAttr>:$target,
                       StrAttr:$metric,
                       UnitAttr:$explain);
  let results = (outs TransformParamTypeInterface:$value);
  let assemblyFormat = "$op attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def SelectTileConfigOp : Hwsched_TransformOp<"cost_model.select_tile_config"> {
  let summary = "Chooses tile sizes, thread counts and stages from the spec";
  let description = !strconcat([{
    Bolt-style selection of a tiling configuration for one Linalg op: the
    candidate set is pruned by the register file, on-chip capacity (times the
    stage count), warps per block and waves over the SMs (GPU), the unified
    buffer with ping-pong (NPU), or the caches and vector registers (CPU),
    and the best-scoring candidate is returned as parameters that feed
    upstream tiling ops directly: `tile_sizes` (one per loop, 0 = not
    tiled), `thread_tile_sizes`, `reduction_tile_sizes`, `num_stages` and
    `num_threads`.

    Status: not implemented yet; the op validates its spec and then fails
    silenceably.

    #### Return modes

    A payload op without a rule (not a contraction, convolution, elementwise
    or reduction) is a silenceable failure.
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$op,
                       OptionalAttr<StrAttr>:$target,
                       UnitAttr:$explain);
  let results = (outs TransformParamTypeInterface:$tile_sizes,
                      TransformParamTypeInterface:$thread_tile_sizes,
                      TransformParamTypeInterface:$reduction_tile_sizes,
                      TransformParamTypeInterface:$num_stages,
                      TransformParamTypeInterface:$num_threads);
  let assemblyFormat = "$op attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_COSTMODELOPS
