// transform-scripts/cpu-measure.mlir: the schedules CPU measurements compile.
//
// Written once here and called by
//   - select_tile_config's measurement mode
//     (lib/CostModel/Measurement/TileMeasurement.cpp embeds this file when it
//     is built) and bench/tileconfig/cpu_sweep.py: both tile the op of
//     @kernel by the configuration they measure, then call
//     @hwsched_cpu_measure_lower, so the model is validated on exactly the
//     code the op measures;
//   - bench/tileconfig/cpu_sweep.py also asks the op for its pick with
//     @hwsched_cpu_measure_tile_decision;
//   - bench/costmodel/cpu_pairs.py: @hwsched_cpu_measure_fusion_decision,
//     @hwsched_cpu_measure_fused_pair and @hwsched_cpu_measure_unfused_pair,
//     with the row tile as a parameter.
//
// Load with
//   hwsched-opt --transform-preload-library=transform-library-paths=transform-scripts/cpu-measure.mlir
// and call a sequence with `transform.include @<name> failures(propagate)
// (...)`. No sequence names a target: the cost-model ops take the driver's
// (--hwsched-target, $HWSCHED_TARGET) or the default.
module attributes {transform.with_named_sequence} {

  // @hwsched_cpu_measure_lower(%root)
  // The register kernels of func.func @kernel (its Linalg ops, already tiled
  // by the caller down to a K step of 1) vectorized, the accumulators hoisted
  // out of the K loop, the whole module bufferized (function boundaries
  // included: @kernel may take tensors or buffers), contractions lowered to
  // outer products (FMAs) and N-d transfers fully unrolled to 1-d ones.
  // Only the Linalg ops are vectorized, not every child of @kernel:
  // vectorizing the cache-tile tensor.insert_slice too would copy whole tiles
  // through a stack buffer inside the tile loops (a stack overflow from
  // 1024^2 on); this way the lowered kernel has no alloca at all.
  transform.named_sequence @hwsched_cpu_measure_lower(
      %root: !transform.any_op {transform.consumed}) {
    %kernel = transform.structured.match ops{["func.func"]}
        attributes{sym_name = "kernel"} in %root
        : (!transform.any_op) -> !transform.any_op
    %ops = transform.structured.match interface{LinalgOp} in %kernel
        : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %ops : !transform.any_op
    transform.apply_patterns to %kernel {
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
      transform.apply_patterns.vector.reduction_to_contract
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %kernel
        : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    %bufferized = transform.bufferization.one_shot_bufferize %root
        {bufferize_function_boundaries = true,
         function_boundary_type_conversion = 1 : i32}
        : (!transform.any_op) -> !transform.any_op
    %lowered = transform.structured.match ops{["func.func"]}
        attributes{sym_name = "kernel"} in %bufferized
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %lowered {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerparallel"
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true
      transform.apply_patterns.vector.lower_transpose
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %lowered : !transform.any_op
    transform.apply_patterns to %lowered {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }

  // @hwsched_cpu_measure_tile_decision(%root)
  // select_tile_config's pick for the Linalg op under %root, with its
  // `explain` remark (tile, thread and reduction tile sizes, the model's
  // figures). Changes nothing.
  transform.named_sequence @hwsched_cpu_measure_tile_decision(
      %root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match interface{LinalgOp} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiles:5 = transform.cost_model.select_tile_config %op { explain }
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
            !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }

  // @hwsched_cpu_measure_fusion_decision(%root)
  // The fusion decision for the op marked `producer`:
  // filter_fusable_consumers with its `explain` remark (fuse or reject, the
  // cost terms and the limits). Changes nothing.
  transform.named_sequence @hwsched_cpu_measure_fusion_decision(
      %root: !transform.any_op {transform.readonly}) {
    %producer = transform.structured.match attributes {producer} in %root
        : (!transform.any_op) -> !transform.any_op
    %fusable = transform.cost_model.filter_fusable_consumers %producer { explain }
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // @hwsched_cpu_measure_fused_pair(%root, %rows)
  // The op marked `consumer` tiled by %rows along its first loop (one
  // scf.forall), the op marked `producer` fused into each tile.
  transform.named_sequence @hwsched_cpu_measure_fused_pair(
      %root: !transform.any_op {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}) {
    %producer = transform.structured.match attributes {producer} in %root
        : (!transform.any_op) -> !transform.any_op
    %consumer = transform.structured.match attributes {consumer} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %consumer
        tile_sizes [%rows]
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    %fused, %fused_loop = transform.structured.fuse_into_containing_op
        %producer into %loop
        : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op)
    transform.include @hwsched_cpu_measure_fold_empty failures(propagate)
        (%root) : (!transform.any_op) -> ()
    transform.yield
  }

  // @hwsched_cpu_measure_unfused_pair(%root, %rows)
  // The same tiling of the consumer, the producer left whole before it: the
  // baseline the fused pair is measured against.
  transform.named_sequence @hwsched_cpu_measure_unfused_pair(
      %root: !transform.any_op {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly}) {
    %consumer = transform.structured.match attributes {consumer} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_forall %consumer
        tile_sizes [%rows]
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    transform.include @hwsched_cpu_measure_fold_empty failures(propagate)
        (%root) : (!transform.any_op) -> ()
    transform.yield
  }

  // Folds the tensor.empty slices tiling leaves and canonicalizes.
  transform.named_sequence @hwsched_cpu_measure_fold_empty(
      %root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.tensor.fold_tensor_empty
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
