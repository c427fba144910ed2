// Written for transform.fusion.epilogue_into_stores (not generated): loop
// nests that store a temporary (vector.store, memref.store) followed by an
// elementwise epilogue on it (a bias per column, ReLU, linalg.index), once
// as a linalg.generic and once as the call of a function holding it.
// Executable: @main prints both outputs.
module {
  func.func @kernel(%a: memref<8x16xf32>, %bias: memref<16xf32>, %out: memref<8x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %two = arith.constant dense<2.0> : vector<4xf32>
    %zero = arith.constant 0.0 : f32
    %t = memref.alloc() : memref<8x16xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c16 step %c4 {
        %v = vector.load %a[%i, %j] : memref<8x16xf32>, vector<4xf32>
        %w = arith.mulf %v, %two : vector<4xf32>
        vector.store %w, %t[%i, %j] : memref<8x16xf32>, vector<4xf32>
      }
    }
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%t, %bias : memref<8x16xf32>, memref<16xf32>) outs(%out : memref<8x16xf32>) {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %j = linalg.index 1 : index
      %ji = arith.index_cast %j : index to i32
      %jf = arith.sitofp %ji : i32 to f32
      %s = arith.addf %x, %b : f32
      %s2 = arith.addf %s, %jf : f32
      %r = arith.maximumf %s2, %zero : f32
      linalg.yield %r : f32
    }
    memref.dealloc %t : memref<8x16xf32>
    return
  }
  func.func private @epilogue(%c: memref<8x16xf32>, %bias: memref<16xf32>, %out: memref<8x16xf32>) -> memref<8x16xf32> {
    %half = arith.constant 0.5 : f32
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%c, %bias : memref<8x16xf32>, memref<16xf32>) outs(%out : memref<8x16xf32>) {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %m = arith.mulf %x, %half : f32
      %s = arith.subf %m, %b : f32
      linalg.yield %s : f32
    }
    return %out : memref<8x16xf32>
  }
  func.func @kernel_call(%a: memref<8x16xf32>, %bias: memref<16xf32>, %out: memref<8x16xf32>) -> memref<8x16xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %t = memref.alloc() : memref<8x16xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %v = memref.load %a[%i, %j] : memref<8x16xf32>
        %w = arith.addf %v, %v : f32
        memref.store %w, %t[%i, %j] : memref<8x16xf32>
      }
    }
    %r = func.call @epilogue(%t, %bias, %out) : (memref<8x16xf32>, memref<16xf32>, memref<8x16xf32>) -> memref<8x16xf32>
    memref.dealloc %t : memref<8x16xf32>
    return %r : memref<8x16xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  // v = ((7*i + 3*j + seed) mod 11 - 5) / 4: exact in f32.
  func.func private @pattern(%i: index, %j: index, %seed: index) -> f32 {
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %q = arith.constant 0.25 : f32
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c3 : index
    %s0 = arith.addi %a, %b : index
    %s = arith.addi %s0, %seed : index
    %r = arith.remui %s, %c11 : index
    %d = arith.subi %r, %c5 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %v = arith.mulf %f, %q : f32
    return %v : f32
  }
  func.func private @fill1d(%m: memref<?xf32>, %seed: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %m, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %v = func.call @pattern(%i, %c0, %seed) : (index, index, index) -> f32
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }
  func.func private @fill2d(%m: memref<?x?xf32>, %seed: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n0 = memref.dim %m, %c0 : memref<?x?xf32>
    %n1 = memref.dim %m, %c1 : memref<?x?xf32>
    scf.for %i = %c0 to %n0 step %c1 {
      scf.for %j = %c0 to %n1 step %c1 {
        %v = func.call @pattern(%i, %j, %seed) : (index, index, index) -> f32
        memref.store %v, %m[%i, %j] : memref<?x?xf32>
      }
    }
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<8x16xf32>
    %dyna = memref.cast %a : memref<8x16xf32> to memref<?x?xf32>
    %seed0 = arith.constant 1 : index
    func.call @fill2d(%dyna, %seed0) : (memref<?x?xf32>, index) -> ()
    %bias = memref.alloc() : memref<16xf32>
    %dynb = memref.cast %bias : memref<16xf32> to memref<?xf32>
    %seed1 = arith.constant 4 : index
    func.call @fill1d(%dynb, %seed1) : (memref<?xf32>, index) -> ()
    %out = memref.alloc() : memref<8x16xf32>
    %out2 = memref.alloc() : memref<8x16xf32>
    func.call @kernel(%a, %bias, %out) : (memref<8x16xf32>, memref<16xf32>, memref<8x16xf32>) -> ()
    %r = func.call @kernel_call(%a, %bias, %out2) : (memref<8x16xf32>, memref<16xf32>, memref<8x16xf32>) -> memref<8x16xf32>
    %u = memref.cast %out : memref<8x16xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %u2 = memref.cast %r : memref<8x16xf32> to memref<*xf32>
    func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    memref.dealloc %a : memref<8x16xf32>
    memref.dealloc %bias : memref<16xf32>
    memref.dealloc %out : memref<8x16xf32>
    memref.dealloc %out2 : memref<8x16xf32>
    return
  }
}
