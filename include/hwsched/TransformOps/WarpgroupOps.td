//===- WarpgroupOps.td - transform.hwsched.rewrite_matmul_as_wgmma -*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_WARPGROUPOPS
#define HWSCHED_TRANSFORMOPS_WARPGROUPOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def RewriteMatmulAsWgmmaOp
    : Hwsched_TransformOp<"hwsched.rewrite_matmul_as_wgmma",
                          [HwschedNumericParams]> {
  let summary = "Rewrites a matmul into a Hopper kernel: TMA loads into a "
                "multi-stage ring, warpgroup MMAs (wgmma)";
  let description = !strconcat([{
    Replaces each payload `linalg.matmul` (on buffers, outside any kernel,
    `C = A x B` with A `M x K` and B `K x N` row-major f16 or bf16, C `M x N`
    f32, C zero-filled by a `linalg.fill` before it in the same block, with
    no op in between that may write C) by a `gpu.launch`
    of the kernel NVIDIA Hopper GPUs run matmuls with, built from upstream's
    `nvgpu` operations:

    - **Blocks** of `block_m x block_n` of C (grid `N / block_n` by
      `M / block_m`), each shared by `warpgroups` consumer warpgroups of
      128 threads that split its rows (`block_m / warpgroups` rows each, a
      multiple of 64: one `wgmma` is 64 rows).
    - **TMA** (`nvgpu.tma.async.load`): per K step of 64 elements (one
      128-byte swizzle span) one box of A (`block_m x 64`) and `block_n / 64`
      boxes of B (`64 x 64`) land in a ring of `num_stages` shared-memory
      slots, 128-byte swizzled (conflict-free for the MMAs' reads), each slot
      guarded by its own transaction mbarrier. Thread 0 issues every load;
      the tensor maps are created on the host (`nvgpu.tma.create.descriptor`)
      before the launch.
    - **wgmma** (`nvgpu.warpgroup.mma`, lowered to `wgmma.mma_async`): each
      step waits for its slot's mbarrier (phase parity flipping as the ring
      wraps), multiplies from shared memory through matrix descriptors into
      an f32 accumulator held in registers, and waits until at most one
      group of MMAs is in flight; the slot of the previous step is then
      refilled with the step `num_stages - 1` ahead (with several
      warpgroups, after one block barrier, so that none still reads it).
    - The accumulator is stored into C once, after the last step.
    - **Producer warp**: with `producer_warp = 1` one more warp (after the
      warpgroups, which wgmma needs aligned to warps 0, 4, ...) issues every
      TMA load; the warpgroups release a slot through a second ring of
      mbarriers (one arrival each) instead of a block barrier, and no
      consumer thread issues loads.
    - **Raster order**: with `raster_group = G` (default 1: block (x, y)
      computes tile row y, column x) the blocks, numbered row by row, walk
      groups of G tile rows column by column, so that the blocks running
      at once share a few panels of A and of B in L2.

    Shared memory is dynamic (`num_stages x (block_m + block_n) x 128`
    bytes, plus 1024 to align the ring), so it is not capped at the 48 KiB
    of static shared memory; the launch carries the size. Lower with
    `convert-nvgpu-to-nvvm` and compile for `sm_90a` (`wgmma` is
    architecture-specific).

    **Tiles.** `block_m`, `block_n`, `num_stages`, `warpgroups`,
    `raster_group` and `producer_warp` can each be given (an attribute or a
    `params(...)` value: a knob, a tuning database); whatever is left open
    is decided by the cost model (`CostModel/WarpgroupTiles.h`), which ranks
    every legal configuration that agrees with what was given (the busiest
    SM's time at the matrix peak first, then traffic per multiply-add; the
    ranking and its measured check on H100 and H200 are described in
    [docs/Hopper.md](../Hopper.md)). `explain` prints the plan on the matmul
    (tiles, steps, stages, bytes per stage, shared memory against the
    limit, accumulator registers, grid) and, when the model chose, its
    ranking: the winner, why it beat the runner-up, the first five
    candidates with their figures and what was pruned.

    #### Example

    ```mlir
    %mm = transform.structured.match ops{["linalg.matmul"]} in %f
        : (!transform.any_op) -> !transform.any_op
    %launch = transform.hwsched.rewrite_matmul_as_wgmma %mm
        { target = "nvidia-h100", block_m = 128, block_n = 256,
          warpgroups = 2, num_stages = 4, explain }
        : (!transform.any_op) -> !transform.any_op
    // Or: the cost model decides every tile.
    %launch2 = transform.hwsched.rewrite_matmul_as_wgmma %mm2
        { target = "nvidia-h100", explain }
        : (!transform.any_op) -> !transform.any_op
    ```

    #### Return modes

    Checks every payload op before rewriting any. A silenceable failure,
    naming the op and the property, with the payload unchanged, when: the
    target is not a GPU of compute capability sm_90; a payload op is not a
    `linalg.matmul` with the default indexing maps, is on tensors, is inside
    a `gpu.launch`, has inputs other than f16 / bf16 or an output other than
    f32, an operand with a dynamic shape, a non-identity layout or outside
    global memory, or a C not zero-filled by a `linalg.fill` before it (an
    op in between may write C unless one of the two buffers is a fresh
    allocation);
    the given tiles do not divide M, N and K (partial tiles are not built),
    are not multiples of 64, exceed 256, or `block_m` does not split into
    `warpgroups` multiples of 64; a warpgroup of more than 64 rows has other
    than 128 columns (upstream's accumulator store places its second 64
    rows right only then); K has fewer than `num_stages - 1` steps; the
    ring, the threads or the registers exceed the target's limits; or,
    with inputs left open, no configuration is legal (the message names
    the first refusal). The `matmul` handle is consumed; the result holds the
    new `gpu.launch` ops.
  }], HwschedParamsDoc, HwschedTargetDoc, HwschedSpecFailureDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$matmul,
                            OptionalAttr<StrAttr>:$target,
                            OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<64>]>>:$block_m,
                            OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<64>]>>:$block_n,
                            OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<2>]>>:$num_stages,
                            OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$warpgroups,
                            OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$raster_group,
                            OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<1>]>>:$producer_warp,
                            UnitAttr:$explain),
                          HwschedParamArgs);
  let results = (outs TransformHandleTypeInterface:$launch);
  let assemblyFormat =
      "$matmul (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def MatchWgmmaMatmulsOp
    : Hwsched_NavigationOp<"hwsched.match_wgmma_matmuls",
                           [HwschedNumericParams]> {
  let summary = "Splits matmuls into those the Hopper wgmma + TMA kernel "
                "takes and the others";
  let description = !strconcat([{
    Routes each payload op of `ops` before a schedule is chosen: `taken`
    lists the ops `transform.hwsched.rewrite_matmul_as_wgmma` will rewrite
    with every tile left to its cost model, `others` the rest, both in
    handle order. It lets one entry point (`@gpu_matmul_auto` in
    `transform-scripts/gpu-matmul.mlir`) send what the Hopper kernel takes
    to it and everything else to the other schedules, on the same script
    and target.

    An op is taken when its target is a GPU of compute capability sm_90 and
    the op passes the rewrite's checks in the form it has now:

    - on buffers, exactly those of `rewrite_matmul_as_wgmma`;
    - on tensors, those its bufferized form will meet after one-shot
      bufferization with identity layouts at function boundaries (as the
      shipped scripts bufferize): a `linalg.matmul` with the default
      indexing maps, outside any `gpu.launch`, f16 x f16 or bf16 x bf16
      into f32, static whole operands (not a `tensor.extract_slice` of a
      larger tensor, which bufferizes to a strided view), its init a
      `linalg.fill` of zero; extents that are not whole 64-element tiles
      are taken as zero-padded to them (the remark gives both shapes): the
      script pads the op before bufferizing, e.g. with
      `transform.structured.pad_tiling_interface ... to padding_sizes
      [64, 64, 64] pad_to_multiple_of`, as `@gpu_matmul_auto` does;

    and the cost model finds a legal configuration (tiles that divide the
    (padded) problem, a ring that fits shared memory, threads and registers
    within the limits). The decision is the one the rewrite makes later:
    the same problem, target and overrides give the same tiles.

    With `explain`, on an sm_90 target, each op gets a remark: the plan it
    will get, or why it is not taken (the rewrite's own refusal, naming the
    property). On other targets no op is taken and nothing is reported (the
    kernel does not exist there).

    #### Example

    ```mlir
    %wgmma, %others = transform.hwsched.match_wgmma_matmuls %contractions
        { explain } : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op)
    transform.annotate %wgmma "hwsched.gpu_wgmma_kernel" : !transform.any_op
    // ... bufferize, then rewrite_matmul_as_wgmma on the annotated ops.
    ```

    #### Return modes

    Only reads the handle and the payload; `taken` and `others` together
    hold every op of `ops` once. A spec that lacks a figure the kernel's
    model reads (on an sm_90 target) is a silenceable failure naming the
    key, with empty results.
  }], HwschedParamsDoc, HwschedTargetDoc, HwschedSpecFailureDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$ops,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain),
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

#endif // HWSCHED_TRANSFORMOPS_WARPGROUPOPS
