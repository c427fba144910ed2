// --hwsched-emulate-async-copies: copies, groups and waits become calls into
// the deferred-copy runtime, with element addresses from the strided
// metadata; returns of functions that copy check that nothing is pending.
//
// RUN: hwsched-opt %s --split-input-file --hwsched-emulate-async-copies \
// RUN:   --verify-diagnostics | FileCheck %s

// CHECK-DAG: func.func private @hwsched_async_emu_copy(index, index, index, index, index, index, index)
// CHECK-DAG: func.func private @hwsched_async_emu_commit()
// CHECK-DAG: func.func private @hwsched_async_emu_wait(index)
// CHECK-DAG: func.func private @hwsched_async_emu_check_drained()
// CHECK-LABEL: func.func @copies
// CHECK-SAME: (%[[A:.+]]: memref<64x8xf16>, %[[S:.+]]: memref<2x8xf16, 3>, %[[K:.+]]: index, %[[N:.+]]: index)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// Destination S[1, 0]: offset + 1 * stride0 + 0 * stride1, times 2 bytes.
// CHECK: %{{.+}}, %[[DOFF:.+]], %{{.+}}:2, %[[DSTR:.+]]:2 = memref.extract_strided_metadata %[[S]]
// CHECK: %[[D0:.+]] = arith.muli %[[C1]], %[[DSTR]]#0
// CHECK: %[[D1:.+]] = arith.addi %[[DOFF]], %[[D0]]
// CHECK: %[[D2:.+]] = arith.muli %[[C0]], %[[DSTR]]#1
// CHECK: %[[D3:.+]] = arith.addi %[[D1]], %[[D2]]
// CHECK: %[[DPTR:.+]] = memref.extract_aligned_pointer_as_index %[[S]]
// CHECK: %[[DBYTES:.+]] = arith.constant 2 : index
// CHECK: %[[D4:.+]] = arith.muli %[[D3]], %[[DBYTES]]
// CHECK: %[[DADDR:.+]] = arith.addi %[[DPTR]], %[[D4]]
// Source A[k, 1].
// CHECK: %{{.+}}, %[[SOFF:.+]], %{{.+}}:2, %[[SSTR:.+]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: arith.muli %[[K]], %[[SSTR]]#0
// CHECK: arith.muli %[[C1]], %[[SSTR]]#1
// CHECK: %[[SPTR:.+]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[SADDR:.+]] = arith.addi %[[SPTR]]
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[EB:.+]] = arith.constant 2 : index
// CHECK: call @hwsched_async_emu_copy(%[[DADDR]], %[[DSTR]]#1, %[[SADDR]], %[[SSTR]]#1, %[[C4]], %[[C4]], %[[EB]])
// src_elements is passed on, bypassL1 ignored.
// CHECK: %[[C8:.+]] = arith.constant 8 : index
// CHECK: call @hwsched_async_emu_copy(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[C8]], %[[N]], %{{.+}})
// CHECK-NEXT: call @hwsched_async_emu_commit()
// CHECK-NEXT: %[[W1:.+]] = arith.constant 1 : index
// CHECK-NEXT: call @hwsched_async_emu_wait(%[[W1]])
// CHECK-NEXT: call @hwsched_async_emu_commit()
// CHECK-NEXT: %[[WALL:.+]] = arith.constant -1 : index
// CHECK-NEXT: call @hwsched_async_emu_wait(%[[WALL]])
// CHECK-NEXT: call @hwsched_async_emu_check_drained()
// CHECK-NEXT: return
// CHECK-NOT: nvgpu.
func.func @copies(%A: memref<64x8xf16>, %S: memref<2x8xf16, 3>, %k: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = nvgpu.device_async_copy %A[%k, %c1], %S[%c1, %c0], 4 : memref<64x8xf16> to memref<2x8xf16, 3>
  %t1 = nvgpu.device_async_copy %A[%k, %c0], %S[%c0, %c0], 8, %n {bypassL1} : memref<64x8xf16> to memref<2x8xf16, 3>
  %g = nvgpu.device_async_create_group %t0, %t1
  nvgpu.device_async_wait %g {numGroups = 1 : i32}
  %g2 = nvgpu.device_async_create_group %t0
  nvgpu.device_async_wait %g2
  return
}

// A function without async copies is left alone (no drained check).
// CHECK-LABEL: func.func @no_copies
// CHECK-NOT: call
// CHECK: return
func.func @no_copies() {
  return
}

// -----

// Tokens threaded through scf.for iter_args (as the pipelined loops do) are
// dropped with the iter_args; the other iter_args stay.
// CHECK-LABEL: func.func @loop_tokens
// CHECK-NOT: ub.poison
// CHECK: call @hwsched_async_emu_copy
// CHECK: call @hwsched_async_emu_commit()
// CHECK: %[[R:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[X:.+]] = %{{.+}}) -> (f32) {
// CHECK: call @hwsched_async_emu_copy
// CHECK: call @hwsched_async_emu_commit()
// CHECK: call @hwsched_async_emu_wait(
// CHECK: scf.yield %{{.+}} : f32
// CHECK: call @hwsched_async_emu_wait(
// CHECK-NEXT: call @hwsched_async_emu_check_drained()
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: nvgpu.
// CHECK-NOT: ub.poison
func.func @loop_tokens(%A: memref<64xf32>, %S: memref<4xf32, 3>, %x0: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = nvgpu.device_async_copy %A[%c0], %S[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  %g = nvgpu.device_async_create_group %t
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %x0, %tok = %g) -> (f32, !nvgpu.device.async.token) {
    %t2 = nvgpu.device_async_copy %A[%i], %S[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    %g2 = nvgpu.device_async_create_group %t2
    nvgpu.device_async_wait %tok {numGroups = 1 : i32}
    %v = memref.load %S[%c0] : memref<4xf32, 3>
    %x2 = arith.addf %x, %v : f32
    scf.yield %x2, %g2 : f32, !nvgpu.device.async.token
  }
  nvgpu.device_async_wait %r#1 {numGroups = 0 : i32}
  return %r#0 : f32
}

// -----

// A token that leaves the function cannot be dropped.
func.func @token_escapes(%A: memref<8xf32>, %B: memref<8xf32, 3>) -> !nvgpu.device.async.token {
  %c0 = arith.constant 0 : index
  %t = nvgpu.device_async_copy %A[%c0], %B[%c0], 4 : memref<8xf32> to memref<8xf32, 3>
  // expected-error @below {{'func.return' op still carries an nvgpu async token}}
  return %t : !nvgpu.device.async.token
}
