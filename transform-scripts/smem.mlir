// transform-scripts/smem.mlir: on-chip memory reuse.
//
// Load with
//   hwsched-opt --transform-preload-library=transform-library-paths=transform-scripts/smem.mlir
// and either run a sequence directly (--transform-interpreter=entry-point=NAME)
// or call it with `transform.include @<name> failures(propagate) (...)` after a
// private declaration of the sequence in your script.
module attributes {transform.with_named_sequence} {

  // @hwsched_merge_smem(%root)
  // Packs the on-chip allocations (GPU shared memory, NPU unified buffer) of
  // every kernel scope under %root into one buffer per scope: each
  // gpu.launch body, gpu.func and func.func is a scope (a func.func never
  // takes the allocations of a gpu.launch inside it). No `target` is named,
  // so the spec is the one recorded on the payload
  // (@hwsched_attach_target), else the driver's (--hwsched-target or
  // $HWSCHED_TARGET), else nvidia-a100: one script serves every target.
  // Emits one remark per scope with the sizes, the peak, the lower bound,
  // the live set at the peak, pinned buffers and barriers. Fails (payload
  // untouched) when a scope cannot fit the spec's on-chip capacity.
  transform.named_sequence @hwsched_merge_smem(
      %root: !transform.any_op {transform.readonly}) {
    %scopes = transform.structured.match ops{["func.func", "gpu.func", "gpu.launch"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %buffers = transform.smem.merge_allocations %scopes { explain }
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // @hwsched_merge_smem_1mib(%root)
  // @hwsched_merge_smem with the capacity overridden to 1,048,576 B
  // (smem_limit_bytes, GPU specs): the capacity of MiniMalloc's benchmark
  // problems, which bench/smem/minimalloc.py replays as payloads. The
  // exact search gets the op's default budget.
  transform.named_sequence @hwsched_merge_smem_1mib(
      %root: !transform.any_op {transform.readonly}) {
    %scopes = transform.structured.match ops{["func.func", "gpu.func", "gpu.launch"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %buffers = transform.smem.merge_allocations %scopes { explain, smem_limit_bytes = 1048576 }
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // @hwsched_merge_smem_quiet(%root)
  // The same without remarks, for pipelines.
  transform.named_sequence @hwsched_merge_smem_quiet(
      %root: !transform.any_op {transform.readonly}) {
    %scopes = transform.structured.match ops{["func.func", "gpu.func", "gpu.launch"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %buffers = transform.smem.merge_allocations %scopes
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // @hwsched_avoid_bank_conflicts(%root)
  // Swizzles the shared buffers of every func.func under %root so that the
  // block's accesses meet no bank conflicts, from the target's banks
  // (onchip.banks x onchip.bank_width_bytes, gpu.warp_size): each buffer's
  // accesses are evaluated for every thread and the XOR swizzle of its
  // 16-byte chunks with the fewest wavefronts is applied, or the layout is
  // kept. Emits one remark per function with each buffer's decision and
  // its wavefronts before and after. Apply it before multi-buffering.
  transform.named_sequence @hwsched_avoid_bank_conflicts(
      %root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.smem.avoid_bank_conflicts %funcs { explain } : !transform.any_op
    transform.yield
  }
}
