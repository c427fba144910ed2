// A block-level exchange through workgroup memory, with @main for
// utils/exec-check.py --emulate-gpu-launch: each of the 2 blocks (16x4
// threads, linear id t = x + 16 y) writes in[b, t] to s[t], waits at the
// barrier and reads s[63 - t], so out[b] is in[b] reversed only if every
// thread's write lands before any thread's read. Each thread also records
// the OpenMP thread number it ran on (ids[b, t]: t when every GPU thread is
// a thread of its own).
func.func @reverse(%in: memref<2x64xf32>, %out: memref<2x64xf32>,
                   %ids: memref<2x64xi32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c63 = arith.constant 63 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c4, %sz = %c1) {
    %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %row = arith.muli %ty, %sx : index
    %t = arith.addi %row, %tx : index
    %v = memref.load %in[%bx, %t] : memref<2x64xf32>
    memref.store %v, %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c63, %t : index
    %w = memref.load %s[%r] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%bx, %t] : memref<2x64xf32>
    %n = func.call @omp_get_thread_num() : () -> i32
    memref.store %n, %ids[%bx, %t] : memref<2x64xi32>
    memref.dealloc %s : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

func.func private @omp_get_thread_num() -> i32
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %in = memref.alloc() : memref<2x64xf32>
  %out = memref.alloc() : memref<2x64xf32>
  %ids = memref.alloc() : memref<2x64xi32>
  // in[b, t] = 100 b + t + 1 (never 0, what fresh memory often holds).
  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %t = %c0 to %c64 step %c1 {
      %b100 = arith.muli %b, %c64 : index
      %bt = arith.addi %b100, %t : index
      %bt1 = arith.addi %bt, %c1 : index
      %i = arith.index_cast %bt1 : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %in[%b, %t] : memref<2x64xf32>
    }
  }
  func.call @reverse(%in, %out, %ids)
      : (memref<2x64xf32>, memref<2x64xf32>, memref<2x64xi32>) -> ()
  %u = memref.cast %out : memref<2x64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %ids : memref<2x64xi32> to memref<*xi32>
  func.call @printMemrefI32(%v) : (memref<*xi32>) -> ()
  memref.dealloc %in : memref<2x64xf32>
  memref.dealloc %out : memref<2x64xf32>
  memref.dealloc %ids : memref<2x64xi32>
  return
}
