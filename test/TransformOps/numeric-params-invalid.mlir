// Bad params for numeric inputs: a clear message naming the input, before
// the payload is touched (silenceable failures at apply time; verifier
// errors for a malformed clause).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics

// Wrong count: a numeric input takes exactly one value.
func.func @two_values(%A: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %A[%i] : memref<64xf32>
    memref.store %v, %A[%i] : memref<64xf32>
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.param.constant 2 : i64 -> !transform.param<i64>
    %b = transform.param.constant 3 : i64 -> !transform.param<i64>
    %two = transform.merge_handles %a, %b : !transform.param<i64>
    // expected-error @below {{param 'num_stages' holds 2 values; a numeric input takes exactly one}}
    %p = transform.pipeline.schedule_stages %loop params(num_stages = %two) { target = "nvidia-h100" } : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}

// -----

// Negative: the attribute's range check applies to the param.
func.func @negative(%A: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %A[%i] : memref<64xf32>
    memref.store %v, %A[%i] : memref<64xf32>
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.param.constant -1 : i64 -> !transform.param<i64>
    // expected-error @below {{num_stages (from a param) must be at least 1 (got -1)}}
    %p = transform.pipeline.schedule_stages %loop params(num_stages = %k) { target = "nvidia-h100" } : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}

// -----

// Non-integer: a string is not a stage count.
func.func @not_an_integer(%A: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %A[%i] : memref<64xf32>
    memref.store %v, %A[%i] : memref<64xf32>
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.param.constant "three" -> !transform.any_param
    // expected-error @below {{num_stages (from a param) must be an integer, got "three"}}
    %p = transform.pipeline.schedule_stages %loop params(num_stages = %k) { target = "nvidia-h100" } : (!transform.any_op, !transform.any_param) -> !transform.any_op
    transform.yield
  }
}

// -----

// A float for an integer spec figure: the spec validator names the key.
func.func @float_override(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.param.constant 1.5 : f64 -> !transform.any_param
    // expected-error @below {{at 'gpu.max_registers_per_thread': expected integer}}
    %t:5 = transform.cost_model.select_tile_config %mm params(reg_limit = %r) { target = "nvidia-a100" } : (!transform.any_op, !transform.any_param) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A negative override: the spec validator's range check, naming the key.
func.func @negative_override(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant -8 : i64 -> !transform.param<i64>
    // expected-error @below {{at 'gpu.sm_count': expected integer > 0, got integer -8}}
    %t:5 = transform.cost_model.select_tile_config %mm params("gpu.sm_count" = %n) { target = "nvidia-a100" } : (!transform.any_op, !transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// An unknown name is refused like an unknown attribute.
func.func @unknown(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 8 : i64 -> !transform.param<i64>
    // expected-error @below {{unknown override 'regs'}}
    %v = transform.cost_model.estimate %mm params(regs = %n) { target = "nvidia-a100", metric = "flops" } : (!transform.any_op, !transform.param<i64>) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// A list input takes integers only.
func.func @packed_strings(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.param.constant "B" -> !transform.any_param
    // expected-error @below {{param 'packed_operands' must hold integers, got "B"}}
    %t:5 = transform.cost_model.select_tile_config %mm params(packed_operands = %s) { target = "x86-avx512" } : (!transform.any_op, !transform.any_param) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// Verifier: a name given both ways, or twice.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @both(%loop: !transform.any_op, %k: !transform.param<i64>) {
    // expected-error @below {{input 'num_stages' given both as an attribute and as a param}}
    %p = transform.pipeline.schedule_stages %loop params(num_stages = %k) { num_stages = 2 } : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @twice(%loop: !transform.any_op, %k: !transform.param<i64>) {
    // expected-error @below {{input 'max_stages' given twice}}
    %p = transform.pipeline.schedule_stages %loop params(max_stages = %k, max_stages = %k) : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}
