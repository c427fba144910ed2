//===- PipelineOps.td - transform.pipeline.* ops ---------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_PIPELINEOPS
#define HWSCHED_TRANSFORMOPS_PIPELINEOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def ScheduleStagesOp
    : Hwsched_TransformOp<"pipeline.schedule_stages",
                          [HwschedNumericParams, FunctionalStyleTransformOpTrait]> {
  let summary = "Software-pipelines an scf.for under the target's resources";
  let description = !strconcat([{
    Software-pipelines each `scf.for` of `loop` so that the copy of a later
    iteration, the on-chip load of the next one and the compute of the
    current one overlap, within the target's units and on-chip capacity.

    #### Dependence graph

    Nodes are the body's ops except scalar index/integer arithmetic,
    constants and memref views, which are not scheduled on their own: each
    follows its earliest user. Edges are SSA def-use (through those ops and
    through `iter_args`, distance 1) and memory RAW/WAR/WAW dependences
    between ops with memory effects, found from `MemoryEffectOpInterface`.
    Accesses are traced through `subview`/`cast`/other views to their
    allocation: different `alloc`/`alloca` never alias, function arguments
    may alias each other unless one is `llvm.noalias`, and two static boxes
    of one allocation (e.g. two subviews) conflict only if they overlap. A
    buffer that every iteration overwrites before reading (checked on the
    accessed boxes, including unions of subview writes) carries no data
    between iterations: its cross-iteration RAW edges carry no value and
    constrain nothing (the covering writes' own edges order the ops), and
    its cross-iteration WAR/WAW edges disappear once it is multi-buffered.
    Other buffers keep distance-1 edges, which force their accessors into
    one stage; a possible alias keeps a RAW with the writer's latency.

    Units (`pipeline.units` of the spec): GPU `async_copy`
    (`nvgpu.device_async_copy`, copies global -> on-chip), `smem_load` (loads
    and copies from on-chip memory, `nvgpu.device_async_wait`),
    `tensor_core` (linalg contractions, `vector.contract`, `nvgpu.mma.sync`),
    `vector` (everything else); NPU `mte2` (copy-in to the on-chip space),
    `mte3` (copy-out), `cube` (contractions), `vector`; CPU `load` (copies
    and loads), `vector`. On-chip buffers are allocations in the spec's
    `onchip.memory_space` (integer space 3 also counts on GPUs; the default
    space on the CPU).

    #### Schedule

    ResMII = max over units of ceil(issue cycles of its ops / count); RecMII
    = the smallest II for which every dependence cycle of latency L and
    distance D has L <= D * II; MII = max of both. Timing model: op v of
    iteration j issues at (j + stage(v)) * II + t(v), 0 <= t(v) < II, and an
    edge of latency L (the producer unit's `latency_cycles`) and distance D
    needs the consumer at least L - D * II cycles after the producer.

    An iterative modulo scheduler (Rau) places the ops at II = MII, MII + 1,
    ... (then growing steps and a bisection): ops by decreasing height, each
    at the first cycle from its earliest start whose unit has a free slot in
    the modulo reservation table (`count` units, `issue_cycles` slots per op;
    async groups/waits and barriers take none), evicting conflicting ops when
    none is free, with the stage limit as a deadline and the body-order rules
    of the kernel as constraints: loop-carried dependences are kept in body
    order (a producer of iteration i never runs after a consumer of iteration
    i + 1), iteration arguments are used no later than defined. It first
    asks that a dependent op on another unit lands in a later stage than its
    producer (ops of one recurrence excepted), then drops that preference at
    the same II: the timing model already keeps every consumer a full
    latency behind its producer, and keeping the rule can cost interval (the
    GPU matmul K loop of the tests: 278 instead of 195 cycles at 3 stages).
    `separate_unit_stages` makes the rule hard (copy, load and compute of a
    K loop each get their own stage, as the classic partition does). The first II with a schedule is the achieved interval; the
    schedule is re-checked (every edge, stage rule and the reservation table)
    before use. The search starts at the stage-limited bound: the smallest
    II >= MII at which every dependence path of latency P fits the limit
    (floor(P / II) + 1 stages); below it no schedule exists. When the
    result is above that bound on a body of at most 64 ops, the stages of a
    level-merging assignment (dependence levels merged to fit the limit) get
    their issue cycles from the same scheduler and the better interval wins.
    On bodies with at most 512 stage assignments, every assignment the
    kernel allows is enumerated as well: its latency-only interval (exact for
    the latencies) is reported by `explain` and the assignments below the
    current interval get their issue cycles scheduled.
    If no search finds a schedule, the level-merging assignment is used with
    its latency-only interval (a remark says so). With the capacity check,
    the interval grows until the buffer copies fit (a remark gives the
    numbers). A buffer touched in stages s .. t gets t - s + 1 copies.

    The stage limit is `num_stages` (clamped to `pipeline.max_stages`) or,
    without it, `pipeline.max_stages`. While the on-chip bytes of all copies
    exceed `onchip.capacity_bytes` the limit is lowered (a remark with
    `explain` says why); if even one stage does not fit, the op fails. With
    `npu_flag`, the limit is lowered the same way (to one below the stages
    used, down to 1) while the flags of one pipe pair need more event ids
    than the hardware has even after coarsening (below); `explain` says so,
    e.g. `requested 9 stages reduced to 8: with 9 stages the flags from cube
    to mte2 need 9 event ids (9 with coarser or shared flags), the hardware
    has 8; 2 plans within the budget were refused` (a K loop whose copy-ins
    run 8 stages ahead of the matmul: one flag in flight per buffer copy;
    the refused plans are those the hardware order does not protect, below),
    or when a plan is not safe in the hardware order. An explicit
    `num_stages` is treated like the capacity case: it is an upper bound,
    reduced with that remark. Bodies with many independent cross-pipe pairs
    (e.g. nine copy-ins into separate buffers, each read by its own vector
    op, in one stage) can still fail at one stage: their flags cannot share
    event ids safely.

    #### Rewrite

    Buffers crossing stages are multi-buffered with `memref::multiBuffer`
    (`alloca` through a temporary `alloc`; the upstream overwrite analysis is
    replaced by ours). With `pipeline.sync = "gpu_barrier"` existing
    `gpu.barrier` ops are dropped and every op that takes part in a memory
    dependence gets a barrier before it, in its own stage (so any
    cross-stage, cross-thread hazard is ordered in the prologue, kernel and
    epilogue); a barrier serves the following ops of the same stage up to
    the first one that conflicts with an op after the barrier;
    `npu_flag` inserts `hwsched_npu.set_flag` / `wait_flag` (Ascend pipe
    flags, see the `hwsched_npu` dialect) for every dependence whose ends run
    on different units (mte2 / cube / vector / mte3): the set right after the
    producer on its pipe, the wait right before the consumer, both in their
    op's stage (so the prologue, kernel and epilogue copies are predicated
    like the ops they order). Event ids rotate with the iteration: for a
    ping-pong buffer, event base + k belongs to buffer copy k, and the reverse
    (WAR) flags that keep a copy-in from overwriting a copy still being read
    are set once per copy before the loop and waited for after it, so every
    wait has exactly one set on every path, whatever the trip count.
    Same-iteration edges of one unit class share one flag; `explain` prints
    one remark per flag channel (pipes, events, stages, distance).

    Each pipe pair has 8 event ids, and a channel needs as many as it has
    flags in flight (at least 1, its distance, its stage span and, for a
    ping-pong buffer, its copies), so large bodies can run out. The channels
    of such a pipe pair are then coarsened: one set/wait pair serves several
    classes (stages, distances), the set right after the latest producer and
    the wait right before the earliest consumer, in the pipelined order of
    the consumer's iteration. This is correct as long as that set comes
    before that wait (each producer precedes the set on its own in-order
    pipe, each consumer follows the wait on its pipe), and a merged channel
    never needs more events than the channels it replaces. Channels are
    merged two at a time, largest event saving first, until the pair fits,
    first keeping one event per buffer copy, then without that minimum; if
    merging gets stuck, the fewest channels that cover every dependence
    (interval stabbing) are tried. If the pair still needs more than 8,
    single-event flags that are never live at the same time (disjoint
    set-to-wait spans of the kernel iteration; distance 0 unless the loop is
    not expanded, so prologue, epilogue and predication drop a set together
    with its wait) share one event id: in program order their sets and waits
    alternate. Coarser flags only make a pipe wait earlier or a release come
    later, sometimes less overlap.

    Hardware order. On the NPU each pipe runs its own instructions in order
    but independently of the other pipes; the only order between two pipes
    is a set_flag (issued on the source pipe after its earlier
    instructions) and the wait_flag that consumes it. Every plan (fine,
    coarsened, shorter rotation, shared events) is checked in that partial
    order: the flags of all pipe pairs are laid out as the pipelined loop
    runs them (stages, body positions, distances, pre-sets before the loop
    and final waits after it, for every trip count up to a bound past which
    nothing new occurs) and, with vector clocks per pipe, each set of an
    event must come after the wait that consumed its previous set
    (program order within each pipe plus the set -> wait edges). A
    coarsened, shortened or shared plan that fails this is not used (the
    next, coarser option is tried, then the stage fallback, then the
    failure); a fine channel that fails it (nothing leads from its consumer
    back to its producer, e.g. a buffer allocated in the loop) gets a
    back-pressure flag the other way, set after its consumer and waited for
    before the producer that sets the same event next (`explain`:
    `distance D, back-pressure`), or the plan is refused when that flag
    does not fit the 8 ids. `--hwsched-emulate-npu-sync` only checks the
    program-order model (a wait without a set, a set twice, a flag left
    set); the hardware-order guarantee above is the planner's. `explain`
    reports each coarsened pair (e.g. `npu flags mte2 ->
    vector coarsened: 3 channels need 14 event ids, the hardware has 8; now
    1 channel with 6 event ids`, with `(N channels share event ids ...)`
    when sharing was needed). The
    unpipelined forms (one stage, full unrolling) get flags the same way;
    `none` adds nothing. `scf::pipelineForLoop` then emits prologue, kernel
    and epilogue: peeled for static trip counts, predicated (side-effecting
    ops under `scf.if`, `ub.poison` for unused results) for dynamic ones,
    which also handles trip counts below the stage count. Static trip counts
    below the number of stages are unrolled completely. Pass-through
    `iter_args` are removed first. A schedule with one stage leaves the loop
    as it is.

    `nvgpu.device_async_copy` ops with neither a group nor a wait in the
    body (all at the top level, tokens unused) get an
    `nvgpu.device_async_create_group` of every copy right after the last copy
    (in the copies' stage) and an `nvgpu.device_async_wait` right before the
    first op that depends on a copy (in that op's stage). A body with one
    group of all copies and one wait on it without `numGroups` (the inserted
    pair or the user's) gets group counts from the stage distance d between
    the group and the wait: d in the prologue and the kernel, min(d,
    stage(wait) - 1 - e) in epilogue part e. Dynamic trip counts (predicated
    parts skip groups) and complete unrolling keep waiting for all groups.

    A dependence that cannot cross threads gets no barrier: both ends are
    `memref.load` / `memref.store` of the same buffer value, and for every
    thread dimension whose block extent may exceed 1 (known from constant
    `gpu.launch` sizes, `known_block_size` or `gpu.known_block_size`) both
    use, at one index position, the same loop-invariant value that is the
    thread id itself or the id plus or minus a value ThreadUniformity proves
    uniform. Each thread then only touches its own elements, and program
    order within the thread (kept by the schedule) suffices. Anything else
    keeps its barrier.

    `explain` emits, before rewriting: one remark per scheduled op (`stage S
    on unit U`), one per on-chip or multi-buffered allocation (copies and
    bytes), and on the loop the stage count and limit, ResMII, RecMII, MII,
    achieved interval, the stage-limited bound and which scheduler produced
    the stages, when a recurrence sets the interval (RecMII >= ResMII) the
    dependence cycle and what carries it (a value in an iter_arg, one buffer
    that cannot be multi-buffered and why, or two accesses through function
    arguments that may alias, with the `llvm.noalias` that lifts it), the
    enumerated latency-only optimum when computed, on-chip
    bytes against the capacity, every clamp or reduction of the stage count
    with its reason (capacity or NPU event ids), every coarsened NPU pipe
    pair, and one remark per NPU flag channel.

    #### Return modes

    Consumes `loop`; `pipelined` holds the new kernel loops (the unchanged
    loop for one stage; nothing for a loop unrolled completely). Every
    payload op is analysed and scheduled before any is changed. Silenceable
    failures, payload unchanged: a payload op that is not `scf.for`, an
    unsigned loop, a loop on tensors (tensor `iter_args`, an op with a
    tensor result, or an `scf.forall` on tensors in the body: the op
    pipelines loops over buffers, so the message says to bufferize first),
    an op with unknown memory effects (e.g. `func.call`), a
    yield of another iteration argument or of a value defined outside the
    loop, nested loops in one handle, an `nvgpu.device_async_copy` without
    an `nvgpu.device_async_wait` in a body that has a group, or nested in a
    region, or with its token used; async copies that would need a group in
    two stages, an op before the last copy that depends on a copy, or no op
    depending on the copies (no place for an inserted wait); with
    `npu_flag`, a unit that is not an NPU pipe name, or flags needing more
    than the 8 event ids of one pipe pair even coarsened and shared (with
    every reuse of an event ordered on the hardware) with one stage, or a
    flag the hardware order cannot protect even with a back-pressure flag;
    on-chip capacity exceeded with one stage (the message gives the
    bytes and the capacity), multi-buffering with a non-index induction
    variable, a spec lacking `pipeline.units`, `pipeline.max_stages` or
    `onchip.capacity_bytes`. A failure of the upstream rewriters after the
    payload changed (not expected: the preconditions mirror theirs) is a
    definite failure.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$loop,
                            OptionalAttr<StrAttr>:$target,
                            OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$num_stages,
                            UnitAttr:$separate_unit_stages,
                            UnitAttr:$explain),
                          HwschedParamArgs);
  let results = (outs TransformHandleTypeInterface:$pipelined);
  let assemblyFormat =
      "$loop (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_PIPELINEOPS
