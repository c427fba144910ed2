// A tiled GEMM + bias + row-sum kernel, one 16x16 output tile per block and
// one output element per thread, written the way a hand-written or
// generated kernel allocates shared memory: tiles of A and B for the K loop,
// an output tile for the epilogue and a scratch buffer for the row
// reduction. Without reuse the block needs all four (4 KiB); the A/B tiles
// are dead once the K loop ends, so the epilogue buffers can take their
// bytes (2 KiB).
#ws = #gpu.address_space<workgroup>
module {
  func.func @gemm_bias_rowsum(%A: memref<64x64xf32>, %B: memref<64x64xf32>,
                              %bias: memref<64xf32>, %C: memref<64x64xf32>,
                              %rowsum: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c4, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c1_0 = arith.constant 1 : index
      %c16_0 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %a_tile = memref.alloc() : memref<16x16xf32, #ws>
      %b_tile = memref.alloc() : memref<16x16xf32, #ws>
      %out_tile = memref.alloc() : memref<16x16xf32, #ws>
      %scratch = memref.alloc() : memref<16x16xf32, #ws>
      %row0 = arith.muli %by, %c16_0 : index
      %col0 = arith.muli %bx, %c16_0 : index
      %row = arith.addi %row0, %ty : index
      %col = arith.addi %col0, %tx : index
      // Main loop: stage 16x16 tiles of A and B, then accumulate.
      %acc = scf.for %k0 = %c0 to %c64 step %c16_0 iter_args(%sum = %zero) -> (f32) {
        %ka = arith.addi %k0, %tx : index
        %av = memref.load %A[%row, %ka] : memref<64x64xf32>
        memref.store %av, %a_tile[%ty, %tx] : memref<16x16xf32, #ws>
        %kb = arith.addi %k0, %ty : index
        %bv = memref.load %B[%kb, %col] : memref<64x64xf32>
        memref.store %bv, %b_tile[%ty, %tx] : memref<16x16xf32, #ws>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16_0 step %c1_0 iter_args(%s = %sum) -> (f32) {
          %x = memref.load %a_tile[%ty, %k] : memref<16x16xf32, #ws>
          %y = memref.load %b_tile[%k, %tx] : memref<16x16xf32, #ws>
          %p = arith.mulf %x, %y : f32
          %n = arith.addf %s, %p : f32
          scf.yield %n : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      // Epilogue: bias, then stage the tile for a coalesced store and the
      // per-row reduction.
      %bv = memref.load %bias[%col] : memref<64xf32>
      %r = arith.addf %acc, %bv : f32
      memref.store %r, %out_tile[%ty, %tx] : memref<16x16xf32, #ws>
      memref.store %r, %scratch[%ty, %tx] : memref<16x16xf32, #ws>
      gpu.barrier
      %v = memref.load %out_tile[%ty, %tx] : memref<16x16xf32, #ws>
      memref.store %v, %C[%row, %col] : memref<64x64xf32>
      %is_first = arith.cmpi eq, %tx, %c0 : index
      scf.if %is_first {
        %total = scf.for %j = %c0 to %c16_0 step %c1_0 iter_args(%t = %zero) -> (f32) {
          %e = memref.load %scratch[%ty, %j] : memref<16x16xf32, #ws>
          %n = arith.addf %t, %e : f32
          scf.yield %n : f32
        }
        %old = memref.load %rowsum[%row] : memref<64xf32>
        %new = arith.addf %old, %total : f32
        memref.store %new, %rowsum[%row] : memref<64xf32>
      }
      gpu.terminator
    }
    return
  }
}
