// transform.fusion.epilogue_into_stores: an elementwise epilogue on buffers
// applied at the stores of the op before it that writes its input.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// A loop nest stores the result through a row subview and directly; the
// bias (per column) is read at each store, the ReLU applied, the outcome
// stored into the destination; the temporary disappears.
// REMARK: remark: epilogue into stores: the elementwise epilogue is applied at 2 store(s) of 'scf.for' (2 x vector.store) of its operand 0 (memref<64x64xf32>); that temporary is no longer written nor allocated; 1 other input(s) read at each store through their indexing maps
// CHECK-LABEL: func.func @loop_nest(
// CHECK-SAME:    %[[A:.+]]: memref<64x64xf32>, %[[BIAS:.+]]: memref<64xf32>, %[[OUT:.+]]: memref<64x64xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[I:.+]] =
// CHECK:           scf.for %[[J:.+]] =
// CHECK:             %[[V:.+]] = vector.load %[[A]][%[[I]], %[[J]]]
// The subview's column offset 32, added to the store's index.
// CHECK:             %[[C32:.+]] = arith.constant 32 : index
// CHECK:             %[[COL:.+]] = arith.addi %[[C32]], %[[J]] : index
// CHECK:             %[[B:.+]] = vector.transfer_read %[[BIAS]][%[[COL]]], %{{.+}} {in_bounds = [true]} : memref<64xf32>, vector<2xf32>
// CHECK:             %[[S:.+]] = arith.addf %[[V]], %[[B]] : vector<2xf32>
// CHECK:             %[[R:.+]] = arith.maximumf %[[S]], %{{.+}} : vector<2xf32>
// CHECK:             vector.store %[[R]], %[[OUT]][%{{.+}}, %[[COL]]] : memref<64x64xf32>, vector<2xf32>
// CHECK:             %[[B2:.+]] = vector.transfer_read %[[BIAS]][%[[J]]]
// CHECK:             vector.store %{{.+}}, %[[OUT]][%[[I]], %[[J]]] : memref<64x64xf32>, vector<2xf32>
// CHECK-NOT:     linalg.generic {
// CHECK-NOT:     memref.dealloc
func.func @loop_nest(%A: memref<64x64xf32>, %bias: memref<64xf32>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<64x64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %row = memref.subview %C[%i, 32] [1, 32] [1, 1] : memref<64x64xf32> to memref<1x32xf32, strided<[64, 1], offset: ?>>
    scf.for %j = %c0 to %c32 step %c2 {
      %v = vector.load %A[%i, %j] : memref<64x64xf32>, vector<2xf32>
      vector.store %v, %row[%c0, %j] : memref<1x32xf32, strided<[64, 1], offset: ?>>, vector<2xf32>
      vector.store %v, %C[%i, %j] : memref<64x64xf32>, vector<2xf32>
    }
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias : memref<64x64xf32>, memref<64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  }
  memref.dealloc %C : memref<64x64xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e { explain } : !transform.any_op
    transform.yield
  }
}

// -----

// Stores of the same columns share their bias read (the second store reads
// nothing); a row bias (d0) is broadcast along the vector.
// REMARK: remark: epilogue into stores: the elementwise epilogue is applied at 2 store(s) of 'scf.forall' (2 x vector.store)
// CHECK-LABEL: func.func @shared_reads(
// CHECK-SAME:    %[[A:.+]]: memref<64x64xf32>, %[[BIAS:.+]]: memref<64xf32>, %[[ROWB:.+]]: memref<64xf32>, %[[OUT:.+]]: memref<64x64xf32>, %[[I:.+]]: index, %[[J:.+]]: index, %[[K:.+]]: index)
// CHECK:         scf.forall
// CHECK:           %[[B:.+]] = vector.transfer_read %[[BIAS]][%[[J]]]
// CHECK:           %[[RB:.+]] = vector.transfer_read %[[ROWB]][%[[I]]], %{{.+}} {in_bounds = [true], permutation_map = #{{.+}}} : memref<64xf32>, vector<2xf32>
// CHECK:           vector.store %{{.+}}, %[[OUT]][%[[I]], %[[J]]]
// CHECK-NOT:       vector.transfer_read %[[BIAS]]
// CHECK:           vector.transfer_read %[[ROWB]][%[[K]]]
// CHECK:           vector.store %{{.+}}, %[[OUT]][%[[K]], %[[J]]]
func.func @shared_reads(%A: memref<64x64xf32>, %bias: memref<64xf32>, %rowb: memref<64xf32>, %out: memref<64x64xf32>, %i: index, %j: index, %k: index) {
  %C = memref.alloc() : memref<64x64xf32>
  scf.forall (%t) in (4) {
    %v = vector.load %A[%i, %j] : memref<64x64xf32>, vector<2xf32>
    vector.store %v, %C[%i, %j] : memref<64x64xf32>, vector<2xf32>
    vector.store %v, %C[%k, %j] : memref<64x64xf32>, vector<2xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C, %bias, %rowb : memref<64x64xf32>, memref<64xf32>, memref<64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %b: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %u = arith.mulf %s, %r : f32
    linalg.yield %u : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e { explain } : !transform.any_op
    transform.yield
  }
}

// -----

// The result is read again after the epilogue: its stores stay, and the
// epilogue's values are stored besides them.
// REMARK: remark: epilogue into stores: {{.+}}; that buffer keeps its stores (it is read after the epilogue)
// CHECK-LABEL: func.func @read_later(
// CHECK-SAME:    %[[OUT:[^:]+]]: memref<8x8xf32>, %[[COPY:[^:]+]]: memref<8x8xf32>
// CHECK:         %[[C:.+]] = memref.alloc() : memref<8x8xf32>
// CHECK:         %[[S:.+]] = arith.mulf
// CHECK:         vector.store %[[S]], %[[OUT]]
// CHECK:         vector.store %{{.+}}, %[[C]]
// CHECK:         memref.copy %[[C]], %[[COPY]]
func.func @read_later(%out: memref<8x8xf32>, %copy: memref<8x8xf32>, %v: vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %C = memref.alloc() : memref<8x8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    vector.store %v, %C[%i, %c0] : memref<8x8xf32>, vector<8xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  }
  memref.copy %C, %copy : memref<8x8xf32> to memref<8x8xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e { explain } : !transform.any_op
    transform.yield
  }
}

// -----

// In place (the epilogue's output is the result, as epilogue_in_place
// leaves it): each store writes the epilogue's value instead. Scalar
// stores, a body with linalg.index and a type conversion.
// REMARK: remark: epilogue into stores: the elementwise epilogue is applied at 1 store(s) of 'scf.for' (1 x memref.store) of its operand 1 (memref<8x8xf32>); in place: those stores write the epilogue's values
// CHECK-LABEL: func.func @in_place_scalar(
// CHECK-SAME:    %[[SCALE:[^:]+]]: memref<8xf32>
// CHECK:         %[[C:.+]] = memref.alloc() : memref<8x8xf32>
// CHECK:         scf.for %[[I:.+]] =
// CHECK:           scf.for %[[J:.+]] =
// CHECK:             %[[X:.+]] = arith.sitofp
// CHECK:             %[[SC:.+]] = memref.load %[[SCALE]][%[[I]]] : memref<8xf32>
// CHECK:             %[[JF:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK:             %[[F:.+]] = arith.sitofp %[[JF]] : i32 to f32
// CHECK:             %[[M:.+]] = arith.mulf %[[X]], %[[SC]] : f32
// CHECK:             %[[R:.+]] = arith.addf %[[M]], %[[F]] : f32
// CHECK:             memref.store %[[R]], %[[C]][%[[I]], %[[J]]] : memref<8x8xf32>
// CHECK-NOT:         memref.store
// CHECK-NOT:     linalg.generic {
func.func @in_place_scalar(%scale: memref<8xf32>, %res: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %C = memref.alloc() : memref<8x8xf32>
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %x = arith.sitofp %ii : i32 to f32
      memref.store %x, %C[%i, %j] : memref<8x8xf32>
    }
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%scale : memref<8xf32>) outs(%C : memref<8x8xf32>) {
  ^bb0(%s: f32, %x: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %m = arith.mulf %x, %s : f32
    %r = arith.addf %m, %jf : f32
    linalg.yield %r : f32
  }
  memref.copy %C, %res : memref<8x8xf32> to memref<8x8xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e { explain } : !transform.any_op
    transform.yield
  }
}

// -----

// A 2-D transfer_write of a tile; linalg.index along both vector
// dimensions (the column steps broadcast over rows, the row steps moved
// into place); the destination allocated after the producer moves before it.
// CHECK-LABEL: func.func @tile_write(
// CHECK:         %[[OUT:.+]] = memref.alloc() : memref<16x16xf32>
// CHECK-NEXT:    scf.forall
// CHECK:           vector.step : vector<4xindex>
// CHECK:           vector.broadcast {{.*}} : vector<4xindex> to vector<8x4xindex>
// CHECK:           vector.transpose {{.*}} [1, 0] : vector<8x4xindex> to vector<4x8xindex>
// CHECK:           vector.step : vector<8xindex>
// CHECK-NEXT:      vector.broadcast {{.*}} : vector<8xindex> to vector<4x8xindex>
// CHECK-NOT:       vector.transpose
// CHECK:           vector.transfer_write %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}] {in_bounds = [true, true]} : vector<4x8xf32>, memref<16x16xf32>
// CHECK:         return %[[OUT]]
func.func @tile_write(%v: vector<4x8xf32>) -> memref<16x16xf32> {
  %C = memref.alloc() : memref<16x16xf32>
  scf.forall (%i, %j) in (4, 2) {
    %r = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %c = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
    vector.transfer_write %v, %C[%r, %c] {in_bounds = [true, true]} : vector<4x8xf32>, memref<16x16xf32>
  }
  %out = memref.alloc() : memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %si = arith.index_cast %s : index to i32
    %sf = arith.sitofp %si : i32 to f32
    %r = arith.addf %x, %sf : f32
    linalg.yield %r : f32
  }
  return %out : memref<16x16xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// The epilogue kept in a function of its own (as the tensor-core route
// keeps it away from vectorization), given as its call: brought back and
// applied; the function goes when nothing else calls it.
// CHECK-LABEL: func.func @kernel(
// CHECK:         gpu.launch
// CHECK:           arith.negf {{.*}} : vector<4xf32>
// CHECK:           vector.store {{.*}} : memref<32x32xf32>, vector<4xf32>
// CHECK-NOT:     call @epilogue
// CHECK-NOT:     func.func private @epilogue
func.func private @epilogue(%c: memref<32x32xf32>, %out: memref<32x32xf32>) -> memref<32x32xf32> {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<32x32xf32>) outs(%out : memref<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return %out : memref<32x32xf32>
}
func.func @kernel(%v: vector<4xf32>, %out: memref<32x32xf32>) -> memref<32x32xf32> {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c8 = arith.constant 8 : index
  %C = memref.alloc() : memref<32x32xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c32, %b = %c8, %c = %c1) {
    %col = arith.muli %ty, %c8 : index
    vector.store %v, %C[%tx, %col] : memref<32x32xf32>, vector<4xf32>
    gpu.terminator
  }
  %r = call @epilogue(%C, %out) : (memref<32x32xf32>, memref<32x32xf32>) -> memref<32x32xf32>
  return %r : memref<32x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["func.call"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// A constant without a typed value (ub.poison) in the body is made again at
// the store and broadcast (it was broadcast from the erased body: a null
// operand).
// CHECK-LABEL: func.func @poison_in_body(
// CHECK:         scf.forall
// CHECK:           %[[P:.+]] = ub.poison : f32
// CHECK:           %[[B:.+]] = vector.broadcast %[[P]] : f32 to vector<2xf32>
// CHECK:           arith.addf %{{.+}}, %[[B]] : vector<2xf32>
// CHECK-NOT:     linalg.generic {
func.func @poison_in_body(%A: memref<64x64xf32>, %out: memref<64x64xf32>, %i: index, %j: index) {
  %C = memref.alloc() : memref<64x64xf32>
  scf.forall (%t) in (4) {
    %v = vector.load %A[%i, %j] : memref<64x64xf32>, vector<2xf32>
    vector.store %v, %C[%i, %j] : memref<64x64xf32>, vector<2xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %p = ub.poison : f32
    %s = arith.addf %x, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %C : memref<64x64xf32>
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// The temporary is read after the epilogue through a memref.cast: it keeps
// its stores (they were erased: the load read what was never written).
// REMARK: remark: epilogue into stores: the elementwise epilogue is applied at 1 store(s) of 'scf.forall' (1 x vector.store) of its operand 0 (memref<64x64xf32>); that buffer keeps its stores (it is read after the epilogue)
// CHECK-LABEL: func.func @read_through_cast_after(
// CHECK:         %[[C:.+]] = memref.alloc() : memref<64x64xf32>
// CHECK:         scf.forall
// CHECK:           vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<64x64xf32>, vector<2xf32>
// CHECK:           vector.store %{{.+}}, %[[C]][%{{.+}}, %{{.+}}] : memref<64x64xf32>, vector<2xf32>
// CHECK:         %[[CAST:.+]] = memref.cast %[[C]]
// CHECK:         memref.load %[[CAST]]
func.func @read_through_cast_after(%A: memref<64x64xf32>, %out: memref<64x64xf32>, %i: index, %j: index) -> f32 {
  %C = memref.alloc() : memref<64x64xf32>
  scf.forall (%t) in (4) {
    %v = vector.load %A[%i, %j] : memref<64x64xf32>, vector<2xf32>
    vector.store %v, %C[%i, %j] : memref<64x64xf32>, vector<2xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  %c = memref.cast %C : memref<64x64xf32> to memref<?x?xf32>
  %r = memref.load %c[%i, %j] : memref<?x?xf32>
  return %r : f32
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e { explain } : !transform.any_op
    transform.yield
  }
}

// -----

// Two calls of one epilogue function in one handle: both applied, the
// function erased once (the second commit read it after the first had
// erased it).
// CHECK-LABEL: func.func @two_calls(
// CHECK:         scf.forall
// CHECK:           arith.negf {{.*}} : vector<4xf32>
// CHECK:         scf.forall
// CHECK:           arith.negf {{.*}} : vector<4xf32>
// CHECK-NOT:     call @neg
// CHECK-NOT:     func.func private @neg
func.func private @neg(%c: memref<32x32xf32>, %out: memref<32x32xf32>) -> memref<32x32xf32> {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<32x32xf32>) outs(%out : memref<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return %out : memref<32x32xf32>
}
func.func @two_calls(%v: vector<4xf32>, %out: memref<32x32xf32>, %out2: memref<32x32xf32>, %i: index) -> memref<32x32xf32> {
  %C = memref.alloc() : memref<32x32xf32>
  scf.forall (%t) in (4) {
    vector.store %v, %C[%i, %i] : memref<32x32xf32>, vector<4xf32>
  }
  %r = call @neg(%C, %out) : (memref<32x32xf32>, memref<32x32xf32>) -> memref<32x32xf32>
  %D = memref.alloc() : memref<32x32xf32>
  scf.forall (%t) in (4) {
    vector.store %v, %D[%i, %i] : memref<32x32xf32>, vector<4xf32>
  }
  %r2 = call @neg(%D, %out2) : (memref<32x32xf32>, memref<32x32xf32>) -> memref<32x32xf32>
  return %r2 : memref<32x32xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["func.call"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// A 1-D transfer_write that may run out of bounds keeps its in_bounds
// (the reads of the other inputs too); the alignment of the result buffer
// is not claimed for the destination.
// CHECK-LABEL: func.func @partial(
// CHECK-SAME:    %[[BIAS:[^:]+]]: memref<10xf32>, %[[OUT:[^:]+]]: memref<10xf32>
// CHECK:         %[[B:.+]] = vector.transfer_read %[[BIAS]][%{{[a-z0-9_]+}}], %{{[a-z0-9_]+}} : memref<10xf32>, vector<4xf32>
// CHECK:         vector.transfer_write %{{[0-9]+}}, %[[OUT]][%{{[a-z0-9_]+}}] : vector<4xf32>, memref<10xf32>
// CHECK:         vector.store %{{.+}}, %[[OUT]][%{{.+}}] : memref<10xf32>, vector<2xf32>
// CHECK-NOT:     alignment
func.func @partial(%bias: memref<10xf32>, %out: memref<10xf32>, %v: vector<4xf32>, %w: vector<2xf32>) {
  %c0 = arith.constant 0 : index
  %C = memref.alloc() : memref<10xf32>
  scf.forall (%i) in (3) {
    %j = arith.muli %i, %c0 : index
    vector.transfer_write %v, %C[%j] : vector<4xf32>, memref<10xf32>
    vector.store %w, %C[%j] {alignment = 16} : memref<10xf32>, vector<2xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%C, %bias : memref<10xf32>, memref<10xf32>) outs(%out : memref<10xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %e : !transform.any_op
    transform.yield
  }
}

// -----

// transform.fusion.check_epilogue_for_stores before bufferization accepts
// a named elementwise op (the route generalizes it) reading the matmul's
// result once through the identity: it succeeds and changes nothing.
// CHECK-LABEL: func.func @check_accepts(
// CHECK:         linalg.matmul
// CHECK:         linalg.add
func.func @check_accepts(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %mm = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.add ins(%mm, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%d : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.add"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.fusion.check_epilogue_for_stores %e, %m : !transform.any_op, !transform.any_op
    transform.yield
  }
}
