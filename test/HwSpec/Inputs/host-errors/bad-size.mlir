// Run by ../../host-errors.test (its RUN line sets the environment).
// UNCHANGED-LABEL: func.func @payload_bad_size()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_bad_size() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{host-sysfs/bad-size/cpu0/cache/index1/size: expected a positive size such as '48K' or '32M', got 'lots'}}
    transform.hwsched.attach_target_spec %f { target = "host" } : !transform.any_op
    transform.yield
  }
}
