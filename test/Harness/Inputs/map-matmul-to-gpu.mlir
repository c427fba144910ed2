// Transform library mapping @matmul_bias_relu (matmul-bias-relu.mlir) to the
// GPU. Entry points (pass with --transform-interpreter=entry-point=NAME):
//
//   @map_matmul_to_gpu_4x4  64x64 block tile, 16x16 threads, 4x4 per thread
//   @map_matmul_to_gpu_8x8  128x128 block tile, 16x16 threads, 8x8 per thread
//   @map_matmul_to_gpu      alias for the 4x4 variant
//
// All variants share @__hwsched_map_matmul_impl, parameterized by the block
// tile and the per-thread tile (block tile / per-thread tile must be 16, the
// static thread count per dimension given to map_nested_forall_to_threads).
//
// Recipe: tile the bias+ReLU epilogue to blocks and fuse the matmul and its
// fill into the block loop, tile again to threads and fuse again, tile the
// reduction (K) dimension by 4 with scf.for, vectorize, hoist the per-thread
// accumulator out of the K loop (it then lives in registers), bufferize,
// map the foralls to gpu.launch blocks and threads, clean up.

module attributes {transform.with_named_sequence} {

  transform.named_sequence private @__hwsched_map_matmul_impl(
      %root: !transform.any_op {transform.consumed},
      %block_tile: !transform.param<i64> {transform.readonly},
      %thread_tile: !transform.param<i64> {transform.readonly}) {
    %epilogue = transform.structured.match ops{["linalg.generic"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %matmul = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
        : (!transform.any_op) -> !transform.any_op

    // Level 1: blocks.
    %epi_b, %forall_b = transform.structured.tile_using_forall %epilogue
        tile_sizes [%block_tile, %block_tile]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    %mm_b, %forall_b2 = transform.structured.fuse_into_containing_op %matmul into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b3 = transform.structured.fuse_into_containing_op %fill into %forall_b2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Level 2: threads.
    %epi_t, %forall_t = transform.structured.tile_using_forall %epi_b
        tile_sizes [%thread_tile, %thread_tile]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    %mm_t, %forall_t2 = transform.structured.fuse_into_containing_op %mm_b into %forall_t
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %forall_t3 = transform.structured.fuse_into_containing_op %fill_b into %forall_t2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Level 3: reduction dimension, 4 at a time.
    %mm_k, %loop_k = transform.structured.tile_using_for %mm_t tile_sizes [0, 0, 4]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Vectorize the per-thread tiles and hoist the accumulator out of the K
    // loop (tensor level: read before the loop, iter_arg, write after it).
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

    // Bufferize.
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
    // The fused fill leaves a write-only per-thread buffer behind once the
    // accumulator is hoisted into registers: erase it (no malloc in kernels).
    transform.memref.erase_dead_alloc_and_stores %func_b
        : (!transform.any_op) -> ()

    // Map to gpu.launch.
    %launch = transform.gpu.map_forall_to_blocks %func_b {generate_gpu_launch}
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch
        block_dims = [16, 16, 1] : (!transform.any_op) -> !transform.any_op

    // Lower the vector ops to 1-D form and clean up.
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

  transform.named_sequence @map_matmul_to_gpu_4x4(
      %root: !transform.any_op {transform.consumed}) {
    %block = transform.param.constant 64 : i64 -> !transform.param<i64>
    %thread = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.include @__hwsched_map_matmul_impl failures(propagate)
        (%root, %block, %thread)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @map_matmul_to_gpu_8x8(
      %root: !transform.any_op {transform.consumed}) {
    %block = transform.param.constant 128 : i64 -> !transform.param<i64>
    %thread = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.include @__hwsched_map_matmul_impl failures(propagate)
        (%root, %block, %thread)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @map_matmul_to_gpu(
      %root: !transform.any_op {transform.consumed}) {
    transform.include @map_matmul_to_gpu_4x4 failures(propagate) (%root)
        : (!transform.any_op) -> ()
    transform.yield
  }
}
