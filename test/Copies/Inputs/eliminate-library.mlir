// Transform library for the copy-elimination tests: applies
// transform.smem.eliminate_redundant_copies with `explain` to every function.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.smem.eliminate_redundant_copies %funcs { explain }
        : !transform.any_op
    transform.yield
  }
}
