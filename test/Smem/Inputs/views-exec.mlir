// Payload for the execution check of first-access lifetimes: every view is
// made at the top of the kernel, before any data flows, and each buffer is
// written in one phase and read in the next, so the merged buffers reuse
// bytes while views of the earlier buffers still exist. Values are
// multiples of 1/8, so every result is exact.
#ws = #gpu.address_space<workgroup>
module {
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

  func.func @views_up_front(%in: memref<64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %half = arith.constant 0.5 : f32
    %three = arith.constant 3.0 : f32
    %a = memref.alloc() : memref<64xf32, #ws>
    %b = memref.alloc() : memref<8x8xf32, #ws>
    %c = memref.alloc() : memref<256xi8, #ws>
    %d = memref.alloc() : memref<96xf32, #ws>
    %e = memref.alloc() : memref<64xf32, #ws>
    %a_sub = memref.subview %a[0] [64] [1] : memref<64xf32, #ws> to memref<64xf32, strided<[1]>, #ws>
    %b_col = memref.collapse_shape %b [[0, 1]] : memref<8x8xf32, #ws> into memref<64xf32, #ws>
    %c_view = memref.view %c[%c0][] : memref<256xi8, #ws> to memref<64xf32, #ws>
    %d_sub = memref.subview %d[32] [64] [1] : memref<96xf32, #ws> to memref<64xf32, strided<[1], offset: 32>, #ws>
    %d_exp = memref.expand_shape %d_sub [[0, 1]] output_shape [8, 8] : memref<64xf32, strided<[1], offset: 32>, #ws> into memref<8x8xf32, strided<[8, 1], offset: 32>, #ws>
    %e_rc = memref.reinterpret_cast %e to offset: [0], sizes: [64], strides: [1] : memref<64xf32, #ws> to memref<64xf32, strided<[1]>, #ws>
    %e_cast = memref.cast %e_rc : memref<64xf32, strided<[1]>, #ws> to memref<?xf32, strided<[1]>, #ws>
    // a = in * 3
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %in[%i] : memref<64xf32>
      %w = arith.mulf %v, %three : f32
      memref.store %w, %a_sub[%i] : memref<64xf32, strided<[1]>, #ws>
    }
    // b = transpose-ish mix of a
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %k = arith.muli %j, %c8 : index
        %l = arith.addi %k, %i : index
        %v = memref.load %a[%l] : memref<64xf32, #ws>
        memref.store %v, %b[%i, %j] : memref<8x8xf32, #ws>
      }
    }
    // c = b + 1/2 (through the collapsed view of b and the byte view of c)
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %b_col[%i] : memref<64xf32, #ws>
      %w = arith.addf %v, %half : f32
      memref.store %w, %c_view[%i] : memref<64xf32, #ws>
    }
    // d (through a subview and its expanded view) = reversed c
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %k = arith.muli %i, %c8 : index
        %l = arith.addi %k, %j : index
        %r = arith.subi %c64, %l : index
        %rr = arith.subi %r, %c1 : index
        %v = memref.load %c_view[%rr] : memref<64xf32, #ws>
        memref.store %v, %d_exp[%i, %j] : memref<8x8xf32, strided<[8, 1], offset: 32>, #ws>
      }
    }
    // e = d - in, then out = e + d
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %d_sub[%i] : memref<64xf32, strided<[1], offset: 32>, #ws>
      %u = memref.load %in[%i] : memref<64xf32>
      %w = arith.subf %v, %u : f32
      memref.store %w, %e_cast[%i] : memref<?xf32, strided<[1]>, #ws>
    }
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %e[%i] : memref<64xf32, #ws>
      %k = arith.remui %i, %c32 : index
      %u = memref.load %d_sub[%k] : memref<64xf32, strided<[1], offset: 32>, #ws>
      %w = arith.addf %v, %u : f32
      memref.store %w, %out[%i] : memref<64xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
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
    call @views_up_front(%in, %out) : (memref<64xf32>, memref<64xf32>) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<64xf32>
    memref.dealloc %in : memref<64xf32>
    return
  }
}
