// --hwsched-emulate-gpu-launch: the blocks of a gpu.launch as loops, each
// block one omp.parallel team of bx*by*bz threads whose ids come from the
// OpenMP thread number (x fastest); gpu.barrier as omp.barrier; workgroup
// memory allocated once per block around the team.
//
// RUN: hwsched-opt %s --split-input-file --hwsched-emulate-gpu-launch \
// RUN:   | FileCheck %s
// With the async copies emulated after it, each thread checks at its end
// that its own copies have landed:
// RUN: hwsched-opt %s --split-input-file --hwsched-emulate-gpu-launch \
// RUN:   --hwsched-emulate-async-copies | FileCheck %s --check-prefix=ASYNC

// CHECK-DAG: func.func private @omp_get_num_threads() -> i32
// CHECK-DAG: func.func private @omp_get_thread_num() -> i32
// CHECK-DAG: llvm.mlir.global internal constant @__hwsched_gpu_launch_msg_0("hwsched-emulate-gpu-launch: the OpenMP runtime started fewer than the block's 64 threads (set OMP_THREAD_LIMIT high and OMP_DYNAMIC=false)\0A")
// CHECK-LABEL: func.func @launch
// CHECK-SAME: (%[[IN:.+]]: memref<?x64xf32>, %[[OUT:.+]]: memref<?x64xf32>, %[[N:.+]]: index)
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// The grid, z outermost; its size need not be a constant.
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]]
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]]
// CHECK: scf.for %[[BX:.+]] = %[[C0]] to %[[N]]
// CHECK: %[[NT:.+]] = arith.constant 64 : i32
// The workgroup buffer: one per block, outside the team.
// CHECK: %[[S:.+]] = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: omp.parallel num_threads(%[[NT]] : i32) {
// Each thread checks that the team is complete (else a message on stderr
// and abort).
// CHECK: %[[TEAM:.+]] = func.call @omp_get_num_threads()
// CHECK: %[[FULL:.+]] = arith.cmpi eq, %[[TEAM]], %[[NT]]
// CHECK: %[[SHORT:.+]] = arith.xori %[[FULL]], %{{.+}} : i1
// CHECK: scf.if %[[SHORT]] {
// CHECK: %[[MSG:.+]] = llvm.mlir.addressof @__hwsched_gpu_launch_msg_0
// CHECK: llvm.call @write(%{{.+}}, %[[MSG]], %{{.+}})
// CHECK: llvm.call @abort()
// CHECK: %[[NUM:.+]] = func.call @omp_get_thread_num()
// CHECK: %[[LIN:.+]] = arith.index_cast %[[NUM]] : i32 to index
// CHECK: %[[TX:.+]] = arith.remui %[[LIN]], %[[C16]]
// CHECK: %[[TY:.+]] = arith.divui %[[LIN]], %[[C16]]
// The thread-private alloca stays in the team: one per thread.
// CHECK: memref.alloca() : memref<4xf32>
// CHECK: %[[ROW:.+]] = arith.muli %[[TY]], %[[C16]]
// CHECK: %[[T:.+]] = arith.addi %[[ROW]], %[[TX]]
// CHECK: memref.load %[[IN]][%[[BX]], %[[T]]]
// CHECK: memref.store %{{.+}}, %[[S]][%[[T]]]
// CHECK: omp.barrier
// Lane and subgroup ids from the thread number and a subgroup of 32.
// CHECK: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[LANE:.+]] = arith.remui %[[LIN]], %[[C32]]
// CHECK: %[[C32B:.+]] = arith.constant 32 : index
// CHECK: %[[WARP:.+]] = arith.divui %[[LIN]], %[[C32B]]
// CHECK: memref.load %[[S]][%[[LANE]]]
// gpu.thread_id x is the thread's x.
// CHECK: memref.store %{{.+}}, %[[OUT]][%[[WARP]], %[[TX]]]
// CHECK-NEXT: omp.terminator
// CHECK-NEXT: }
// Freed after all the block's threads.
// CHECK-NEXT: memref.dealloc %[[S]]
// CHECK-NOT: {{ gpu\.}}
// CHECK-LABEL: func.func @main
func.func @launch(%in: memref<?x64xf32>, %out: memref<?x64xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c4, %sz = %c1) {
    %s = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %p = memref.alloca() : memref<4xf32>
    %row = arith.muli %ty, %sx : index
    %t = arith.addi %row, %tx : index
    %v = memref.load %in[%bx, %t] : memref<?x64xf32>
    memref.store %v, %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %x = gpu.thread_id x
    %lane = gpu.lane_id
    %warp = gpu.subgroup_id : index
    %w = memref.load %s[%lane] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%warp, %x] : memref<?x64xf32>
    memref.dealloc %s : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// Nothing outside a launch changes.
func.func @main() {
  return
}

// -----

// Attributions: the workgroup one allocated (and freed) per block, the
// private one an alloca per thread. A block of one dimension: the thread
// number is the x id.
// CHECK-LABEL: func.func @attributions
// CHECK-SAME: (%[[OUT:.+]]: memref<8xf32>)
// CHECK: %[[NT:.+]] = arith.constant 8 : i32
// CHECK: %[[W:.+]] = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: omp.parallel num_threads(%[[NT]] : i32) {
// CHECK: %[[NUM:.+]] = func.call @omp_get_thread_num()
// CHECK: %[[TX:.+]] = arith.index_cast %[[NUM]] : i32 to index
// CHECK: %[[P:.+]] = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
// CHECK: memref.load %[[P]]
// CHECK: memref.store %{{.+}}, %[[W]][%[[TX]]]
// CHECK: omp.barrier
// CHECK: memref.store %{{.+}}, %[[OUT]][%[[TX]]]
// CHECK: omp.terminator
// CHECK: memref.dealloc %[[W]]
func.func @attributions(%out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
             workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>)
             private(%p : memref<2xf32, #gpu.address_space<private>>) {
    %v = memref.load %p[%c1] : memref<2xf32, #gpu.address_space<private>>
    memref.store %v, %w[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %u = memref.load %w[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    memref.store %u, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// Block ids, grid and block sizes, global ids; a z dimension of threads.
// CHECK-LABEL: func.func @ids
// CHECK-SAME: (%[[OUT:.+]]: memref<?x?x?xindex>, %[[GX:.+]]: index)
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: scf.for %[[BZ:.+]] = %{{.+}} to %[[C3]]
// CHECK: scf.for %[[BY:.+]] = %{{.+}} to %[[C2]]
// CHECK: scf.for %[[BX:.+]] = %{{.+}} to %[[GX]]
// CHECK: arith.constant 16 : i32
// CHECK: omp.parallel
// CHECK: %[[LIN:.+]] = arith.index_cast
// CHECK: %[[TX:.+]] = arith.remui %[[LIN]], %[[C2]]
// CHECK: %[[R:.+]] = arith.divui %[[LIN]], %[[C2]]
// CHECK: arith.remui %[[R]], %[[C4]]
// CHECK: %[[TZ:.+]] = arith.divui %[[R]], %[[C4]]
// CHECK: memref.store %[[BZ]], %[[OUT]][%[[BX]], %[[BY]], %[[TZ]]]
// CHECK: memref.store %[[GX]], %[[OUT]][%[[C3]], %[[C4]], %[[C2]]]
// CHECK: %[[BASE:.+]] = arith.muli %[[BX]], %[[C2]]
// CHECK: %[[GID:.+]] = arith.addi %[[BASE]], %[[TX]]
// CHECK: memref.store %[[GID]], %[[OUT]]
func.func @ids(%out: memref<?x?x?xindex>, %gx: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%sgx = %gx, %sgy = %c2, %sgz = %c3)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c4, %sz = %c2) {
    %b = gpu.block_id z
    %t = gpu.thread_id z
    memref.store %b, %out[%bx, %by, %t] : memref<?x?x?xindex>
    %g = gpu.grid_dim x
    %dz = gpu.block_dim z
    %gz = gpu.grid_dim z
    %dy = gpu.block_dim y
    memref.store %g, %out[%gz, %dy, %dz] : memref<?x?x?xindex>
    %id = gpu.global_id x
    memref.store %id, %out[%id, %id, %id] : memref<?x?x?xindex>
    gpu.terminator
  }
  return
}

// -----

// ASYNC-LABEL: func.func @copies
// ASYNC: omp.parallel
// ASYNC: call @hwsched_async_emu_copy
// ASYNC: call @hwsched_async_emu_commit()
// ASYNC: call @hwsched_async_emu_wait
// ASYNC: omp.barrier
// ASYNC: call @hwsched_async_emu_check_thread_drained()
// ASYNC-NEXT: omp.terminator
// ASYNC: call @hwsched_async_emu_check_drained()
// ASYNC-NEXT: return
func.func @copies(%a: memref<128xf16>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %s = memref.alloc() : memref<128xf16, #gpu.address_space<workgroup>>
    %i = arith.muli %tx, %c16 : index
    %t = nvgpu.device_async_copy %a[%i], %s[%i], 8
        : memref<128xf16> to memref<128xf16, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g
    gpu.barrier
    gpu.terminator
  }
  return
}
