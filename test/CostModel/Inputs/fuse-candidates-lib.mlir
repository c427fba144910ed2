// The seed script: filter the consumers of a producer with the cost model,
// then fuse: tile the kept consumers and pull the producer into their loop.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @fuse_candidates(%root: !transform.any_op {transform.readonly}) {
    %producer = transform.structured.match attributes {producer} in %root
        : (!transform.any_op) -> !transform.any_op
    %candidates = transform.cost_model.filter_fusable_consumers %producer
        { target = "ascend-910b", ub_limit_bytes = 245760, reg_limit = 128 }
        : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %candidates tile_sizes [8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %loop = transform.structured.fuse_into_containing_op %producer into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // The GPU variant: matmul + bias fused, the transposing consumer is not.
  transform.named_sequence @fuse_candidates_gpu(%root: !transform.any_op {transform.readonly}) {
    %producer = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %candidates = transform.cost_model.filter_fusable_consumers %producer
        { target = "nvidia-a100" } : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %candidates tile_sizes [8, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %loop = transform.structured.fuse_into_containing_op %producer into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
