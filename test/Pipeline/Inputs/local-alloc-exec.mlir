// A buffer allocated and freed inside the loop body: each iteration has its
// own instance, so no multi-buffering; stages may hold several instances
// at once (counted against the capacity). Static and dynamic trip counts.
func.func @k(%G: memref<64x4xf32>, %O: memref<64x4xf32> {llvm.noalias}, %lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lb to %ub step %c1 {
    %t = memref.alloc() : memref<1x4xf32, #gpu.address_space<workgroup>>
    %g = memref.subview %G[%i, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %o = memref.subview %O[%i, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %t : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, #gpu.address_space<workgroup>>
    linalg.add ins(%t, %o : memref<1x4xf32, #gpu.address_space<workgroup>>, memref<1x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<1x4xf32, strided<[4, 1], offset: ?>>)
    memref.dealloc %t : memref<1x4xf32, #gpu.address_space<workgroup>>
  } {pipeline}
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %G = memref.alloc() : memref<64x4xf32>
  %O = memref.alloc() : memref<64x4xf32>
  %one = arith.constant 1.5 : f32
  %two = arith.constant 2.0 : f32
  linalg.fill ins(%one : f32) outs(%G : memref<64x4xf32>)
  linalg.fill ins(%two : f32) outs(%O : memref<64x4xf32>)
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  func.call @k(%G, %O, %c2, %c9) : (memref<64x4xf32>, memref<64x4xf32>, index, index) -> ()
  func.call @k(%G, %O, %c0, %c2) : (memref<64x4xf32>, memref<64x4xf32>, index, index) -> ()
  %u = memref.cast %O : memref<64x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
