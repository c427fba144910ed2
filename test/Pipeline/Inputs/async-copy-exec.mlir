// GPU-shaped K loops whose global -> shared copies are nvgpu async copies,
// run by exec-check with --emulate-async-copies (deferred copies: a wait
// that lets a group stay in flight leaves the shared buffer stale). Loops to
// pipeline carry the `pipeline` attribute; the static-trip ones also
// `static_trip` (async-lib.mlir's sabotaged schedules only touch those). Values are small integers, so
// every order of the reduction is exact.
#smem = #gpu.address_space<workgroup>

// C[i, :] = sum_k A[k, 4i..4i+3]: two rows of A per iteration into a 2-D
// shared buffer (two copies, one group), a wait-all before the reads.
func.func @k_loop(%A: memref<64x8xf32>, %C: memref<2x4xf32>) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 16 : index
  %step = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<2x4xf32, #smem>
  %init = vector.transfer_read %C[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32>, vector<2x4xf32>
  %r = scf.for %k = %lb to %ub step %step iter_args(%acc = %init) -> (vector<2x4xf32>) {
    %t0 = nvgpu.device_async_copy %A[%k, %c0], %s[%c0, %c0], 4 : memref<64x8xf32> to memref<2x4xf32, #smem>
    %t1 = nvgpu.device_async_copy %A[%k, %c4], %s[%c1, %c0], 4 : memref<64x8xf32> to memref<2x4xf32, #smem>
    %g = nvgpu.device_async_create_group %t0, %t1
    nvgpu.device_async_wait %g
    gpu.barrier
    %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #smem>, vector<2x4xf32>
    %acc2 = arith.addf %acc, %v : vector<2x4xf32>
    scf.yield %acc2 : vector<2x4xf32>
  } {pipeline, static_trip}
  vector.transfer_write %r, %C[%c0, %c0] {in_bounds = [true, true]} : vector<2x4xf32>, memref<2x4xf32>
  memref.dealloc %s : memref<2x4xf32, #smem>
  return
}

// Static trip counts (the wait counts are exact), lower bound 1, step 2.
// A partial copy (src_elements 2 of 4: the rest is zero-filled) into a 1-D
// buffer.
func.func @k_loop_partial(%A: memref<64x8xf32>, %C: memref<4xf32>) {
  %lb = arith.constant 1 : index
  %ub = arith.constant 12 : index
  %step = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<4xf32, #smem>
  %init = vector.transfer_read %C[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
  %r = scf.for %k = %lb to %ub step %step iter_args(%acc = %init) -> (vector<4xf32>) {
    %t = nvgpu.device_async_copy %A[%k, %c2], %s[%c0], 4, %c2 : memref<64x8xf32> to memref<4xf32, #smem>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #smem>, vector<4xf32>
    %acc2 = arith.addf %acc, %v : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline, static_trip}
  vector.transfer_write %r, %C[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  memref.dealloc %s : memref<4xf32, #smem>
  return
}

// A buffer the loop already rotates through (3 slots, slot
// ((k - 1) / 2) mod 3 picked by a subview, the form multi-buffering leaves):
// schedule_stages keeps the slots and pipelines across them.
#slot = affine_map<(d0) -> (((d0 - 1) floordiv 2) mod 3)>
func.func @k_loop_rotated(%A: memref<64x8xf32>, %C: memref<4xf32>) {
  %lb = arith.constant 1 : index
  %ub = arith.constant 20 : index
  %step = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<3x4xf32, #smem>
  %init = vector.transfer_read %C[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
  %r = scf.for %k = %lb to %ub step %step iter_args(%acc = %init) -> (vector<4xf32>) {
    %i = affine.apply #slot(%k)
    %sv = memref.subview %s[%i, 0] [1, 4] [1, 1] : memref<3x4xf32, #smem> to memref<4xf32, strided<[1], offset: ?>, #smem>
    %t = nvgpu.device_async_copy %A[%k, %c3], %sv[%c0], 4 : memref<64x8xf32> to memref<4xf32, strided<[1], offset: ?>, #smem>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g
    %v = vector.transfer_read %sv[%c0], %pad {in_bounds = [true]} : memref<4xf32, strided<[1], offset: ?>, #smem>, vector<4xf32>
    %acc2 = arith.addf %acc, %v : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline, static_trip}
  vector.transfer_write %r, %C[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  memref.dealloc %s : memref<3x4xf32, #smem>
  return
}

// Trip count from an argument (dynamic: the rewrite waits for all groups),
// run with 7 and with 3 (the stage count of h100_s3, one above h100_s2's).
func.func @k_loop_dynamic(%A: memref<64x8xf32>, %C: memref<4xf32>, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<4xf32, #smem>
  %init = vector.transfer_read %C[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
  %r = scf.for %k = %c0 to %ub step %c1 iter_args(%acc = %init) -> (vector<4xf32>) {
    %t = nvgpu.device_async_copy %A[%k, %c1], %s[%c0], 4 : memref<64x8xf32> to memref<4xf32, #smem>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #smem>, vector<4xf32>
    %acc2 = arith.addf %acc, %v : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline}
  vector.transfer_write %r, %C[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  memref.dealloc %s : memref<4xf32, #smem>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @run(%A: memref<64x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<2x4xf32>
  linalg.fill ins(%zero : f32) outs(%C : memref<2x4xf32>)
  func.call @k_loop(%A, %C) : (memref<64x8xf32>, memref<2x4xf32>) -> ()
  %cu = memref.cast %C : memref<2x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
  %D = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%D : memref<4xf32>)
  func.call @k_loop_partial(%A, %D) : (memref<64x8xf32>, memref<4xf32>) -> ()
  %du = memref.cast %D : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%du) : (memref<*xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%D : memref<4xf32>)
  func.call @k_loop_rotated(%A, %D) : (memref<64x8xf32>, memref<4xf32>) -> ()
  func.call @printMemrefF32(%du) : (memref<*xf32>) -> ()
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  linalg.fill ins(%zero : f32) outs(%D : memref<4xf32>)
  func.call @k_loop_dynamic(%A, %D, %c7) : (memref<64x8xf32>, memref<4xf32>, index) -> ()
  func.call @printMemrefF32(%du) : (memref<*xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%D : memref<4xf32>)
  func.call @k_loop_dynamic(%A, %D, %c3) : (memref<64x8xf32>, memref<4xf32>, index) -> ()
  func.call @printMemrefF32(%du) : (memref<*xf32>) -> ()
  memref.dealloc %C : memref<2x4xf32>
  memref.dealloc %D : memref<4xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64x8xf32>
  // A[k, j] = (k * 8 + j) mod 13: distinct rows, exact sums.
  scf.for %k = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k8 = arith.muli %k, %c4 : index
      %k8b = arith.muli %k8, %c2 : index
      %sum = arith.addi %k8b, %j : index
      %c13 = arith.constant 13 : index
      %m = arith.remui %sum, %c13 : index
      %i = arith.index_cast %m : index to i64
      %f = arith.sitofp %i : i64 to f32
      memref.store %f, %A[%k, %j] : memref<64x8xf32>
      %j4 = arith.addi %j, %c4 : index
      %sum4 = arith.addi %sum, %c4 : index
      %m4 = arith.remui %sum4, %c13 : index
      %i4 = arith.index_cast %m4 : index to i64
      %f4 = arith.sitofp %i4 : i64 to f32
      memref.store %f4, %A[%k, %j4] : memref<64x8xf32>
    }
  }
  func.call @run(%A) : (memref<64x8xf32>) -> ()
  memref.dealloc %A : memref<64x8xf32>
  return
}
