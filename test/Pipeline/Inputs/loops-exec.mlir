// Static-bound loops for exec.mlir (generated once by hand from a template;
// each function is one case). Every loop tagged `pipeline` is scheduled by
// the entry points of pipeline-lib.mlir. Cases: trip counts 0..6, lower
// bound 3 with step 5, step 3; per case four loop shapes:
//  - copy -> smem read -> vector accumulate (iter_arg) with a pass-through
//    iter_arg and an address carried to the next iteration,
//  - writes through two subviews (halves) of one workgroup buffer, read whole,
//  - the read-before-write hazard pattern (store to on-chip memory at the end
//    of a chain, SSA-independent load, store to global),
//  - alloca in integer memory space 3 feeding linalg.add into global memory.

func.func @trip1(%G: memref<64x4xf32>, %O: memref<64x4xf32> {llvm.noalias}, %acc0: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 1 : index
  %step = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  %r:3 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0, %off = %lb, %keep = %one) -> (vector<4xf32>, index, f32) {
    %g = memref.subview %G[%off, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %kv = vector.broadcast %keep : f32 to vector<4xf32>
    %v2 = arith.mulf %v, %kv : vector<4xf32>
    %acc2 = arith.addf %acc, %v2 : vector<4xf32>
    %next = arith.addi %off, %step : index
    scf.yield %acc2, %next, %keep : vector<4xf32>, index, f32
  } {pipeline}
  // Two halves written through subviews, the whole buffer read.
  %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
  %r2 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %g0 = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %k1 = arith.addi %k, %c1 : index
    %g1 = memref.subview %G[%k1, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %h0 = memref.subview %h[0, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    %h1 = memref.subview %h[1, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    memref.copy %g0, %h0 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    memref.copy %g1, %h1 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    %w0 = vector.extract %w[0] : vector<4xf32> from vector<2x4xf32>
    %w1 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
    %p = arith.mulf %w0, %w1 : vector<4xf32>
    %acc2 = arith.addf %acc, %p : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline}
  // Hazard pattern.
  %t = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  scf.for %k = %lb to %ub step %step {
    %x = memref.load %G[%k, %c1] : memref<64x4xf32>
    %y = arith.mulf %x, %x : f32
    %y2 = arith.addf %y, %one : f32
    memref.store %y2, %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    %z = memref.load %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    memref.store %z, %O[%k, %c2] : memref<64x4xf32>
  } {pipeline}
  // alloca in integer space 3, linalg.add into global memory.
  %a = memref.alloca() : memref<1x4xf32, 3>
  scf.for %k = %lb to %ub step %step {
    %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %o = memref.subview %O[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %a : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, 3>
    linalg.add ins(%a, %o : memref<1x4xf32, 3>, memref<1x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<1x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  return %r#0, %r2, %r#2 : vector<4xf32>, vector<4xf32>, f32
}

func.func @trip2(%G: memref<64x4xf32>, %O: memref<64x4xf32> {llvm.noalias}, %acc0: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 2 : index
  %step = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  %r:3 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0, %off = %lb, %keep = %one) -> (vector<4xf32>, index, f32) {
    %g = memref.subview %G[%off, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %kv = vector.broadcast %keep : f32 to vector<4xf32>
    %v2 = arith.mulf %v, %kv : vector<4xf32>
    %acc2 = arith.addf %acc, %v2 : vector<4xf32>
    %next = arith.addi %off, %step : index
    scf.yield %acc2, %next, %keep : vector<4xf32>, index, f32
  } {pipeline}
  // Two halves written through subviews, the whole buffer read.
  %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
  %r2 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %g0 = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %k1 = arith.addi %k, %c1 : index
    %g1 = memref.subview %G[%k1, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %h0 = memref.subview %h[0, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    %h1 = memref.subview %h[1, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    memref.copy %g0, %h0 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    memref.copy %g1, %h1 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    %w0 = vector.extract %w[0] : vector<4xf32> from vector<2x4xf32>
    %w1 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
    %p = arith.mulf %w0, %w1 : vector<4xf32>
    %acc2 = arith.addf %acc, %p : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline}
  // Hazard pattern.
  %t = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  scf.for %k = %lb to %ub step %step {
    %x = memref.load %G[%k, %c1] : memref<64x4xf32>
    %y = arith.mulf %x, %x : f32
    %y2 = arith.addf %y, %one : f32
    memref.store %y2, %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    %z = memref.load %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    memref.store %z, %O[%k, %c2] : memref<64x4xf32>
  } {pipeline}
  // alloca in integer space 3, linalg.add into global memory.
  %a = memref.alloca() : memref<1x4xf32, 3>
  scf.for %k = %lb to %ub step %step {
    %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %o = memref.subview %O[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %a : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, 3>
    linalg.add ins(%a, %o : memref<1x4xf32, 3>, memref<1x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<1x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  return %r#0, %r2, %r#2 : vector<4xf32>, vector<4xf32>, f32
}

func.func @trip3(%G: memref<64x4xf32>, %O: memref<64x4xf32> {llvm.noalias}, %acc0: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  %r:3 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0, %off = %lb, %keep = %one) -> (vector<4xf32>, index, f32) {
    %g = memref.subview %G[%off, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %kv = vector.broadcast %keep : f32 to vector<4xf32>
    %v2 = arith.mulf %v, %kv : vector<4xf32>
    %acc2 = arith.addf %acc, %v2 : vector<4xf32>
    %next = arith.addi %off, %step : index
    scf.yield %acc2, %next, %keep : vector<4xf32>, index, f32
  } {pipeline}
  // Two halves written through subviews, the whole buffer read.
  %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
  %r2 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %g0 = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %k1 = arith.addi %k, %c1 : index
    %g1 = memref.subview %G[%k1, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %h0 = memref.subview %h[0, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    %h1 = memref.subview %h[1, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    memref.copy %g0, %h0 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    memref.copy %g1, %h1 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    %w0 = vector.extract %w[0] : vector<4xf32> from vector<2x4xf32>
    %w1 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
    %p = arith.mulf %w0, %w1 : vector<4xf32>
    %acc2 = arith.addf %acc, %p : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline}
  // Hazard pattern.
  %t = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  scf.for %k = %lb to %ub step %step {
    %x = memref.load %G[%k, %c1] : memref<64x4xf32>
    %y = arith.mulf %x, %x : f32
    %y2 = arith.addf %y, %one : f32
    memref.store %y2, %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    %z = memref.load %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    memref.store %z, %O[%k, %c2] : memref<64x4xf32>
  } {pipeline}
  // alloca in integer space 3, linalg.add into global memory.
  %a = memref.alloca() : memref<1x4xf32, 3>
  scf.for %k = %lb to %ub step %step {
    %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %o = memref.subview %O[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %a : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, 3>
    linalg.add ins(%a, %o : memref<1x4xf32, 3>, memref<1x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<1x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  return %r#0, %r2, %r#2 : vector<4xf32>, vector<4xf32>, f32
}

func.func @trip4(%G: memref<64x4xf32>, %O: memref<64x4xf32> {llvm.noalias}, %acc0: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %step = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  %r:3 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0, %off = %lb, %keep = %one) -> (vector<4xf32>, index, f32) {
    %g = memref.subview %G[%off, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %kv = vector.broadcast %keep : f32 to vector<4xf32>
    %v2 = arith.mulf %v, %kv : vector<4xf32>
    %acc2 = arith.addf %acc, %v2 : vector<4xf32>
    %next = arith.addi %off, %step : index
    scf.yield %acc2, %next, %keep : vector<4xf32>, index, f32
  } {pipeline}
  // Two halves written through subviews, the whole buffer read.
  %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
  %r2 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %g0 = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %k1 = arith.addi %k, %c1 : index
    %g1 = memref.subview %G[%k1, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %h0 = memref.subview %h[0, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    %h1 = memref.subview %h[1, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    memref.copy %g0, %h0 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    memref.copy %g1, %h1 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    %w0 = vector.extract %w[0] : vector<4xf32> from vector<2x4xf32>
    %w1 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
    %p = arith.mulf %w0, %w1 : vector<4xf32>
    %acc2 = arith.addf %acc, %p : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline}
  // Hazard pattern.
  %t = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  scf.for %k = %lb to %ub step %step {
    %x = memref.load %G[%k, %c1] : memref<64x4xf32>
    %y = arith.mulf %x, %x : f32
    %y2 = arith.addf %y, %one : f32
    memref.store %y2, %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    %z = memref.load %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    memref.store %z, %O[%k, %c2] : memref<64x4xf32>
  } {pipeline}
  // alloca in integer space 3, linalg.add into global memory.
  %a = memref.alloca() : memref<1x4xf32, 3>
  scf.for %k = %lb to %ub step %step {
    %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %o = memref.subview %O[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %a : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, 3>
    linalg.add ins(%a, %o : memref<1x4xf32, 3>, memref<1x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<1x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  return %r#0, %r2, %r#2 : vector<4xf32>, vector<4xf32>, f32
}

func.func @trip6(%G: memref<64x4xf32>, %O: memref<64x4xf32> {llvm.noalias}, %acc0: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 6 : index
  %step = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  %r:3 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0, %off = %lb, %keep = %one) -> (vector<4xf32>, index, f32) {
    %g = memref.subview %G[%off, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %kv = vector.broadcast %keep : f32 to vector<4xf32>
    %v2 = arith.mulf %v, %kv : vector<4xf32>
    %acc2 = arith.addf %acc, %v2 : vector<4xf32>
    %next = arith.addi %off, %step : index
    scf.yield %acc2, %next, %keep : vector<4xf32>, index, f32
  } {pipeline}
  // Two halves written through subviews, the whole buffer read.
  %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
  %r2 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %g0 = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %k1 = arith.addi %k, %c1 : index
    %g1 = memref.subview %G[%k1, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %h0 = memref.subview %h[0, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    %h1 = memref.subview %h[1, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    memref.copy %g0, %h0 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    memref.copy %g1, %h1 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    %w0 = vector.extract %w[0] : vector<4xf32> from vector<2x4xf32>
    %w1 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
    %p = arith.mulf %w0, %w1 : vector<4xf32>
    %acc2 = arith.addf %acc, %p : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline}
  // Hazard pattern.
  %t = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  scf.for %k = %lb to %ub step %step {
    %x = memref.load %G[%k, %c1] : memref<64x4xf32>
    %y = arith.mulf %x, %x : f32
    %y2 = arith.addf %y, %one : f32
    memref.store %y2, %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    %z = memref.load %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    memref.store %z, %O[%k, %c2] : memref<64x4xf32>
  } {pipeline}
  // alloca in integer space 3, linalg.add into global memory.
  %a = memref.alloca() : memref<1x4xf32, 3>
  scf.for %k = %lb to %ub step %step {
    %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %o = memref.subview %O[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %a : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, 3>
    linalg.add ins(%a, %o : memref<1x4xf32, 3>, memref<1x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<1x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  return %r#0, %r2, %r#2 : vector<4xf32>, vector<4xf32>, f32
}

func.func @lbstep(%G: memref<64x4xf32>, %O: memref<64x4xf32> {llvm.noalias}, %acc0: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = arith.constant 3 : index
  %ub = arith.constant 40 : index
  %step = arith.constant 5 : index
  %pad = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  %r:3 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0, %off = %lb, %keep = %one) -> (vector<4xf32>, index, f32) {
    %g = memref.subview %G[%off, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %kv = vector.broadcast %keep : f32 to vector<4xf32>
    %v2 = arith.mulf %v, %kv : vector<4xf32>
    %acc2 = arith.addf %acc, %v2 : vector<4xf32>
    %next = arith.addi %off, %step : index
    scf.yield %acc2, %next, %keep : vector<4xf32>, index, f32
  } {pipeline}
  // Two halves written through subviews, the whole buffer read.
  %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
  %r2 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %g0 = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %k1 = arith.addi %k, %c1 : index
    %g1 = memref.subview %G[%k1, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %h0 = memref.subview %h[0, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    %h1 = memref.subview %h[1, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    memref.copy %g0, %h0 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    memref.copy %g1, %h1 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    %w0 = vector.extract %w[0] : vector<4xf32> from vector<2x4xf32>
    %w1 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
    %p = arith.mulf %w0, %w1 : vector<4xf32>
    %acc2 = arith.addf %acc, %p : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline}
  // Hazard pattern.
  %t = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  scf.for %k = %lb to %ub step %step {
    %x = memref.load %G[%k, %c1] : memref<64x4xf32>
    %y = arith.mulf %x, %x : f32
    %y2 = arith.addf %y, %one : f32
    memref.store %y2, %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    %z = memref.load %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    memref.store %z, %O[%k, %c2] : memref<64x4xf32>
  } {pipeline}
  // alloca in integer space 3, linalg.add into global memory.
  %a = memref.alloca() : memref<1x4xf32, 3>
  scf.for %k = %lb to %ub step %step {
    %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %o = memref.subview %O[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %a : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, 3>
    linalg.add ins(%a, %o : memref<1x4xf32, 3>, memref<1x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<1x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  return %r#0, %r2, %r#2 : vector<4xf32>, vector<4xf32>, f32
}

func.func @zero(%G: memref<64x4xf32>, %O: memref<64x4xf32> {llvm.noalias}, %acc0: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = arith.constant 5 : index
  %ub = arith.constant 5 : index
  %step = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  %r:3 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0, %off = %lb, %keep = %one) -> (vector<4xf32>, index, f32) {
    %g = memref.subview %G[%off, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %kv = vector.broadcast %keep : f32 to vector<4xf32>
    %v2 = arith.mulf %v, %kv : vector<4xf32>
    %acc2 = arith.addf %acc, %v2 : vector<4xf32>
    %next = arith.addi %off, %step : index
    scf.yield %acc2, %next, %keep : vector<4xf32>, index, f32
  } {pipeline}
  // Two halves written through subviews, the whole buffer read.
  %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
  %r2 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %g0 = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %k1 = arith.addi %k, %c1 : index
    %g1 = memref.subview %G[%k1, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %h0 = memref.subview %h[0, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    %h1 = memref.subview %h[1, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    memref.copy %g0, %h0 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    memref.copy %g1, %h1 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    %w0 = vector.extract %w[0] : vector<4xf32> from vector<2x4xf32>
    %w1 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
    %p = arith.mulf %w0, %w1 : vector<4xf32>
    %acc2 = arith.addf %acc, %p : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline}
  // Hazard pattern.
  %t = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  scf.for %k = %lb to %ub step %step {
    %x = memref.load %G[%k, %c1] : memref<64x4xf32>
    %y = arith.mulf %x, %x : f32
    %y2 = arith.addf %y, %one : f32
    memref.store %y2, %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    %z = memref.load %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    memref.store %z, %O[%k, %c2] : memref<64x4xf32>
  } {pipeline}
  // alloca in integer space 3, linalg.add into global memory.
  %a = memref.alloca() : memref<1x4xf32, 3>
  scf.for %k = %lb to %ub step %step {
    %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %o = memref.subview %O[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %a : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, 3>
    linalg.add ins(%a, %o : memref<1x4xf32, 3>, memref<1x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<1x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  return %r#0, %r2, %r#2 : vector<4xf32>, vector<4xf32>, f32
}

func.func @step3(%G: memref<64x4xf32>, %O: memref<64x4xf32> {llvm.noalias}, %acc0: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lb = arith.constant 1 : index
  %ub = arith.constant 20 : index
  %step = arith.constant 3 : index
  %pad = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  %r:3 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0, %off = %lb, %keep = %one) -> (vector<4xf32>, index, f32) {
    %g = memref.subview %G[%off, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %g, %s : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    %kv = vector.broadcast %keep : f32 to vector<4xf32>
    %v2 = arith.mulf %v, %kv : vector<4xf32>
    %acc2 = arith.addf %acc, %v2 : vector<4xf32>
    %next = arith.addi %off, %step : index
    scf.yield %acc2, %next, %keep : vector<4xf32>, index, f32
  } {pipeline}
  // Two halves written through subviews, the whole buffer read.
  %h = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
  %r2 = scf.for %k = %lb to %ub step %step iter_args(%acc = %acc0) -> (vector<4xf32>) {
    %g0 = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %k1 = arith.addi %k, %c1 : index
    %g1 = memref.subview %G[%k1, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %h0 = memref.subview %h[0, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    %h1 = memref.subview %h[1, 0] [1, 4] [1, 1] : memref<2x4xf32, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    memref.copy %g0, %h0 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1]>, #gpu.address_space<workgroup>>
    memref.copy %g1, %h1 : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: 4>, #gpu.address_space<workgroup>>
    %w = vector.transfer_read %h[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x4xf32, #gpu.address_space<workgroup>>, vector<2x4xf32>
    %w0 = vector.extract %w[0] : vector<4xf32> from vector<2x4xf32>
    %w1 = vector.extract %w[1] : vector<4xf32> from vector<2x4xf32>
    %p = arith.mulf %w0, %w1 : vector<4xf32>
    %acc2 = arith.addf %acc, %p : vector<4xf32>
    scf.yield %acc2 : vector<4xf32>
  } {pipeline}
  // Hazard pattern.
  %t = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  scf.for %k = %lb to %ub step %step {
    %x = memref.load %G[%k, %c1] : memref<64x4xf32>
    %y = arith.mulf %x, %x : f32
    %y2 = arith.addf %y, %one : f32
    memref.store %y2, %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    %z = memref.load %t[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    memref.store %z, %O[%k, %c2] : memref<64x4xf32>
  } {pipeline}
  // alloca in integer space 3, linalg.add into global memory.
  %a = memref.alloca() : memref<1x4xf32, 3>
  scf.for %k = %lb to %ub step %step {
    %g = memref.subview %G[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    %o = memref.subview %O[%k, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<1x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g, %a : memref<1x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, 3>
    linalg.add ins(%a, %o : memref<1x4xf32, 3>, memref<1x4xf32, strided<[4, 1], offset: ?>>) outs(%o : memref<1x4xf32, strided<[4, 1], offset: ?>>)
  } {pipeline}
  return %r#0, %r2, %r#2 : vector<4xf32>, vector<4xf32>, f32
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @fill(%m: memref<64x4xf32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %t0 = arith.muli %i, %c4 : index
      %t1 = arith.addi %t0, %j : index
      %t2 = arith.addi %t1, %seed : index
      %t3 = arith.remui %t2, %c7 : index
      %t4 = arith.index_cast %t3 : index to i32
      %t5 = arith.sitofp %t4 : i32 to f32
      memref.store %t5, %m[%i, %j] : memref<64x4xf32>
    }
  }
  return
}

func.func @main() {
  %G = memref.alloc() : memref<64x4xf32>
  %O = memref.alloc() : memref<64x4xf32>
  %Ou = memref.cast %O : memref<64x4xf32> to memref<*xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %init = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  func.call @fill(%G, %c1) : (memref<64x4xf32>, index) -> ()
  func.call @fill(%O, %c2) : (memref<64x4xf32>, index) -> ()
  %trip1:3 = func.call @trip1(%G, %O, %init) : (memref<64x4xf32>, memref<64x4xf32>, vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32)
  vector.print %trip1#0 : vector<4xf32>
  vector.print %trip1#1 : vector<4xf32>
  vector.print %trip1#2 : f32
  func.call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()
  func.call @fill(%G, %c1) : (memref<64x4xf32>, index) -> ()
  func.call @fill(%O, %c2) : (memref<64x4xf32>, index) -> ()
  %trip2:3 = func.call @trip2(%G, %O, %init) : (memref<64x4xf32>, memref<64x4xf32>, vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32)
  vector.print %trip2#0 : vector<4xf32>
  vector.print %trip2#1 : vector<4xf32>
  vector.print %trip2#2 : f32
  func.call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()
  func.call @fill(%G, %c1) : (memref<64x4xf32>, index) -> ()
  func.call @fill(%O, %c2) : (memref<64x4xf32>, index) -> ()
  %trip3:3 = func.call @trip3(%G, %O, %init) : (memref<64x4xf32>, memref<64x4xf32>, vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32)
  vector.print %trip3#0 : vector<4xf32>
  vector.print %trip3#1 : vector<4xf32>
  vector.print %trip3#2 : f32
  func.call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()
  func.call @fill(%G, %c1) : (memref<64x4xf32>, index) -> ()
  func.call @fill(%O, %c2) : (memref<64x4xf32>, index) -> ()
  %trip4:3 = func.call @trip4(%G, %O, %init) : (memref<64x4xf32>, memref<64x4xf32>, vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32)
  vector.print %trip4#0 : vector<4xf32>
  vector.print %trip4#1 : vector<4xf32>
  vector.print %trip4#2 : f32
  func.call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()
  func.call @fill(%G, %c1) : (memref<64x4xf32>, index) -> ()
  func.call @fill(%O, %c2) : (memref<64x4xf32>, index) -> ()
  %trip6:3 = func.call @trip6(%G, %O, %init) : (memref<64x4xf32>, memref<64x4xf32>, vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32)
  vector.print %trip6#0 : vector<4xf32>
  vector.print %trip6#1 : vector<4xf32>
  vector.print %trip6#2 : f32
  func.call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()
  func.call @fill(%G, %c1) : (memref<64x4xf32>, index) -> ()
  func.call @fill(%O, %c2) : (memref<64x4xf32>, index) -> ()
  %lbstep:3 = func.call @lbstep(%G, %O, %init) : (memref<64x4xf32>, memref<64x4xf32>, vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32)
  vector.print %lbstep#0 : vector<4xf32>
  vector.print %lbstep#1 : vector<4xf32>
  vector.print %lbstep#2 : f32
  func.call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()
  func.call @fill(%G, %c1) : (memref<64x4xf32>, index) -> ()
  func.call @fill(%O, %c2) : (memref<64x4xf32>, index) -> ()
  %zero:3 = func.call @zero(%G, %O, %init) : (memref<64x4xf32>, memref<64x4xf32>, vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32)
  vector.print %zero#0 : vector<4xf32>
  vector.print %zero#1 : vector<4xf32>
  vector.print %zero#2 : f32
  func.call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()
  func.call @fill(%G, %c1) : (memref<64x4xf32>, index) -> ()
  func.call @fill(%O, %c2) : (memref<64x4xf32>, index) -> ()
  %step3:3 = func.call @step3(%G, %O, %init) : (memref<64x4xf32>, memref<64x4xf32>, vector<4xf32>) -> (vector<4xf32>, vector<4xf32>, f32)
  vector.print %step3#0 : vector<4xf32>
  vector.print %step3#1 : vector<4xf32>
  vector.print %step3#2 : f32
  func.call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()
  return
}
