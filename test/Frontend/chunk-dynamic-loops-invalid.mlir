// Bad input for transform.hwsched.chunk_dynamic_loops: a silenceable
// failure naming the op and what would make it work; nothing is rewritten
// (every payload op is checked before any is changed).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s

// A dynamic reduction of a max-plus body (zero padding would change the
// maxima), next to a dynamic matmul: neither is rewritten.
// CHECK-LABEL: func.func @max_plus(
// CHECK-NOT:   scf.for
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x8xf32>
// CHECK:       arith.maximumf
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @max_plus(%a: tensor<8x?xf32>, %b: tensor<?x8xf32>, %c: tensor<8x8xf32>, %d: tensor<?x8xf32>, %e: tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<8x8xf32>) {
  %s = linalg.matmul ins(%d, %c : tensor<?x8xf32>, tensor<8x8xf32>) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x?xf32>, tensor<?x8xf32>) outs(%c : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.addf %x, %y : f32
    %m = arith.maximumf %z, %p : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  return %s, %r : tensor<?x8xf32>, tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface {LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot give the op static shapes: a reduction loop has a dynamic extent and the body is not a multiply-add (C += A * B, casts allowed), so zero padding would change the result: give the reduced operands a static type}}
    %s = transform.hwsched.chunk_dynamic_loops %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Buffers.
// CHECK-LABEL: func.func @on_memrefs(
// CHECK:       linalg.matmul ins
func.func @on_memrefs(%a: memref<?x8xf32>, %b: memref<8x8xf32>, %c: memref<?x8xf32>) {
  // expected-note @below {{payload op}}
  linalg.matmul ins(%a, %b : memref<?x8xf32>, memref<8x8xf32>) outs(%c : memref<?x8xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot give the op static shapes: the op works on buffers (memref operands); chunks are padded into new tensors: write the op on tensors (before bufferization)}}
    %s = transform.hwsched.chunk_dynamic_loops %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An operand indexed by a division of a loop (a padded chunk's extent in
// that operand is unknown).
// CHECK-LABEL: func.func @floordiv(
#fA = affine_map<(i, j) -> (i floordiv 2, j)>
#fC = affine_map<(i, j) -> (i, j)>
func.func @floordiv(%a: tensor<?x8xf32>, %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [#fA, #fC], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x8xf32>) outs(%c : tensor<?x8xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot give the op static shapes: operand #0 is indexed by something other than sums of loops (2 results), so the extent of a padded chunk is unknown: give the operands static types}}
    %s = transform.hwsched.chunk_dynamic_loops %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A chunk that is not positive.
func.func @bad_chunk(%a: tensor<?x8xf32>, %b: tensor<8x8xf32>, %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x8xf32>) outs(%c : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{parallel_chunk must be positive, got 0}}
    %s = transform.hwsched.chunk_dynamic_loops %ops {parallel_chunk = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
