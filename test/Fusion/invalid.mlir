// Bad input for transform.fusion.epilogue_in_place: a silenceable failure
// naming the reason; the payload is never changed.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: not hwsched-opt %s --split-input-file --transform-interpreter --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s

// Unchanged after a failure: the epilogue still reads the matmul result.
// CHECK: IR Dump After
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8xf32>) outs(%{{.+}} : tensor<8x8xf32>)

func.func @reads_output(%a: tensor<8x8xf32>, %v: tensor<8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %mm = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %v : tensor<8x8xf32>, tensor<8xf32>) outs(%d : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot run the epilogue in place: the epilogue's body reads its output's current value}}
    %r = transform.fusion.epilogue_in_place %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @not_generic(%a: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-note @below {{payload op}}
  %mm = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%d : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %mm : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot run the epilogue in place: 'linalg.matmul' is not a linalg.generic}}
    %r = transform.fusion.epilogue_in_place %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The bias (input 1) has another type and indexing map than the output.
func.func @wrong_input(%a: tensor<8x8xf32>, %v: tensor<8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %mm = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %v : tensor<8x8xf32>, tensor<8xf32>) outs(%d : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot run the epilogue in place: input 1 differs from the output in type or indexing map}}
    %r = transform.fusion.epilogue_in_place %g { input = 1 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @input_out_of_range(%a: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x8xf32>) outs(%d : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot run the epilogue in place: input 2 does not exist (1 inputs)}}
    %r = transform.fusion.epilogue_in_place %g { input = 2 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A function argument is no producer chain (its buffer is not ours to
// overwrite).
func.func @no_producer(%a: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x8xf32>) outs(%d : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot run the epilogue in place: input 0 is not produced by a chain of destination-style ops that starts from a tensor.empty or from an init it does not read}}
    %r = transform.fusion.epilogue_in_place %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A matmul accumulating into an argument reads it: redirecting its init
// would change the result.
func.func @accumulates(%a: tensor<8x8xf32>, %c: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %mm = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<8x8xf32>) outs(%d : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot run the epilogue in place: input 0 is not produced by a chain}}
    %r = transform.fusion.epilogue_in_place %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The destination is computed after the chain starts (not a tensor.empty
// that could move up).
func.func @late_destination(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %mm = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %one = arith.constant 1.0 : f32
  %d = linalg.fill ins(%one : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<8x8xf32>) outs(%d : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot run the epilogue in place: the epilogue's destination is defined after the producer chain starts}}
    %r = transform.fusion.epilogue_in_place %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @negative_input(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{input must be at least 0 (got -1)}}
    %r = transform.fusion.epilogue_in_place %g { input = -1 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
