// Payload for the execution check of barrier-safe merging: kernels (as
// func.func, one thread) whose control flow depends on a per-thread value.
// The "thread id" is loaded from memory, which the uniformity rule cannot
// prove uniform (as it could not a gpu.thread_id), so buffers used inside
// the divergent scf.if / scf.for are kept apart while buffers around them
// share bytes behind barriers hoisted out of the divergent ops.
// Values are multiples of 1/8, so every result is exact.
#ws = #gpu.address_space<workgroup>
module {
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

  func.func @branchy_kernel(%in: memref<64xf32>, %out: memref<64xf32>,
                            %tids: memref<1xindex>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %two = arith.constant 2.0 : f32
    %half = arith.constant 0.5 : f32
    %tid = memref.load %tids[%c0] : memref<1xindex>
    // %a before the divergent branch.
    %a = memref.alloc() : memref<64xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %in[%i] : memref<64xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %a[%i] : memref<64xf32, #ws>
    }
    %low = arith.cmpi ult, %tid, %c4 : index
    scf.if %low {
      // %b then %c in sequence inside the divergent branch: kept apart.
      %b = memref.alloc() : memref<64xf32, #ws>
      scf.for %i = %c0 to %c64 step %c1 {
        %x = memref.load %a[%i] : memref<64xf32, #ws>
        %y = arith.addf %x, %half : f32
        memref.store %y, %b[%i] : memref<64xf32, #ws>
      }
      %c = memref.alloc() : memref<32xf32, #ws>
      scf.for %i = %c0 to %c32 step %c1 {
        %j = arith.addi %i, %c32 : index
        %x = memref.load %b[%i] : memref<64xf32, #ws>
        %y = memref.load %b[%j] : memref<64xf32, #ws>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<32xf32, #ws>
      }
      scf.for %i = %c0 to %c64 step %c1 {
        %k = arith.remui %i, %c32 : index
        %x = memref.load %c[%k] : memref<32xf32, #ws>
        memref.store %x, %out[%i] : memref<64xf32>
      }
    } else {
      %d = memref.alloc() : memref<64xf32, #ws>
      scf.for %i = %c0 to %c64 step %c1 {
        %x = memref.load %a[%i] : memref<64xf32, #ws>
        %y = arith.mulf %x, %x : f32
        memref.store %y, %d[%i] : memref<64xf32, #ws>
      }
      scf.for %i = %c0 to %c64 step %c1 {
        %x = memref.load %d[%i] : memref<64xf32, #ws>
        memref.store %x, %out[%i] : memref<64xf32>
      }
    }
    // A loop whose trip count is the thread id, with two buffers in turn.
    scf.for %n = %c0 to %tid step %c1 {
      %p = memref.alloc() : memref<64xf32, #ws>
      scf.for %i = %c0 to %c64 step %c1 {
        %x = memref.load %out[%i] : memref<64xf32>
        %y = arith.addf %x, %two : f32
        memref.store %y, %p[%i] : memref<64xf32, #ws>
      }
      %q = memref.alloc() : memref<64xf32, #ws>
      scf.for %i = %c0 to %c64 step %c1 {
        %x = memref.load %p[%i] : memref<64xf32, #ws>
        %y = arith.mulf %x, %half : f32
        memref.store %y, %q[%i] : memref<64xf32, #ws>
      }
      scf.for %i = %c0 to %c64 step %c1 {
        %x = memref.load %q[%i] : memref<64xf32, #ws>
        memref.store %x, %out[%i] : memref<64xf32>
      }
    }
    // %e after everything: reuses bytes behind a barrier at the top level.
    %e = memref.alloc() : memref<64xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %x = memref.load %out[%i] : memref<64xf32>
      %y = arith.addf %x, %half : f32
      memref.store %y, %e[%i] : memref<64xf32, #ws>
    }
    scf.for %i = %c0 to %c64 step %c1 {
      %x = memref.load %e[%i] : memref<64xf32, #ws>
      %z = memref.load %out[%i] : memref<64xf32>
      %s = arith.addf %x, %z : f32
      memref.store %s, %out[%i] : memref<64xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c6 = arith.constant 6 : index
    %c64 = arith.constant 64 : index
    %eighth = arith.constant 0.125 : f32
    %in = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %v = arith.mulf %f, %eighth : f32
      memref.store %v, %in[%i] : memref<64xf32>
    }
    %out = memref.alloc() : memref<64xf32>
    %u = memref.cast %out : memref<64xf32> to memref<*xf32>
    %tids = memref.alloc() : memref<1xindex>
    // Thread 3 takes the then branch and loops 3 times; thread 6 the else
    // branch and loops 6 times.
    memref.store %c3, %tids[%c0] : memref<1xindex>
    call @branchy_kernel(%in, %out, %tids) : (memref<64xf32>, memref<64xf32>, memref<1xindex>) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.store %c6, %tids[%c0] : memref<1xindex>
    call @branchy_kernel(%in, %out, %tids) : (memref<64xf32>, memref<64xf32>, memref<1xindex>) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %tids : memref<1xindex>
    memref.dealloc %out : memref<64xf32>
    memref.dealloc %in : memref<64xf32>
    return
  }
}
