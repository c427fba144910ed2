// transform.smem.avoid_bank_conflicts: the decision per shared buffer from
// the target's banks (remarks), and the rewrite of every access (IR).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false \
// RUN:   -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir

// An A tile of 64-byte rows (64x32 f16) as the tensor-core kernel holds
// it: 16-byte async copies (4 threads per row) and one ldmatrix x4 per warp
// (lane l gives row l mod 16 at chunk l / 16). On 32 banks x 4 bytes, the
// 8 rows of an ldmatrix phase fall two per 128-byte line: rows 0, 2, 4, 6
// meet at the same banks (4-way). Chunk ^= (row >> 1) & 3 spreads them;
// the copies stay conflict-free. Padding the rows would cost 1 KiB and
// conflict on the copies.
// REMARK: remark: avoid_bank_conflicts on 'nvidia-a100': 32 banks x 4 bytes (128-byte lines), warps of 32
// REMARK-NEXT: memref<64x32xf16, #gpu.address_space<workgroup>>: XOR swizzle, 16-byte chunk ^= (row >> 1) & 3; wavefronts per warp (actual/ideal) 32.0/20.0 -> 20.0/20.0 (4 x async copy 16.0/16.0 -> 16.0/16.0, 1 x ldmatrix x4 16.0/4.0 -> 4.0/4.0); padding rows instead: 36.0/20.0 at +1024 bytes
// CHECK-LABEL: func.func @tile
// CHECK: memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[SHIFT:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[MASK:.+]] = arith.constant 3 : index
// CHECK-NEXT: %[[CHUNK:.+]] = arith.constant 3 : index
// CHECK: %[[R0:.+]] = affine.apply #{{.+}}()[%[[TX:.+]]]
// CHECK-NEXT: %[[COL:.+]] = affine.apply #{{.+}}()[%[[TX]]]
// CHECK-NEXT: %[[R1:.+]] = arith.addi %[[R0]]
// CHECK-NEXT: %[[R2:.+]] = arith.addi %[[R0]]
// CHECK-NEXT: %[[R3:.+]] = arith.addi %[[R0]]
// Every copy's destination column, each from its own row.
// CHECK-NEXT: %[[S0:.+]] = arith.shrui %[[R0]], %[[SHIFT]] : index
// CHECK-NEXT: %[[M0:.+]] = arith.andi %[[S0]], %[[MASK]] : index
// CHECK-NEXT: %[[B0:.+]] = arith.shli %[[M0]], %[[CHUNK]] : index
// CHECK-NEXT: %[[X0:.+]] = arith.xori %[[COL]], %[[B0]] : index
// CHECK-NEXT: nvgpu.device_async_copy %{{.+}}[%[[R0]], %[[COL]]], %{{.+}}[%[[R0]], %[[X0]]], 8
// CHECK-NEXT: %[[S1:.+]] = arith.shrui %[[R1]], %[[SHIFT]] : index
// CHECK-NEXT: %[[M1:.+]] = arith.andi %[[S1]], %[[MASK]] : index
// CHECK-NEXT: %[[B1:.+]] = arith.shli %[[M1]], %[[CHUNK]] : index
// CHECK-NEXT: %[[X1:.+]] = arith.xori %[[COL]], %[[B1]] : index
// CHECK-NEXT: nvgpu.device_async_copy %{{.+}}[%[[R1]], %[[COL]]], %{{.+}}[%[[R1]], %[[X1]]], 8
// CHECK-NEXT: %[[S2:.+]] = arith.shrui %[[R2]], %[[SHIFT]] : index
// CHECK-NEXT: %[[M2:.+]] = arith.andi %[[S2]], %[[MASK]] : index
// CHECK-NEXT: %[[B2:.+]] = arith.shli %[[M2]], %[[CHUNK]] : index
// CHECK-NEXT: %[[X2:.+]] = arith.xori %[[COL]], %[[B2]] : index
// CHECK-NEXT: nvgpu.device_async_copy %{{.+}}[%[[R2]], %[[COL]]], %{{.+}}[%[[R2]], %[[X2]]], 8
// CHECK-NEXT: %[[S3:.+]] = arith.shrui %[[R3]], %[[SHIFT]] : index
// CHECK-NEXT: %[[M3:.+]] = arith.andi %[[S3]], %[[MASK]] : index
// CHECK-NEXT: %[[B3:.+]] = arith.shli %[[M3]], %[[CHUNK]] : index
// CHECK-NEXT: %[[X3:.+]] = arith.xori %[[COL]], %[[B3]] : index
// CHECK-NEXT: nvgpu.device_async_copy %{{.+}}[%[[R3]], %[[COL]]], %{{.+}}[%[[R3]], %[[X3]]], 8
// CHECK: %[[FR:.+]] = affine.apply
// CHECK-NEXT: %[[FC:.+]] = affine.apply
// CHECK-NEXT: %[[FS:.+]] = arith.shrui %[[FR]], %[[SHIFT]] : index
// CHECK-NEXT: %[[FM:.+]] = arith.andi %[[FS]], %[[MASK]] : index
// CHECK-NEXT: %[[FB:.+]] = arith.shli %[[FM]], %[[CHUNK]] : index
// CHECK-NEXT: %[[FX:.+]] = arith.xori %[[FC]], %[[FB]] : index
// CHECK-NEXT: nvgpu.ldmatrix %{{.+}}[%[[FR]], %[[FX]]] {numTiles = 4 : i32, transpose = false}

#ws = #gpu.address_space<workgroup>
#row = affine_map<()[s0] -> (s0 floordiv 4)>
#col = affine_map<()[s0] -> ((s0 mod 4) * 8)>
#frow = affine_map<()[s0, s1] -> ((s0 floordiv 32) * 32 + s1 mod 16)>
#fcol = affine_map<()[s0] -> ((s0 floordiv 16) * 8)>
module attributes {transform.with_named_sequence} {
  func.func @tile(%A: memref<128x32xf16>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %tile = memref.alloc() : memref<64x32xf16, #ws>
      %r0 = affine.apply #row()[%tx]
      %c = affine.apply #col()[%tx]
      %r1 = arith.addi %r0, %c16 : index
      %r2 = arith.addi %r0, %c32 : index
      %r3 = arith.addi %r0, %c48 : index
      %t0 = nvgpu.device_async_copy %A[%r0, %c], %tile[%r0, %c], 8 : memref<128x32xf16> to memref<64x32xf16, #ws>
      %t1 = nvgpu.device_async_copy %A[%r1, %c], %tile[%r1, %c], 8 : memref<128x32xf16> to memref<64x32xf16, #ws>
      %t2 = nvgpu.device_async_copy %A[%r2, %c], %tile[%r2, %c], 8 : memref<128x32xf16> to memref<64x32xf16, #ws>
      %t3 = nvgpu.device_async_copy %A[%r3, %c], %tile[%r3, %c], 8 : memref<128x32xf16> to memref<64x32xf16, #ws>
      %g = nvgpu.device_async_create_group %t0, %t1, %t2, %t3
      nvgpu.device_async_wait %g
      gpu.barrier
      %lane = gpu.lane_id
      %fr = affine.apply #frow()[%tx, %lane]
      %fc = affine.apply #fcol()[%lane]
      %frag = nvgpu.ldmatrix %tile[%fr, %fc] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #ws> -> vector<4x2xf16>
      "test.use"(%frag) : (vector<4x2xf16>) -> ()
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.avoid_bank_conflicts %f { target = "nvidia-a100", explain } : !transform.any_op
    transform.yield
  }
}

// -----

// The same kernel on 16 banks (64-byte lines, an override of the spec):
// a phase is 4 lanes, each row is a line of its own, so the four rows of
// a phase all meet at bank 0 (4-way) and the swizzle must change every
// row: chunk ^= row & 3.
// REMARK: remark: avoid_bank_conflicts on 'nvidia-a100': 16 banks x 4 bytes (64-byte lines), warps of 32
// REMARK-NEXT: memref<64x32xf16, #gpu.address_space<workgroup>>: XOR swizzle, 16-byte chunk ^= (row >> 0) & 3; wavefronts per warp (actual/ideal) 64.0/40.0 -> 40.0/40.0 (4 x async copy 32.0/32.0 -> 32.0/32.0, 1 x ldmatrix x4 32.0/8.0 -> 8.0/8.0)
// CHECK-LABEL: func.func @tile
// CHECK: memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[MASK:.+]] = arith.constant 3 : index
// CHECK-NEXT: %[[CHUNK:.+]] = arith.constant 3 : index
// CHECK: %[[R0:.+]] = affine.apply
// CHECK-NOT: arith.shrui
// CHECK: %[[M0:.+]] = arith.andi %[[R0]], %[[MASK]] : index
// CHECK-NEXT: %[[B0:.+]] = arith.shli %[[M0]], %[[CHUNK]] : index
// CHECK-NEXT: %[[X0:.+]] = arith.xori %{{.+}}, %[[B0]] : index
// CHECK-NEXT: nvgpu.device_async_copy %{{.+}}, %{{.+}}[%[[R0]], %[[X0]]], 8

#ws = #gpu.address_space<workgroup>
#row = affine_map<()[s0] -> (s0 floordiv 4)>
#col = affine_map<()[s0] -> ((s0 mod 4) * 8)>
#frow = affine_map<()[s0, s1] -> ((s0 floordiv 32) * 32 + s1 mod 16)>
#fcol = affine_map<()[s0] -> ((s0 floordiv 16) * 8)>
module attributes {transform.with_named_sequence} {
  func.func @tile(%A: memref<128x32xf16>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %tile = memref.alloc() : memref<64x32xf16, #ws>
      %r0 = affine.apply #row()[%tx]
      %c = affine.apply #col()[%tx]
      %r1 = arith.addi %r0, %c16 : index
      %r2 = arith.addi %r0, %c32 : index
      %r3 = arith.addi %r0, %c48 : index
      %t0 = nvgpu.device_async_copy %A[%r0, %c], %tile[%r0, %c], 8 : memref<128x32xf16> to memref<64x32xf16, #ws>
      %t1 = nvgpu.device_async_copy %A[%r1, %c], %tile[%r1, %c], 8 : memref<128x32xf16> to memref<64x32xf16, #ws>
      %t2 = nvgpu.device_async_copy %A[%r2, %c], %tile[%r2, %c], 8 : memref<128x32xf16> to memref<64x32xf16, #ws>
      %t3 = nvgpu.device_async_copy %A[%r3, %c], %tile[%r3, %c], 8 : memref<128x32xf16> to memref<64x32xf16, #ws>
      %g = nvgpu.device_async_create_group %t0, %t1, %t2, %t3
      nvgpu.device_async_wait %g
      gpu.barrier
      %lane = gpu.lane_id
      %fr = affine.apply #frow()[%tx, %lane]
      %fc = affine.apply #fcol()[%lane]
      %frag = nvgpu.ldmatrix %tile[%fr, %fc] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #ws> -> vector<4x2xf16>
      "test.use"(%frag) : (vector<4x2xf16>) -> ()
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.avoid_bank_conflicts %f { target = "nvidia-a100", "onchip.banks" = 16, explain } : !transform.any_op
    transform.yield
  }
}

// -----

// Conflict-free already: lanes read consecutive 16-byte chunks of 128-byte
// rows. The layout is kept and nothing is rewritten.
// REMARK: memref<16x32xf32, #gpu.address_space<workgroup>>: layout kept (no bank conflicts); wavefronts per warp (actual/ideal) 8.0/8.0 -> 8.0/8.0 (1 x vector.store 4.0/4.0 -> 4.0/4.0, 1 x vector.load 4.0/4.0 -> 4.0/4.0); padding rows instead: 8.0/8.0 at +256 bytes
// CHECK-LABEL: func.func @conflict_free
// CHECK-NOT: arith.xori
// CHECK: return
#r8 = affine_map<()[s0] -> (s0 floordiv 8)>
#c8 = affine_map<()[s0] -> ((s0 mod 8) * 4)>
module attributes {transform.with_named_sequence} {
  func.func @conflict_free(%v: vector<4xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %tile = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
      %r = affine.apply #r8()[%tx]
      %c = affine.apply #c8()[%tx]
      vector.store %v, %tile[%r, %c] : memref<16x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.barrier
      %w = vector.load %tile[%r, %c] : memref<16x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      "test.use"(%w) : (vector<4xf32>) -> ()
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.avoid_bank_conflicts %f { target = "nvidia-a100", explain } : !transform.any_op
    transform.yield
  }
}

// -----

// Buffers the op cannot analyse or swizzle keep their layout, each with
// the reason: a view hides the accesses behind it; rows of 48 bytes hold
// three 16-byte chunks (an XOR could move a chunk out of its row; the
// column reads are conflict-free anyway, 48 bytes apart); an allocation
// outside any gpu.launch has no known threads.
// REMARK: remark: avoid_bank_conflicts on 'nvidia-a100': 32 banks x 4 bytes (128-byte lines), warps of 32
// REMARK-NEXT: memref<16x32xf32, #gpu.address_space<workgroup>>: not analysed, layout kept: 'memref.subview' uses it (only ldmatrix, async-copy destinations and memref/vector loads and stores are modelled; a view or cast hides the accesses behind it)
// REMARK-NEXT: memref<32x12xf32, #gpu.address_space<workgroup>>: layout kept (no swizzle possible: its rows of 48 bytes are not a power of two of 16-byte chunks (an XOR could leave the row)); wavefronts per warp (actual/ideal) 4.0/4.0 -> 4.0/4.0 (1 x vector.load 4.0/4.0 -> 4.0/4.0)
// REMARK-NEXT: memref<8x8xf32, #gpu.address_space<workgroup>>: not analysed, layout kept: it is not in a gpu.launch with constant block sizes, so the threads' addresses are unknown
// CHECK-LABEL: func.func @unanalysable
// CHECK-NOT: arith.xori
// CHECK: return
#c3 = affine_map<()[s0] -> ((s0 floordiv 32) * 4)>
#lr = affine_map<()[s0] -> (s0 mod 32)>
module attributes {transform.with_named_sequence} {
  func.func @unanalysable(%v: vector<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %a = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
      %s = memref.subview %a[0, 0] [8, 32] [1, 1] : memref<16x32xf32, #gpu.address_space<workgroup>> to memref<8x32xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>
      "test.use"(%s) : (memref<8x32xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>) -> ()
      %b = memref.alloc() : memref<32x12xf32, #gpu.address_space<workgroup>>
      %r = affine.apply #lr()[%tx]
      %c = affine.apply #c3()[%tx]
      %w = vector.load %b[%r, %c] : memref<32x12xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      "test.use"(%w) : (vector<4xf32>) -> ()
      gpu.terminator
    }
    %outside = memref.alloc() : memref<8x8xf32, #gpu.address_space<workgroup>>
    %x = memref.load %outside[%c0, %c0] : memref<8x8xf32, #gpu.address_space<workgroup>>
    "test.use"(%x) : (f32) -> ()
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.avoid_bank_conflicts %f { target = "nvidia-a100", explain } : !transform.any_op
    transform.yield
  }
}

// -----

// An access that starts inside a chunk in a later iteration: at the first
// K step (k = 0) the 16-byte loads start at chunk boundaries, at the second
// (k = 1) two floats in, so a chunk swizzle would split them. The layout is
// kept (and the conflict with it), with the reason.
// REMARK: memref<32x32xf32, #gpu.address_space<workgroup>>: layout kept (no swizzle possible: a thread's vector.load crosses a 16-byte chunk); wavefronts per warp (actual/ideal) 32.0/4.0 -> 32.0/4.0 (1 x vector.load 32.0/4.0 -> 32.0/4.0)
// CHECK-LABEL: func.func @crossing_later
// CHECK-NOT: arith.xori
// CHECK: return
#cross = affine_map<()[s0, s1] -> ((s0 floordiv 32) * 4 + s1 * 2)>
#lrow = affine_map<()[s0] -> (s0 mod 32)>
module attributes {transform.with_named_sequence} {
  func.func @crossing_later() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %a = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
      %r = affine.apply #lrow()[%tx]
      scf.for %k = %c0 to %c4 step %c1 {
        %c = affine.apply #cross()[%tx, %k]
        %w = vector.load %a[%r, %c] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        "test.use"(%w) : (vector<4xf32>) -> ()
      }
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.avoid_bank_conflicts %f { target = "nvidia-a100", explain } : !transform.any_op
    transform.yield
  }
}

// -----

// A handle holding a function and its gpu.launch plans the launch's buffer
// once (one remark, one swizzle), and a buffer of index elements is not
// analysed.
// REMARK: remark: avoid_bank_conflicts on 'nvidia-a100': 32 banks x 4 bytes (128-byte lines), warps of 32
// REMARK-NEXT: memref<32x32xf32, #gpu.address_space<workgroup>>: XOR swizzle, 16-byte chunk ^= (row >> 0) & 7;
// REMARK-NEXT: memref<32x4xindex, #gpu.address_space<workgroup>>: not analysed, layout kept: its elements are index (integer and float elements are modelled)
// REMARK-NOT: avoid_bank_conflicts
// CHECK-LABEL: func.func @nested_scopes
// CHECK-COUNT-1: arith.xori
// CHECK-NOT: arith.xori
// CHECK: return
#lrow2 = affine_map<()[s0] -> (s0 mod 32)>
module attributes {transform.with_named_sequence} {
  func.func @nested_scopes() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %a = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
      %i = memref.alloc() : memref<32x4xindex, #gpu.address_space<workgroup>>
      %r = affine.apply #lrow2()[%tx]
      %w = vector.load %a[%r, %c0] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %x = memref.load %i[%r, %c0] : memref<32x4xindex, #gpu.address_space<workgroup>>
      "test.use"(%w, %x) : (vector<4xf32>, index) -> ()
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func", "gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.avoid_bank_conflicts %f { target = "nvidia-a100", explain } : !transform.any_op
    transform.yield
  }
}

// -----

// The tf32 kernel's B tile (32x128 f32, 512-byte rows: four lines a row),
// read with single 4-byte loads as mma.sync m16n8k8 takes B: lane l reads
// row l mod 4 (then + 4), column l / 4, so a warp reads two neighbouring
// 16-byte chunks of four rows, all at the same banks (4-way). Chunk ^=
// row & 3 on 16-byte chunks only pairs the chunks up again (rows 0 and 1
// share chunks 0 and 1: 2-way); the same XOR on 32-byte units gives each
// row two chunks of its own (1 wavefront). The copies' conflict (the 8
// lanes of a phase write every fourth chunk of one row) stays: an XOR by
// the row moves every lane of a phase alike.
// REMARK: remark: avoid_bank_conflicts on 'nvidia-a100': 32 banks x 4 bytes (128-byte lines), warps of 32
// REMARK-NEXT: memref<32x128xf32, #gpu.address_space<workgroup>>: XOR swizzle, 32-byte chunk ^= (row >> 0) & 3; wavefronts per warp (actual/ideal) 24.0/6.0 -> 18.0/6.0 (1 x async copy 16.0/4.0 -> 16.0/4.0, 2 x memref.load 8.0/2.0 -> 2.0/2.0); padding rows instead: 20.0/6.0 at +512 bytes
// CHECK-LABEL: func.func @tf32_b_tile
// CHECK: memref.alloc() : memref<32x128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: %[[MASK:.+]] = arith.constant 3 : index
// CHECK-NEXT: %[[UNIT:.+]] = arith.constant 3 : index
// CHECK: %[[LANE:.+]] = gpu.lane_id
// CHECK-NEXT: %[[K0:.+]] = affine.apply #{{.+}}()[%[[LANE]]]
// CHECK-NEXT: %[[N:.+]] = affine.apply #{{.+}}()[%[[LANE]]]
// CHECK-NEXT: %[[M0:.+]] = arith.andi %[[K0]], %[[MASK]] : index
// CHECK-NEXT: %[[B0:.+]] = arith.shli %[[M0]], %[[UNIT]] : index
// CHECK-NEXT: %[[X0:.+]] = arith.xori %[[N]], %[[B0]] : index
// CHECK-NEXT: memref.load %{{.+}}[%[[K0]], %[[X0]]]
#krow = affine_map<()[s0] -> (s0 mod 4)>
#krow4 = affine_map<()[s0] -> (s0 mod 4 + 4)>
#ncol = affine_map<()[s0] -> (s0 floordiv 4)>
#crow = affine_map<()[s0] -> (s0 floordiv 8)>
#ccol = affine_map<()[s0] -> ((s0 mod 8) * 16)>
module attributes {transform.with_named_sequence} {
  func.func @tf32_b_tile(%B: memref<32x128xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %tile = memref.alloc() : memref<32x128xf32, #gpu.address_space<workgroup>>
      %r = affine.apply #crow()[%tx]
      %c = affine.apply #ccol()[%tx]
      %t = nvgpu.device_async_copy %B[%r, %c], %tile[%r, %c], 4 : memref<32x128xf32> to memref<32x128xf32, #gpu.address_space<workgroup>>
      %g = nvgpu.device_async_create_group %t
      nvgpu.device_async_wait %g
      gpu.barrier
      %lane = gpu.lane_id
      %k0 = affine.apply #krow()[%lane]
      %n = affine.apply #ncol()[%lane]
      %b0 = memref.load %tile[%k0, %n] : memref<32x128xf32, #gpu.address_space<workgroup>>
      %k1 = affine.apply #krow4()[%lane]
      %b1 = memref.load %tile[%k1, %n] : memref<32x128xf32, #gpu.address_space<workgroup>>
      "test.use"(%b0, %b1) : (f32, f32) -> ()
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.avoid_bank_conflicts %f { target = "nvidia-a100", explain } : !transform.any_op
    transform.yield
  }
}
