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

    Allocations: `memref.alloc` and `memref.alloca` directly in the scope or
    in its nested loops and branches, and the workgroup attributions
    (`workgroup(%buf : memref<...>)`) of a `gpu.func` scope whose memory
    space is the target's (defined at the kernel entry; their own
    `llvm.align` attribution attribute counts as the alignment); those below
    a nested isolated-from-above op or `gpu.launch` belong to that scope and
    are left alone. Workgroup attributions of a `gpu.launch` are not merged
    (they stay separate buffers outside the reported peak). Dynamic sizes
    use an upper bound proven by `ValueBoundsOpInterface` (e.g. from
    `affine.min`); without one the buffer stays separate.

    Lifetimes: program points are the ops of the scope in pre-order. A
    buffer is live from its first to its last use (deallocations do not
    count), following aliases
    (`subview`, `view`, `expand_shape`, `collapse_shape`,
    `reinterpret_cast`, `cast`, `select`, region yields and iter_args, via
    `BufferViewFlowAnalysis`). A use inside a loop or branch that does not
    contain the allocation covers that whole op; a value yielded back into a
    loop (iter_args, ping-pong buffers) or used after the loop it was
    allocated in covers the whole loop. An `nvgpu.device_async_copy` keeps
    its buffers live until the `nvgpu.device_async_wait` that consumes its
    token (through `nvgpu.device_async_create_group` and loop-carried
    tokens); a wait with `numGroups` > 0 may leave the copy running, so the
    buffers then stay live to the end of the scope; a copy never waited for
    pins its buffers. In a region with several blocks (unstructured control flow)
    program order says nothing about back edges, so a buffer used there is
    live over the whole region (no reuse inside it; the remark says so for
    each such buffer). A buffer with a use
    the analysis cannot follow (a call, a return or other terminator leaving
    the scope, `memref.store` of the memref, taking its address, an op
    without memory-effect information), a non-identity layout or an
    unbounded dynamic size is pinned: it keeps its own allocation, and the
    `explain` remark says why.

    Packing: sizes are rounded up to the alignment, the largest of the
    element size (sub-byte types round up to a byte), the allocation's
    `alignment` attribute and `onchip.alignment_bytes`. The lower bound is
    the maximum over program points of the live (rounded) bytes; pinned
    buffers count as live throughout. Several greedy orders (first fit and
    best fit by decreasing size, size x lifetime, lifetime, start order and
    conflicting bytes; above 400 buffers only the first two orders, above
    2000 first fit only) are tried and the best kept. Up to 400 buffers, the
    buffers ending at the peak are then moved to the front of the best order
    and placed again (iterated greedy, at most 16 rounds). When that misses
    the lower bound on at most 20 buffers, or misses the capacity that the
    lower bound says is reachable, an exact branch-and-bound search over
    canonical placements (each buffer at 0 or right above one it interferes
    with) runs with a fixed step budget. The result is deterministic.

    Rewrite: one `memref.alloc` (`memref.alloca` when all merged buffers
    were allocas) of `memref<N x i8, space>` with `alignment` set, at the
    start of the entry block of the scope region holding the allocations
    (right before the scope when they sit in several of its regions and the
    scope is not isolated from above or a `gpu.launch`; otherwise buffers
    outside the first region are pinned); each merged allocation becomes
    `memref.view` of it at its offset (dynamic sizes passed through).
    Deallocations of merged buffers are erased; if there were any, the
    merged buffer is deallocated at the end of the scope. When a workgroup
    attribution of a `gpu.func` is merged, the merged buffer is instead a
    new workgroup attribution `memref<N x i8, space>` with `llvm.align` set
    (the GPU-to-LLVM lowering turns it into one shared-memory global; a
    workgroup `memref.alloc` has no such lowering), the merged attributions
    are viewed at the start of the body and removed, and pinned and private
    attributions keep their place and attributes.

    Barriers: on GPU targets (spec kind `gpu` or `pipeline.sync =
    "gpu_barrier"`), when two merged buffers share bytes, a `gpu.barrier` is
    needed between the last use of the earlier one and the first use of the
    later one (and, when both live in the same loop, across the back edge).
    An existing `gpu.barrier` in the block where the two lifetimes meet is
    reused; otherwise one is inserted right before the first use of the
    later buffer (or before the first use of the earlier one in the next
    iteration). A barrier must be reached by every thread of the
    workgroup, so on these targets lifetimes are first made barrier-safe: a
    use nested in an op whose regions threads may run differently counts as
    a use of that whole op (its innermost ancestor in a block all threads
    run alike), so two buffers share bytes only when a point every thread
    reaches separates them, and the barrier goes there (e.g. right before a
    divergent `scf.if`, never inside it; buffers used in the same divergent
    op, including the two branches of a divergent `scf.if`, never share).
    Uniform control flow: `scf.for`/`affine.for` with uniform bounds and
    step, `scf.if`/`affine.if`/`scf.index_switch` with a uniform selector,
    `scf.while` with a uniform `scf.condition` operand,
    `scf.execute_region`, `memref.alloca_scope`, and the entry block of the
    kernel; anything else (`scf.forall`, `scf.parallel`, non-entry blocks)
    may diverge. Uniform values: constants, `gpu.block_id`/`block_dim`/
    `grid_dim`/cluster ids and sizes/`num_subgroups`/`subgroup_size`, the
    `gpu.launch` body arguments other than the thread ids, the parameters of
    the enclosing function (assumed passed alike by all threads, as kernel
    arguments are), values defined outside the kernel, and arith/index/
    math/affine results of uniform operands (loop-carried values by
    fixpoint); everything else, thread ids and loads included, may differ.
    The `explain` remark names each buffer whose lifetime was widened, the
    op and why. A barrier at the top level of
    a loop body counts for uses after the loop when every use of the earlier
    buffer is inside that loop before the barrier; barriers nested deeper are
    not looked at.

    `explain` emits one remark per scope: allocations merged, sum of sizes,
    our peak (merged buffer plus pinned buffers), the lower bound with the
    program point and the live buffers there, each buffer's offset
    (`#i@offset`, buffers numbered in program order), the packing strategy,
    pinned buffers with the reason, and barriers inserted and reused.

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
    - a lower bound within capacity but no packing found within it:
      silenceable failure with both figures.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$scope,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain),
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

#endif // HWSCHED_TRANSFORMOPS_SMEMOPS
