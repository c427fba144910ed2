//===- CostModelOps.td - transform.cost_model.* ops ------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_COSTMODELOPS
#define HWSCHED_TRANSFORMOPS_COSTMODELOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def FilterFusableConsumersOp
    : Hwsched_TransformOp<"cost_model.filter_fusable_consumers", [HwschedNumericParams]> {
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
    - a consumer operand that is not available at the fusion point (the
      producer, or its outermost tiling loop in the consumer's block): it
      does not dominate it and cannot be moved before it, because an op
      defining it has memory effects or it is computed from the producer.
      Side-effect-free definitions printed after the producer (the
      consumer's `tensor.empty`, created right before the consumer by
      torch-mlir, IREE and upstream) can move, so the decision does not
      depend on where they are printed;
    - recomputation blow-up: the consumer re-reads each producer element
      more than `cost_weights.recompute_limit` times (its parallel loops not
      indexing the producer value, e.g. a broadcast), or gathers from it;
    - back-to-back GEMMs: when the consumer contracts over the producer's N,
      the producer's N tile must hold all N columns and the consumer's N
      must fit it (threadblock residence).

    #### Scores (weights, limits and constants from the spec)

    - GPU: `Cost = register_pressure*RegPressure +
      coalescing_penalty*CoalescingPenalty - bandwidth_saved*BandwidthSaved`.
      The fused kernel's registers per thread come from a structural
      two-phase model of what the kernel holds live (main loop:
      accumulators + operand fragments x reduction steps in flight;
      epilogue: accumulators + epilogue inputs + temporaries; plus thread
      and block ids, 64-bit loop counters, a 64-bit pointer per buffer and
      a stage offset per operand staged in shared memory). Steps in flight:
      for an op doing one element of each reduction loop per iteration of
      a K-step `scf.for` of trip count T (static or bounded),
      min(T, ceil(L / issue), 1 + ceil(2L / FMAs per step)), else 1,
      with L and issue from `pipeline.units.smem_load` (the compiler issues
      later steps' loads early to hide the load latency;
      `include/hwsched/Analysis/RegisterEstimate.h`, checked against ptxas
      by `bench/tileconfig/reg_check.py`). Hard limit: the
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
    `registers=<n> (acc=.. frag=.. epi=.. tmp=.. addr=.. staged=..
    inflight=.. step=.. floor=.. tile=[..] tiled|default)` (`addr`: distinct
    buffers addressed, `staged`: reduction operands read from shared
    memory, `inflight`: reduction steps whose fragments are live at once).

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

def EstimateOp : Hwsched_TransformOp<"cost_model.estimate", [HwschedNumericParams]> {
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

def SelectTileConfigOp : Hwsched_TransformOp<"cost_model.select_tile_config", [HwschedNumericParams]> {
  let summary = "Chooses tile sizes, thread counts and stages from the spec";
  let description = !strconcat([{
    Bolt-style (MLSys 2022) selection of a tiling configuration for each
    Linalg op in `op`: a small candidate set is enumerated for the target
    family, pruned by hardware rules, scored with a roofline estimate, and
    the best candidate is returned as parameters that feed upstream tiling
    ops directly. The op only reads the payload.

    The op is viewed as a (batched) GEMM M x N x K:
    - contractions (`linalg.matmul`, `linalg.batch_matmul`, a
      `linalg.generic` with contraction semantics): batch / M / N / K loops
      from `linalg::inferContractionDims`;
    - convolutions, as implicit GEMMs (`linalg::inferConvolutionDims`):
      M = batch and output image loops, N = output channels, K = filter
      window and input channels (depthwise channels are batches);
    - elementwise ops (all loops parallel): N = innermost loop, M = the
      others, no K;
    - reductions: M = parallel loops, K = reduced loops, no N.
    A tile of a group of loops (e.g. M over `n, oh, ow` of a convolution) is
    spread over its loops innermost first.

    #### Results

    Every list has one value per loop of the payload op, in loop order
    (iterator order of the Linalg op); 0 means "not tiled at this level".
    - `tile_sizes`: the block tile of the parallel loops (GPU threadblock,
      NPU AI-core tile, CPU cache tile MC x NC); batch loops 1, reduction
      loops 0. Feed to `transform.structured.tile_using_forall ... tile_sizes
      *(%tile_sizes)` (mapped to `#gpu.block<...>`) or `tile_using_for`.
    - `thread_tile_sizes`: the per-thread tile (GPU) or register tile (CPU,
      MR x NR with NR a multiple of the vector lanes), NPU: the cube fractal;
      0 on reduction loops, on loops whose block tile is 1 and (GPU) on
      outer loops beyond the third mapped one, so the number of non-zero
      values equals the mapped thread dimensions (at most three). Apply it to the
      op produced by the block-level tiling. The thread (register) kernel
      steps K by 1: the register estimate assumes the thread-level op's
      reduction loops are tiled by 1 (`tile_using_for [0, 0, 1]`).
    - `reduction_tile_sizes`: the K tile (GPU BK, the depth of one
      shared-memory stage; CPU KC), on reduction loops only, 0 elsewhere.
      `tile_using_for` takes one param per loop: split the list with
      `transform.split_handle` (see the example).
    - `num_stages`: one value, the multi-buffering depth for
      `transform.pipeline.schedule_stages ... num_stages = ` (GPU: shared-
      memory stages, in 2..`pipeline.max_stages`; NPU: the ping-pong factor;
      CPU: `pipeline.max_stages`). Elementwise ops and reductions use 1 on
      GPUs.
    - `num_threads`: three values, the GPU block dims (x, y, z): the trip
      counts of the thread-level `scf.forall` (`tile_sizes` tiled by
      `thread_tile_sizes`, ceil(tile / thread tile) per loop with a non-zero
      thread tile), innermost loop first (x), 1 for the dims it does not
      have; on CPUs (T, 1, 1) for contractions, T the threads that run the
      column panels (at most `cpu.cores`), {1, 1, 1} for other ops and on NPUs. For a matmul whose block tile fits
      the problem this is (BN / TN, BM / TM, 1); a block tile clamped to a
      small extent runs fewer threads (2x3x4: tiles [2, 3], thread tiles
      [1, 2], num_threads [2, 2, 1]). Upstream
      `gpu.map_nested_forall_to_threads` takes `block_dims` as a static
      attribute, so a script either instantiates it from this value (see
      bench/tileconfig/gpu_check.py) or branches on it with
      `transform.match.param.cmpi`.
    - `split_k` (optional sixth result): one value, the split-K factor s
      (GPU contractions; 1 on NPUs, CPUs and for ops that cannot be split).
      Only when this result is present does the GPU rule consider s > 1:
      asking for it says the script applies the split, e.g. with
      `transform.hwsched.split_k` (upstream `linalg::splitReduction`,
      partial sums in an s x M x N tensor, then a reduction over s). A
      script with five results keeps the unsplit picks. With s > 1 the
      other lists still describe the original op: `tile_sizes` [BM, BN, 0]
      tile the partial op's M and N loops (its split loop by 1, one block
      per split), `reduction_tile_sizes` [0, 0, BK] its K / s loop, and
      `num_threads` its blocks and those of the reduction. See
      `@gpu_matmul_split_k` in transform-scripts/gpu-matmul.mlir.
    Several payload ops: the lists are concatenated in handle order.

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
    %thr, %tforall = transform.structured.tile_using_forall %k
        tile_sizes *(%thread) (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    ```

    #### Rules and score

    - GPU: threadblock tiles BM, BN in {16, 32, 64, 128, 256}, BK in
      {8, 16, 32, 64}, per-thread tiles TM, TN in {1, 2, 4, 8, 16} (warp
      tile 4TM x 8TN), stages 2..`pipeline.max_stages`; elementwise ops and
      reductions use their own sets, clamped to the padded extent (a
      16 x 16 add gets a 16-wide block, not a refusal). Pruned: threads
      per block not a multiple of the warp size (unless the block covers
      the whole padded problem) or above
      `gpu.max_threads_per_block`; registers per thread from the register
      model of `estimate` (terms: accumulators TM*TN, fragments TM + TN
      with the steps in flight over a BK-deep K-step loop, one pointer per
      operand and a stage offset for the A and B tiles in shared memory)
      above
      `gpu.max_registers_per_thread` (`reg_limit`); shared memory
      (BM*BK + BK*BN) * bytes * stages above `onchip.capacity_bytes`; no
      block fitting an SM; tiles twice the problem; more stages than K tiles;
      block tiles not dividing the padded M or N when some feasible one does
      (the thread mapping needs whole blocks).
      Score (estimated ns, lower wins): max(compute, off-chip, shared-memory
      traffic) over wave efficiency (blocks / (SMs x ceil(blocks / SMs)):
      the busiest SM's share) x occupancy factor (resident warps per SM / the
      warps `pipeline.units.vector` needs to cover the FMA latency given TM*TN
      independent FMAs per thread, <= 1) x 0.9 unless 4 or 8 warps
      x stage factor (stages needed to hide `offchip.latency_cycles`), times
      1 + excess / budget above the occupancy register budget, plus one
      `offchip.latency_cycles` per round of resident blocks on the busiest
      SM (pipeline fill: a block waits for its first tile whatever its
      stages, which matters for the short K loops of split-K). Shared-memory
      traffic per FMA is (TM + TN) / (TM TN): larger warp tiles raise the
      compute-to-memory ratio. Dimensions not a multiple of 8 are padded.
      Split-K (only with the `split_k` result, on a static contraction with
      one reduction loop): s in {1, 2, 4, 8, 16} dividing K with at
      least one BK tile per split; blocks = M tiles x N tiles x s, the
      stage count bounded by the K tiles of one split. The partial kernel
      writes s x M x N partial sums instead of M x N, and a reduce step
      ((s + 1) x M x N accumulator bytes over `offchip.bandwidth_gb_per_s`
      plus one `offchip.latency_cycles`, the second kernel's dependent
      read) is added to the score. More blocks raise the wave efficiency
      (the busiest SM's share) and, when an SM holds several, the resident
      warps (occupancy factor): a split wins for small M x N with a large
      K and loses when the grid already fills the SMs.
      SM fill (Bolt: small problems need enough blocks to keep every SM
      busy), after scoring: when the best-scored candidate's wave
      efficiency (the share of the SM time its grid keeps busy; for a grid
      of one wave, the share of SMs with a block) is below
      `cost_weights.sm_fill_threshold` (shipped 0.66; 0 disables the rule),
      the fastest candidate at or above the threshold is returned instead:
      smaller tiles with five results, smaller tiles or a split-K factor
      with the `split_k` result. If none reaches it, the best-scored one is
      kept. Grids of at least two full waves have an efficiency of at least
      2/3, so with the default only grids of under two waves (small
      problems) can trigger it, and only when more than a third of the SMs
      idle: e.g. A100 128^3 (64 of 108 SMs with 16x16 tiles) is split by 4
      with the `split_k` result, while H100 1024^3 (128 of 132) and
      3136x256x64 (98 of 108, 128 or 132) keep the score's pick. The rule
      does not change the scores: they stay the model's estimates, and
      `explain` shows what the rule costs by them ("estimated 16.8%
      slower"). It is a rule rather than a heavier wave term because the
      score is least reliable exactly there: a grid of under two waves runs
      for microseconds, where fixed latencies (pipeline fill, the split-K
      reduce step) from spec figures dominate the estimate, and the
      roofline gives the busy SMs the whole chip's off-chip bandwidth, so
      an idle SM costs only its compute, not its share of outstanding loads
      and on-chip bandwidth.
    - NPU: tiles multiples of `npu.cube_tile`; pruned unless
      (align(A) + align(B) + align(C)) * `npu.ping_pong_factor` <=
      `onchip.capacity_bytes` (`ub_limit_bytes`), each tile rounded to
      `onchip.alignment_bytes`. Score: ceil(blocks / `npu.ai_cores`) block
      times, a block overlapping cube and MTE2 per K tile.
    - CPU: register tile MR x NRV vectors with MR*NRV + 2*NRV + 1 <=
      `cpu.vector_registers` (accumulators, the B vectors of this and the
      next K step, which a compiled kernel loads early, one broadcast); the A
      sliver of one K tile <= `cpu.l1d_bytes` / 2;
      the cache tile's working set (KC x NC panel of B and MC x NC block of
      C) <= `cpu.l2_bytes` / 2 (and `l2_limit_bytes` / 2: unpacked rows a
      power-of-two leading dimension apart fall into few sets, so half of
      L2 is left for set conflicts), and the B panel's KC rows, N elements
      apart, span no more than `cpu.l2_bytes`; operands named by
      `packed_operands` change the last two rules (below);
      tiles divide static extents when possible. Contractions run their
      column panels (NC blocks) on up to `cpu.cores` threads, the busiest
      one running ceil(panels / threads) of them. Score, per thread: the
      larger of the FMA/load-port/latency bound cycles of the register
      kernel and the off-chip re-reads over the threads' share of the
      bandwidth. Each thread's packed K x NC panel must fit its share of the
      L3 (`cpu.l3_bytes` over min(threads, `cpu.l3_sharing_cores`)), unless
      no candidate does.
    - Ties (estimates within 1%) go to the candidate with the least total
      busy time (compute + off-chip + on-chip), i.e. the higher
      compute-to-memory ratio, then to fewer stages and smaller tiles.
    - Elementwise ops and reductions: the same constraints with no shared
      memory staging on GPUs and one tile per operand on NPUs.

    #### Packed operands

    `packed_operands = array<i64: ...>` tells the model which operands of the
    payload op (inputs then outputs, by operand number: `linalg.matmul` has
    A = 0, B = 1, C = 2) the schedule copies into contiguous buffers before
    the loops that reuse them, as `transform.structured.pad` +
    `hoist_pad` do for a GotoBLAS-style packed B panel. Each index must name
    the M x K (lhs), K x N (rhs) or M x N (acc) operand of the GEMM view
    (found from the loops its indexing map uses), so the payload must be a
    contraction or a convolution. The CPU rule then counts a packed B
    panel or C block at its size against the whole of `cpu.l2_bytes`
    (packed bytes + 2 x unpacked bytes <= L2: only unpacked tiles keep the
    set-conflict headroom) and drops the span bound on the B panel's rows
    (a packed panel is contiguous). A packed A changes nothing in the CPU
    rule (its sliver's L1 bound leaves room for the streamed lines, not for
    conflicts). Without the attribute every operand is assumed unpacked.
    GPU and NPU rules stage tiles in on-chip memory anyway: there the
    attribute is checked and ignored, with a remark.

    #### What the schedule keeps in shared memory

    By default the GPU rule counts a block's shared memory as the
    multi-buffered A and B tiles only (the accumulator lives in registers)
    and bounds it by `onchip.capacity_bytes`, the dynamic shared memory a
    launch can opt into. Two unit attributes let a script describe its own
    schedule instead (both off by default; neither is a spec override):
    - `accumulator_in_smem`: the schedule keeps the block's accumulator
      tile (BM x BN x accumulator bytes, single-buffered) in shared memory
      between K steps, as `@gpu_matmul_smem_pipelined` does. Each GPU
      contraction candidate's shared bytes become
      (BM*BK + BK*BN) * bytes * stages + BM*BN * accumulator bytes, in the
      capacity rule, the resident blocks per SM (occupancy) and `explain`'s
      candidate lines ("N shared bytes (accumulator M)").
    - `static_smem`: the schedule's shared memory is static (one
      `memref.global` workgroup buffer after `merge_allocations`), which
      ptxas limits to `gpu.max_static_smem_per_block_bytes` (49152 on the
      shipped NVIDIA specs) whatever `onchip.capacity_bytes` allows; the
      capacity rule then uses the smaller of the two (pruned as "shared
      memory > gpu.max_static_smem_per_block_bytes (static)" when the static
      cap is the smaller one).
    With either attribute, `explain` adds a remark after the candidate
    counts: "shared memory per block: (BM*BK + BK*BN) * 4 B * stages
    + BM*BN * 4 B (accumulator tile, accumulator_in_smem), cap 49152 B
    (gpu.max_static_smem_per_block_bytes, static_smem)".
    On NPU and CPU targets, and for GPU elementwise ops and reductions (no
    staged tiles), both are accepted and change nothing.

    `explain` emits remarks on the payload op: the decision, the candidate
    counts (enumerated, feasible, pruned per rule, and the selection time),
    the best
    candidates with registers, on-chip bytes, occupancy, waves and score,
    and why the winner won. On GPUs every candidate shows its split-K
    factor (`split_k s`), the decision remark ends with `split_k s` when the
    result is requested, and the winner remark says "B of S SMs busy, W
    waves" (and, for a split winner, the estimated reduce step); when the
    winner's grid leaves SMs idle (a small problem) it adds the cost of the
    fastest candidate that busies more SMs, or that none can (without
    split-K the output tiles bound the grid), and, when that is the score's
    decision, that the grid is at or above the fill threshold. When the
    best-scored candidate is below the threshold, a remark "fill rule: the
    best-scored candidate, ..., busies 64/108 SMs in its only wave (59%) <
    cost_weights.sm_fill_threshold 66%: picked the fastest candidate at or
    above it, ..., estimated 16.8% slower by the score" (or "no candidate
    reaches it") precedes the winner remark, which then says the winner
    "was picked by the fill rule" and how much slower than the best-scored
    candidate it is estimated. Padding and dynamic-extent assumptions are
    always reported as remarks. A dynamic extent is assumed to be 256 (the
    largest block tile), which keeps every candidate and gives a
    conservative pick valid at any size.

    #### Measurement mode

    `measure_top_k = k` (with a CPU target) compiles and runs the model's
    best k candidates on the host CPU and returns the fastest, so a script
    is tuned without recompiling anything. Each candidate is measured on a
    standalone copy of the payload op (its operands become global buffers
    filled with constants) tiled with the candidate's lists through upstream
    transform ops (`tile_using_for` at the cache, reduction and register
    levels, reduction loops stepped by 1, `vectorize`,
    `hoist_loop_invariant_subsets`, `one_shot_bufferize`, contractions
    lowered to FMAs), lowered to LLVM and JIT-compiled in-process
    (mlir::ExecutionEngine, LLVM -O3 for the host CPU). The time is the
    median over `measure_samples` samples (default 5, after one warm-up
    call) of thread CPU time per call; a sample lasts at least 20 ms. A
    remark lists every measured candidate with its lists and time and names
    the one kept; a candidate that fails to compile is listed with the
    reason and skipped. The payload is not modified (the copy lives in a
    private context).

    When measurement is impossible (a GPU or NPU target, dynamic shapes,
    buffer semantics, the tool lacks the transform extensions or the host
    JIT, every candidate failed) the model's pick is returned and a remark
    says why.

    #### Tuning database

    A tuning database (a JSON file written by `hwsched-tune`, format in
    docs/tuning.md) maps problems to measured configurations. The op reads
    the one named by `tuning_db = "path"`, else by the environment variable
    `HWSCHED_TUNING_DB`, else by the spec's `tuning.database` (relative to
    the spec file). The problem's key is the payload op's signature (name,
    loop extents, iterator kinds, element types; for a `linalg.generic` a
    digest of its maps and body), the spec name and the spec's fingerprint
    (a digest of every figure after overrides): e.g. `linalg.matmul
    256x256x256 ppr f32,f32,f32 on x86-avx512#1f0c...`. When the database
    has an entry for the key with a `config` (block BM x BN x BK, inner
    TM x TN, stages, split-K factor) recorded under the same schedule
    (`packed_operands`, the `split_k` result, `accumulator_in_smem`,
    `static_smem`), that feasible candidate is returned instead of the
    model's pick and a remark says so (with or without `explain`): the
    file, where its name came from, the configuration, its measured time
    and where the model ranks it. An entry recorded under another schedule
    is not used (a remark says why). So changing the file changes the
    schedule with no rebuild, and a tuned script needs nothing but
    `HWSCHED_TUNING_DB`. `measure_top_k` and `candidate_rank` do not apply
    to a problem the database answers.

    `candidate_rank = r` (0 = the model's pick) returns the model's
    (r + 1)-th best feasible candidate instead, e.g. driven by a
    `transform.tune.knob` through `params(candidate_rank = %k)`.

    #### Candidates export

    With `candidates_file = "path"` (else the environment variable
    `HWSCHED_TUNING_CANDIDATES`), every decision appends one JSON line to
    the file: `{"hwsched_tuning_candidates": 1, "key", "signature",
    "kind", "gemm", "schedule", "enumerated", "feasible", "pruned",
    "chosen_rank", "chosen_by" ("model", "candidate_rank", "database",
    "measurement"), "chosen", "database", "database_status", "candidates":
    [...]}`, where each candidate, best first (the first `export_top_k`,
    default all feasible ones), has its `rank`, its `config` as a database
    entry spells it, the per-loop lists the op would return, the model's
    `predicted_ns` with its compute / off-chip / on-chip terms, and the
    figures the hardware rules checked: GPU `registers_per_thread`,
    `smem_bytes`, `threads`, `blocks_per_sm`, `occupancy`; CPU
    `vector_registers`, `l1_bytes`, `l2_bytes`; NPU `ub_bytes`. One line per
    payload op, so a tool reads the file line by line (JSON Lines).

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
    `gpu.max_static_smem_per_block_bytes` is a silenceable failure naming the
    key and the spec file; when no candidate fits the (static) shared-memory
    cap, the failure lists the pruned counts and the smallest candidate's
    shared bytes against the cap. Nothing is
    produced unless every payload op succeeds.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$op,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain,
                            OptionalAttr<I64Attr>:$measure_top_k,
                            OptionalAttr<I64Attr>:$measure_samples,
                            OptionalAttr<DenseI64ArrayAttr>:$packed_operands,
                            UnitAttr:$accumulator_in_smem,
                            UnitAttr:$static_smem,
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

def TunedKnobOp : Hwsched_TransformOp<"cost_model.tuned_knob",
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

#endif // HWSCHED_TRANSFORMOPS_COSTMODELOPS
