// Bad input for transform.smem.eliminate_redundant_copies: a silenceable
// failure with a clear message, and the payload untouched.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null \
// RUN:   | FileCheck %s

// A handle to an op without regions: no scope to work in; the other scope
// in the same handle is not changed either.
// CHECK-LABEL: func.func @not_a_scope
// CHECK: memref.copy
// CHECK-LABEL: func.func @other
// CHECK: memref.copy
module attributes {transform.with_named_sequence} {
  func.func @not_a_scope(%s: memref<8xf32> {llvm.noalias}) {
    %t = memref.alloc() : memref<8xf32>
    // expected-note @below {{scope payload op}}
    memref.copy %s, %t : memref<8xf32> to memref<8xf32>
    return
  }
  func.func @other(%s: memref<8xf32> {llvm.noalias}) {
    %t = memref.alloc() : memref<8xf32>
    memref.copy %s, %t : memref<8xf32> to memref<8xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} attributes{sym_name = "other"} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.structured.match ops{["memref.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %both = transform.merge_handles %f, %c : !transform.any_op
    // expected-error @below {{expected a scope with regions (e.g. a func.func or gpu.launch), got 'memref.copy'}}
    transform.smem.eliminate_redundant_copies %both : !transform.any_op
    transform.yield
  }
}

// -----

// A bad spec is reported before anything changes.
// CHECK-LABEL: func.func @bad_spec
// CHECK: memref.copy
module attributes {transform.with_named_sequence} {
  func.func @bad_spec(%s: memref<8xf32> {llvm.noalias}) {
    %t = memref.alloc() : memref<8xf32>
    memref.copy %s, %t : memref<8xf32> to memref<8xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown target 'nvidia-a101'}}
    transform.smem.eliminate_redundant_copies %f { target = "nvidia-a101" } : !transform.any_op
    transform.yield
  }
}

// -----

// An unknown override is an error too.
// CHECK-LABEL: func.func @bad_override
// CHECK: memref.copy
module attributes {transform.with_named_sequence} {
  func.func @bad_override(%s: memref<8xf32> {llvm.noalias}) {
    %t = memref.alloc() : memref<8xf32>
    memref.copy %s, %t : memref<8xf32> to memref<8xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no_such_figure}}
    transform.smem.eliminate_redundant_copies %f { target = "nvidia-a100", no_such_figure = 3 } : !transform.any_op
    transform.yield
  }
}

// -----

// A memory-space pair without an arrow names the key and the entry; the
// payload is untouched.
// CHECK-LABEL: func.func @pair_without_arrow
// CHECK: memref.copy
module attributes {transform.with_named_sequence} {
  func.func @pair_without_arrow(%s: memref<8xf32> {llvm.noalias}) {
    %t = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
    memref.copy %s, %t : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{at 'onchip.direct_read_spaces': entry "#gpu.address_space<workgroup>": expected "SOURCE -> TARGET"}}
    transform.smem.eliminate_redundant_copies %f { target = "x86-avx512", "onchip.direct_read_spaces" = ["#gpu.address_space<workgroup>"] } : !transform.any_op
    transform.yield
  }
}

// -----

// A side that is not MLIR attribute text, '*' or 'default'.
// CHECK-LABEL: func.func @pair_unparsable
// CHECK: memref.copy
module attributes {transform.with_named_sequence} {
  func.func @pair_unparsable(%s: memref<8xf32> {llvm.noalias}) {
    %t = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
    memref.copy %s, %t : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{at 'onchip.direct_read_spaces': entry "default -> #gpu.address_space<nowhere>": cannot parse '#gpu.address_space<nowhere>'}}
    transform.smem.eliminate_redundant_copies %f { target = "x86-avx512", "onchip.direct_read_spaces" = ["default -> #gpu.address_space<nowhere>"] } : !transform.any_op
    transform.yield
  }
}

// -----

// The key holds an array of strings, not a number (the schema check after
// the override rejects it).
// CHECK-LABEL: func.func @pair_not_strings
// CHECK: memref.copy
module attributes {transform.with_named_sequence} {
  func.func @pair_not_strings(%s: memref<8xf32> {llvm.noalias}) {
    %t = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
    memref.copy %s, %t : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{onchip.direct_read_spaces}}
    transform.smem.eliminate_redundant_copies %f { target = "x86-avx512", "onchip.direct_read_spaces" = 3 } : !transform.any_op
    transform.yield
  }
}

// -----

// Malformed syntax: the op has no result.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @has_result(%f: !transform.any_op) {
    // expected-error @below {{expected ':'}}
    %0 = transform.smem.eliminate_redundant_copies %f -> !transform.any_op
    transform.yield
  }
}
