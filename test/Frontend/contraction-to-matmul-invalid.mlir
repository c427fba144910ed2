// Bad input for transform.hwsched.contraction_to_matmul: a silenceable
// failure naming the op and what would make it work; nothing is rewritten
// (every payload op is checked before any is changed).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s

// A dynamic extent among static ops: the static one is not rewritten either.
// CHECK-LABEL: func.func @dynamic(
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x8xf32>
func.func @dynamic(%a: tensor<8x8xf32>, %d: tensor<?x8xf32>, %c: tensor<8x8xf32>, %e: tensor<?x8xf32>) -> (tensor<8x8xf32>, tensor<?x8xf32>) {
  %s = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%d, %a : tensor<?x8xf32>, tensor<8x8xf32>) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %s, %r : tensor<8x8xf32>, tensor<?x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot rewrite the op as a matmul: loop d0 has a dynamic extent; the rewrite needs static extents: give the operands static types}}
    %mm = transform.hwsched.contraction_to_matmul %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Buffers.
// CHECK-LABEL: func.func @on_memrefs(
// CHECK:       linalg.matmul ins
func.func @on_memrefs(%a: memref<8x8xf32>, %c: memref<8x8xf32>) {
  // expected-note @below {{payload op}}
  linalg.matmul ins(%a, %a : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot rewrite the op as a matmul: the op works on buffers (memref operands); the rewrite copies operands into new tensors: write the op on tensors (before bufferization)}}
    %mm = transform.hwsched.contraction_to_matmul %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Not a multiply-add: a max-plus "matmul".
// CHECK-LABEL: func.func @max_plus(
// CHECK:       arith.maximumf
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @max_plus(%a: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %z, %s : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot rewrite the op as a matmul: the body is not a multiply-add (C += A * B, casts allowed)}}
    %mm = transform.hwsched.contraction_to_matmul %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A loop that indexes only A (a sum over A's rows before the product).
// CHECK-LABEL: func.func @one_operand_loop(
#nA = affine_map<(m, n, k, r) -> (m, k, r)>
#nB = affine_map<(m, n, k, r) -> (k, n)>
#nC = affine_map<(m, n, k, r) -> (m, n)>
func.func @one_operand_loop(%a: tensor<8x8x4xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [#nA, #nB, #nC], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : tensor<8x8x4xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %z, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot rewrite the op as a matmul: loop d3 indexes only one operand (a broadcast or a sum over one operand), which is not a contraction loop}}
    %mm = transform.hwsched.contraction_to_matmul %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A dot product: neither M nor N.
// CHECK-LABEL: func.func @dot(
// CHECK:       linalg.dot
func.func @dot(%a: tensor<8xf32>, %c: tensor<f32>) -> tensor<f32> {
  // expected-note @below {{payload op}}
  %r = linalg.dot ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%c : tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.dot"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot rewrite the op as a matmul: neither an M nor an N loop (a dot product); the matmul schedules need M or N}}
    %mm = transform.hwsched.contraction_to_matmul %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
