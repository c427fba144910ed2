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
    current one overlap, within the target's units (`pipeline.units`) and
    on-chip capacity (`onchip.capacity_bytes`). The model (the dependence
    graph, units, the modulo scheduler and its bounds, the rewrite, GPU
    barriers and async-copy groups, NPU flags and their hardware-order check)
    is described in [docs/Pipelining.md](../Pipelining.md).

    In short: the body's ops form a dependence graph (SSA def-use through
    `iter_args`, memory dependences traced through views to their
    allocation); an iterative modulo scheduler gives each op a stage and an
    issue cycle at the smallest interval it reaches from MII = max(ResMII,
    RecMII) within the stage limit; buffers crossing stages are
    multi-buffered (a buffer touched in stages s .. t gets t - s + 1
    copies); synchronisation follows the spec's `pipeline.sync`
    (`gpu_barrier`: a `gpu.barrier` before the ops of memory dependences
    that may cross threads; `npu_flag`: `hwsched_npu.set_flag` / `wait_flag`
    between Ascend pipes; `none`); `scf::pipelineForLoop` emits prologue,
    kernel and epilogue (peeled for static trip counts, predicated for
    dynamic ones; static trip counts below the stage count are unrolled
    completely). A schedule with one stage leaves the loop as it is.
    `nvgpu.device_async_copy` ops without a group get one, and a wait.

    In a GPU block of known size (constant `gpu.launch` block sizes or
    `gpu.known_block_size`), writes indexed by the thread ids are taken over
    all of the block's threads: a tile whose threads' copies together cover
    it every iteration is multi-buffered, and copies disjoint across threads
    need no barrier between them. A buffer the loop already rotates through
    (slot `iteration mod N` picked by a subview) keeps its N slots. An
    async-copy pipeline with a static trip count gets one barrier per step
    (wait, barrier, next copies, reads) when a simulation of the expanded
    loop shows that it orders every cross-thread dependence.

    #### Attributes

    - `num_stages`: the stage limit, clamped to `pipeline.max_stages` (the
      limit without it). An upper bound: it is lowered while the buffer
      copies exceed the on-chip capacity or, with `npu_flag`, while the
      flags need more event ids than the hardware has (a remark with
      `explain` says why); if one stage does not fit, the op fails.
    - `separate_unit_stages`: dependent ops on different units always go to
      different stages (the classic copy / load / compute partition), even
      where that costs interval.
    - `explain`: remarks before the rewrite: `stage S on unit U` per
      scheduled op, copies and bytes per on-chip or multi-buffered buffer,
      and on the loop the stages and limit, ResMII, RecMII, MII, the achieved
      interval, the stage-limited bound, the recurrence that sets the
      interval, on-chip bytes, every stage clamp and the NPU flag channels.

    #### Example

    ```mlir
    %loop = transform.structured.match ops{["scf.for"]} in %f
        : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop
        { target = "nvidia-h100", num_stages = 3, explain }
        : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    ```

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
