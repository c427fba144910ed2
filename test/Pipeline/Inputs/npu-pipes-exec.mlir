// NPU-shaped loops for exec-check on the ascend-910b spec: MTE2 copy-in,
// cube matmul, vector epilogue, MTE3 copy-out, in "ub" buffers. Loops to
// pipeline carry the `pipeline` attribute. Small integer values: every
// order of the arithmetic is exact.
#id = affine_map<(d0, d1) -> (d0, d1)>

// Row tiles of O = relu(A_tile * B - 3): four pipes in one body.
func.func @tiles(%A: memref<64x8xf32>, %B: memref<8x8xf32>, %O: memref<64x8xf32>,
                 %lb: index, %ub: index, %step: index) {
  %zero = arith.constant 0.0 : f32
  %three = arith.constant 3.0 : f32
  %a_ub = memref.alloc() : memref<8x8xf32, "ub">
  %b_ub = memref.alloc() : memref<8x8xf32, "ub">
  %t_ub = memref.alloc() : memref<8x8xf32, "ub">
  %o_ub = memref.alloc() : memref<8x8xf32, "ub">
  memref.copy %B, %b_ub : memref<8x8xf32> to memref<8x8xf32, "ub">
  scf.for %i = %lb to %ub step %step {
    %a = memref.subview %A[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    %o = memref.subview %O[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    memref.copy %a, %a_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
    linalg.fill ins(%zero : f32) outs(%t_ub : memref<8x8xf32, "ub">)
    linalg.matmul ins(%a_ub, %b_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t_ub : memref<8x8xf32, "ub">)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%t_ub : memref<8x8xf32, "ub">) outs(%o_ub : memref<8x8xf32, "ub">) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.subf %x, %three : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    }
    memref.copy %o_ub, %o : memref<8x8xf32, "ub"> to memref<8x8xf32, strided<[8, 1], offset: ?>>
  } {pipeline}
  memref.dealloc %a_ub : memref<8x8xf32, "ub">
  return
}

// K loop with the accumulator in "ub", two copy-ins feeding the cube.
func.func @k_loop(%A: memref<8x64xf32>, %B: memref<64x8xf32>, %C: memref<8x8xf32>,
                  %lb: index, %ub: index, %step: index) {
  %a_ub = memref.alloc() : memref<8x8xf32, "ub">
  %b_ub = memref.alloc() : memref<8x8xf32, "ub">
  %c_ub = memref.alloc() : memref<8x8xf32, "ub">
  memref.copy %C, %c_ub : memref<8x8xf32> to memref<8x8xf32, "ub">
  scf.for %k = %lb to %ub step %step {
    %a = memref.subview %A[0, %k] [8, 8] [1, 1] : memref<8x64xf32> to memref<8x8xf32, strided<[64, 1], offset: ?>>
    %b = memref.subview %B[%k, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    memref.copy %a, %a_ub : memref<8x8xf32, strided<[64, 1], offset: ?>> to memref<8x8xf32, "ub">
    memref.copy %b, %b_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
    linalg.matmul ins(%a_ub, %b_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%c_ub : memref<8x8xf32, "ub">)
  } {pipeline}
  memref.copy %c_ub, %C : memref<8x8xf32, "ub"> to memref<8x8xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @fill(%m: memref<?x?xf32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %d0 = memref.dim %m, %c0 : memref<?x?xf32>
  %d1 = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %t0 = arith.muli %i, %d1 : index
      %t1 = arith.addi %t0, %j : index
      %t2 = arith.addi %t1, %seed : index
      %t3 = arith.remui %t2, %c5 : index
      %t4 = arith.index_cast %t3 : index to i32
      %t5 = arith.sitofp %t4 : i32 to f32
      memref.store %t5, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @run_tiles(%lb: index, %ub: index, %step: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %A = memref.alloc() : memref<64x8xf32>
  %B = memref.alloc() : memref<8x8xf32>
  %O = memref.alloc() : memref<64x8xf32>
  %a = memref.cast %A : memref<64x8xf32> to memref<?x?xf32>
  %b = memref.cast %B : memref<8x8xf32> to memref<?x?xf32>
  %o = memref.cast %O : memref<64x8xf32> to memref<?x?xf32>
  func.call @fill(%a, %c1) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%b, %c2) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%o, %c2) : (memref<?x?xf32>, index) -> ()
  func.call @tiles(%A, %B, %O, %lb, %ub, %step) : (memref<64x8xf32>, memref<8x8xf32>, memref<64x8xf32>, index, index, index) -> ()
  %u = memref.cast %O : memref<64x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @run_k(%lb: index, %ub: index, %step: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %A = memref.alloc() : memref<8x64xf32>
  %B = memref.alloc() : memref<64x8xf32>
  %C = memref.alloc() : memref<8x8xf32>
  %a = memref.cast %A : memref<8x64xf32> to memref<?x?xf32>
  %b = memref.cast %B : memref<64x8xf32> to memref<?x?xf32>
  %c = memref.cast %C : memref<8x8xf32> to memref<?x?xf32>
  func.call @fill(%a, %c1) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%b, %c2) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%c, %c3) : (memref<?x?xf32>, index) -> ()
  func.call @k_loop(%A, %B, %C, %lb, %ub, %step) : (memref<8x64xf32>, memref<64x8xf32>, memref<8x8xf32>, index, index, index) -> ()
  %u = memref.cast %C : memref<8x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// Dynamic trip counts 0, 1, 2, 3, 8, lower bound 8 with step 16; the
// @static_* copies give the peeled (static) and unrolled (short) forms.
func.func @static_tiles_8() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<64x8xf32>
  %B = memref.alloc() : memref<8x8xf32>
  %O = memref.alloc() : memref<64x8xf32>
  %a = memref.cast %A : memref<64x8xf32> to memref<?x?xf32>
  %b = memref.cast %B : memref<8x8xf32> to memref<?x?xf32>
  %o = memref.cast %O : memref<64x8xf32> to memref<?x?xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  func.call @fill(%a, %c1) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%b, %c2) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%o, %c2) : (memref<?x?xf32>, index) -> ()
  %three = arith.constant 3.0 : f32
  %a_ub = memref.alloc() : memref<8x8xf32, "ub">
  %b_ub = memref.alloc() : memref<8x8xf32, "ub">
  %t_ub = memref.alloc() : memref<8x8xf32, "ub">
  %o_ub = memref.alloc() : memref<8x8xf32, "ub">
  memref.copy %B, %b_ub : memref<8x8xf32> to memref<8x8xf32, "ub">
  scf.for %i = %c0 to %c64 step %c8 {
    %as = memref.subview %A[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    %os = memref.subview %O[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    memref.copy %as, %a_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
    linalg.fill ins(%zero : f32) outs(%t_ub : memref<8x8xf32, "ub">)
    linalg.matmul ins(%a_ub, %b_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t_ub : memref<8x8xf32, "ub">)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%t_ub : memref<8x8xf32, "ub">) outs(%o_ub : memref<8x8xf32, "ub">) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.subf %x, %three : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    }
    memref.copy %o_ub, %os : memref<8x8xf32, "ub"> to memref<8x8xf32, strided<[8, 1], offset: ?>>
  } {pipeline}
  %u = memref.cast %O : memref<64x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @static_k() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %A = memref.alloc() : memref<8x64xf32>
  %B = memref.alloc() : memref<64x8xf32>
  %C = memref.alloc() : memref<8x8xf32>
  %a = memref.cast %A : memref<8x64xf32> to memref<?x?xf32>
  %b = memref.cast %B : memref<64x8xf32> to memref<?x?xf32>
  %c = memref.cast %C : memref<8x8xf32> to memref<?x?xf32>
  func.call @fill(%a, %c1) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%b, %c2) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%c, %c3) : (memref<?x?xf32>, index) -> ()
  %a_ub = memref.alloc() : memref<8x8xf32, "ub">
  %b_ub = memref.alloc() : memref<8x8xf32, "ub">
  %c_ub = memref.alloc() : memref<8x8xf32, "ub">
  memref.copy %C, %c_ub : memref<8x8xf32> to memref<8x8xf32, "ub">
  // Trip count 1 (below the two stages: unrolled) and 3 (peeled).
  %c24 = arith.constant 24 : index
  scf.for %k = %c0 to %c8 step %c8 {
    %as = memref.subview %A[0, %k] [8, 8] [1, 1] : memref<8x64xf32> to memref<8x8xf32, strided<[64, 1], offset: ?>>
    %bs = memref.subview %B[%k, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    memref.copy %as, %a_ub : memref<8x8xf32, strided<[64, 1], offset: ?>> to memref<8x8xf32, "ub">
    memref.copy %bs, %b_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
    linalg.matmul ins(%a_ub, %b_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%c_ub : memref<8x8xf32, "ub">)
  } {pipeline}
  %a2_ub = memref.alloc() : memref<8x8xf32, "ub">
  %b2_ub = memref.alloc() : memref<8x8xf32, "ub">
  scf.for %k = %c0 to %c24 step %c8 {
    %as = memref.subview %A[0, %k] [8, 8] [1, 1] : memref<8x64xf32> to memref<8x8xf32, strided<[64, 1], offset: ?>>
    %bs = memref.subview %B[%k, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    memref.copy %as, %a2_ub : memref<8x8xf32, strided<[64, 1], offset: ?>> to memref<8x8xf32, "ub">
    memref.copy %bs, %b2_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
    linalg.matmul ins(%a2_ub, %b2_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%c_ub : memref<8x8xf32, "ub">)
  } {pipeline}
  memref.copy %c_ub, %C : memref<8x8xf32, "ub"> to memref<8x8xf32>
  %u = memref.cast %C : memref<8x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c64 = arith.constant 64 : index
  func.call @run_tiles(%c0, %c0, %c8) : (index, index, index) -> ()
  func.call @run_tiles(%c0, %c8, %c8) : (index, index, index) -> ()
  func.call @run_tiles(%c0, %c16, %c8) : (index, index, index) -> ()
  func.call @run_tiles(%c0, %c24, %c8) : (index, index, index) -> ()
  func.call @run_tiles(%c0, %c64, %c8) : (index, index, index) -> ()
  func.call @run_tiles(%c8, %c64, %c16) : (index, index, index) -> ()
  func.call @run_k(%c0, %c0, %c8) : (index, index, index) -> ()
  func.call @run_k(%c0, %c8, %c8) : (index, index, index) -> ()
  func.call @run_k(%c0, %c16, %c8) : (index, index, index) -> ()
  func.call @run_k(%c0, %c24, %c8) : (index, index, index) -> ()
  func.call @run_k(%c0, %c64, %c8) : (index, index, index) -> ()
  func.call @run_k(%c8, %c64, %c16) : (index, index, index) -> ()
  func.call @static_tiles_8() : () -> ()
  func.call @static_k() : () -> ()
  return
}
