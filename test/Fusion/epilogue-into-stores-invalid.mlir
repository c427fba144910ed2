// Bad input for transform.fusion.epilogue_into_stores: a silenceable
// failure naming the op in the way and what would make it work; the
// payload is never changed.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: not hwsched-opt %s --split-input-file --transform-interpreter --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s

// Unchanged after a failure: the producer still stores C, the epilogue is
// still there.
// CHECK: IR Dump After
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<8x8xf32>, vector<8xf32>
// CHECK: linalg.generic

// The producer accumulates into C (reads it): its stores are not final.
func.func @producer_reads(%v: vector<8xf32>, %out: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<8x8xf32>
  // expected-note @below {{the producer}}
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-note @below {{payload op}}
    %old = vector.transfer_read %C[%i, %c0], %pad : memref<8x8xf32>, vector<8xf32>
    %new = arith.addf %old, %v : vector<8xf32>
    vector.store %new, %C[%i, %c0] : memref<8x8xf32>, vector<8xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: 'vector.transfer_read' in the producer reads or passes on the epilogue's input; the epilogue is applied only where final values are stored, in a producer that only stores them}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// A reduction is not an epilogue that stores can carry.
func.func @reduction(%C: memref<8x8xf32>, %out: memref<8xf32>, %v: vector<8xf32>) {
  %c0 = arith.constant 0 : index
  vector.store %v, %C[%c0, %c0] : memref<8x8xf32>, vector<8xf32>
  // expected-note @below {{payload op}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%C : memref<8x8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: the epilogue has a reduction loop; only an elementwise epilogue (all loops parallel) is applied at the producer's stores}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// Something between the producer and the epilogue touches memory.
func.func @memory_between(%C: memref<8x8xf32>, %D: memref<8x8xf32>, %out: memref<8x8xf32>, %v: vector<8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{the producer}}
  scf.forall (%i) in (8) {
    vector.store %v, %C[%i, %c0] : memref<8x8xf32>, vector<8xf32>
  }
  // expected-note @below {{payload op}}
  memref.copy %D, %out : memref<8x8xf32> to memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: 'memref.copy' between the producer and the epilogue may touch memory; the epilogue can move into the producer's stores only across ops that do not}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// The producer writes the epilogue's other input.
func.func @producer_writes_input(%C: memref<8x8xf32>, %bias: memref<8xf32>, %out: memref<8x8xf32>, %v: vector<8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{the producer}}
  scf.forall (%i) in (8) {
    vector.store %v, %C[%i, %c0] : memref<8x8xf32>, vector<8xf32>
    vector.store %v, %bias[%c0] : memref<8xf32>, vector<8xf32>
  }
  // expected-note @below {{payload op}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<8x8xf32>, memref<8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: the producer may write input 1 of the epilogue; storing the epilogue's values while it runs would change what it sees}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// No op before the epilogue writes its input.
func.func @no_producer(%C: memref<8x8xf32>, %out: memref<8x8xf32>) {
  // expected-note @below {{payload op}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: no op before the epilogue (in its block) writes one of its inputs read through the identity map; the epilogue is applied at the stores of the op that computes that input}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// Not bufferized yet.
func.func @tensors(%C: tensor<8x8xf32>, %out: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : tensor<8x8xf32>) outs(%out : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: the epilogue is not on buffers; bufferize first (the stores it is fused into are memory writes)}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// A call of a function that is not an epilogue function (one generic):
// nothing changes.
func.func private @two_ops(%c: memref<8x8xf32>, %out: memref<8x8xf32>) -> memref<8x8xf32> {
  // expected-note @below {{that op}}
  memref.copy %c, %out : memref<8x8xf32> to memref<8x8xf32>
  return %out : memref<8x8xf32>
}
func.func @bad_callee(%C: memref<8x8xf32>, %out: memref<8x8xf32>, %v: vector<8xf32>) -> memref<8x8xf32> {
  %c0 = arith.constant 0 : index
  vector.store %v, %C[%c0, %c0] : memref<8x8xf32>, vector<8xf32>
  // expected-note @below {{payload op}}
  %r = call @two_ops(%C, %out) : (memref<8x8xf32>, memref<8x8xf32>) -> memref<8x8xf32>
  return %r : memref<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["func.call"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: the callee @two_ops holds 'memref.copy'; an epilogue function holds constants and one linalg.generic}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// An epilogue function whose producer accumulates into C: the call, brought
// back for planning, is put back as it was (its function too).
// CHECK: IR Dump After
// CHECK: func.func private @epi(
// CHECK: %[[R:.+]] = call @epi(
// CHECK-NEXT: return %[[R]]
func.func private @epi(%c: memref<8x8xf32>, %out: memref<8x8xf32>) -> memref<8x8xf32> {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return %out : memref<8x8xf32>
}
func.func @undone(%C: memref<8x8xf32>, %out: memref<8x8xf32>, %v: vector<8xf32>) -> memref<8x8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  // expected-note @below {{the producer}}
  scf.forall (%i) in (8) {
    // expected-note @below {{payload op}}
    %old = vector.transfer_read %C[%i, %c0], %pad : memref<8x8xf32>, vector<8xf32>
    %new = arith.addf %old, %v : vector<8xf32>
    vector.store %new, %C[%i, %c0] : memref<8x8xf32>, vector<8xf32>
  }
  %r = call @epi(%C, %out) : (memref<8x8xf32>, memref<8x8xf32>) -> memref<8x8xf32>
  return %r : memref<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["func.call"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: 'vector.transfer_read' in the producer reads or passes on the epilogue's input}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}
