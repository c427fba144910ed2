// Execution input for barriers.mlir: kernels whose loops use workgroup
// buffers indexed by the thread id. exec-check.py --thread-ids-from tid turns
// each `gpu.thread_id x` into a call of @tid_x, which reads @current_tid;
// @main runs every kernel once per emulated thread (threads one after the
// other, 8 of them) and prints the outputs.
//  - @own_slice: each thread stores and loads %s[tid.x] (barrier skipped);
//  - @neighbour: the load reads %s[tid.x + 1] (barrier kept);
//  - @own_slice_carried: the element of iteration i is read in iteration
//    i + 1 (a loop-carried dependence inside one thread).

memref.global "private" @current_tid : memref<1xindex> = dense<0>

func.func @tid_x() -> index {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @current_tid : memref<1xindex>
  %t = memref.load %g[%c0] : memref<1xindex>
  return %t : index
}

func.func @own_slice(%A: memref<16x8xf32>, %O: memref<16x8xf32> {llvm.noalias})
    attributes {gpu.known_block_size = array<i32: 8, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %tx = gpu.thread_id x
  %s = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %A[%i, %tx] : memref<16x8xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %s[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    %z = memref.load %s[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    %w = arith.addf %z, %x : f32
    memref.store %w, %O[%i, %tx] : memref<16x8xf32>
  } {pipeline}
  memref.dealloc %s : memref<8xf32, #gpu.address_space<workgroup>>
  return
}

func.func @neighbour(%A: memref<16x8xf32>, %O: memref<16x8xf32> {llvm.noalias})
    attributes {gpu.known_block_size = array<i32: 8, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %tx = gpu.thread_id x
  %tx1 = arith.addi %tx, %c1 : index
  %s = memref.alloc() : memref<9xf32, #gpu.address_space<workgroup>>
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %s[%tx1] : memref<9xf32, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %A[%i, %tx] : memref<16x8xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %s[%tx] : memref<9xf32, #gpu.address_space<workgroup>>
    %z = memref.load %s[%tx1] : memref<9xf32, #gpu.address_space<workgroup>>
    %w = arith.addf %z, %x : f32
    memref.store %w, %O[%i, %tx] : memref<16x8xf32>
  } {pipeline}
  memref.dealloc %s : memref<9xf32, #gpu.address_space<workgroup>>
  return
}

func.func @own_slice_carried(%A: memref<16x8xf32>, %O: memref<16x8xf32> {llvm.noalias})
    attributes {gpu.known_block_size = array<i32: 8, 1, 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %tx = gpu.thread_id x
  %s = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  %one = arith.constant 1.0 : f32
  memref.store %one, %s[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %c16 step %c1 {
    %prev = memref.load %s[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    %x = memref.load %A[%i, %tx] : memref<16x8xf32>
    %y = arith.addf %x, %prev : f32
    memref.store %y, %O[%i, %tx] : memref<16x8xf32>
    memref.store %y, %s[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
  } {pipeline}
  memref.dealloc %s : memref<8xf32, #gpu.address_space<workgroup>>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %A = memref.alloc() : memref<16x8xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %ij = arith.muli %i, %c8 : index
      %k = arith.addi %ij, %j : index
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %c = arith.constant 0.125 : f32
      %v = arith.mulf %kf, %c : f32
      memref.store %v, %A[%i, %j] : memref<16x8xf32>
    }
  }
  %O1 = memref.alloc() : memref<16x8xf32>
  %O2 = memref.alloc() : memref<16x8xf32>
  %O3 = memref.alloc() : memref<16x8xf32>
  %g = memref.get_global @current_tid : memref<1xindex>
  scf.for %t = %c0 to %c8 step %c1 {
    memref.store %t, %g[%c0] : memref<1xindex>
    func.call @own_slice(%A, %O1) : (memref<16x8xf32>, memref<16x8xf32>) -> ()
    func.call @neighbour(%A, %O2) : (memref<16x8xf32>, memref<16x8xf32>) -> ()
    func.call @own_slice_carried(%A, %O3) : (memref<16x8xf32>, memref<16x8xf32>) -> ()
  }
  %u1 = memref.cast %O1 : memref<16x8xf32> to memref<*xf32>
  %u2 = memref.cast %O2 : memref<16x8xf32> to memref<*xf32>
  %u3 = memref.cast %O3 : memref<16x8xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  return
}
