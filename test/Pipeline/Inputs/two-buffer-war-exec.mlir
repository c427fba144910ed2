// One op writes two buffers (a scratch buffer, renamable, and a subview of a
// function argument), the next reads both: between them run two
// loop-carried WAR edges of the same kind, one through each buffer. The
// dependence graph used to keep only the first (the scratch buffer's, which
// multi-buffering removes) and dropped the argument's, so the reader could
// be scheduled stages after the writer and read rows the next iterations
// had already overwritten (a miscompile: outputs differ). Each buffer now
// has its own edge.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%G: memref<64x4xf32> {llvm.noalias}, %P: memref<64x4xf32> {llvm.noalias}, %O: memref<64x4xf32> {llvm.noalias}, %lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %S = memref.alloc() : memref<4x4xf32, #gpu.address_space<workgroup>>
  scf.for %i = %lb to %ub step %c1 {
    %g = memref.subview %G[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    %p = memref.subview %P[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %i4 = arith.muli %i, %c4 : index
    %o = memref.subview %O[%i4, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%g : memref<4x4xf32, strided<[4, 1], offset: ?>>)
        outs(%S, %p : memref<4x4xf32, #gpu.address_space<workgroup>>, memref<4x4xf32, strided<[4, 1], offset: ?>>) {
    ^bb0(%x: f32, %s: f32, %q: f32):
      %y = arith.addf %x, %fi : f32
      linalg.yield %x, %y : f32, f32
    }
    linalg.add ins(%S, %p : memref<4x4xf32, #gpu.address_space<workgroup>>, memref<4x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<4x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  memref.dealloc %S : memref<4x4xf32, #gpu.address_space<workgroup>>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %G = memref.alloc() : memref<64x4xf32>
  %P = memref.alloc() : memref<64x4xf32>
  %O = memref.alloc() : memref<64x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %r = %c0 to %c64 step %c1 {
    scf.for %c = %c0 to %c4 step %c1 {
      %t0 = arith.muli %r, %c4 : index
      %t1 = arith.addi %t0, %c : index
      %t2 = arith.remui %t1, %c7 : index
      %t3 = arith.index_cast %t2 : index to i32
      %t4 = arith.sitofp %t3 : i32 to f32
      memref.store %t4, %G[%r, %c] : memref<64x4xf32>
    }
  }
  linalg.fill ins(%zero : f32) outs(%P : memref<64x4xf32>)
  linalg.fill ins(%zero : f32) outs(%O : memref<64x4xf32>)
  func.call @k(%G, %P, %O, %c2, %c11) : (memref<64x4xf32>, memref<64x4xf32>, memref<64x4xf32>, index, index) -> ()
  %u = memref.cast %O : memref<64x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %P : memref<64x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
