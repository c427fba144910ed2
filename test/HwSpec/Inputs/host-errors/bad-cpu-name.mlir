// Run by ../../host-errors.test (its RUN line sets the environment).
// UNCHANGED-LABEL: func.func @payload_bad_cpu_name()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_bad_cpu_name() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{HWSCHED_HOST_CPU: expected an LLVM CPU name such as 'znver3' or 'neoverse-v1', got 'Zen 3!'}}
    transform.hwsched.attach_target_spec %f { target = "host" } : !transform.any_op
    transform.yield
  }
}
