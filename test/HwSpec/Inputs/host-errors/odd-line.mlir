// Run by ../../host-errors.test (its RUN line sets the environment).
// UNCHANGED-LABEL: func.func @payload_odd_line()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_odd_line() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{hardware spec 'host (znver3, detected)': at 'onchip.alignment_bytes': expected a power of two, got 48}}
    transform.hwsched.attach_target_spec %f { target = "host" } : !transform.any_op
    transform.yield
  }
}
