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
func.func @memory_between(%D: memref<8x8xf32>, %out: memref<8x8xf32>, %v: vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %C = memref.alloc() : memref<8x8xf32>
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
func.func @producer_writes_input(%bias: memref<8xf32>, %out: memref<8x8xf32>, %v: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %C = memref.alloc() : memref<8x8xf32>
  // expected-note @below {{the producer}}
  scf.forall (%i) in (8) {
    vector.store %v, %C[%i, %c0] : memref<8x8xf32>, vector<4xf32>
    // Through a view of the bias: still a write of the bias.
    %half = memref.subview %bias[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    vector.store %v, %half[%c0] : memref<4xf32, strided<[1], offset: 4>>, vector<4xf32>
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
func.func @undone(%out: memref<8x8xf32>, %v: vector<8xf32>) -> memref<8x8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<8x8xf32>
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

// -----

// A call whose epilogue has no producer (found by utils/robustness/run.py
// on a @main calling an initialiser): the refusal is about the generic of
// the inlined copy, which the undo erases; it names the call instead.
func.func private @iota(%m: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%m : memref<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  return
}
func.func @call_without_producer(%a: memref<8xf32>) {
  // expected-note @below {{payload op}}
  call @iota(%a) : (memref<8xf32>) -> ()
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["func.call"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: no op before the epilogue (in its block) writes one of its inputs read through the identity map}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// Buffers of vectors: there is no vector of their elements to read the
// other inputs into (a transfer_read to vector<2xvector<2xf32>> failed
// verification).
func.func @vector_elements(%A: memref<64xvector<2xf32>>, %B: memref<64xvector<2xf32>>, %out: memref<64xvector<2xf32>>, %i: index) {
  %C = memref.alloc() : memref<64xvector<2xf32>>
  scf.forall (%t) in (4) {
    %v = memref.load %A[%i] : memref<64xvector<2xf32>>
    vector.store %v, %C[%i] : memref<64xvector<2xf32>>, vector<2xf32>
  }
  // expected-note @below {{payload op}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%C, %B : memref<64xvector<2xf32>>, memref<64xvector<2xf32>>) outs(%out : memref<64xvector<2xf32>>) {
  ^bb0(%x: vector<2xf32>, %b: vector<2xf32>, %o: vector<2xf32>):
    linalg.yield %b : vector<2xf32>
  }
  memref.dealloc %C : memref<64xvector<2xf32>>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: operand 0 of the epilogue has elements that are not integers, indices or floats}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// The producer also stores C through a memref.cast (transposed): that
// store was not seen, kept writing C, and the destination missed those
// elements.
func.func @store_through_cast(%A: memref<64x64xf32>, %out: memref<64x64xf32>, %i: index, %j: index) {
  %C = memref.alloc() : memref<64x64xf32>
  // expected-note @below {{the producer}}
  scf.forall (%t) in (4) {
    %v = vector.load %A[%i, %j] : memref<64x64xf32>, vector<2xf32>
    vector.store %v, %C[%i, %j] : memref<64x64xf32>, vector<2xf32>
    %c = memref.cast %C : memref<64x64xf32> to memref<?x?xf32>
    // expected-note @below {{payload op}}
    vector.store %v, %c[%j, %i] : memref<?x?xf32>, vector<2xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  memref.dealloc %C : memref<64x64xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: the producer stores the epilogue's input through 'memref.cast'; only memref.subview views of it are followed}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// Another input is a view of the producer's result: read at each store it
// read the temporary whose stores were erased.
func.func @input_aliases_result(%A: memref<64x64xf32>, %out: memref<64x64xf32>, %i: index, %j: index) {
  %C = memref.alloc() : memref<64x64xf32>
  %Cx = memref.cast %C : memref<64x64xf32> to memref<?x?xf32>
  // expected-note @below {{the producer}}
  scf.forall (%t) in (4) {
    %v = vector.load %A[%i, %j] : memref<64x64xf32>, vector<2xf32>
    vector.store %v, %C[%i, %j] : memref<64x64xf32>, vector<2xf32>
  }
  // expected-note @below {{payload op}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %Cx : memref<64x64xf32>, memref<?x?xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %C : memref<64x64xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot apply the epilogue at its producer's stores: operand 1 of the epilogue is the producer's result or a view of it; pass it once}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// The result is a function argument: the stores need not cover it, and
// the elements they miss would keep their old values.
func.func @result_is_argument(%C: memref<4xf32>, %out: memref<4xf32>, %v: vector<2xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{the producer}}
  scf.forall (%i) in (1) {
    vector.store %v, %C[%c0] : memref<4xf32>, vector<2xf32>
  }
  // expected-note @below {{payload op}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%C : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the producer's result (operand 0 of the epilogue) is not allocated in this function, so the producer's stores may not cover it and the elements they miss would keep their old values; give the result a buffer of its own (a tensor.empty before bufferization)}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// The destination is also an input: at a store the epilogue would read
// what its earlier stores wrote.
func.func @destination_is_input(%D: memref<4xf32>, %v: vector<2xf32>) {
  %c0 = arith.constant 0 : index
  %C = memref.alloc() : memref<4xf32>
  // expected-note @below {{the producer}}
  scf.forall (%i) in (2) {
    %j = arith.muli %i, %c0 : index
    vector.store %v, %C[%j] : memref<4xf32>, vector<2xf32>
  }
  // expected-note @below {{payload op}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%C, %D : memref<4xf32>, memref<4xf32>) outs(%D : memref<4xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %s = arith.addf %x, %d : f32
    linalg.yield %s : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{input 1 of the epilogue is its destination or a view of it; at the producer's stores it would read values the epilogue has already written}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// A store through a view other than memref.subview (its indices in the
// buffer are not followed).
func.func @cast_store(%out: memref<4xf32>, %v: vector<2xf32>) {
  %c0 = arith.constant 0 : index
  %C = memref.alloc() : memref<4xf32>
  // expected-note @below {{the producer}}
  scf.forall (%i) in (1) {
    %d = memref.cast %C : memref<4xf32> to memref<?xf32>
    // expected-note @below {{payload op}}
    vector.store %v, %d[%c0] : memref<?xf32>, vector<2xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%C : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the producer stores the epilogue's input through 'memref.cast'; only memref.subview views of it are followed}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// A 0-d vector store.
func.func @zero_d(%out: memref<f32>, %v: vector<f32>) {
  %C = memref.alloc() : memref<f32>
  scf.forall (%i) in (1) {
    // expected-note @below {{payload op}}
    vector.transfer_write %v, %C[] : vector<f32>, memref<f32>
  }
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>],
                  iterator_types = []}
      ins(%C : memref<f32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{a 0-d vector is stored into the epilogue's input; store a scalar (memref.store) or a 1-d vector}}
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// transform.fusion.check_epilogue_for_stores before bufferization: an
// epilogue reading the matmul's result transposed is refused (and the
// payload is unchanged); see epilogue-into-stores.mlir for one it accepts.
func.func @check_transposed(%a: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %mm = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
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
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the epilogue cannot be applied at the producer's stores: the epilogue reads the producer's result (input 0) through an indexing map that is not the identity}}
    transform.fusion.check_epilogue_for_stores %e, %m : !transform.any_op, !transform.any_op
    transform.yield
  }
}
