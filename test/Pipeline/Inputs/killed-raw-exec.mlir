// A scratch buffer refilled at the top of every iteration and again later in
// the body: the second refill's data is read in its own iteration only, the
// next iteration's first refill overwrites it before any read. The
// loop-carried RAW from the second refill to the first reader of the next
// iteration is therefore killed; it used to carry the copy latency around
// the loop (RecMII = the copy latency).
func.func @k(%G: memref<64x4xf32> {llvm.noalias}, %O: memref<64x4xf32> {llvm.noalias}, %P: memref<64x4xf32> {llvm.noalias}, %lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  %S = memref.alloc() : memref<4x4xf32, #gpu.address_space<workgroup>>
  scf.for %i = %lb to %ub step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %g = memref.subview %G[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %S : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, #gpu.address_space<workgroup>>
    %o = memref.subview %O[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    linalg.add ins(%S, %S : memref<4x4xf32, #gpu.address_space<workgroup>>, memref<4x4xf32, #gpu.address_space<workgroup>>) outs(%o : memref<4x4xf32, strided<[4, 1], offset: ?>>)
    %g2 = memref.subview %G[%i1, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g2, %S : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, #gpu.address_space<workgroup>>
    %p = memref.subview %P[%i, 0] [4, 4] [1, 1] : memref<64x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    linalg.sub ins(%S, %g : memref<4x4xf32, #gpu.address_space<workgroup>>, memref<4x4xf32, strided<[4, 1], offset: ?>>) outs(%p : memref<4x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  memref.dealloc %S : memref<4x4xf32, #gpu.address_space<workgroup>>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %G = memref.alloc() : memref<64x4xf32>
  %O = memref.alloc() : memref<64x4xf32>
  %P = memref.alloc() : memref<64x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  // G[r][c] = (4 r + c) mod 7: every row differs, so reading a stale or a
  // future refill changes the output.
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
  linalg.fill ins(%zero : f32) outs(%O : memref<64x4xf32>)
  linalg.fill ins(%zero : f32) outs(%P : memref<64x4xf32>)
  // Dynamic trip counts 9, 2 and 1.
  func.call @k(%G, %O, %P, %c2, %c11) : (memref<64x4xf32>, memref<64x4xf32>, memref<64x4xf32>, index, index) -> ()
  %c20 = arith.constant 20 : index
  %c22 = arith.constant 22 : index
  %c30 = arith.constant 30 : index
  %c31 = arith.constant 31 : index
  func.call @k(%G, %O, %P, %c20, %c22) : (memref<64x4xf32>, memref<64x4xf32>, memref<64x4xf32>, index, index) -> ()
  func.call @k(%G, %O, %P, %c30, %c31) : (memref<64x4xf32>, memref<64x4xf32>, memref<64x4xf32>, index, index) -> ()
  %u = memref.cast %O : memref<64x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %P : memref<64x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
