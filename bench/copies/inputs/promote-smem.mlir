// Transform library for the copies benchmark: bufferizes a matmul, tiles it
// to 32x32 blocks (scf.forall) and promotes its operand tiles into GPU
// shared memory (transform.structured.promote), the staging pattern
// global -> #gpu.address_space<workgroup> that copy elimination must keep.
module attributes {transform.with_named_sequence} {

  transform.named_sequence @promote_smem(
      %root: !transform.any_op {transform.consumed}) {
    %b = transform.bufferization.one_shot_bufferize %root
        {bufferize_function_boundaries = true,
         function_boundary_type_conversion = 1 : i32}
        : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %b
        : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %mm
        tile_sizes [32, 32] (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %promoted = transform.structured.promote %tiled
        { operands_to_promote = [0, 1, 2],
          memory_space = #gpu.address_space<workgroup> }
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
