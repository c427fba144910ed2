//===- SmemOps.td - transform.smem.* ops -----------------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_SMEMOPS
#define HWSCHED_TRANSFORMOPS_SMEMOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def MergeAllocationsOp : Hwsched_TransformOp<"smem.merge_allocations", [HwschedNumericParams]> {
  let summary = "Packs on-chip allocations with disjoint lifetimes into one buffer";
  let description = !strconcat([{
    For each scope in `scope` (a `func.func`, `gpu.func`, `gpu.launch` or
    any op with regions), places every allocation in the target's on-chip
    memory space (`onchip.memory_space` of the spec:
    `#gpu.address_space<workgroup>` on GPUs, `"ub"` on Ascend NPUs, the
    default memory space on CPUs) at an offset of one byte buffer, so that
    buffers whose lifetimes never overlap share bytes.

    In short: the allocations are `memref.alloc` / `memref.alloca` in the
    scope and its nested loops and branches (and the workgroup attributions
    of a `gpu.func` scope) in that memory space; dynamic sizes need an upper
    bound proven by `ValueBoundsOpInterface`. A buffer is live from its
    first to its last access through it or any alias (views, selects,
    region yields and iter_args, async copies until their wait). A buffer
    whose uses cannot be followed, with a non-identity layout or an
    unbounded size is pinned: it keeps its own allocation. The rest is
    packed greedily, then, while the peak is above the lower bound (the
    largest live bytes at any program point), by an exact search for
    dynamic storage allocation after MiniMalloc (ASPLOS 2023) within a
    deterministic budget of steps. The rewrite is one byte buffer with
    `memref.view`s at the offsets (a new workgroup attribution for merged
    `gpu.func` attributions); on GPU targets a `gpu.barrier` separates
    buffers that share bytes, reused where one exists, with lifetimes first
    widened to points every thread reaches. The lifetime rules, packing
    orders, search, rewrite and barrier placement are described in
    [docs/Smem.md](../Smem.md).

    #### Attributes

    - `search_steps`: the exact search's budget in steps (elementary
      operations, the same on every machine): by default 2^31 for "does it
      fit the capacity?" and 2^27 for lowering a packing that fits; 0 keeps
      the greedy packing.
    - `time_budget_ms` (default none): also stops the search after that
      much wall-clock time (the result then depends on the machine).
    - `dynamic_shared_memory` (GPU targets): the merged buffer is the
      `gpu.dynamic_shared_memory` of the `gpu.launch` holding the buffers,
      whose `dynamic_shared_memory_size` becomes the peak: no 48 KiB static
      cap, and no workgroup `memref.alloc` left in the launch (which the NVVM
      lowering would turn into a `malloc`). Refused, payload unchanged, when
      a buffer is not a `memref.alloc` in one `gpu.launch` (a `gpu.func`
      attribution: the size is set where it is launched) or the launch
      already uses dynamic shared memory.
    - `explain`: one remark per scope: allocations merged, sum of sizes, the
      peak, the lower bound and where it is reached, each buffer's offset,
      the strategy and whether the peak is proven optimal, the search's
      questions and steps, pinned buffers with the reason, and barriers.

    #### Example

    ```mlir
    %f = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %buf = transform.smem.merge_allocations %f { target = "nvidia-a100", explain }
        : (!transform.any_op) -> !transform.any_op
    ```

    #### Return modes

    The result holds the new byte buffers (one per scope that had on-chip
    allocations to merge): the `memref.alloc`/`memref.alloca`, or the
    `gpu.func` itself when the buffer is a workgroup attribution (a block
    argument, not an op). A scope without on-chip allocations is left
    unchanged and adds nothing to the result. Every scope is analysed and
    checked before any is changed; on failure the payload is untouched:

    - a handle to an op without regions: silenceable failure;
    - two scopes of the handle holding the same allocation (one nested in
      the other without an isolated-from-above op or `gpu.launch` between
      them): silenceable failure (a scope listed twice is handled once);
    - a static size above 2^62 bytes: silenceable failure;
    - a lower bound above `onchip.capacity_bytes`: silenceable failure naming
      the program point (also as a note at its location), the buffers live
      there, the capacity and the excess;
    - a lower bound within capacity, but the exact search proves that no
      packing fits it: silenceable failure "proved infeasible" with the
      lower bound, the proven bound and the best packing found;
    - a lower bound within capacity, and the budget ran out before a packing
      within it was found: silenceable failure "no packing ... found within
      the budget" with the best peak, the lower bound and the steps spent
      (a larger `search_steps` or `time_budget_ms` may find one);
    - a negative `search_steps` or `time_budget_ms`: silenceable failure.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$scope,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain,
                            OptionalAttr<I64Attr>:$search_steps,
                            OptionalAttr<I64Attr>:$time_budget_ms,
                            UnitAttr:$dynamic_shared_memory),
                          HwschedParamArgs);
  let results = (outs TransformHandleTypeInterface:$merged);
  let assemblyFormat =
      "$scope (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def EliminateRedundantCopiesOp
    : Hwsched_TransformOp<"smem.eliminate_redundant_copies", [HwschedNumericParams]> {
  let summary = "Removes copies that move data for nothing";
  let description = !strconcat([{
    Removes buffer copies inside each payload op of `scope` (typically a
    `func.func`) that only move data, and erases the allocations they leave
    dead. Candidates are `memref.copy`, `linalg.copy` and copy-like
    `linalg.generic` ops on buffers (one input, one init, identity maps,
    parallel loops, a body that yields its input unchanged), in any memory
    space. For a copy `s -> t` two rewrites are tried, forward first:

    * **forward** (`def s; copy s -> t; use t` becomes `def s; use s`): the
      reads of `t` after the copy read `s`, and the copy goes away. Legal
      when `t` is a `memref.alloc`/`memref.alloca` inside the scope whose
      every use is a direct read or write, or a (non rank-reducing)
      `memref.subview` that is only read (it is rebuilt on `s`); no other
      alias (a view of a view, a call, a return, a loop-carried value) may
      exist; every read of `t` lies after the copy in the copy's block (or
      nested in an op after it); and no op between the copy and the last
      such read (nested ops included) may write or free `t` or `s` or
      anything alias analysis cannot separate from them. Writes of `t`
      elsewhere are dead once its reads are gone and are erased with it.
    * **backward** (`def s; copy s -> t` becomes `def t`): the producers and
      other users of `s` use `t` directly. Legal when `s` is a local
      allocation used only directly or through (non rank-reducing)
      `memref.subview`s, which are rebuilt on `t`; every use of `s` lies
      before the copy in the copy's block; nothing from the first use of `s`
      to the copy may read or write `t` (or a possible alias of it); `t` is
      defined before the first use of `s` (the pure ops and allocations
      defining it, such as a `memref.alloc` and a `memref.subview`, are
      moved up when their operands allow); and, when a loop separates the
      copy from the allocation of `s`, the first use of `s` overwrites all
      of it (its earlier contents would otherwise be carried between
      iterations).

    Aliasing is decided by `mlir::AliasAnalysis` (LocalAliasAnalysis),
    refined by function arguments marked `llvm.noalias` or
    `bufferization.noalias`, which are taken not to alias any other buffer;
    without them, two function arguments may alias, which blocks most
    rewrites between them. Both rewrites also require that the copy cover
    the whole target (equal static shapes for the linalg forms; an unranked
    `memref.copy` is not a candidate), that `s` and `t` cannot overlap,
    and, when the two types differ in layout, that every redirected use
    accepts any layout (`memref.load`/`store`, `vector.transfer_read`/
    `write`, `memref.copy`, Linalg ops); otherwise the copy is kept as a
    layout change. Ordering is only reasoned about inside one block: a use in
    another region (the other branch of an `scf.if`, after the loop that
    holds the copy) cannot be ordered and keeps the copy, and a read of `t`
    before a copy inside a loop sees the previous iteration's copy
    (loop-carried).

    Memory spaces: a copy whose source and target live in different memory
    spaces (e.g. global -> `#gpu.address_space<workgroup>` staging, GM ->
    `"ub"`) is a staging copy that exists for speed and is kept, unless the
    target's `onchip.direct_read_spaces` holds a pair `"SOURCE -> TARGET"`
    matching the copy's spaces (each side MLIR attribute text, `default` for
    no memory space, `*` for any): the target then declares that a consumer
    of the target space reads the source space at no loss. The shipped CPU
    spec says so for every pair (all spaces are the same DRAM); the GPU and
    NPU specs declare no pair (global memory is not as fast as shared memory
    for repeated reads; Ascend vector units read only the unified buffer).
    Such a copy is removed by the forward rule only: the reads of `t` (and
    its rebuilt views) read `memref.memory_space_cast` of `s` into `t`'s
    space, so their operand types keep their memory space. The backward
    rule never crosses spaces (the pair says who may read a space, not who
    may write one). The key is overridable inline like any figure, e.g.
    `"onchip.direct_read_spaces" = ["#gpu.address_space<global> -> #gpu.address_space<workgroup>"]`.

    The rewrites are applied one at a time until none applies, so chains
    (`a -> b -> c`) collapse. An allocation whose only remaining users are
    deallocations and ops that only write it is erased with them. The target
    decides nothing except which memory space counts as on-chip
    (`onchip.memory_space`) in the report and which space changes may go
    (`onchip.direct_read_spaces`).

    With `explain`, remarks say: on each removed copy, the rule (forward or
    backward) and which buffer its users now use; on each kept copy, the
    reason of each rule (intervening write, intervening read, source used
    after the copy, alias not ruled out, use in another region, loop-carried
    value, escaping or aliased buffer, unknown memory effects, memory-space
    or layout change, shape not provably equal), naming the op that blocks
    it; on each scope that holds copies, the number of copies removed and
    the bytes of on-chip allocations before and after.

    #### Return modes

    Modifies the payload in place and produces no result; the `scope` handle
    stays valid (handles to erased copies and allocations are invalidated).
    A scope payload op without regions is a silenceable failure, and so is a
    bad spec (including a malformed `onchip.direct_read_spaces` entry); in
    all cases no scope has been changed. Succeeds, changing
    nothing, when no copy is redundant.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$scope,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain),
                          HwschedParamArgs);
  let results = (outs);
  let assemblyFormat =
      "$scope (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "type($scope) (`,` type($params)^)?";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def AvoidBankConflictsOp
    : Hwsched_TransformOp<"smem.avoid_bank_conflicts", [HwschedNumericParams]> {
  let summary = "Swizzles shared buffers so that the block's accesses meet "
                "no bank conflicts, decided from the target's banks";
  let description = !strconcat([{
    For each scope in `scope` (a `func.func`, `gpu.launch` or any op with
    regions), looks at every allocation in the target's on-chip memory
    space (`onchip.memory_space`) inside a `gpu.launch` of constant block
    size, computes how many bank wavefronts each of its accesses costs a
    warp, and rewrites the buffer's layout with the XOR swizzle that costs
    the fewest, or keeps it.

    The figures come from the spec: `onchip.banks` banks of
    `onchip.bank_width_bytes` bytes (one line is banks x width bytes) and
    `gpu.warp_size`. A warp's access is served in phases of as many lanes as
    move one line (an `nvgpu.ldmatrix` row or a 16-byte
    `nvgpu.device_async_copy` on 32 x 4-byte banks: 8 lanes), and a phase
    takes as many wavefronts as the most distinct words one bank must
    deliver. The addresses are exact: the indices of every access are
    evaluated for every thread of the block (the lane id as the linear
    thread id modulo the warp size, enclosing loops at their first
    iteration).

    The candidates swizzle whole chunks of a row (a chunk is the widest
    access of the buffer, at least one bank word, e.g. 16 bytes for
    ldmatrix and 16-byte async copies): chunk `c` of row `r` is stored at
    `c ^ ((r >> shift) & mask)`, for every shift and mask that keeps the
    chunk in its row. Every candidate is scored on all accesses; the fewest
    wavefronts win, then the identity layout, then the smallest mask and
    shift. The rewrite changes the innermost index of every access (arith
    shifts, masks and an XOR) and not the buffer's type, so multi-buffering
    (`transform.pipeline.schedule_stages`) and `merge_allocations` see the
    same tiles. Apply it before multi-buffering, while every access is a
    direct use of its allocation.

    Padding each row by one chunk is scored too and reported beside the
    pick, but not applied: a padded tile is not overwritten whole by its
    copies, which the pipeliner needs to prove to multi-buffer it.

    A buffer is left as it is, with the reason in the report, when some use
    is not an `nvgpu.ldmatrix`, an `nvgpu.device_async_copy` destination, a
    0-D or 1-D `vector.load`/`vector.store` or a `memref.load` /
    `memref.store` (a view or cast hides its accesses), when an index is not
    a function of the thread ids, constants and loop starts, when its rows
    are not a power of two of chunks, or when an access crosses a chunk.

    Unlike upstream's `nvgpu-optimize-shared-memory` pass (128-byte lines
    and 128-bit accesses assumed, nothing reported), the swizzle follows
    the target's banks, is checked against the accesses it must serve, and
    is explained.

    #### Attributes

    - `explain`: one remark per scope with the bank geometry, and per buffer
      the decision (swizzle and its mask, or why the layout stays), the
      wavefronts per warp before and after (actual/ideal) for each access
      kind, and what padding the rows would give at how many bytes.

    #### Return modes

    Modifies the payload in place and produces no result; the `scope`
    handle stays valid. A scope payload op without regions is a silenceable
    failure, and so is a target without `onchip.banks`,
    `onchip.bank_width_bytes` or `gpu.warp_size` (a bank model needs all
    three); in both cases no scope has been changed. A buffer that cannot
    be analysed or swizzled is not a failure: it keeps its layout and the
    report says why. Succeeds, changing nothing, when no buffer has
    conflicts a swizzle removes.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$scope,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain),
                          HwschedParamArgs);
  let results = (outs);
  let assemblyFormat =
      "$scope (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "type($scope) (`,` type($params)^)?";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_SMEMOPS
