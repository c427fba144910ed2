// Matmul-style K loops (copy global -> on-chip, load, compute) with several
// trip counts, run by exec-check before and after schedule_stages. Loops to
// pipeline carry the `pipeline` attribute. Values are small integers, so
// every order of the reduction is exact.
#ma = affine_map<(d0, d1, d2) -> (d0, d2)>
#mb = affine_map<(d0, d1, d2) -> (d2, d1)>
#mc = affine_map<(d0, d1, d2) -> (d0, d1)>
#smem = #gpu.address_space<workgroup>

// copy -> transfer_read -> vector.contract, accumulator in an iter_arg.
func.func @k_loop(%A: memref<4x64xf32>, %B: memref<64x4xf32>, %C: memref<4x4xf32>,
                  %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a_s = memref.alloc() : memref<4x8xf32, #smem>
  %b_s = memref.alloca() : memref<8x4xf32, #smem>
  %init = vector.transfer_read %C[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x4xf32>, vector<4x4xf32>
  %r = scf.for %k = %lb to %ub step %step iter_args(%acc = %init) -> (vector<4x4xf32>) {
    %a = memref.subview %A[0, %k] [4, 8] [1, 1] : memref<4x64xf32> to memref<4x8xf32, strided<[64, 1], offset: ?>>
    %b = memref.subview %B[%k, 0] [8, 4] [1, 1] : memref<64x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %a, %a_s : memref<4x8xf32, strided<[64, 1], offset: ?>> to memref<4x8xf32, #smem>
    memref.copy %b, %b_s : memref<8x4xf32, strided<[4, 1], offset: ?>> to memref<8x4xf32, #smem>
    %va = vector.transfer_read %a_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x8xf32, #smem>, vector<4x8xf32>
    %vb = vector.transfer_read %b_s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x4xf32, #smem>, vector<8x4xf32>
    %acc2 = vector.contract {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
    scf.yield %acc2 : vector<4x4xf32>
  } {pipeline}
  vector.transfer_write %r, %C[%c0, %c0] {in_bounds = [true, true]} : vector<4x4xf32>, memref<4x4xf32>
  memref.dealloc %a_s : memref<4x8xf32, #smem>
  return
}

// copy -> linalg.matmul reading on-chip buffers, accumulator in memory
// (a buffer in integer space 3), pass-through iter_arg, and an address
// (offset) computed in one iteration for the next.
func.func @k_loop_mem_acc(%A: memref<4x64xf32>, %B: memref<64x4xf32>, %C: memref<4x4xf32>,
                          %lb: index, %ub: index, %step: index) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %acc = memref.alloc() : memref<4x4xf32, 3>
  memref.copy %C, %acc : memref<4x4xf32> to memref<4x4xf32, 3>
  %a_s = memref.alloc() : memref<4x8xf32, 3>
  %b_s = memref.alloc() : memref<8x4xf32, 3>
  %r:2 = scf.for %k = %lb to %ub step %step iter_args(%off = %lb, %keep = %one) -> (index, f32) {
    %a = memref.subview %A[0, %off] [4, 8] [1, 1] : memref<4x64xf32> to memref<4x8xf32, strided<[64, 1], offset: ?>>
    %b = memref.subview %B[%off, 0] [8, 4] [1, 1] : memref<64x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %a, %a_s : memref<4x8xf32, strided<[64, 1], offset: ?>> to memref<4x8xf32, 3>
    memref.copy %b, %b_s : memref<8x4xf32, strided<[4, 1], offset: ?>> to memref<8x4xf32, 3>
    linalg.matmul ins(%a_s, %b_s : memref<4x8xf32, 3>, memref<8x4xf32, 3>) outs(%acc : memref<4x4xf32, 3>)
    %next = arith.addi %off, %step : index
    scf.yield %next, %keep : index, f32
  } {pipeline}
  memref.copy %acc, %C : memref<4x4xf32, 3> to memref<4x4xf32>
  memref.dealloc %acc : memref<4x4xf32, 3>
  return %r#1 : f32
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @fill(%m: memref<?x?xf32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %d0 = memref.dim %m, %c0 : memref<?x?xf32>
  %d1 = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %t0 = arith.muli %i, %d1 : index
      %t1 = arith.addi %t0, %j : index
      %t2 = arith.addi %t1, %seed : index
      %t3 = arith.remui %t2, %c7 : index
      %t4 = arith.index_cast %t3 : index to i32
      %t5 = arith.sitofp %t4 : i32 to f32
      memref.store %t5, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @run(%lb: index, %ub: index, %step: index) {
  %A = memref.alloc() : memref<4x64xf32>
  %B = memref.alloc() : memref<64x4xf32>
  %C = memref.alloc() : memref<4x4xf32>
  %C2 = memref.alloc() : memref<4x4xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = memref.cast %A : memref<4x64xf32> to memref<?x?xf32>
  %b = memref.cast %B : memref<64x4xf32> to memref<?x?xf32>
  %c = memref.cast %C : memref<4x4xf32> to memref<?x?xf32>
  %c2m = memref.cast %C2 : memref<4x4xf32> to memref<?x?xf32>
  func.call @fill(%a, %c1) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%b, %c2) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%c, %c3) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%c2m, %c3) : (memref<?x?xf32>, index) -> ()
  func.call @k_loop(%A, %B, %C, %lb, %ub, %step) : (memref<4x64xf32>, memref<64x4xf32>, memref<4x4xf32>, index, index, index) -> ()
  %keep = func.call @k_loop_mem_acc(%A, %B, %C2, %lb, %ub, %step) : (memref<4x64xf32>, memref<64x4xf32>, memref<4x4xf32>, index, index, index) -> f32
  %u = memref.cast %C : memref<4x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %u2 = memref.cast %C2 : memref<4x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  vector.print %keep : f32
  return
}

// Static trip counts are obtained by inlining constant bounds into copies of
// the kernels (see the @static_* wrappers) so both the peeled (static) and
// the predicated (dynamic) forms run.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %c56 = arith.constant 56 : index
  // Dynamic trip counts 0, 1, 2, 3, 4, 7; lower bound 3 with step 8; step 16.
  func.call @run(%c0, %c0, %c8) : (index, index, index) -> ()
  func.call @run(%c0, %c8, %c8) : (index, index, index) -> ()
  func.call @run(%c0, %c16, %c8) : (index, index, index) -> ()
  func.call @run(%c0, %c24, %c8) : (index, index, index) -> ()
  func.call @run(%c0, %c32, %c8) : (index, index, index) -> ()
  func.call @run(%c0, %c56, %c8) : (index, index, index) -> ()
  func.call @run(%c3, %c40, %c8) : (index, index, index) -> ()
  func.call @run(%c0, %c56, %c16) : (index, index, index) -> ()
  return
}
