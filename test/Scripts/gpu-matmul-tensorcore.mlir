// transform-scripts/gpu-matmul-tensorcore.mlir @gpu_matmul_tensorcore_mma_sync
// on C = 0; C += A x B (f16 x f16 -> f32, 256x256x128): a 2x2 grid of
// 128-thread blocks, 3 shared buffers per tile (multi-buffered workgroup
// allocs), a prologue of 3 async groups, and per K step one wait for all
// but 2 groups, 64 mma.sync m16n8k16 fed by 24 ldmatrix, 8 16-byte async
// copies (bypassing L1) in one group. The PTX and ptxas figures are checked
// in integration_test/Scripts/gpu-matmul-tensorcore-ptxas.test.
//
// RUN: hwsched-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter=entry-point=gpu_matmul_tensorcore_mma_sync -o %t
// RUN: FileCheck %s < %t
// RUN: grep -c "nvgpu.mma.sync" %t | FileCheck %s --check-prefix=MMA
// RUN: grep -c "nvgpu.ldmatrix" %t | FileCheck %s --check-prefix=LDMATRIX
// RUN: grep -c "nvgpu.device_async_copy.*bypassL1" %t | FileCheck %s --check-prefix=COPIES
// The swizzled variant: the same kernel, every async copy's and ldmatrix's
// shared-memory column XORed (both sides of each buffer alike).
// RUN: hwsched-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter=entry-point=gpu_matmul_tensorcore_mma_sync_swizzled -o %t.sw
// RUN: FileCheck %s < %t.sw
// RUN: grep -c "nvgpu.mma.sync" %t.sw | FileCheck %s --check-prefix=MMA
// RUN: grep -c "arith.xori" %t.sw | FileCheck %s --check-prefix=XOR
// RUN: not grep -q "arith.xori" %t
// The variant pipelined by our own schedule_stages (its stage count from
// the target: 3 on the A100, where a 4th reaches no shorter interval; 3
// buffers per tile): each K step waits (one group left in flight), passes
// one barrier, issues the next step's 8 copies and reads this step's tiles;
// merge_allocations lays the tiles out in the launch's dynamic shared memory
// (48 KiB: the launch's dynamic size).
// RUN: hwsched-opt %s --hwsched-target=nvidia-a100 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/gpu-matmul-tensorcore.mlir \
// RUN:   --transform-interpreter=entry-point=gpu_matmul_tensorcore_mma_sync_scheduled -o %t.sch
// RUN: FileCheck %s --check-prefix=SCHED < %t.sch
// RUN: sed -n '/scf.for/,/scf.yield/p' %t.sch | grep -c "gpu.barrier" | FileCheck %s --check-prefix=ONE
// RUN: sed -n '/scf.for/,/scf.yield/p' %t.sch | grep -c "nvgpu.mma.sync" | FileCheck %s --check-prefix=MMA
// SCHED: %[[BYTES:.+]] = arith.constant 49152 : i32
// SCHED: gpu.launch {{.*}} dynamic_shared_memory_size %[[BYTES]]
// SCHED-NEXT: %[[DYN:.+]] = gpu.dynamic_shared_memory
// SCHED: memref.view %[[DYN]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x32xf16, #gpu.address_space<workgroup>>
// SCHED: memref.view %[[DYN]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x128xf16, #gpu.address_space<workgroup>>
// SCHED-NOT: memref.alloc
// SCHED: scf.for
// SCHED-NEXT: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// SCHED-NEXT: gpu.barrier
// SCHED-COUNT-8: nvgpu.device_async_copy {{.+}} {bypassL1}
// SCHED-NEXT: nvgpu.device_async_create_group
// SCHED: nvgpu.ldmatrix
// SCHED: scf.yield
// ONE: {{^}}1{{$}}
// XOR: {{^[1-9][0-9]*$}}
// MMA: {{^}}64{{$}}
// LDMATRIX: {{^}}24{{$}}
// 3 prologue groups and one group per step, 8 copies each.
// COPIES: {{^}}32{{$}}

func.func @matmul(%A: tensor<256x128xf16>, %B: tensor<128x256xf16>,
                  %C: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%C : tensor<256x256xf32>)
      -> tensor<256x256xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<256x128xf16>, tensor<128x256xf16>)
                      outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %mm : tensor<256x256xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: memref<256x128xf16>, %[[B:.+]]: memref<128x256xf16>, %[[C:.+]]: memref<256x256xf32>)
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C2]], %{{.+}} = %[[C2]], %{{.+}} = %{{.+}}) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C128]],
// CHECK: %[[AS:.+]] = memref.alloc() {{.*}} : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// CHECK: %[[BS:.+]] = memref.alloc() {{.*}} : memref<3x32x128xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait %{{.+}} {numGroups = 2 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %{{.+}} {numTiles = 2 : i32, transpose = true}
// CHECK: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK: memref.subview %[[BS]]
// CHECK: memref.subview %[[AS]]
// CHECK-COUNT-8: nvgpu.device_async_copy {{.+}} {bypassL1}
// CHECK-NEXT: nvgpu.device_async_create_group
// CHECK-NEXT: scf.yield
// CHECK-NOT: memref.alloc
// CHECK: vector.store %{{.+}}, %[[C]]
