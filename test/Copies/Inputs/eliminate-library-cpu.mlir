// Transform library for the copy-elimination tests on the CPU spec, whose
// onchip.direct_read_spaces (["* -> *"]) lets the forward rule remove
// copies between memory spaces: applies
// transform.smem.eliminate_redundant_copies with `explain` to every function.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.smem.eliminate_redundant_copies %funcs
        { target = "x86-avx512", explain } : !transform.any_op
    transform.yield
  }
}
