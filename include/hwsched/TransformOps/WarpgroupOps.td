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
    f32, C zero-filled by a `linalg.fill` just before it) by a `gpu.launch`
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
    every legal configuration that agrees with what was given: first the
    time of the busiest SM at the target's matrix peak (the blocks it gets,
    wave-quantized over `gpu.sm_count`; within 5% of the best counts as
    equal), then, among equal times, the bytes
    of A and B each multiply-add brings from memory (larger tiles), the
    bytes the MMAs read from shared memory per multiply-add (wider
    warpgroup tiles), the warpgroups an SM runs at once, and the deeper
    ring; `raster_group` defaults to 8 and `producer_warp` to 0 (on an H100
    and an H200, grouping was never slower and the producer warp no faster).
    A configuration is legal when the tiles divide the problem, each
    warpgroup has a multiple of 64 rows, the ring fits the target's shared
    memory, and the threads and the accumulator (`block_m / warpgroups x
    block_n / 128` registers per thread, about 32 more for the rest) fit its
    limits. `explain` prints the plan on the matmul (tiles, steps, stages,
    bytes per stage, shared memory against the limit, accumulator
    registers, grid) and, when the model chose, its ranking: the winner,
    why it beat the runner-up, the first five candidates with their figures
    and what was pruned.

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
    global memory, or a C not zero-filled by a `linalg.fill` just before it;
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

#endif // HWSCHED_TRANSFORMOPS_WARPGROUPOPS
