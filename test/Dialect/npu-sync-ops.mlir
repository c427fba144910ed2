// The hwsched_npu ops parse, verify and print back (round trip), with
// constant and computed event ids.
//
// RUN: hwsched-opt %s | hwsched-opt | FileCheck %s

// CHECK-LABEL: func.func @flags
// CHECK-SAME: (%[[EV:.+]]: index)
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: hwsched_npu.set_flag mte2 -> cube, %[[C0]]
// CHECK: hwsched_npu.wait_flag mte2 -> cube, %[[C0]]
// CHECK: hwsched_npu.set_flag cube -> mte2, %[[EV]]
// CHECK: hwsched_npu.wait_flag cube -> mte2, %[[EV]]
// CHECK: hwsched_npu.set_flag vector -> mte3, %[[C7:.+]]
// CHECK: hwsched_npu.wait_flag vector -> mte3, %[[C7]]
// CHECK: hwsched_npu.set_flag scalar -> fixpipe, %[[C0]]
// CHECK: hwsched_npu.wait_flag mte1 -> scalar, %[[C0]]
func.func @flags(%ev: index) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  hwsched_npu.set_flag mte2 -> cube, %c0
  hwsched_npu.wait_flag mte2 -> cube, %c0
  hwsched_npu.set_flag cube -> mte2, %ev
  hwsched_npu.wait_flag cube -> mte2, %ev
  hwsched_npu.set_flag vector -> mte3, %c7
  hwsched_npu.wait_flag vector -> mte3, %c7
  hwsched_npu.set_flag scalar -> fixpipe, %c0
  hwsched_npu.wait_flag mte1 -> scalar, %c0
  return
}
