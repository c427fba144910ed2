// Kernels whose shared-memory accesses meet bank conflicts, for
// integration_test/Smem/avoid-bank-conflicts-exec.mlir: a block of 64
// threads moves a 32x32 f32 tile through shared memory and writes it out
// transposed, so every element goes through the swizzled layout.
//   @copy_kernel: 16-byte async copies in (8 threads per 128-byte row,
//     conflict-free), 16-byte vector.load reads down the columns (lane l
//     reads row l: eight rows at one chunk, an 8-way conflict on 32 x 4-byte
//     banks).
//   @scalar_kernel: 16-byte vector.store writes and scalar memref.load
//     reads down a column (32 rows at one bank: 32-way).

#ws = #gpu.address_space<workgroup>
module {
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

  func.func @copy_kernel(%in: memref<32x32xf32>, %out: memref<32x32xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %tile = memref.alloc() : memref<32x32xf32, #ws>
      %wr = arith.divui %tx, %c8 : index
      %wcc = arith.remui %tx, %c8 : index
      %wc = arith.muli %wcc, %c4 : index
      scf.for %i = %c0 to %c4 step %c1 {
        %r8 = arith.muli %i, %c8 : index
        %r = arith.addi %wr, %r8 : index
        %t = nvgpu.device_async_copy %in[%r, %wc], %tile[%r, %wc], 4 : memref<32x32xf32> to memref<32x32xf32, #ws>
        %g = nvgpu.device_async_create_group %t
        nvgpu.device_async_wait %g
      }
      gpu.barrier
      %rr = arith.remui %tx, %c32 : index
      %half = arith.divui %tx, %c32 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %j2 = arith.muli %j, %c2 : index
        %chunk = arith.addi %half, %j2 : index
        %col = arith.muli %chunk, %c4 : index
        %v = vector.load %tile[%rr, %col] : memref<32x32xf32, #ws>, vector<4xf32>
        scf.for %e = %c0 to %c4 step %c1 {
          %x = vector.extract %v[%e] : f32 from vector<4xf32>
          %oc = arith.addi %col, %e : index
          memref.store %x, %out[%oc, %rr] : memref<32x32xf32>
        }
      }
      gpu.terminator
    }
    return
  }

  func.func @scalar_kernel(%in: memref<32x32xf32>, %out: memref<32x32xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %two = arith.constant 2.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %tile = memref.alloc() : memref<32x32xf32, #ws>
      %wr = arith.divui %tx, %c8 : index
      %wcc = arith.remui %tx, %c8 : index
      %wc = arith.muli %wcc, %c4 : index
      scf.for %i = %c0 to %c4 step %c1 {
        %r8 = arith.muli %i, %c8 : index
        %r = arith.addi %wr, %r8 : index
        %v = vector.load %in[%r, %wc] : memref<32x32xf32>, vector<4xf32>
        %w = arith.mulf %v, %v : vector<4xf32>
        vector.store %w, %tile[%r, %wc] : memref<32x32xf32, #ws>, vector<4xf32>
      }
      gpu.barrier
      %rr = arith.remui %tx, %c32 : index
      %half = arith.divui %tx, %c32 : index
      scf.for %j = %c0 to %c32 step %c1 {
        %x = memref.load %tile[%rr, %j] : memref<32x32xf32, #ws>
        %y = arith.mulf %x, %two : f32
        %keep = arith.cmpi eq, %half, %c0 : index
        scf.if %keep {
          memref.store %y, %out[%j, %rr] : memref<32x32xf32>
        }
      }
      gpu.terminator
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %scale = arith.constant 0.25 : f32
    %in = memref.alloc() : memref<32x32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %k = arith.muli %i, %c32 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %f = arith.sitofp %li : i32 to f32
        %v = arith.mulf %f, %scale : f32
        memref.store %v, %in[%i, %j] : memref<32x32xf32>
      }
    }
    %out = memref.alloc() : memref<32x32xf32>
    %u = memref.cast %out : memref<32x32xf32> to memref<*xf32>
    call @copy_kernel(%in, %out) : (memref<32x32xf32>, memref<32x32xf32>) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    call @scalar_kernel(%in, %out) : (memref<32x32xf32>, memref<32x32xf32>) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<32x32xf32>
    memref.dealloc %in : memref<32x32xf32>
    return
  }
}
