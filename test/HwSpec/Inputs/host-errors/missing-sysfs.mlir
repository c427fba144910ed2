// Run by ../../host-errors.test (its RUN line sets the environment).
// UNCHANGED-LABEL: func.func @payload_missing_sysfs()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_missing_sysfs() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{is not a directory (expected a tree laid out like /sys/devices/system/cpu)}}
    transform.hwsched.attach_target_spec %f { target = "host" } : !transform.any_op
    transform.yield
  }
}
