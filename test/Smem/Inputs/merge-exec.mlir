// Payload for the execution checks of transform.smem.merge_allocations:
// kernels (as func.func, one thread) whose workgroup buffers the op packs,
// and @main, which runs them on deterministic inputs and prints the results.
// Values are multiples of 1/8, so every result is exact.
#ws = #gpu.address_space<workgroup>
#map_min = affine_map<(d0) -> (d0, 64)>
module {
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

  // Chain: A overlaps B, B overlaps C, A and C share bytes.
  func.func @chain_kernel(%in: memref<64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32
    %a = memref.alloc() : memref<64xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %in[%i] : memref<64xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %a[%i] : memref<64xf32, #ws>
    }
    %b = memref.alloc() : memref<32xf32, #ws>
    scf.for %i = %c0 to %c32 step %c1 {
      %j = arith.addi %i, %c32 : index
      %x = memref.load %a[%i] : memref<64xf32, #ws>
      %y = memref.load %a[%j] : memref<64xf32, #ws>
      %s = arith.addf %x, %y : f32
      memref.store %s, %b[%i] : memref<32xf32, #ws>
    }
    %c = memref.alloc() : memref<64xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %k = arith.remui %i, %c32 : index
      %x = memref.load %b[%k] : memref<32xf32, #ws>
      %y = arith.mulf %x, %three : f32
      memref.store %y, %c[%i] : memref<64xf32, #ws>
    }
    scf.for %i = %c0 to %c64 step %c1 {
      %k = arith.remui %i, %c32 : index
      %x = memref.load %c[%i] : memref<64xf32, #ws>
      %y = memref.load %b[%k] : memref<32xf32, #ws>
      %s = arith.subf %x, %y : f32
      memref.store %s, %out[%i] : memref<64xf32>
    }
    memref.dealloc %a : memref<64xf32, #ws>
    memref.dealloc %b : memref<32xf32, #ws>
    memref.dealloc %c : memref<64xf32, #ws>
    return
  }

  // A buffer live across a loop, two loop-local ones, one after the loop.
  func.func @loop_kernel(%in: memref<64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %keep = memref.alloc() : memref<64xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %in[%i] : memref<64xf32>
      memref.store %v, %keep[%i] : memref<64xf32, #ws>
      memref.store %zero, %out[%i] : memref<64xf32>
    }
    scf.for %k = %c0 to %c4 step %c1 {
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %t1 = memref.alloc() : memref<64xf32, #ws>
      scf.for %i = %c0 to %c64 step %c1 {
        %v = memref.load %keep[%i] : memref<64xf32, #ws>
        %w = arith.addf %v, %kf : f32
        memref.store %w, %t1[%i] : memref<64xf32, #ws>
      }
      %t2 = memref.alloc() : memref<64xf32, #ws>
      scf.for %i = %c0 to %c64 step %c1 {
        %j = arith.subi %c63, %i : index
        %v = memref.load %t1[%j] : memref<64xf32, #ws>
        %w = arith.addf %v, %v : f32
        memref.store %w, %t2[%i] : memref<64xf32, #ws>
      }
      scf.for %i = %c0 to %c64 step %c1 {
        %v = memref.load %t2[%i] : memref<64xf32, #ws>
        %o = memref.load %out[%i] : memref<64xf32>
        %s = arith.addf %o, %v : f32
        memref.store %s, %out[%i] : memref<64xf32>
      }
    }
    %after = memref.alloc() : memref<64xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %out[%i] : memref<64xf32>
      %w = arith.addf %v, %one : f32
      memref.store %w, %after[%i] : memref<64xf32, #ws>
    }
    scf.for %i = %c0 to %c64 step %c1 {
      %j = arith.subi %c63, %i : index
      %v = memref.load %after[%j] : memref<64xf32, #ws>
      memref.store %v, %out[%i] : memref<64xf32>
    }
    return
  }

  // Ping-pong through iter_args, a multi-buffered ring picked by subview,
  // nested scf.if branches with their own buffers, then a late buffer.
  func.func @pingpong_kernel(%in: memref<64xf32>, %out: memref<64xf32>, %flag: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %half = arith.constant 0.5 : f32
    %a = memref.alloc() : memref<64xf32, #ws>
    %b = memref.alloc() : memref<64xf32, #ws>
    %ring = memref.alloc() : memref<3x64xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %in[%i] : memref<64xf32>
      memref.store %v, %a[%i] : memref<64xf32, #ws>
    }
    %r:2 = scf.for %k = %c0 to %c5 step %c1 iter_args(%cur = %a, %next = %b) -> (memref<64xf32, #ws>, memref<64xf32, #ws>) {
      %slot = arith.remui %k, %c3 : index
      %s = memref.subview %ring[%slot, 0] [1, 64] [1, 1] : memref<3x64xf32, #ws> to memref<64xf32, strided<[1], offset: ?>, #ws>
      scf.for %i = %c0 to %c64 step %c1 {
        %v = memref.load %cur[%i] : memref<64xf32, #ws>
        memref.store %v, %s[%i] : memref<64xf32, strided<[1], offset: ?>, #ws>
      }
      scf.if %flag {
        %t = memref.alloc() : memref<64xf32, #ws>
        scf.for %i = %c0 to %c64 step %c1 {
          %j = arith.subi %c63, %i : index
          %v = memref.load %s[%j] : memref<64xf32, strided<[1], offset: ?>, #ws>
          %w = arith.mulf %v, %half : f32
          memref.store %w, %t[%i] : memref<64xf32, #ws>
        }
        scf.for %i = %c0 to %c64 step %c1 {
          %v = memref.load %t[%i] : memref<64xf32, #ws>
          %u = memref.load %cur[%i] : memref<64xf32, #ws>
          %w = arith.addf %v, %u : f32
          memref.store %w, %next[%i] : memref<64xf32, #ws>
        }
      } else {
        %e = memref.alloc() : memref<32xf32, #ws>
        scf.for %i = %c0 to %c64 step %c1 {
          %v = memref.load %s[%i] : memref<64xf32, strided<[1], offset: ?>, #ws>
          memref.store %v, %next[%i] : memref<64xf32, #ws>
        }
        memref.store %half, %e[%c0] : memref<32xf32, #ws>
      }
      scf.yield %next, %cur : memref<64xf32, #ws>, memref<64xf32, #ws>
    }
    %late = memref.alloc() : memref<64xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %r#0[%i] : memref<64xf32, #ws>
      memref.store %v, %late[%i] : memref<64xf32, #ws>
    }
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %late[%i] : memref<64xf32, #ws>
      memref.store %v, %out[%i] : memref<64xf32>
    }
    return
  }

  // Aliases (expand/collapse, cast, reinterpret_cast, view, select) and a
  // dynamic size bounded by affine.min.
  func.func @alias_kernel(%in: memref<64xf32>, %out: memref<64xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %true = arith.constant true
    %one = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<64xf32, #ws>
    %bytes = memref.alloc() : memref<256xi8, #ws>
    %m = affine.min #map_min(%n)
    %d = memref.alloc(%m) : memref<?xf32, #ws>
    %ex = memref.expand_shape %a [[0, 1]] output_shape [8, 8] : memref<64xf32, #ws> into memref<8x8xf32, #ws>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %k = arith.muli %i, %c8 : index
        %l = arith.addi %k, %j : index
        %v = memref.load %in[%l] : memref<64xf32>
        memref.store %v, %ex[%j, %i] : memref<8x8xf32, #ws>
      }
    }
    %vw = memref.view %bytes[%c0][] : memref<256xi8, #ws> to memref<64xf32, #ws>
    %co = memref.collapse_shape %ex [[0, 1]] : memref<8x8xf32, #ws> into memref<64xf32, #ws>
    %sel = arith.select %true, %co, %vw : memref<64xf32, #ws>
    %ca = memref.cast %d : memref<?xf32, #ws> to memref<64xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %sel[%i] : memref<64xf32, #ws>
      %w = arith.addf %v, %one : f32
      memref.store %w, %ca[%i] : memref<64xf32, #ws>
    }
    %tmp = memref.alloc() : memref<64xf32, #ws>
    %rc = memref.reinterpret_cast %tmp to offset: [0], sizes: [64], strides: [1] : memref<64xf32, #ws> to memref<64xf32, strided<[1]>, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %d[%i] : memref<?xf32, #ws>
      memref.store %v, %rc[%i] : memref<64xf32, strided<[1]>, #ws>
    }
    scf.for %i = %c0 to %c64 step %c1 {
      %v = memref.load %tmp[%i] : memref<64xf32, #ws>
      %u = memref.load %co[%i] : memref<64xf32, #ws>
      %w = arith.addf %v, %u : f32
      memref.store %w, %out[%i] : memref<64xf32>
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c100 = arith.constant 100 : index
    %eighth = arith.constant 0.125 : f32
    %true = arith.constant true
    %false = arith.constant false
    %in = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %v = arith.mulf %f, %eighth : f32
      memref.store %v, %in[%i] : memref<64xf32>
    }
    %out = memref.alloc() : memref<64xf32>
    %u = memref.cast %out : memref<64xf32> to memref<*xf32>
    call @chain_kernel(%in, %out) : (memref<64xf32>, memref<64xf32>) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    call @loop_kernel(%in, %out) : (memref<64xf32>, memref<64xf32>) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    call @pingpong_kernel(%in, %out, %true) : (memref<64xf32>, memref<64xf32>, i1) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    call @pingpong_kernel(%in, %out, %false) : (memref<64xf32>, memref<64xf32>, i1) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    call @alias_kernel(%in, %out, %c100) : (memref<64xf32>, memref<64xf32>, index) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<64xf32>
    memref.dealloc %in : memref<64xf32>
    return
  }
}
