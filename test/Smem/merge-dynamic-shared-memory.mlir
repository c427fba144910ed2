// merge_allocations { dynamic_shared_memory }: the merged buffer is the
// gpu.launch's dynamic shared memory (views of gpu.dynamic_shared_memory at
// the packed offsets) and the launch's dynamic_shared_memory_size the peak,
// instead of a workgroup memref.alloc (capped at 48 KiB statically, and a
// malloc when a launch body keeps it). Refusals leave the payload unchanged.
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics | FileCheck %s

// Two 64-float buffers with disjoint lifetimes: 256 bytes at offset 0 for
// both; the launch asks for 256 bytes.
// CHECK-LABEL: func.func @launch
// CHECK: %[[BYTES:.+]] = arith.constant 256 : i32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK-NEXT: %[[DYN:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK: memref.view %[[DYN]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK: memref.view %[[DYN]]
// CHECK-NOT: memref.alloc
// CHECK: gpu.terminator
module attributes {transform.with_named_sequence} {
  func.func @launch(%out: memref<64xf32>) {
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
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %s { target = "nvidia-a100", explain, dynamic_shared_memory } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A launch that already uses dynamic shared memory: its layout is someone
// else's; refused.
module attributes {transform.with_named_sequence} {
  func.func @already(%out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %bytes = arith.constant 1024 : i32
    // expected-note @below {{'gpu.launch' here}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %bytes {
      %f = arith.constant 2.0 : f32
      %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %f, %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %x = memref.load %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{dynamic_shared_memory: the gpu.launch already uses dynamic shared memory (its layout is not ours to extend)}}
    %m = transform.smem.merge_allocations %s { target = "nvidia-a100", dynamic_shared_memory } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Workgroup attributions of a gpu.func: the dynamic size would be set where
// the kernel is launched, which this op does not see; refused.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    // expected-note @below {{'gpu.func' here}}
    gpu.func @k(%out: memref<64xf32>) workgroup(%a : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %f = arith.constant 2.0 : f32
      memref.store %f, %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %x = memref.load %a[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{dynamic_shared_memory: a workgroup attribution of a gpu.func is merged; its size is set where the kernel is launched, not here (use a gpu.launch)}}
    %m = transform.smem.merge_allocations %s { target = "nvidia-a100", dynamic_shared_memory } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A CPU target has no dynamic shared memory; refused.
module attributes {transform.with_named_sequence} {
  // expected-note @below {{'func.func' here}}
  func.func @cpu(%out: memref<64xf32>) {
    %f = arith.constant 2.0 : f32
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<64xf32>
    memref.store %f, %a[%c0] : memref<64xf32>
    %x = memref.load %a[%c0] : memref<64xf32>
    memref.store %x, %out[%c0] : memref<64xf32>
    memref.dealloc %a : memref<64xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{dynamic_shared_memory needs a GPU target (spec 'x86-avx512' is not one)}}
    %m = transform.smem.merge_allocations %s { target = "x86-avx512", dynamic_shared_memory } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
