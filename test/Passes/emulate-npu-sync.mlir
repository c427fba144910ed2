// --hwsched-emulate-npu-sync: set_flag/wait_flag become checks on a flag
// table; a CPU run aborts with a message naming the op on each kind of
// synchronisation error, and runs normally when the flags are balanced.
//
// RUN: hwsched-opt %s --hwsched-emulate-npu-sync | FileCheck %s
//
// RUN: sed -e 's/@CASE/@case_balanced/' %S/Inputs/npu-flags-handwritten.mlir > %t.balanced.mlir
// RUN: %python %utils/exec-check.py %t.balanced.mlir --emulate-npu-sync | FileCheck %s --check-prefix=BALANCED
// BALANCED: EXEC-CHECK: PASS
//
// A payload with cf.assert: its lowering declares abort, which the
// emulation's checks call too (once "redefinition of symbol named 'abort'").
// RUN: sed -e 's/@CASE/@case_with_assert/' %S/Inputs/npu-flags-handwritten.mlir > %t.assert.mlir
// RUN: %python %utils/exec-check.py %t.assert.mlir --emulate-npu-sync | FileCheck %s --check-prefix=BALANCED
//
// RUN: sed -e 's/@CASE/@case_wait_without_set/' %S/Inputs/npu-flags-handwritten.mlir > %t.wait.mlir
// RUN: not %python %utils/exec-check.py %t.wait.mlir --emulate-npu-sync | FileCheck %s --check-prefix=WAIT
// WAIT: EXEC-CHECK: FAIL (step 'BEFORE: run' was killed by signal 6)
// WAIT: hwsched-emulate-npu-sync: no set_flag to consume (deadlock on the hardware) in hwsched_npu.wait_flag mte2 -> vector at {{.*}}wait.mlir":29
//
// RUN: sed -e 's/@CASE/@case_set_twice/' %S/Inputs/npu-flags-handwritten.mlir > %t.twice.mlir
// RUN: not %python %utils/exec-check.py %t.twice.mlir --emulate-npu-sync | FileCheck %s --check-prefix=TWICE
// TWICE: hwsched-emulate-npu-sync: flag already set (set twice without a wait_flag) in hwsched_npu.set_flag vector -> mte3 at {{.*}}twice.mlir":37
//
// RUN: sed -e 's/@CASE/@case_left_set/' %S/Inputs/npu-flags-handwritten.mlir > %t.left.mlir
// RUN: not %python %utils/exec-check.py %t.left.mlir --emulate-npu-sync | FileCheck %s --check-prefix=LEFT
// LEFT: hwsched-emulate-npu-sync: a flag is still set (set_flag without wait_flag) when returning from @case_left_set
//
// RUN: sed -e 's/@CASE/@case_bad_event/' %S/Inputs/npu-flags-handwritten.mlir > %t.event.mlir
// RUN: not %python %utils/exec-check.py %t.event.mlir --emulate-npu-sync | FileCheck %s --check-prefix=EVENT
// EVENT: hwsched-emulate-npu-sync: event id out of range [0, 8) in hwsched_npu.set_flag mte2 -> cube

// The table has one i32 per (source pipe, destination pipe, event):
// 7 x 7 x 8 entries; mte2 is pipe 1 and cube pipe 3, so the flag
// mte2 -> cube, e is entry (1 * 7 + 3) * 8 + e = 80 + e.
// CHECK-DAG: memref.global "private" @__hwsched_npu_flags : memref<392xi32> = dense<0>
// CHECK-DAG: llvm.mlir.global internal constant @__hwsched_npu_msg_{{[0-9]+}}("hwsched-emulate-npu-sync: flag already set
// CHECK-LABEL: func.func @producer_consumer
// CHECK-SAME: (%[[EV:.+]]: index)
// CHECK-NOT: hwsched_npu.
// CHECK: %[[C80:.+]] = arith.constant 80 : index
// CHECK: %[[IDX:.+]] = arith.addi %[[EV]], %[[C80]]
// CHECK: %[[T:.+]] = memref.get_global @__hwsched_npu_flags
// CHECK: %[[OLD:.+]] = memref.load %[[T]][%[[IDX]]]
// CHECK: arith.cmpi eq, %[[OLD]], %{{.+}} : i32
// CHECK: scf.if
// CHECK: llvm.call @write
// CHECK: llvm.call @abort
// CHECK: memref.store %{{.+}}, %[[T]][%[[IDX]]]
// Before the return: no flag may be left set.
// CHECK: scf.for
// CHECK: memref.load
// CHECK: arith.ori
// CHECK: llvm.call @abort
// CHECK: return
func.func @producer_consumer(%ev: index) {
  hwsched_npu.set_flag mte2 -> cube, %ev
  hwsched_npu.wait_flag mte2 -> cube, %ev
  return
}
