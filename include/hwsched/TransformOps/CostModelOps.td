//===- CostModelOps.td - transform.cost_model.* ops ------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_COSTMODELOPS
#define HWSCHED_TRANSFORMOPS_COSTMODELOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def FilterFusableConsumersOp
    : Hwsched_NavigationOp<"cost_model.filter_fusable_consumers", [HwschedNumericParams]> {
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

    A pair is fused when it is legal (no reduction across the producer's
    parallel split, every consumer operand available at the fusion point, no
    recomputation blow-up beyond `cost_weights.recompute_limit`, back-to-back
    GEMMs resident in one block), every hard limit of the target holds (GPU:
    the register floor within `gpu.max_registers_per_thread`; NPU: the live
    tiles, ping-pong buffered, within `onchip.capacity_bytes`; CPU: tiled
    live bytes within it) and the target's weighted cost (register pressure,
    coalescing and saved bandwidth on GPUs; format casts and saved DMA on
    NPUs; cache pressure, recomputation and saved bandwidth on CPUs) is
    negative. Dynamic extents are replaced by proven upper bounds (the
    decision is then marked conservative); without a bound the pair is not
    fused, with a remark either way. The features, each legality rule, the
    register model and the cost terms are described in
    [docs/Fusion.md](../Fusion.md).

    With `explain`, one remark per consumer on the consumer op: the verdict
    and its reason, the cost as a sum of weighted terms, each limit with its
    value, and on GPUs the register estimate by term.

    #### Example

    ```mlir
    %mm = transform.structured.match ops{["linalg.matmul"]} in %f
        : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %mm
        { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    ```

    #### Return modes

    Succeeds with the (possibly empty) list of consumers; a producer without
    consumers gives an empty result and no error. A producer that is not a
    Linalg / `TilingInterface` op, or a spec lacking a figure the model
    reads (the message names the file and the key), is a silenceable failure
    and nothing is returned.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$producer,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain),
                          HwschedParamArgs);
  let results = (outs TransformHandleTypeInterface:$fusable);
  let assemblyFormat =
      "$producer (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def EstimateOp : Hwsched_NavigationOp<"cost_model.estimate", [HwschedNumericParams]> {
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
      thread of the structural two-phase register model (see
      `filter_fusable_consumers`), from the per-thread tile of ops tiled to
      `#gpu.thread`, else the spec's default per-thread tile; the same
      function gives `select_tile_config`'s figure for its pick, so on the
      kernel the pick describes (K step 1 over a BK tile, A and B staged in
      shared memory) both agree;
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
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$op,
                            OptionalAttr<StrAttr>:$target,
                            StrAttr:$metric,
                            UnitAttr:$explain),
                          HwschedParamArgs);
  let results = (outs TransformParamTypeInterface:$value);
  let assemblyFormat =
      "$op (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def SelectTileConfigOp : Hwsched_NavigationOp<"cost_model.select_tile_config", [HwschedNumericParams]> {
  let summary = "Chooses tile sizes, thread counts and stages from the spec";
  let description = !strconcat([{
    Bolt-style (MLSys 2022) selection of a tiling configuration for each
    Linalg op in `op`: candidates are enumerated for the target family,
    pruned by the spec's hardware rules, scored with a roofline estimate,
    and the best is returned as parameters that feed upstream tiling ops
    directly. The op only reads the payload. Each payload op is viewed as a
    (batched) GEMM M x N x K: contractions, convolutions (implicit GEMMs),
    elementwise ops (no K) and reductions (no N). The model (GEMM view,
    rules and score per family, SM-fill rule, `explain`, measurement, tuning
    database, export format) is in [docs/TileConfig.md](../TileConfig.md).

    #### Results

    Every list has one value per loop of the payload op, in loop order; 0
    means "not tiled at this level". Several payload ops: the lists are
    concatenated in handle order.
    - `tile_sizes`: the block tile of the parallel loops (GPU threadblock,
      NPU AI-core tile, CPU cache tile); batch loops 1, reduction loops 0.
    - `thread_tile_sizes`: the per-thread tile (GPU), register tile (CPU)
      or cube fractal (NPU), for the op the block-level tiling produces;
      non-zero on at most three loops (the mapped thread dimensions).
    - `reduction_tile_sizes`: the K tile on reduction loops, 0 elsewhere.
    - `num_stages`: one value, the multi-buffering depth for
      `transform.pipeline.schedule_stages`.
    - `num_threads`: three values, the GPU block dims (x, y, z), i.e. the
      trip counts of the thread-level `scf.forall`; (T, 1, 1) for CPU
      contractions (T threads over column panels); 1s otherwise.
    - `split_k` (optional sixth result): one value, the split-K factor.
      Only when this result is present does the GPU rule consider splitting:
      asking for it says the script applies the split (e.g. with
      `transform.hwsched.split_k`); the other lists then describe the
      partial op.

    #### Attributes

    - `explain`: remarks on the payload op: the decision, the candidate
      counts, the best candidates and why the winner won. Padding and
      dynamic-extent assumptions (a dynamic extent is taken as 256) are
      reported without it.
    - `packed_operands = array<i64: ...>`: operand numbers the schedule
      copies into contiguous buffers (changes the CPU cache rules; checked
      and ignored, with a remark, on GPUs and NPUs).
    - `accumulator_in_smem`, `static_smem` (GPU): the schedule keeps the
      accumulator tile in shared memory; its shared memory is static, capped
      by `gpu.max_static_smem_per_block_bytes`.
    - `mma_sync` (GPU): the schedule builds the tensor-core kernel of
      `transform-scripts/gpu-matmul-tensorcore.mlir`
      (`@gpu_matmul_tensorcore_tiles`: warps of `nvgpu.mma.sync` tiles fed
      by 16-byte async copies; f16 x f16 -> f32 with m16n8k16, and with
      `allow_tf32` f32 x f32 -> f32 as tf32 with m16n8k8). The candidates
      are its block tiles (64, 128, 256), warp tiles (32, 64), K steps (64
      or 128 bytes of a row: 32, 64 for f16, 16, 32 for f32) and stages;
      the register figure counts the warp tile's f32 accumulator (WM x WN /
      32 per thread) and its operand fragments (tf32: twice the registers
      per K of f16); `thread_tile_sizes` is then the warp tile and
      `num_threads` the block's threads (T, 1, 1). A payload the kernel
      cannot take (not a `linalg.matmul` on tensors with a `linalg.fill`
      init, outside any `gpu.launch`, with the default indexing maps; other
      element types; dynamic or non-dividing extents; a target below sm_80;
      `accumulator_in_smem`) is a silenceable failure saying why.
    - `allow_tf32` (with `mma_sync`): f32 inputs are taken and multiplied
      as tf32 (their mantissas rounded to 10 bits, the sums in f32: about
      1e-3 relative error instead of f32's 1e-7), at twice the f16 kernel's
      fragment registers per K and half its matrix peak. Off by default:
      without it an f32 contraction is refused, saying to set it. Without
      `mma_sync` it is a silenceable failure.
    - `measure_top_k = k`, `measure_samples = n` (default 5), CPU targets:
      compile and run the model's best k on the host and return the fastest.
    - `tuning_db = "path"` (else `$HWSCHED_TUNING_DB`, else the spec's
      `tuning.database`): a configuration recorded for the problem under the
      same schedule is returned instead of the model's pick, with a remark.
    - `candidate_rank = r`: return the model's (r + 1)-th best candidate.
    - `candidates_file = "path"` (else `$HWSCHED_TUNING_CANDIDATES`) and
      `export_top_k`: append one JSON line per decision for a tuner.

    ```mlir
    %mm = transform.structured.match ops{["linalg.matmul"]} in %f
    %tiles, %thread, %red, %stages, %threads =
        transform.cost_model.select_tile_config %mm { target = "nvidia-a100" }
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %blk, %forall = transform.structured.tile_using_forall %mm
        tile_sizes *(%tiles) (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    %r:3 = transform.split_handle %red : (!transform.param<i64>)
        -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %k, %kloops:3 = transform.structured.tile_using_for %blk
        tile_sizes [%r#0, %r#1, %r#2]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> (!transform.any_op, !transform.any_op,
           !transform.any_op, !transform.any_op)
    ```

    #### Return modes

    A payload op that is not a Linalg op or has no rule (a full reduction to
    a scalar, non-numeric element types) is a silenceable failure naming the
    op. A spec missing a figure the rules need, or one under which no
    candidate survives (e.g. a tiny `ub_limit_bytes`), is a silenceable
    failure listing the pruned counts. `measure_top_k` or `measure_samples`
    below 1 is a silenceable failure naming the attribute. A
    `packed_operands` index that is negative, not below the payload op's
    operand count, repeated, or names an operand that is none of the GEMM
    view's M x K, K x N and M x N operands (or any operand of an
    elementwise op or reduction) is a silenceable failure naming the index
    and the payload op. `candidate_rank` or `export_top_k` below 0, or a
    `candidate_rank` at or above the number of feasible candidates, is a
    silenceable failure. A tuning database that cannot be read or parsed,
    or whose entry has the wrong shape, is a silenceable failure naming the
    file and the key path; so is an entry whose configuration is not a
    feasible candidate on the spec (re-tune, or delete the entry). A
    candidates file that cannot be written is a silenceable failure naming
    it. `static_smem` on a GPU spec without
    `gpu.max_static_smem_per_block_bytes` is a silenceable failure naming
    the key and the spec file; when no candidate fits the (static)
    shared-memory cap, the failure lists the pruned counts and the smallest
    candidate's shared bytes against the cap. Nothing is produced unless
    every payload op succeeds.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$op,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain,
                            OptionalAttr<I64Attr>:$measure_top_k,
                            OptionalAttr<I64Attr>:$measure_samples,
                            OptionalAttr<DenseI64ArrayAttr>:$packed_operands,
                            UnitAttr:$accumulator_in_smem,
                            UnitAttr:$static_smem,
                            UnitAttr:$mma_sync,
                            UnitAttr:$allow_tf32,
                            OptionalAttr<StrAttr>:$tuning_db,
                            OptionalAttr<I64Attr>:$candidate_rank,
                            OptionalAttr<StrAttr>:$candidates_file,
                            OptionalAttr<I64Attr>:$export_top_k),
                          HwschedParamArgs);
  let results = (outs TransformParamTypeInterface:$tile_sizes,
                      TransformParamTypeInterface:$thread_tile_sizes,
                      TransformParamTypeInterface:$reduction_tile_sizes,
                      TransformParamTypeInterface:$num_stages,
                      TransformParamTypeInterface:$num_threads,
                      Optional<TransformParamTypeInterface>:$split_k);
  let assemblyFormat =
      "$op (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def TunedKnobOp : Hwsched_NavigationOp<"cost_model.tuned_knob",
                                      [HwschedNumericParams]> {
  let summary = "A script knob's value, as tuned for a problem";
  let description = !strconcat([{
    Returns one value: the value a tuning database recorded for the knob
    `knob` on the problems of `op` (Linalg ops), else the knob's own value.
    Problems the database answers must agree (a structural choice such as
    "pipelined or not" may cover every op of a module; apply the op per
    payload op, e.g. in a `transform.foreach`, for per-problem choices). An
    empty handle gives the knob's value. The knob is normally the result of an
    upstream `transform.tune.knob`, whose name and option set the op reads
    from the script; a param from elsewhere needs `name` (and may give
    `options = [...]`). So a script declares a structural choice once, e.g.

    ```mlir
    %k = transform.tune.knob<"cpu_matmul.pipelined"> = 0 : i64
        from options = [0, 1] -> !transform.param<i64>
    %sel = transform.cost_model.tuned_knob %k for %matmul
        : (!transform.param<i64>, !transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"cpu_matmul.pipelined"> selected_region = %sel
        : !transform.param<i64> { ... }, { ... }
    ```

    and `hwsched-tune` measures each option and records the best in the
    database entry of the problem (`"knobs": {"cpu_matmul.pipelined": 1}`),
    which then selects the region with no script edit.

    The database and the problem key are those of `select_tile_config`
    (attribute `tuning_db`, else `HWSCHED_TUNING_DB`, else the spec's
    `tuning.database`; key: payload signature, spec name and fingerprint),
    so the knob and the tile configuration of one problem share an entry.
    With `candidates_file` (else `HWSCHED_TUNING_CANDIDATES`) the op appends
    one JSON line per payload op, `{"hwsched_tuning_knob": 1, "key",
    "knob", "options", "value", "source": "database" | "script"}`, which is
    how the tuner learns the script's knobs. A value from the database is
    reported by a remark on the payload op (with or without `explain`); with
    `explain`, so is the script's value when the database has none.

    #### Return modes

    The knob param must hold exactly one integer. A knob not defined by
    `transform.tune.knob` and without `name` is a silenceable failure; so is
    a database value that is not among the knob's options (naming the file,
    the entry and the options), database values that differ between the
    problems of the handle, a database that cannot be read (naming the
    file and the key path), a payload op that is not a Linalg op, and a
    candidates file that cannot be written. The payload is never modified.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformParamTypeInterface:$knob,
                            TransformHandleTypeInterface:$op,
                            OptionalAttr<StrAttr>:$target,
                            OptionalAttr<StrAttr>:$name,
                            OptionalAttr<DenseI64ArrayAttr>:$options,
                            OptionalAttr<StrAttr>:$tuning_db,
                            OptionalAttr<StrAttr>:$candidates_file,
                            UnitAttr:$explain),
                          HwschedParamArgs);
  let results = (outs TransformParamTypeInterface:$value);
  let assemblyFormat =
      "$knob `for` $op (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict "
      "`:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def MatchMmaSyncMatmulsOp
    : Hwsched_NavigationOp<"hwsched.match_mma_sync_matmuls",
                           [HwschedNumericParams]> {
  let summary = "Splits matmuls into those the tensor-core (mma.sync) "
                "kernel takes and the others";
  let description = !strconcat([{
    Routes each payload op of `ops` before a schedule is chosen: `taken`
    lists the ops the tensor-core kernel of
    `transform-scripts/gpu-matmul-tensorcore.mlir` builds with every tile
    from `select_tile_config { mma_sync }`, `others` the rest, both in
    handle order. `@gpu_matmul_auto` (`transform-scripts/gpu-matmul.mlir`)
    sends what it takes there (after the Hopper kernel's own routing) and
    everything else to the SIMT schedules.

    An op is taken when its target is a GPU of compute capability sm_80 or
    above and it is a `linalg.matmul` on tensors with the default indexing
    maps, outside any `gpu.launch`, whose init is a `linalg.fill` (the
    kernel fuses it), and `select_tile_config { mma_sync }` finds a
    configuration for it: f16 x f16 into f32 (or, with `allow_tf32`, f32 x
    f32 into f32, multiplied as tf32), static extents that a block tile and
    K step divide, tiles that fit the registers and shared memory. The
    decision is the one the schedule makes later: the same problem, target
    and overrides give the same tiles. The payload checks are
    `checkMmaSyncEligible` (`CostModel/TileConfigDecision.h`), the ones
    `select_tile_config { mma_sync }` makes.

    `allow_tf32` takes f32 matmuls too (tf32 rounds their inputs to 10-bit
    mantissas; see `select_tile_config`); off by default, so that routing
    never changes an f32 result unasked: an f32 matmul is then not taken,
    and its remark says to set `allow_tf32`.

    With `explain`, on such a target, each op gets a remark: the tiles it
    will get, or why it is not taken (naming the property). On other
    targets no op is taken and nothing is reported.

    #### Example

    ```mlir
    %mma, %others = transform.hwsched.match_mma_sync_matmuls %contractions
        { explain } : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op)
    ```

    #### Return modes

    Only reads the handle and the payload; `taken` and `others` together
    hold every op of `ops` once. A refusal of one op is not a failure: the
    op goes to `others`.
  }], HwschedParamsDoc, HwschedTargetDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$ops,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain,
                            UnitAttr:$allow_tf32),
                          HwschedParamArgs);
  let results = (outs TransformHandleTypeInterface:$taken,
                      TransformHandleTypeInterface:$others);
  let assemblyFormat =
      "$ops (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_COSTMODELOPS
