// --hwsched-emulate-npu-sync: set_flag/wait_flag become checks on a flag
// table; a CPU run aborts with a message naming the op on each kind of
// synchronisation error, and runs normally when the flags are balanced.
//
// RUN: hwsched-opt %s --hwsched-emulate-npu-sync | FileCheck %s
// (Running the emulation: integration_test/Passes/emulate-npu-sync.mlir.)

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
