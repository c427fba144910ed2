// Run by ../../host-errors.test (its RUN line sets the environment).
// UNCHANGED-LABEL: func.func @payload_bad_features()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_bad_features() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{HWSCHED_HOST_FEATURES: expected a comma-separated list of +feature / -feature in LLVM's spelling (e.g. '+avx2,+fma,-avx512f'), got 'avx2' in 'avx2'}}
    transform.hwsched.attach_target_spec %f { target = "host" } : !transform.any_op
    transform.yield
  }
}
