// transform.smem.merge_allocations on GPU targets: a gpu.barrier must be
// reached by every thread of the workgroup, so bytes are reused only where a
// barrier point outside thread-divergent control flow separates the two
// buffers. A use inside an scf.if / scf.for / scf.while whose condition or
// bounds may differ between threads (gpu.thread_id, loads, ...) counts as a
// use of the whole op; conditions built from constants, block ids, block
// sizes and function arguments are uniform (Analysis/ThreadUniformity.h).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null \
// RUN: | FileCheck %s --check-prefix=REMARK

#ws = #gpu.address_space<workgroup>

// Both buffers live inside an scf.if on the thread id: no barrier inside it
// is safe (threads that skip the branch would never reach it), so %a and %b
// must not share bytes and no barrier is inserted at all.
// CHECK-LABEL: func.func @divergent_if_apart
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: return
// REMARK-LABEL: remark: merged 2 of 2 on-chip allocations: sum 128 B, peak 128 B
// REMARK-SAME: #0 live over all of 'scf.if' at {{[^;]*}}: its condition may differ between threads, so no barrier inside it is safe
// REMARK-SAME: #1 live over all of 'scf.if'
// REMARK-SAME: barriers: 0 inserted, 0 reused
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@64; packing first-fit/size (optimal); #0 live over all of 'scf.if'}}
  func.func @divergent_if_apart(%out: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lt = arith.cmpi ult, %tid, %c16 : index
    scf.if %lt {
      %a = memref.alloc() : memref<16xf32, #ws>
      memref.store %f, %a[%tid] : memref<16xf32, #ws>
      %x = memref.load %a[%c0] : memref<16xf32, #ws>
      %b = memref.alloc() : memref<16xf32, #ws>
      memref.store %x, %b[%tid] : memref<16xf32, #ws>
      %y = memref.load %b[%c0] : memref<16xf32, #ws>
      memref.store %y, %out[%tid] : memref<16xf32>
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

// %a is used before a divergent scf.if, %b only inside it: they share bytes,
// and the barrier is hoisted to the point every thread reaches, right before
// the scf.if (not before %b's first use inside the branch). The else branch
// has its own buffer %c: both branches may run at once in different threads,
// so %b and %c must not share bytes either.
// CHECK-LABEL: func.func @divergent_if_hoist
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK: %[[A:.+]] = memref.view %[[BUF]][%{{.*}}][] : {{.*}} to memref<16xf32
// CHECK: memref.load %[[A]]
// CHECK-NOT: memref.view
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: } else {
// CHECK-NOT: gpu.barrier
// CHECK: return
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@0 #2@64; packing first-fit/size (optimal); #1 live over all of 'scf.if'}}
  func.func @divergent_if_hoist(%out: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %a = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %a[%tid] : memref<16xf32, #ws>
    %x = memref.load %a[%c0] : memref<16xf32, #ws>
    %lt = arith.cmpi ult, %tid, %c16 : index
    scf.if %lt {
      %b = memref.alloc() : memref<16xf32, #ws>
      memref.store %x, %b[%tid] : memref<16xf32, #ws>
      %y = memref.load %b[%c0] : memref<16xf32, #ws>
      memref.store %y, %out[%tid] : memref<16xf32>
    } else {
      %c = memref.alloc() : memref<16xf32, #ws>
      memref.store %x, %c[%c0] : memref<16xf32, #ws>
      %y = memref.load %c[%c0] : memref<16xf32, #ws>
      memref.store %y, %out[%c0] : memref<16xf32>
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

// A condition built only from block ids, block sizes, constants and function
// arguments is uniform: all threads take the same branch, so the barrier
// between %a and %b goes inside the branch, and the two branches share.
// CHECK-LABEL: func.func @uniform_if
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<64xi8, #gpu.address_space<workgroup>>
// CHECK: scf.if
// CHECK: memref.load
// CHECK: gpu.barrier
// CHECK-NEXT: memref.store
// CHECK: } else {
// CHECK-NOT: gpu.barrier
// CHECK: return
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@0 #2@0; packing first-fit/size (optimal); barriers: 1 inserted, 0 reused}}
  func.func @uniform_if(%out: memref<16xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %m = arith.muli %bid, %bdim : index
    %r = arith.remui %m, %c2 : index
    %k = arith.addi %r, %n : index
    %even = arith.cmpi eq, %k, %c0 : index
    scf.if %even {
      %a = memref.alloc() : memref<16xf32, #ws>
      memref.store %f, %a[%tid] : memref<16xf32, #ws>
      %x = memref.load %a[%c0] : memref<16xf32, #ws>
      %b = memref.alloc() : memref<16xf32, #ws>
      memref.store %x, %b[%tid] : memref<16xf32, #ws>
      %y = memref.load %b[%c0] : memref<16xf32, #ws>
      memref.store %y, %out[%tid] : memref<16xf32>
    } else {
      %c = memref.alloc() : memref<16xf32, #ws>
      memref.store %f, %c[%tid] : memref<16xf32, #ws>
      %y = memref.load %c[%c0] : memref<16xf32, #ws>
      memref.store %y, %out[%tid] : memref<16xf32>
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

// Loops: an scf.for with uniform bounds (a function argument, gpu.block_dim)
// runs alike in all threads, so its loop-local buffers share with barriers
// inside the body (and across the back edge). An scf.for whose upper bound
// is the thread id may run a different number of times per thread: its
// buffers %p and %q stay apart, and %after (used after it) reuses %q's
// bytes behind a barrier right after the loop.
// CHECK-LABEL: func.func @loops
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: }
// CHECK-NEXT: %{{.*}} = arith.constant
// CHECK-NEXT: memref.view
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
// REMARK-LABEL: remark: merged 5 of 5 on-chip allocations
// REMARK-SAME: #2 live over all of 'scf.for' at {{[^;]*}}: its bounds or step may differ between threads, so no barrier inside it is safe
// REMARK-SAME: barriers: 4 inserted, 0 reused
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@0 #2@0 #3@64 #4@0; packing}}
  func.func @loops(%out: memref<64xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %bdim = gpu.block_dim x
    %ub = arith.minui %n, %bdim : index
    scf.for %i = %c0 to %ub step %c1 {
      %t1 = memref.alloc() : memref<16xf32, #ws>
      memref.store %f, %t1[%tid] : memref<16xf32, #ws>
      %v = memref.load %t1[%c0] : memref<16xf32, #ws>
      %t2 = memref.alloc() : memref<16xf32, #ws>
      memref.store %v, %t2[%tid] : memref<16xf32, #ws>
      %w = memref.load %t2[%c0] : memref<16xf32, #ws>
      memref.store %w, %out[%i] : memref<64xf32>
    }
    scf.for %i = %c0 to %tid step %c1 {
      %p = memref.alloc() : memref<16xf32, #ws>
      memref.store %f, %p[%i] : memref<16xf32, #ws>
      %v = memref.load %p[%c0] : memref<16xf32, #ws>
      %q = memref.alloc() : memref<16xf32, #ws>
      memref.store %v, %q[%i] : memref<16xf32, #ws>
      %w = memref.load %q[%c0] : memref<16xf32, #ws>
      memref.store %w, %out[%i] : memref<64xf32>
    }
    %after = memref.alloc() : memref<16xf32, #ws>
    memref.store %f, %after[%tid] : memref<16xf32, #ws>
    %z = memref.load %after[%c0] : memref<16xf32, #ws>
    memref.store %z, %out[%tid] : memref<64xf32>
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

// Loop-carried values: %flag starts uniform but is replaced by a value
// derived from the thread id in the loop, so the scf.if on it diverges from
// the second iteration on (the fixpoint sees through iter_args). A while
// loop whose exit test depends on the thread id diverges too. The while
// loop's buffer reuses %a's bytes behind a barrier between the two loops,
// the only point all threads reach.
// CHECK-LABEL: func.func @carried
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.while
// CHECK-NOT: gpu.barrier
// CHECK: return
// REMARK-LABEL: remark: merged 3 of 3 on-chip allocations
// REMARK-SAME: #0 live over all of 'scf.if' at {{[^;]*}}: its condition may differ between threads
// REMARK-SAME: #2 live over all of 'scf.while' at {{[^;]*}}: its exit condition may differ between threads
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@64 #2@0}}
  func.func @carried(%out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %true = arith.constant true
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%flag = %true) -> (i1) {
      scf.if %flag {
        %a = memref.alloc() : memref<16xf32, #ws>
        memref.store %f, %a[%i] : memref<16xf32, #ws>
        %v = memref.load %a[%c0] : memref<16xf32, #ws>
        %b = memref.alloc() : memref<16xf32, #ws>
        memref.store %v, %b[%i] : memref<16xf32, #ws>
        %w = memref.load %b[%c0] : memref<16xf32, #ws>
        memref.store %w, %out[%i] : memref<64xf32>
      }
      %next = arith.cmpi ult, %i, %tid : index
      scf.yield %next : i1
    }
    %w = scf.while (%j = %c0) : (index) -> index {
      %go = arith.cmpi ult, %j, %tid : index
      scf.condition(%go) %j : index
    } do {
    ^bb0(%j: index):
      %t = memref.alloc() : memref<16xf32, #ws>
      memref.store %f, %t[%j] : memref<16xf32, #ws>
      %v = memref.load %t[%c0] : memref<16xf32, #ws>
      memref.store %v, %out[%j] : memref<64xf32>
      %jn = arith.addi %j, %c1 : index
      scf.yield %jn : index
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

// gpu.launch: the body's thread ids diverge, its block ids do not. Inside a
// branch on the block id the two buffers share behind a barrier there; in a
// branch on the thread id they stay apart.
// CHECK-LABEL: func.func @launch
// CHECK: gpu.launch
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK: scf.if
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
module attributes {transform.with_named_sequence} {
  func.func @launch(%out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant 1.0 : f32
    // expected-remark @below {{offsets: #0@0 #1@0 #2@0 #3@64; packing first-fit/size (optimal); #2 live over all of 'scf.if'}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %be = arith.cmpi eq, %bx, %c0 : index
      scf.if %be {
        %a = memref.alloc() : memref<16xf32, #ws>
        memref.store %f, %a[%tx] : memref<16xf32, #ws>
        %v = memref.load %a[%c0] : memref<16xf32, #ws>
        %b = memref.alloc() : memref<16xf32, #ws>
        memref.store %v, %b[%tx] : memref<16xf32, #ws>
        %w = memref.load %b[%c0] : memref<16xf32, #ws>
        memref.store %w, %out[%tx] : memref<16xf32>
      }
      %te = arith.cmpi eq, %tx, %c0 : index
      scf.if %te {
        %p = memref.alloc() : memref<16xf32, #ws>
        memref.store %f, %p[%c0] : memref<16xf32, #ws>
        %v = memref.load %p[%c0] : memref<16xf32, #ws>
        %q = memref.alloc() : memref<16xf32, #ws>
        memref.store %v, %q[%c0] : memref<16xf32, #ws>
        %w = memref.load %q[%c0] : memref<16xf32, #ws>
        memref.store %w, %out[%c0] : memref<16xf32>
      }
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// The scope (an scf.for) itself sits in a divergent branch: no point in it
// is reached by all threads, so nothing shares bytes and no barrier is
// inserted.
// CHECK-LABEL: func.func @divergent_scope
// CHECK: scf.if
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.alloc() {alignment = 16 : i64} : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: return
// REMARK-LABEL: remark: merged 2 of 2
// REMARK-SAME: #0 live over all of 'scf.for' at {{[^;]*}}: the scope may run in only some threads, so no barrier inside it is safe
module attributes {transform.with_named_sequence} {
  func.func @divergent_scope(%out: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %f = arith.constant 1.0 : f32
    %tid = gpu.thread_id x
    %lt = arith.cmpi ult, %tid, %c16 : index
    scf.if %lt {
      // expected-remark @below {{offsets: #0@0 #1@64}}
      scf.for %i = %c0 to %c2 step %c1 {
        %a = memref.alloc() : memref<16xf32, #ws>
        memref.store %f, %a[%tid] : memref<16xf32, #ws>
        %x = memref.load %a[%c0] : memref<16xf32, #ws>
        %b = memref.alloc() : memref<16xf32, #ws>
        memref.store %x, %b[%tid] : memref<16xf32, #ws>
        %y = memref.load %b[%c0] : memref<16xf32, #ws>
        memref.store %y, %out[%tid] : memref<16xf32>
      }
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// NPU targets insert no gpu.barrier, so divergence does not constrain them:
// the two buffers in the branch share bytes, and the remark has no
// divergence note.
// CHECK-LABEL: func.func @npu_branch
// CHECK: memref.alloc() {alignment = 32 : i64} : memref<64xi8, "ub">
// REMARK-LABEL: remark: merged 2 of 2
// REMARK-NOT: live over all
// REMARK-SAME: (optimal){{$}}
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{offsets: #0@0 #1@0; packing first-fit/size (optimal)}}
  func.func @npu_branch(%out: memref<16xf32>, %t: memref<1xindex>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %f = arith.constant 1.0 : f32
    %tid = memref.load %t[%c0] : memref<1xindex>
    %lt = arith.cmpi ult, %tid, %c16 : index
    scf.if %lt {
      %a = memref.alloc() : memref<16xf32, "ub">
      memref.store %f, %a[%c0] : memref<16xf32, "ub">
      %x = memref.load %a[%c0] : memref<16xf32, "ub">
      %b = memref.alloc() : memref<16xf32, "ub">
      memref.store %x, %b[%c0] : memref<16xf32, "ub">
      %y = memref.load %b[%c0] : memref<16xf32, "ub">
      memref.store %y, %out[%c0] : memref<16xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "ascend-910b", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
