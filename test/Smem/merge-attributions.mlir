// transform.smem.merge_allocations on gpu.func workgroup attributions: they
// are buffers of the kernel like workgroup memref.alloc ops (live from their
// first to their last use), and when any of them merges, the merged buffer
// is a new byte attribution (with `llvm.align`, which the GPU-to-LLVM
// lowering honours) viewed at each buffer's offset; merged attributions are
// removed, private attributions and other spaces are left alone. The result
// handle then holds the gpu.func (an attribution is not an op).
// (integration_test/Smem/ptxas-smem.mlir checks the bytes ptxas reports for it.)
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s

#ws = #gpu.address_space<workgroup>

// Chain of attributions plus a body allocation: one attribution of the peak
// (1536 B, not the 2816 B sum), views at the entry, the alloc viewed too,
// barriers where bytes are reused, the private attribution kept.
// CHECK-LABEL: gpu.func @chain
// CHECK-SAME: workgroup(%[[BUF:.+]] : memref<1536xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: private(%[[P:.+]] : memref<4xf32, #gpu.address_space<private>>)
// CHECK-DAG: %[[A:.+]] = memref.view %[[BUF]][%{{.+}}][] : memref<1536xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[B:.+]] = memref.view %[[BUF]][%{{.+}}][] : memref<1536xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.load %[[A]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
// CHECK: %[[D:.+]] = memref.view %[[BUF]][%{{.+}}][] : {{.*}} to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load %[[B]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[D]]
// CHECK: memref.store %{{.*}}, %[[P]]
// CHECK-NOT: memref.alloc
// CHECK: gpu.return
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    // expected-remark @below {{merged 4 of 4 on-chip allocations: sum 2816 B, peak 1536 B (buffer 1536 B, align 16), lower bound 1536 B}}
    // expected-remark @below {{merged buffer handle}}
    gpu.func @chain(%out: memref<256xf32>)
        workgroup(%a : memref<256xf32, #ws>, %b : memref<128xf32, #ws>, %c : memref<256xf32, #ws>)
        private(%p : memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      memref.store %f, %a[%tid] : memref<256xf32, #ws>
      memref.store %f, %b[%tid] : memref<128xf32, #ws>
      %x = memref.load %a[%c0] : memref<256xf32, #ws>
      memref.store %x, %c[%tid] : memref<256xf32, #ws>
      %d = memref.alloc() : memref<64xf32, #ws>
      %y = memref.load %b[%c0] : memref<128xf32, #ws>
      memref.store %y, %d[%tid] : memref<64xf32, #ws>
      %z = memref.load %c[%c0] : memref<256xf32, #ws>
      %w = memref.load %d[%c0] : memref<64xf32, #ws>
      %s = arith.addf %z, %w : f32
      memref.store %s, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      memref.store %s, %out[%tid] : memref<256xf32>
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %m, "merged buffer handle" : !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// An attribution's own `llvm.align` counts (64 B here), a strided one is
// pinned (kept as an attribution, with its attribute dictionary), and the
// attribute dictionaries of the remaining attributions stay in step.
// CHECK-LABEL: gpu.func @aligned_and_pinned
// CHECK-SAME: workgroup(%[[S:.+]] : memref<8xf32, strided<[2]>, #gpu.address_space<workgroup>> {test.keep}, %[[BUF:.+]] : memref<128xi8, #gpu.address_space<workgroup>> {llvm.align = 64 : i64})
// CHECK: memref.view %[[BUF]]
// CHECK: memref.store %{{.*}}, %[[S]]
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    // expected-remark @below {{offsets: #0@0 #2@64; packing first-fit/size (optimal); pinned #1 memref<8xf32, strided<[2]>, #gpu.address_space<workgroup>>: non-identity layout}}
    gpu.func @aligned_and_pinned(%out: memref<16xf32>)
        workgroup(%a : memref<4xf32, #ws> {llvm.align = 64 : i64},
                  %s : memref<8xf32, strided<[2]>, #ws> {test.keep},
                  %b : memref<16xf32, #ws>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %a[%c0] : memref<4xf32, #ws>
      memref.store %f, %b[%c0] : memref<16xf32, #ws>
      %x = memref.load %a[%c0] : memref<4xf32, #ws>
      %y = memref.load %b[%c0] : memref<16xf32, #ws>
      memref.store %x, %s[%c0] : memref<8xf32, strided<[2]>, #ws>
      %s2 = arith.addf %x, %y : f32
      memref.store %s2, %out[%c0] : memref<16xf32>
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Only body allocations in the on-chip space: the merged buffer stays a
// memref.alloc and the (unrelated-space) attribution is untouched. For the
// NPU target, workgroup attributions are not its on-chip space at all.
// CHECK-LABEL: gpu.func @npu_attr
// CHECK-SAME: workgroup(%{{.+}} : memref<16xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.alloc() {alignment = 32 : i64} : memref<64xi8, "ub">
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    // expected-remark @below {{merged 2 of 2 on-chip allocations: sum 96 B, peak 64 B}}
    gpu.func @npu_attr(%out: memref<16xf32>) workgroup(%w : memref<16xf32, #ws>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %w[%c0] : memref<16xf32, #ws>
      %a = memref.alloc() : memref<16xf32, "ub">
      memref.store %f, %a[%c0] : memref<16xf32, "ub">
      %x = memref.load %a[%c0] : memref<16xf32, "ub">
      %b = memref.alloc() : memref<4xf32, "ub">
      memref.store %x, %b[%c0] : memref<4xf32, "ub">
      %y = memref.load %b[%c0] : memref<4xf32, "ub">
      memref.store %y, %out[%c0] : memref<16xf32>
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "ascend-910b", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

#ws = #gpu.address_space<workgroup>

// Workgroup attributions of a gpu.launch are not merged (a launch
// attribution has no attribute to carry the byte buffer's alignment); the
// remark says so, and the body allocation is still packed.
// CHECK-LABEL: func.func @launch_attr
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%{{.+}} : memref<16xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<64xi8, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  func.func @launch_attr(%out: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    // expected-remark @below {{1 workgroup attribution(s) of the gpu.launch not merged}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
               workgroup(%w : memref<16xf32, #ws>) {
      memref.store %f, %w[%c0] : memref<16xf32, #ws>
      %a = memref.alloc() : memref<16xf32, #ws>
      memref.store %f, %a[%c0] : memref<16xf32, #ws>
      %x = memref.load %a[%c0] : memref<16xf32, #ws>
      memref.store %x, %out[%c0] : memref<16xf32>
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
