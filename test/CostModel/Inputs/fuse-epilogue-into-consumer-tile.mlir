// The documented flow for the consumers filter_fusable_consumers keeps: tile
// each kept consumer (scf.forall over 8 x 32 tiles) and fuse its producer
// chain (the matmul, then the matmul's fill) into the consumer's tile loop.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @fuse_kept_epilogue(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %kept = transform.cost_model.filter_fusable_consumers %mm { explain } : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %kept tile_sizes [8, 32]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_f, %forall2 = transform.structured.fuse_into_containing_op %mm into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_f, %forall3 = transform.structured.fuse_into_containing_op %fill into %forall2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
