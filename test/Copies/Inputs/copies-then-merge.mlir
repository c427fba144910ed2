// Sequences for with-merge-allocations.mlir.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @merge_only(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  transform.named_sequence @eliminate_then_merge(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.eliminate_redundant_copies %f { target = "nvidia-a100" } : !transform.any_op
    %b = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
