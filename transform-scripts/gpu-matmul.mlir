// transform-scripts/gpu-matmul.mlir: GPU schedule for matmul + elementwise
// epilogue (bias, activation) on tensors, down to gpu.launch.
//
// Load with
//   hwsched-opt --transform-preload-library=transform-library-paths=transform-scripts/gpu-matmul.mlir
// and call a sequence with `transform.include @<name> failures(propagate) (...)`
// after a private declaration of it in your script. No sequence names a
// `target`: the spec is the one recorded on the payload
// (@hwsched_attach_target), else the driver's (--hwsched-target or
// $HWSCHED_TARGET), else nvidia-a100.
module attributes {transform.with_named_sequence} {

  // @gpu_matmul_epilogue(%root, %block_tile, %thread_tile, %k_tile)
  // Schedules every linalg.matmul (with its linalg.fill init) under %root
  // together with the elementwise consumers the cost model keeps:
  //   1. filter_fusable_consumers(matmul) { explain }: the GPU model keeps an
  //      epilogue when the fused kernel's register floor fits
  //      gpu.max_registers_per_thread, writes coalesce and traffic is saved.
  //      The sequence requires one kept consumer per matmul (a silenceable
  //      failure from transform.match.param.cmpi otherwise, after the remark
  //      saying why the model refused).
  //   2. Blocks: the kept epilogue is tiled with scf.forall by
  //      [%block_tile, %block_tile] mapped to #gpu.block<y>, <x>, and the
  //      matmul and its fill are fused into the block loop.
  //   3. Threads: tiled again by [%thread_tile, %thread_tile] mapped to
  //      #gpu.thread<y>, <x>, fusing matmul and fill.
  //   4. K: the per-thread matmul's reduction is tiled by %k_tile with
  //      scf.for. A remark on the per-thread matmul gives
  //      transform.cost_model.estimate's registers_per_thread for the fused
  //      per-thread kernel ("predicted registers per thread: N"). The
  //      tiles are vectorized and the accumulator hoisted out of the K loop
  //      (it lives in registers).
  //   5. One-shot bufferization, then the block loop becomes a gpu.launch and
  //      the thread loop its threads (block_dims 16x16x1), vector ops lowered
  //      to 1-D.
  // Knobs (!transform.param<i64>): %block_tile (output tile per block, both
  // dims), %thread_tile (output tile per thread, both dims), %k_tile
  // (reduction step per thread). %block_tile / %thread_tile must be 16, the
  // static thread count per dimension of map_nested_forall_to_threads.
  // Not done (yet): promotion of operand tiles to workgroup memory,
  // schedule_stages on the K loop and merge_allocations: operands are read
  // from global memory.
  transform.named_sequence @gpu_matmul_epilogue(
      %root: !transform.any_op {transform.consumed},
      %block_tile: !transform.param<i64> {transform.readonly},
      %thread_tile: !transform.param<i64> {transform.readonly},
      %k_tile: !transform.param<i64> {transform.readonly}) {
    // A zero tile size would crash upstream tiling: refuse it.
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.match.param.cmpi gt %block_tile, %zero : !transform.param<i64>
    transform.match.param.cmpi gt %thread_tile, %zero : !transform.param<i64>
    transform.match.param.cmpi gt %k_tile, %zero : !transform.param<i64>
    %matmul = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
        : (!transform.any_op) -> !transform.any_op

    // 1. The model's decision.
    %epilogue = transform.cost_model.filter_fusable_consumers %matmul { explain }
        : (!transform.any_op) -> !transform.any_op
    %n_mm = transform.num_associations %matmul : (!transform.any_op) -> !transform.param<i64>
    %n_epi = transform.num_associations %epilogue : (!transform.any_op) -> !transform.param<i64>
    transform.match.param.cmpi eq %n_epi, %n_mm : !transform.param<i64>

    // 2. Blocks.
    %epi_b, %forall_b = transform.structured.tile_using_forall %epilogue
        tile_sizes [%block_tile, %block_tile]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    %mm_b, %forall_b2 = transform.structured.fuse_into_containing_op %matmul into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b3 = transform.structured.fuse_into_containing_op %fill into %forall_b2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // 3. Threads.
    %epi_t, %forall_t = transform.structured.tile_using_forall %epi_b
        tile_sizes [%thread_tile, %thread_tile]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    %mm_t, %forall_t2 = transform.structured.fuse_into_containing_op %mm_b into %forall_t
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %forall_t3 = transform.structured.fuse_into_containing_op %fill_b into %forall_t2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // 4. Reduction dimension, vectorize, accumulator in registers.
    %mm_k, %loop_k = transform.structured.tile_using_for %mm_t tile_sizes [0, 0, %k_tile]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %regs = transform.cost_model.estimate %mm_k { metric = "registers_per_thread" }
        : (!transform.any_op) -> !transform.param<i64>
    transform.debug.emit_param_as_remark %regs, "predicted registers per thread:" at %mm_k
        : !transform.param<i64>, !transform.any_op
    %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %func_v
        : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op

    // 5. Bufferize and map to gpu.launch.
    transform.apply_patterns to %func_v {
      transform.apply_patterns.tensor.fold_tensor_empty
    } : !transform.any_op
    %root_b = transform.bufferization.one_shot_bufferize %root
        {bufferize_function_boundaries = true,
         function_boundary_type_conversion = 1 : i32}
        : (!transform.any_op) -> !transform.any_op
    %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op
    // The fused fill leaves a write-only per-thread buffer once the
    // accumulator is hoisted into registers: no allocation in the kernel.
    transform.memref.erase_dead_alloc_and_stores %func_b
        : (!transform.any_op) -> ()
    %launch = transform.gpu.map_forall_to_blocks %func_b {generate_gpu_launch}
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch
        block_dims = [16, 16, 1] : (!transform.any_op) -> !transform.any_op
    %func_m = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_m {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_transpose
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_m : !transform.any_op
    transform.yield
  }
}
