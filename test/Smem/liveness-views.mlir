// Lifetimes run from the first to the last access through any alias, not
// from the op that makes a view: distributed GPU code creates its views up
// front. The first two payloads have the shape of IREE's shared-memory reuse
// tests (gpu-reuse-shared-memory-allocs: `@view_like_ops`, which IREE packs
// to 512 B, and `@shared_memory_disjoint_subview`, 1536 B); the third is
// the nested-subview case IREE leaves unmerged (1664 B). The lower bound
// follows the same lifetimes, so "optimal" is meant for them.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s

// Six buffers of 512 B, each viewed once up front (subview, expand_shape,
// collapse_shape, view, reinterpret_cast, cast) and stored to once through
// its view, one after the other: never two live at once, so all share the
// same 512 B, with a barrier before each reuse.
// CHECK-LABEL: func.func @six_views_up_front
// CHECK: %[[BUF:.+]] = memref.alloc() {alignment = 16 : i64} : memref<512xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK-COUNT-6: memref.view %[[BUF]][%c0{{.*}}][]
// CHECK: memref.subview
// CHECK: memref.expand_shape
// CHECK: memref.collapse_shape
// CHECK: memref.view
// CHECK: memref.reinterpret_cast
// CHECK: memref.cast
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
// CHECK-NEXT: return
#ws = #gpu.address_space<workgroup>
module attributes {transform.with_named_sequence} {
  // expected-remark-re @below {{merged 6 of 6 on-chip allocations: sum 3072 B, peak 512 B (buffer 512 B, align 16), lower bound 512 B {{.*}}; offsets: #0@0 #1@0 #2@0 #3@0 #4@0 #5@0; packing first-fit/size (optimal); barriers: 5 inserted, 0 reused}}
  func.func @six_views_up_front() {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %byte = arith.constant 7 : i8
    %a = memref.alloc() : memref<128xf32, #ws>
    %b = memref.alloc() : memref<128xf32, #ws>
    %c = memref.alloc() : memref<4x32xf32, #ws>
    %d = memref.alloc() : memref<512xi8, #ws>
    %e = memref.alloc() : memref<128xf32, #ws>
    %f = memref.alloc() : memref<128xf32, #ws>
    %a_sub = memref.subview %a[64] [32] [1] : memref<128xf32, #ws> to memref<32xf32, strided<[1], offset: 64>, #ws>
    %b_exp = memref.expand_shape %b [[0, 1]] output_shape [8, 16] : memref<128xf32, #ws> into memref<8x16xf32, #ws>
    %c_col = memref.collapse_shape %c [[0, 1]] : memref<4x32xf32, #ws> into memref<128xf32, #ws>
    %d_view = memref.view %d[%c0][] : memref<512xi8, #ws> to memref<128xf32, #ws>
    %e_rc = memref.reinterpret_cast %e to offset: [0], sizes: [2, 64], strides: [64, 1] : memref<128xf32, #ws> to memref<2x64xf32, #ws>
    %f_cast = memref.cast %f : memref<128xf32, #ws> to memref<?xf32, #ws>
    memref.store %zero, %a_sub[%c0] : memref<32xf32, strided<[1], offset: 64>, #ws>
    memref.store %zero, %b_exp[%c0, %c0] : memref<8x16xf32, #ws>
    memref.store %zero, %c_col[%c0] : memref<128xf32, #ws>
    memref.store %zero, %d_view[%c0] : memref<128xf32, #ws>
    memref.store %zero, %e_rc[%c0, %c0] : memref<2x64xf32, #ws>
    memref.store %zero, %f_cast[%c0] : memref<?xf32, #ws>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Subviews made up front; A and B are written in a loop, C after it: C
// reuses A's bytes (1536 B, the lower bound), with one barrier after the
// loop. Counting from the subviews, C would meet A and B (1664 B).
// CHECK-LABEL: func.func @disjoint_subviews_up_front
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<1536xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK: scf.for
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
#ws = #gpu.address_space<workgroup>
module attributes {transform.with_named_sequence} {
  // expected-remark-re @below {{merged 3 of 3 on-chip allocations: sum 1664 B, peak 1536 B (buffer 1536 B, align 16), lower bound 1536 B {{.*}}; offsets: #0@1024 #1@0 #2@0; packing first-fit/size (optimal); barriers: 1 inserted, 0 reused}}
  func.func @disjoint_subviews_up_front() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<128xf32, #ws>
    %b = memref.alloc() : memref<256xf32, #ws>
    %c = memref.alloc() : memref<32xf32, #ws>
    %a_sub = memref.subview %a[0] [64] [1] : memref<128xf32, #ws> to memref<64xf32, #ws>
    %b_sub = memref.subview %b[0] [64] [1] : memref<256xf32, #ws> to memref<64xf32, #ws>
    %c_sub = memref.subview %c[0] [16] [1] : memref<32xf32, #ws> to memref<16xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      memref.store %zero, %a_sub[%i] : memref<64xf32, #ws>
      memref.store %zero, %b_sub[%i] : memref<64xf32, #ws>
    }
    memref.store %zero, %c_sub[%c0] : memref<16xf32, #ws>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A subview of a subview of B made up front and used last: B lives to the
// end, A only in the loop, so C still takes A's bytes (1536 B).
// CHECK-LABEL: func.func @nested_subview_used_last
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<1536xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
#ws = #gpu.address_space<workgroup>
module attributes {transform.with_named_sequence} {
  // expected-remark-re @below {{merged 3 of 3 on-chip allocations: sum 1664 B, peak 1536 B (buffer 1536 B, align 16), lower bound 1536 B {{.*}}; offsets: #0@1024 #1@0 #2@1024; packing first-fit/size (optimal); barriers: 1 inserted, 0 reused}}
  func.func @nested_subview_used_last() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<128xf32, #ws>
    %b = memref.alloc() : memref<256xf32, #ws>
    %c = memref.alloc() : memref<32xf32, #ws>
    %a_sub = memref.subview %a[0] [64] [1] : memref<128xf32, #ws> to memref<64xf32, #ws>
    %b_sub = memref.subview %b[0] [64] [1] : memref<256xf32, #ws> to memref<64xf32, #ws>
    %b_sub2 = memref.subview %b_sub[0] [32] [1] : memref<64xf32, #ws> to memref<32xf32, #ws>
    %c_sub = memref.subview %c[0] [16] [1] : memref<32xf32, #ws> to memref<16xf32, #ws>
    scf.for %i = %c0 to %c64 step %c1 {
      memref.store %zero, %a_sub[%i] : memref<64xf32, #ws>
      memref.store %zero, %b_sub[%i] : memref<64xf32, #ws>
    }
    memref.store %zero, %c_sub[%c0] : memref<16xf32, #ws>
    memref.store %zero, %b_sub2[%c0] : memref<32xf32, #ws>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Views and size queries are no access: a buffer that is only viewed and
// measured is live at its allocation alone and shares bytes with the
// buffer used after it; the view stays valid (it touches no byte).
// CHECK-LABEL: func.func @viewed_never_accessed
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<256xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
#ws = #gpu.address_space<workgroup>
module attributes {transform.with_named_sequence} {
  // expected-remark @below {{merged 2 of 2 on-chip allocations: sum 512 B, peak 256 B (buffer 256 B, align 16), lower bound 256 B}}
  func.func @viewed_never_accessed(%out: memref<1xindex>) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %a = memref.alloc() : memref<64xf32, #ws>
    %b = memref.alloc() : memref<64xf32, #ws>
    %a_sub = memref.subview %a[0] [16] [1] : memref<64xf32, #ws> to memref<16xf32, #ws>
    %a_cast = memref.cast %a_sub : memref<16xf32, #ws> to memref<?xf32, #ws>
    %n = memref.dim %a_cast, %c0 : memref<?xf32, #ws>
    memref.store %zero, %b[%c0] : memref<64xf32, #ws>
    memref.store %n, %out[%c0] : memref<1xindex>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
