// Every kind of bad hardware spec gets one error naming the file, the key
// path and what was expected, and the payload is left unchanged.
//
// RUN: cd %S && env HWSCHED_SPEC_PATH=%S/Inputs hwsched-opt %s \
// RUN:   --split-input-file --transform-interpreter --verify-diagnostics \
// RUN:   --mlir-print-ir-after-failure 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED

// UNCHANGED-LABEL: func.func @payload_missing_file()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_missing_file() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown target 'no-such-spec': no 'no-such-spec.json' in the spec search path}}
    transform.hwsched.attach_target_spec %f { target = "no-such-spec" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_missing_path()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_missing_path() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{hardware spec file 'Inputs/does-not-exist.json' does not exist}}
    transform.hwsched.attach_target_spec %f { target = "Inputs/does-not-exist.json" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_syntax_error()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_syntax_error() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{syntax-error.json': invalid JSON: parse error at line 5, column 10: syntax error while parsing object - unexpected string literal; expected '}'}}
    transform.hwsched.attach_target_spec %f { target = "syntax-error" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_missing_key()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_missing_key() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{missing-key.json': at 'cpu': missing required key 'l1d_bytes': integer > 0}}
    transform.hwsched.attach_target_spec %f { target = "missing-key" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_wrong_type()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_wrong_type() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{wrong-type.json': at 'cpu.vector_registers': expected integer > 0, got string "32"}}
    transform.hwsched.attach_target_spec %f { target = "wrong-type" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_negative_capacity()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_negative_capacity() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{negative-capacity.json': at 'onchip.capacity_bytes': expected integer > 0, got integer -4096}}
    transform.hwsched.attach_target_spec %f { target = "negative-capacity" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_zero_capacity()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_zero_capacity() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{zero-capacity.json': at 'onchip.capacity_bytes': expected integer > 0, got integer 0}}
    transform.hwsched.attach_target_spec %f { target = "zero-capacity" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_unknown_kind()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_unknown_kind() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown-kind.json': at 'kind': expected string (one of ["gpu","npu","cpu"]), got string "fpga"}}
    transform.hwsched.attach_target_spec %f { target = "unknown-kind" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_bad_memory_space()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_bad_memory_space() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{bad-memory-space.json': at 'onchip.memory_space': expected MLIR attribute text}}
    transform.hwsched.attach_target_spec %f { target = "bad-memory-space" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_unknown_key()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_unknown_key() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown-key.json': at 'cpu': unknown key 'l1_bytes'; expected one of: cache_line_bytes}}
    transform.hwsched.attach_target_spec %f { target = "unknown-key" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_alignment_not_pow2()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_alignment_not_pow2() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{alignment-not-pow2.json': at 'onchip.alignment_bytes': expected a power of two, got 48}}
    transform.hwsched.attach_target_spec %f { target = "alignment-not-pow2" } : !transform.any_op
    transform.yield
  }
}

// -----

// A whole number no 64-bit integer holds is refused as a type mismatch
// (found by the spec-loader fuzzer: the check itself overflowed).
// UNCHANGED-LABEL: func.func @payload_huge_alignment()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_huge_alignment() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{huge-alignment.json': at 'onchip.alignment_bytes': expected integer > 0, got number 1.84467}}
    transform.hwsched.attach_target_spec %f { target = "huge-alignment" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_uncited_figure()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_uncited_figure() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{uncited-figure.json': at 'cpu.l2_bytes': figure has no citation}}
    transform.hwsched.attach_target_spec %f { target = "uncited-figure" } : !transform.any_op
    transform.yield
  }
}

// -----

// UNCHANGED-LABEL: func.func @payload_name_mismatch()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_name_mismatch() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{name-mismatch.json': at 'name': expected "name-mismatch" (the file name without .json), got "some-other-cpu"}}
    transform.hwsched.attach_target_spec %f { target = "name-mismatch" } : !transform.any_op
    transform.yield
  }
}

// -----

// A memory-space pair the op cannot read: every op that resolves the spec
// fails, not only the copy elimination that uses the pairs.
// UNCHANGED-LABEL: func.func @payload_bad_direct_read_spaces()
// UNCHANGED-NEXT: return
module attributes {transform.with_named_sequence} {
  func.func @payload_bad_direct_read_spaces() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{bad-direct-read-spaces.json': at 'onchip.direct_read_spaces': entry "default => #gpu.address_space<workgroup>": expected "SOURCE -> TARGET"}}
    transform.hwsched.attach_target_spec %f { target = "bad-direct-read-spaces" } : !transform.any_op
    transform.yield
  }
}
