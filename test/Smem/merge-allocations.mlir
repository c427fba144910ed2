// transform.smem.merge_allocations: liveness over structured control flow,
// aliases, pinning, async copies, barriers, alignment, dynamic sizes and
// capacity. Offsets and total sizes are checked on the IR; the explain
// remarks (peak, lower bound, live set, offsets) with -verify-diagnostics.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --allow-unregistered-dialect --verify-diagnostics | FileCheck %s
// The full remarks (live sets, pinned reasons, barrier counts):
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --allow-unregistered-dialect --mlir-print-op-on-diagnostic=false \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

#ws = #gpu.address_space<workgroup>

// Chain: A overlaps B, B overlaps C, A and C are disjoint. The peak is the
// largest overlapping pair (A+B = 1536), not the sum (2560); C reuses A's
// bytes behind a barrier.
// CHECK-LABEL: func.func @chain
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<1536xi8, #gpu.address_space<workgroup>>
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[O0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.+]] = memref.view %[[BUF]][%[[O0]]][] : memref<1536xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: %[[O1:.+]] = arith.constant 1024 : index
// CHECK-NEXT: %[[B:.+]] = memref.view %[[BUF]][%[[O1]]][] : {{.*}} to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: %[[O2:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.+]] = memref.view %[[BUF]][%[[O2]]][] : {{.*}} to memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load %[[A]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[C]]
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc %[[A]]
// CHECK: memref.dealloc %[[BUF]]
// CHECK-NEXT: return
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{merged 3 of 3 on-chip allocations: sum 2560 B, peak 1536 B (buffer 1536 B, align 16), lower bound 1536 B}}
  func.func @chain(%out: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<256xf32, #ws>
    %b = memref.alloc() : memref<128xf32, #ws>
    %c = memref.alloc() : memref<256xf32, #ws>
    memref.store %f, %a[%c0] : memref<256xf32, #ws>
    memref.store %f, %b[%c0] : memref<128xf32, #ws>
    %x = memref.load %a[%c0] : memref<256xf32, #ws>
    memref.store %x, %c[%c0] : memref<256xf32, #ws>
    %y = memref.load %b[%c0] : memref<128xf32, #ws>
    %z = memref.load %c[%c0] : memref<256xf32, #ws>
    %s = arith.addf %y, %z : f32
    memref.store %s, %out[%c0] : memref<256xf32>
    memref.dealloc %a : memref<256xf32, #ws>
    memref.dealloc %b : memref<128xf32, #ws>
    memref.dealloc %c : memref<256xf32, #ws>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// %keep is written before the loop and read in every iteration: live across
// the whole loop. %t1 and %t2 live in one iteration each and share bytes
// (barrier between them, and one across the back edge before %t1's first
// use); %after reuses %keep's bytes after the loop.
// CHECK-LABEL: func.func @loop_live_across
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<384xi8, #gpu.address_space<workgroup>>
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[KEEP:.+]] = memref.view %[[BUF]][%[[K0]]][] : {{.*}} to memref<64xf32
// CHECK: scf.for
// CHECK-NEXT: %[[T1O:.+]] = arith.constant 256 : index
// CHECK-NEXT: %[[T1:.+]] = memref.view %[[BUF]][%[[T1O]]][] : {{.*}} to memref<32xf32
// CHECK-NEXT: memref.load %[[KEEP]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[T1]]
// CHECK-NEXT: memref.load %[[T1]]
// CHECK-NEXT: %[[T2O:.+]] = arith.constant 256 : index
// CHECK-NEXT: %[[T2:.+]] = memref.view %[[BUF]][%[[T2O]]][] : {{.*}} to memref<16xf32
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[T2]]
// CHECK: }
// CHECK-NEXT: %[[AO:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[AFTER:.+]] = memref.view %[[BUF]][%[[AO]]][] : {{.*}} to memref<64xf32
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[AFTER]]
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{peak 384 B (buffer 384 B, align 16), lower bound 384 B}}
  func.func @loop_live_across(%out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant 1.0 : f32
    %keep = memref.alloc() : memref<64xf32, #ws>
    memref.store %f, %keep[%c0] : memref<64xf32, #ws>
    scf.for %i = %c0 to %c8 step %c1 {
      %t1 = memref.alloc() : memref<32xf32, #ws>
      %k = memref.load %keep[%i] : memref<64xf32, #ws>
      memref.store %k, %t1[%i] : memref<32xf32, #ws>
      %v = memref.load %t1[%i] : memref<32xf32, #ws>
      %t2 = memref.alloc() : memref<16xf32, #ws>
      memref.store %v, %t2[%i] : memref<16xf32, #ws>
      %w = memref.load %t2[%i] : memref<16xf32, #ws>
      memref.store %w, %out[%i] : memref<64xf32>
    }
    %after = memref.alloc() : memref<64xf32, #ws>
    memref.store %f, %after[%c0] : memref<64xf32, #ws>
    %r = memref.load %after[%c0] : memref<64xf32, #ws>
    memref.store %r, %out[%c0] : memref<64xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// A multi-buffered ring (as pipelining makes it: memref<3x...>, one slot per
// stage, picked by subview) stays live across the whole loop; the
// loop-local %tmp gets its own bytes; %epi reuses the ring after the loop.
// CHECK-LABEL: func.func @multi_buffered
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK: arith.constant 8 : index
// CHECK-NEXT: %[[RO:.+]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %[[BUF]][%[[RO]]][] : {{.*}} to memref<3x64xf32
// CHECK: %[[TO:.+]] = arith.constant 768 : index
// CHECK-NEXT: memref.view %[[BUF]][%[[TO]]][] : {{.*}} to memref<64xf32
// CHECK: %[[EO:.+]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %[[BUF]][%[[EO]]][] : {{.*}} to memref<192xf32
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{merged 3 of 3 on-chip allocations: sum 1792 B, peak 1024 B (buffer 1024 B, align 16), lower bound 1024 B}}
  func.func @multi_buffered(%in: memref<8x64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %ring = memref.alloc() : memref<3x64xf32, #ws>
    scf.for %i = %c0 to %c8 step %c1 {
      %slot = arith.remui %i, %c3 : index
      %s = memref.subview %ring[%slot, 0] [1, 64] [1, 1] : memref<3x64xf32, #ws> to memref<64xf32, strided<[1], offset: ?>, #ws>
      %v = memref.load %in[%i, %c0] : memref<8x64xf32>
      memref.store %v, %s[%c0] : memref<64xf32, strided<[1], offset: ?>, #ws>
      %tmp = memref.alloc() : memref<64xf32, #ws>
      %w = memref.load %s[%c0] : memref<64xf32, strided<[1], offset: ?>, #ws>
      memref.store %w, %tmp[%c0] : memref<64xf32, #ws>
      %x = memref.load %tmp[%c0] : memref<64xf32, #ws>
      memref.store %x, %out[%i] : memref<64xf32>
    }
    %epi = memref.alloc() : memref<192xf32, #ws>
    %z = memref.load %in[%c0, %c0] : memref<8x64xf32>
    memref.store %z, %epi[%c0] : memref<192xf32, #ws>
    %y = memref.load %epi[%c0] : memref<192xf32, #ws>
    memref.store %y, %out[%c0] : memref<64xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Ping-pong buffers swapped through iter_args are both live across the whole
// loop; %late reuses their bytes after the last read of the loop result.
// CHECK-LABEL: func.func @ping_pong
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[AO:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.+]] = memref.view %[[BUF]][%[[AO]]][] : {{.*}} to memref<16xf32
// CHECK: %[[BO:.+]] = arith.constant 64 : index
// CHECK-NEXT: %[[B:.+]] = memref.view %[[BUF]][%[[BO]]][] : {{.*}} to memref<16xf32
// CHECK: %[[R:.+]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[A]], %{{.*}} = %[[B]])
// CHECK: %[[LO:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[LATE:.+]] = memref.view %[[BUF]][%[[LO]]][] : {{.*}} to memref<32xf32
// CHECK-NEXT: memref.load %[[R]]#0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[LATE]]
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{merged 3 of 3 on-chip allocations: sum 256 B, peak 128 B (buffer 128 B, align 16), lower bound 128 B at 'scf.for'}}
  func.func @ping_pong(%out: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<16xf32, #ws>
    %b = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %a[%c0] : memref<16xf32, #ws>
    %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%cur = %a, %next = %b) -> (memref<16xf32, #ws>, memref<16xf32, #ws>) {
      %v = memref.load %cur[%c0] : memref<16xf32, #ws>
      %w = arith.addf %v, %f : f32
      memref.store %w, %next[%c0] : memref<16xf32, #ws>
      scf.yield %next, %cur : memref<16xf32, #ws>, memref<16xf32, #ws>
    }
    %late = memref.alloc() : memref<32xf32, #ws>
    %q = memref.load %r#0[%c0] : memref<16xf32, #ws>
    memref.store %q, %late[%c0] : memref<32xf32, #ws>
    %p = memref.load %late[%c0] : memref<32xf32, #ws>
    memref.store %p, %out[%c0] : memref<16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Nested loops and scf.if: %outer (used in every iteration of the outer
// loop and after it) never shares; the inner-loop buffer and the two branch
// buffers share offset 0. Barriers: after the inner loop (before scf.if) and
// before the inner loop (the branches of one iteration against the inner
// loop of the next). The two branches need none between them.
// CHECK-LABEL: func.func @nested
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<192xi8, #gpu.address_space<workgroup>>
// CHECK: %[[OO:.+]] = arith.constant 128 : index
// CHECK-NEXT: %[[OUTER:.+]] = memref.view %[[BUF]][%[[OO]]][] : {{.*}} to memref<16xf32
// CHECK: scf.for
// CHECK-NEXT: memref.store %{{.*}}, %[[OUTER]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for
// CHECK: memref.view %[[BUF]][%{{.*}}][] : {{.*}} to memref<8xf32
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: memref.view %[[BUF]][%{{.*}}][] : {{.*}} to memref<32xf32
// CHECK-NOT: gpu.barrier
// CHECK: } else {
// CHECK-NOT: gpu.barrier
// CHECK: memref.view %[[BUF]][%{{.*}}][] : {{.*}} to memref<24xf32
// CHECK-NOT: gpu.barrier
// CHECK: return
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@128 #1@0 #2@0 #3@0; packing first-fit/size (optimal); barriers: 2 inserted, 0 reused}}
  func.func @nested(%out: memref<16xf32>, %cond: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    %outer = memref.alloc() : memref<16xf32, #ws>
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %f, %outer[%i] : memref<16xf32, #ws>
      scf.for %j = %c0 to %c4 step %c1 {
        %inner = memref.alloc() : memref<8xf32, #ws>
        memref.store %f, %inner[%j] : memref<8xf32, #ws>
        %v = memref.load %inner[%j] : memref<8xf32, #ws>
        memref.store %v, %out[%j] : memref<16xf32>
      }
      scf.if %cond {
        %then = memref.alloc() : memref<32xf32, #ws>
        memref.store %f, %then[%i] : memref<32xf32, #ws>
        %v = memref.load %then[%i] : memref<32xf32, #ws>
        memref.store %v, %out[%i] : memref<16xf32>
      } else {
        %else = memref.alloc() : memref<24xf32, #ws>
        memref.store %f, %else[%i] : memref<24xf32, #ws>
        %v = memref.load %else[%i] : memref<24xf32, #ws>
        memref.store %v, %out[%i] : memref<16xf32>
      }
    }
    %o = memref.load %outer[%c0] : memref<16xf32, #ws>
    memref.store %o, %out[%c0] : memref<16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Every alias kind: each buffer is written directly, then %mid is used, then
// each buffer is read only through an alias. Following the aliases keeps all
// of them live at %mid: the live set there has all six buffers and %mid gets
// bytes of its own (it would share with them if an alias were missed).
// CHECK-LABEL: func.func @aliases
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<1344xi8, #gpu.address_space<workgroup>>
// REMARK: lower bound 1344 B at 'memref.store'
// REMARK-SAME: live there: #0 memref<8x8xf32, {{.*}} (256 B), #1 memref<256xi8, {{.*}} (256 B), #2 memref<64xf32, {{.*}} (256 B), #3 memref<64xf32, {{.*}} (256 B), #4 memref<16xf32, {{.*}} (64 B), #5 memref<64xf32, {{.*}} (256 B);
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{lower bound 1344 B at 'memref.store' loc("}}
  func.func @aliases(%out: memref<64xf32>, %cond: i1) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %i8 = arith.constant 1 : i8
    %a = memref.alloc() : memref<8x8xf32, #ws>
    %b = memref.alloc() : memref<256xi8, #ws>
    %c = memref.alloc() : memref<64xf32, #ws>
    %d = memref.alloc() : memref<64xf32, #ws>
    %e = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %a[%c0, %c0] : memref<8x8xf32, #ws>
    memref.store %i8, %b[%c0] : memref<256xi8, #ws>
    memref.store %f, %c[%c0] : memref<64xf32, #ws>
    memref.store %f, %d[%c0] : memref<64xf32, #ws>
    memref.store %f, %e[%c0] : memref<16xf32, #ws>
    %mid = memref.alloc() : memref<64xf32, #ws>
    memref.store %f, %mid[%c0] : memref<64xf32, #ws>
    %m = memref.load %mid[%c0] : memref<64xf32, #ws>
    %sv = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<8x8xf32, #ws> to memref<4x4xf32, strided<[8, 1]>, #ws>
    %vw = memref.view %b[%c0][] : memref<256xi8, #ws> to memref<64xf32, #ws>
    %ex = memref.expand_shape %c [[0, 1]] output_shape [8, 8] : memref<64xf32, #ws> into memref<8x8xf32, #ws>
    %co = memref.collapse_shape %ex [[0, 1]] : memref<8x8xf32, #ws> into memref<64xf32, #ws>
    %rc = memref.reinterpret_cast %d to offset: [0], sizes: [8, 8], strides: [8, 1] : memref<64xf32, #ws> to memref<8x8xf32, strided<[8, 1]>, #ws>
    %ca = memref.cast %e : memref<16xf32, #ws> to memref<?xf32, #ws>
    %sel = arith.select %cond, %co, %vw : memref<64xf32, #ws>
    %1 = memref.load %sv[%c0, %c0] : memref<4x4xf32, strided<[8, 1]>, #ws>
    %2 = memref.load %sel[%c0] : memref<64xf32, #ws>
    %3 = memref.load %rc[%c0, %c0] : memref<8x8xf32, strided<[8, 1]>, #ws>
    %4 = memref.load %ca[%c0] : memref<?xf32, #ws>
    %s1 = arith.addf %1, %2 : f32
    %s2 = arith.addf %3, %4 : f32
    %s3 = arith.addf %s1, %s2 : f32
    %s4 = arith.addf %s3, %m : f32
    memref.store %s4, %out[%c0] : memref<64xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Escaping uses pin buffers (they keep their own allocation, the remark says
// why); the remaining buffer is merged alone. The peak counts pinned buffers.
// CHECK-LABEL: func.func @escaping
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<64xi8, #gpu.address_space<workgroup>>
// CHECK: %[[CALLED:.+]] = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: call @consume(%[[CALLED]])
// CHECK: %[[RET:.+]] = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[UNK:.+]] = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: "test.opaque"(%[[UNK]])
// CHECK: %[[STORED:.+]] = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[BUF]]
// CHECK: return %[[RET]]
// REMARK: no on-chip allocations to merge
// REMARK: merged 1 of 5 on-chip allocations
// REMARK-SAME: offsets: #4@0;
// REMARK-SAME: pinned #0 memref<16xf32, #gpu.address_space<workgroup>>: passed to call 'func.call';
// REMARK-SAME: pinned #1 memref<16xf32, #gpu.address_space<workgroup>>: escapes through 'func.return';
// REMARK-SAME: pinned #2 memref<16xf32, #gpu.address_space<workgroup>>: used by 'test.opaque', which has no memory-effect information;
// REMARK-SAME: pinned #3 memref<16xf32, #gpu.address_space<workgroup>>: stored to memory by 'memref.store';
// REMARK-SAME: barriers: 0 inserted, 0 reused
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{no on-chip allocations to merge}}
  func.func private @consume(memref<16xf32, #ws>)
  // expected-remark @below {{merged 1 of 5 on-chip allocations: sum 320 B, peak 320 B (buffer 64 B, align 16), lower bound 320 B}}
  func.func @escaping(%out: memref<16xf32>, %box: memref<1xmemref<16xf32, #ws>>) -> memref<16xf32, #ws> {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %called = memref.alloc() : memref<16xf32, #ws>
    call @consume(%called) : (memref<16xf32, #ws>) -> ()
    %returned = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %returned[%c0] : memref<16xf32, #ws>
    %unknown = memref.alloc() : memref<16xf32, #ws>
    "test.opaque"(%unknown) : (memref<16xf32, #ws>) -> ()
    %stored = memref.alloc() : memref<16xf32, #ws>
    memref.store %stored, %box[%c0] : memref<1xmemref<16xf32, #ws>>
    %free = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %free[%c0] : memref<16xf32, #ws>
    return %returned : memref<16xf32, #ws>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// An async copy keeps its destination live until the wait on its group:
// %mid, used between issue and wait, cannot take %dst's bytes; %late, after
// the wait, can (behind a barrier).
// CHECK-LABEL: func.func @async_copy
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<1024xi8, #gpu.address_space<workgroup>>
// CHECK: %[[DST:.+]] = memref.view %[[BUF]]{{.*}} to memref<128xf32
// CHECK: nvgpu.device_async_copy %{{.*}}, %[[DST]]
// CHECK: %[[MO:.+]] = arith.constant 512 : index
// CHECK-NEXT: memref.view %[[BUF]][%[[MO]]]
// CHECK: nvgpu.device_async_wait
// CHECK: %[[LATE:.+]] = memref.view %[[BUF]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[LATE]]
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@512 #2@0; packing first-fit/size (optimal); barriers: 1 inserted, 0 reused}}
  func.func @async_copy(%g: memref<128xf32>, %out: memref<128xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %dst = memref.alloc() : memref<128xf32, #ws>
    %t = nvgpu.device_async_copy %g[%c0], %dst[%c0], 4 : memref<128xf32> to memref<128xf32, #ws>
    %grp = nvgpu.device_async_create_group %t
    %mid = memref.alloc() : memref<128xf32, #ws>
    memref.store %f, %mid[%c0] : memref<128xf32, #ws>
    %m = memref.load %mid[%c0] : memref<128xf32, #ws>
    memref.store %m, %out[%c0] : memref<128xf32>
    nvgpu.device_async_wait %grp
    %late = memref.alloc() : memref<128xf32, #ws>
    memref.store %f, %late[%c0] : memref<128xf32, #ws>
    %l = memref.load %late[%c0] : memref<128xf32, #ws>
    memref.store %l, %out[%c0] : memref<128xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// The barrier already between %a and %b is reused; %b -> %c gets a new one.
// CHECK-LABEL: func.func @barrier_reuse
// CHECK: memref.load
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[B:.+]] = memref.view
// CHECK-NEXT: memref.store %{{.*}}, %[[B]]
// CHECK-NEXT: memref.load %[[B]]
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[C:.+]] = memref.view
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[C]]
// CHECK-NOT: gpu.barrier
// CHECK: return
// REMARK: offsets: #0@0 #1@0 #2@0; packing first-fit/size (optimal); barriers: 1 inserted, 1 reused
// REMARK-NEXT: func.func @barrier_reuse
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{peak 128 B (buffer 128 B, align 16), lower bound 128 B at 'memref.store' loc("}}
  func.func @barrier_reuse(%out: memref<32xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<32xf32, #ws>
    memref.store %f, %a[%c0] : memref<32xf32, #ws>
    %x = memref.load %a[%c0] : memref<32xf32, #ws>
    gpu.barrier
    %b = memref.alloc() : memref<32xf32, #ws>
    memref.store %x, %b[%c0] : memref<32xf32, #ws>
    %y = memref.load %b[%c0] : memref<32xf32, #ws>
    %c = memref.alloc() : memref<32xf32, #ws>
    memref.store %y, %c[%c0] : memref<32xf32, #ws>
    %z = memref.load %c[%c0] : memref<32xf32, #ws>
    memref.store %z, %out[%c0] : memref<32xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Mixed element types and alignments, spec minimum lowered to 4 B: an
// `alignment = 64` f16 buffer (footprint 64 B), sub-byte i4 rounded up to a
// byte per element (7 B -> 8 B), vector<3xf32> elements of 16 B (align 16),
// f64 (align 8). All live together: 132 B. Alloca + alloc -> alloc.
// CHECK-LABEL: func.func @mixed
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<132xi8, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@128 #1@0 #2@120 #3@96 #4@64}}
  func.func @mixed(%out: memref<4xf64>) {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<3xi8, #ws>
    %b = memref.alloc() {alignment = 64 : i64} : memref<5xf16, #ws>
    %c = memref.alloca() : memref<7xi4, #ws>
    %d = memref.alloc() : memref<3xf64, #ws>
    %e = memref.alloc() : memref<2xvector<3xf32>, #ws>
    %i8 = arith.constant 1 : i8
    %h = arith.constant 1.0 : f16
    %q = arith.constant 1 : i4
    %x = arith.constant 1.0 : f64
    %v = arith.constant dense<1.0> : vector<3xf32>
    memref.store %i8, %a[%c0] : memref<3xi8, #ws>
    memref.store %h, %b[%c0] : memref<5xf16, #ws>
    memref.store %q, %c[%c0] : memref<7xi4, #ws>
    memref.store %x, %d[%c0] : memref<3xf64, #ws>
    memref.store %v, %e[%c0] : memref<2xvector<3xf32>, #ws>
    %1 = memref.load %a[%c0] : memref<3xi8, #ws>
    %2 = memref.load %b[%c0] : memref<5xf16, #ws>
    %3 = memref.load %c[%c0] : memref<7xi4, #ws>
    %4 = memref.load %d[%c0] : memref<3xf64, #ws>
    %5 = memref.load %e[%c0] : memref<2xvector<3xf32>, #ws>
    memref.store %4, %out[%c0] : memref<4xf64>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.alignment_bytes" = 4, explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Only allocas: the merged buffer is an alloca.
// CHECK-LABEL: func.func @allocas
// CHECK: %[[BUF:.+]] = memref.alloca() {alignment = 16 : i64} : memref<64xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloca()
module attributes {transform.with_named_sequence} {
  func.func @allocas(%out: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloca() : memref<16xf32, #ws>
    memref.store %f, %a[%c0] : memref<16xf32, #ws>
    %x = memref.load %a[%c0] : memref<16xf32, #ws>
    %b = memref.alloca() : memref<4xf32, #ws>
    memref.store %x, %b[%c0] : memref<4xf32, #ws>
    %y = memref.load %b[%c0] : memref<4xf32, #ws>
    memref.store %y, %out[%c0] : memref<16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Dynamic sizes: affine.min bounds the first one by 100 rows (1600 B); the
// view keeps the dynamic size. The second has no bound: it stays separate.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<1600xi8, #gpu.address_space<workgroup>>
// CHECK: %[[N:.+]] = affine.min
// CHECK: memref.view %[[BUF]][%{{.*}}][%[[N]]] : memref<1600xi8, #gpu.address_space<workgroup>> to memref<?x4xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{pinned #2 memref<?xf32, #gpu.address_space<workgroup>>: dynamic size without a proven upper bound}}
  func.func @dynamic(%n: index, %out: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %bounded = affine.min affine_map<(d0) -> (d0, 100)>(%n)
    %a = memref.alloc(%bounded) : memref<?x4xf32, #ws>
    memref.store %f, %a[%c0, %c0] : memref<?x4xf32, #ws>
    %x = memref.load %a[%c0, %c0] : memref<?x4xf32, #ws>
    %b = memref.alloc() : memref<64xf32, #ws>
    memref.store %x, %b[%c0] : memref<64xf32, #ws>
    %y = memref.load %b[%c0] : memref<64xf32, #ws>
    %u = memref.alloc(%n) : memref<?xf32, #ws>
    memref.store %y, %u[%c0] : memref<?xf32, #ws>
    %z = memref.load %u[%c0] : memref<?xf32, #ws>
    memref.store %z, %out[%c0] : memref<?xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Exact fit: the capacity equals the lower bound (A+B = 1536 B, the chain).
// CHECK-LABEL: func.func @exact_fit
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<1536xi8, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{peak 1536 B (buffer 1536 B, align 16), lower bound 1536 B}}
  func.func @exact_fit(%out: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<256xf32, #ws>
    %b = memref.alloc() : memref<128xf32, #ws>
    %c = memref.alloc() : memref<256xf32, #ws>
    memref.store %f, %a[%c0] : memref<256xf32, #ws>
    memref.store %f, %b[%c0] : memref<128xf32, #ws>
    %x = memref.load %a[%c0] : memref<256xf32, #ws>
    memref.store %x, %c[%c0] : memref<256xf32, #ws>
    %y = memref.load %b[%c0] : memref<128xf32, #ws>
    %z = memref.load %c[%c0] : memref<256xf32, #ws>
    %s = arith.addf %y, %z : f32
    memref.store %s, %out[%c0] : memref<256xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.capacity_bytes" = 1536, explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Several kernels in one module: a gpu.launch body and a gpu.func are scopes
// of their own; the host function only holds the launch, whose allocations
// it leaves to the launch. The result handle holds one buffer per scope.
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch
// CHECK-NEXT: %[[L:.+]] = memref.alloc() {alignment = 16 : i64} : memref<256xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc()
// CHECK: gpu.terminator
// CHECK-LABEL: gpu.func @k
// CHECK-NEXT: %[[K:.+]] = memref.alloc() {alignment = 16 : i64} : memref<384xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc()
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @k2
// CHECK-NEXT: memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
module attributes {gpu.container_module, transform.with_named_sequence} {
  // expected-remark @below {{no on-chip allocations to merge (2 in nested scopes, left to them)}}
  func.func @host(%out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // expected-remark @below {{merged 2 of 2 on-chip allocations: sum 512 B, peak 256 B}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %f = arith.constant 2.0 : f32
      %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %f, %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %x = memref.load %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %b = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %b[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %y = memref.load %b[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%tx] : memref<64xf32>
      gpu.terminator
    }
    return
  }
  gpu.module @kernels {
    // expected-remark @below {{merged 2 of 2 on-chip allocations: sum 384 B, peak 384 B}}
    gpu.func @k(%out: memref<64xf32>) kernel {
      %tx = gpu.thread_id x
      %f = arith.constant 2.0 : f32
      %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      %b = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %f, %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %x = memref.load %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %b[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      %y = memref.load %b[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      %z = memref.load %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %y, %z : f32
      memref.store %s, %out[%tx] : memref<64xf32>
      gpu.return
    }
    // expected-remark @below {{merged 2 of 2 on-chip allocations: sum 256 B, peak 128 B}}
    gpu.func @k2(%out: memref<64xf32>) kernel {
      %tx = gpu.thread_id x
      %f = arith.constant 2.0 : f32
      %a = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %f, %a[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      %x = memref.load %a[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      %b = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %b[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      %y = memref.load %b[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gpu.launch", "gpu.func", "func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %s { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %m : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{3 : i64}}
    transform.debug.emit_param_as_remark %n : !transform.param<i64>
    transform.yield
  }
}

// -----

// Ascend 910B: the unified buffer is the "ub" memory space, 32 B alignment,
// no gpu.barrier (the NPU synchronises its pipes with flags). Buffers in
// other memory spaces are not touched.
// CHECK-LABEL: func.func @npu_ub
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 32 : i64} : memref<64xi8, "ub">
// CHECK: memref.alloc() : memref<16xf32>
// CHECK-NOT: gpu.barrier
// CHECK: return
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{merged 2 of 2 on-chip allocations: sum 96 B, peak 64 B (buffer 64 B, align 32), lower bound 64 B}}
  func.func @npu_ub(%out: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<16xf32, "ub">
    memref.store %f, %a[%c0] : memref<16xf32, "ub">
    %x = memref.load %a[%c0] : memref<16xf32, "ub">
    %g = memref.alloc() : memref<16xf32>
    memref.store %x, %g[%c0] : memref<16xf32>
    %b = memref.alloc() : memref<4xf32, "ub">
    memref.store %x, %b[%c0] : memref<4xf32, "ub">
    %y = memref.load %b[%c0] : memref<4xf32, "ub">
    memref.store %y, %out[%c0] : memref<16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "ascend-910b", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Unstructured control flow: in a region with several blocks, program order
// says nothing about back edges (%b is read before %a is written, but holds
// the previous iteration's value), so buffers used there stay live over the
// whole region and share nothing. The remark says so per buffer: on a GPU
// target the non-entry blocks may also diverge between threads, so no
// barrier may go there either.
// CHECK-LABEL: func.func @unstructured
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<192xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: return
// REMARK: #0 used in a region with several blocks of 'func.func': live over the whole region (no reuse inside unstructured control flow)
// REMARK-SAME: #1 live over all of 'func.func' at {{.*}}: its regions branch between several blocks, so no barrier inside it is safe
// REMARK-SAME: barriers: 0 inserted, 0 reused
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@64 #2@128; packing first-fit/size (optimal); #0 used in a region with several blocks}}
  func.func @unstructured(%out: memref<16xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    %pre = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %pre[%c0] : memref<16xf32, #ws>
    %p = memref.load %pre[%c0] : memref<16xf32, #ws>
    %a = memref.alloc() : memref<16xf32, #ws>
    %b = memref.alloc() : memref<16xf32, #ws>
    cf.br ^loop(%c0 : index)
  ^loop(%i: index):
    %x = memref.load %b[%c0] : memref<16xf32, #ws>
    memref.store %x, %a[%c0] : memref<16xf32, #ws>
    %y = memref.load %a[%c0] : memref<16xf32, #ws>
    memref.store %y, %b[%c0] : memref<16xf32, #ws>
    %next = arith.addi %i, %c1 : index
    %cond = arith.cmpi slt, %next, %n : index
    cf.cond_br %cond, ^loop(%next : index), ^exit
  ^exit:
    memref.store %p, %out[%c0] : memref<16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// scf.while: %keep is live across the loop; %t (before region) and %u
// (after region) share bytes, with a barrier before each one's first use
// (the after region follows the before region, and the back edge leads from
// the after region to the next before region).
// CHECK-LABEL: func.func @while_loop
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK: scf.while
// CHECK: %[[T:.+]] = memref.view
// CHECK-NEXT: memref.load
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[T]]
// CHECK: } do {
// CHECK: %[[U:.+]] = memref.view
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[U]]
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@64 #2@64; packing first-fit/size (optimal); barriers: 2 inserted, 0 reused}}
  func.func @while_loop(%out: memref<16xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    %keep = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %keep[%c0] : memref<16xf32, #ws>
    %r = scf.while (%i = %c0) : (index) -> index {
      %t = memref.alloc() : memref<16xf32, #ws>
      %k = memref.load %keep[%c0] : memref<16xf32, #ws>
      memref.store %k, %t[%c0] : memref<16xf32, #ws>
      %c = arith.cmpi slt, %i, %n : index
      scf.condition(%c) %i : index
    } do {
    ^bb0(%j: index):
      %u = memref.alloc() : memref<16xf32, #ws>
      memref.store %f, %u[%c0] : memref<16xf32, #ws>
      %v = memref.load %u[%c0] : memref<16xf32, #ws>
      memref.store %v, %out[%c0] : memref<16xf32>
      %nx = arith.addi %j, %c1 : index
      scf.yield %nx : index
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Any op with regions is a scope: here an scf.if whose branches allocate.
// The buffer must dominate both branches, so it is created right before the
// scf.if; the branches share bytes (only one runs).
// CHECK-LABEL: func.func @if_as_scope
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT: scf.if
// CHECK: memref.view %[[BUF]]{{.*}} to memref<16xf32
// CHECK: } else {
// CHECK: memref.view %[[BUF]]{{.*}} to memref<32xf32
module attributes {transform.with_named_sequence} {
  func.func @if_as_scope(%out: memref<16xf32>, %cond: i1) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    // expected-remark @below {{merged 2 of 2 on-chip allocations: sum 192 B, peak 128 B (buffer 128 B, align 16), lower bound 128 B}}
    scf.if %cond {
      %t = memref.alloc() : memref<16xf32, #ws>
      memref.store %f, %t[%c0] : memref<16xf32, #ws>
      %v = memref.load %t[%c0] : memref<16xf32, #ws>
      memref.store %v, %out[%c0] : memref<16xf32>
    } else {
      %e = memref.alloc() : memref<32xf32, #ws>
      memref.store %f, %e[%c0] : memref<32xf32, #ws>
      %v = memref.load %e[%c0] : memref<32xf32, #ws>
      memref.store %v, %out[%c0] : memref<16xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.if"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// CPU target (x86-avx512): no on-chip memory space, so allocations in the
// default memory space are packed (stack/heap reuse), 64 B alignment, no
// barriers; freed originals -> the merged buffer is freed at the end.
// CHECK-LABEL: func.func @cpu
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// CHECK-NOT: gpu.barrier
// CHECK: memref.dealloc %[[BUF]] : memref<256xi8>
// CHECK-NEXT: return
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{merged 2 of 2 on-chip allocations: sum 384 B, peak 256 B (buffer 256 B, align 64), lower bound 256 B}}
  func.func @cpu(%out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<64xf32>
    memref.store %f, %a[%c0] : memref<64xf32>
    %x = memref.load %a[%c0] : memref<64xf32>
    memref.dealloc %a : memref<64xf32>
    %b = memref.alloc() : memref<32xf32>
    memref.store %x, %b[%c0] : memref<32xf32>
    %y = memref.load %b[%c0] : memref<32xf32>
    memref.store %y, %out[%c0] : memref<64xf32>
    memref.dealloc %b : memref<32xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "x86-avx512", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// A barrier at the end of a loop body guards uses after the loop when every
// use of the old buffer is inside the loop before it (@tail_barrier: %t is
// reused, no barrier added). When the old buffer is also used before the
// loop (@tail_barrier_not_enough: a zero-trip loop would leave that use
// unguarded), a barrier is inserted before the new buffer's first use.
// CHECK-LABEL: func.func @tail_barrier
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NEXT: }
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[N:.+]] = memref.view
// CHECK-NEXT: memref.store %{{.*}}, %[[N]]
// CHECK-LABEL: func.func @tail_barrier_not_enough
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: }
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[N:.+]] = memref.view
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[N]]
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@0; packing first-fit/size (optimal); barriers: 0 inserted, 1 reused}}
  func.func @tail_barrier(%out: memref<16xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    %t = memref.alloc() : memref<16xf32, #ws>
    scf.for %i = %c0 to %n step %c1 {
      memref.store %f, %t[%c0] : memref<16xf32, #ws>
      gpu.barrier
      %v = memref.load %t[%c0] : memref<16xf32, #ws>
      memref.store %v, %out[%i] : memref<16xf32>
      gpu.barrier
    }
    %next = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %next[%c0] : memref<16xf32, #ws>
    return
  }
  // expected-remark @below {{offsets: #0@0 #1@0; packing first-fit/size (optimal); barriers: 1 inserted, 0 reused}}
  func.func @tail_barrier_not_enough(%out: memref<16xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    %t = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %t[%c0] : memref<16xf32, #ws>
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %t[%c0] : memref<16xf32, #ws>
      memref.store %v, %out[%i] : memref<16xf32>
      gpu.barrier
    }
    %next = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %next[%c0] : memref<16xf32, #ws>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Region yields: %r is %a or %b through scf.if; reading %r late keeps both
// live, so %mid (used in between) shares bytes with neither. %c, read only
// before %mid, gives its bytes to %mid.
// CHECK-LABEL: func.func @region_yield
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<192xi8, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@64 #2@128 #3@128}}
  func.func @region_yield(%out: memref<16xf32>, %cond: i1) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<16xf32, #ws>
    %b = memref.alloc() : memref<16xf32, #ws>
    %c = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %a[%c0] : memref<16xf32, #ws>
    memref.store %f, %b[%c0] : memref<16xf32, #ws>
    memref.store %f, %c[%c0] : memref<16xf32, #ws>
    %x = memref.load %c[%c0] : memref<16xf32, #ws>
    %r = scf.if %cond -> (memref<16xf32, #ws>) {
      scf.yield %a : memref<16xf32, #ws>
    } else {
      scf.yield %b : memref<16xf32, #ws>
    }
    %mid = memref.alloc() : memref<16xf32, #ws>
    memref.store %x, %mid[%c0] : memref<16xf32, #ws>
    %m = memref.load %mid[%c0] : memref<16xf32, #ws>
    %v = memref.load %r[%c0] : memref<16xf32, #ws>
    %s = arith.addf %v, %m : f32
    memref.store %s, %out[%c0] : memref<16xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// A wait with numGroups = 1 may leave the copy's group running: %dst stays
// live to the end of the scope and %late gets bytes of its own.
// CHECK-LABEL: func.func @async_partial_wait
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<1024xi8, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@512;}}
  func.func @async_partial_wait(%g: memref<128xf32>, %out: memref<128xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %dst = memref.alloc() : memref<128xf32, #ws>
    %t = nvgpu.device_async_copy %g[%c0], %dst[%c0], 4 : memref<128xf32> to memref<128xf32, #ws>
    %grp = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %grp {numGroups = 1 : i32}
    %late = memref.alloc() : memref<128xf32, #ws>
    memref.store %f, %late[%c0] : memref<128xf32, #ws>
    %l = memref.load %late[%c0] : memref<128xf32, #ws>
    memref.store %l, %out[%c0] : memref<128xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// An async copy whose token is never waited for pins its destination.
// CHECK-LABEL: func.func @async_never_waited
// CHECK: memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{pinned #0 memref<128xf32, #gpu.address_space<workgroup>>: async copy without a matching 'nvgpu.device_async_wait'}}
  func.func @async_never_waited(%g: memref<128xf32>) {
    %c0 = arith.constant 0 : index
    %dst = memref.alloc() : memref<128xf32, #ws>
    %t = nvgpu.device_async_copy %g[%c0], %dst[%c0], 4 : memref<128xf32> to memref<128xf32, #ws>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
