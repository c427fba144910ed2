// transform.hwsched.outline_kernel_function refuses, naming the property,
// before it moves anything (the payload is unchanged; fuzz/op_fuzz.py checks
// that byte for byte): an empty name, an op that is not inside a function
// (the module itself), a function, a terminator, and an op inside a
// terminator's region. Each is a case the op fuzzer found crashing or
// leaving invalid IR before these checks (fuzz/regressions/ops/).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics

func.func @f(%x: f32) -> f32 {
  // expected-note @below {{'arith.addf' here}}
  %a = arith.addf %x, %x : f32
  return %a : f32
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{func_name is empty: name the function to create}}
    %func, %call = transform.hwsched.outline_kernel_function %op { func_name = "" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// expected-note @below {{'builtin.module' here}}
module attributes {transform.with_named_sequence} {
  func.func @f() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    // expected-error @below {{the op is a function, a symbol or a symbol table; outline an op inside a function body}}
    %func, %call = transform.hwsched.outline_kernel_function %root { func_name = "k" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @f(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  // expected-note @below {{'func.return' here}}
  return %a : f32
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the op terminates its block; only an op its block goes on after can move into a function}}
    %func, %call = transform.hwsched.outline_kernel_function %op { func_name = "k" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @f(%t: tensor<8xf32>, %s: tensor<1xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> tensor<8xf32> {
    scf.forall.in_parallel {
      // expected-note @below {{'tensor.parallel_insert_slice' here}}
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["tensor.parallel_insert_slice"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the op is inside the region of a terminator ('scf.forall.in_parallel'), which holds only ops of its own kind}}
    %func, %call = transform.hwsched.outline_kernel_function %op { func_name = "k" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A payload op outside any function: a global's initializer region.
module attributes {transform.with_named_sequence} {
  memref.global "private" constant @g : memref<2xf32> = dense<1.0>
  // expected-note @below {{'llvm.mlir.global' here}}
  llvm.mlir.global internal @h() : i32 {
    %c = llvm.mlir.constant(7 : i32) : i32
    llvm.return %c : i32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["llvm.mlir.global"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the op is a function, a symbol or a symbol table}}
    %func, %call = transform.hwsched.outline_kernel_function %op { func_name = "k" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
