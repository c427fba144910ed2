// Run by ../../host-errors.test (its RUN line sets the environment).
// UNCHANGED-LABEL: func.func @payload_no_isa()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_no_isa() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{host detection: CPU 'mystery' with features [] has no vector ISA hwsched knows; the host target needs x86 (sse2, avx, avx2, avx512f) or AArch64 (neon, sve) features}}
    transform.hwsched.attach_target_spec %f { target = "host" } : !transform.any_op
    transform.yield
  }
}
