// Flag sequences for --hwsched-emulate-npu-sync, one per @case_*; @main
// calls the one named by the CASE placeholder (replaced by sed in the test).
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

// Balanced: pre-set, wait/set per iteration with a computed event, drain.
func.func @case_balanced(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  hwsched_npu.set_flag cube -> mte2, %c0
  hwsched_npu.set_flag cube -> mte2, %c1
  scf.for %i = %c0 to %n step %c1 {
    %ev = arith.remsi %i, %c2 : index
    hwsched_npu.wait_flag cube -> mte2, %ev
    hwsched_npu.set_flag mte2 -> cube, %ev
    hwsched_npu.wait_flag mte2 -> cube, %ev
    hwsched_npu.set_flag cube -> mte2, %ev
  }
  hwsched_npu.wait_flag cube -> mte2, %c0
  hwsched_npu.wait_flag cube -> mte2, %c1
  return
}

// The consumer waits for a flag nobody set (a deadlock on the hardware).
func.func @case_wait_without_set(%n: index) {
  %c0 = arith.constant 0 : index
  hwsched_npu.set_flag mte2 -> cube, %c0
  hwsched_npu.wait_flag mte2 -> cube, %c0
  hwsched_npu.wait_flag mte2 -> vector, %c0
  return
}

// Two sets of one flag without a wait in between.
func.func @case_set_twice(%n: index) {
  %c1 = arith.constant 1 : index
  hwsched_npu.set_flag vector -> mte3, %c1
  hwsched_npu.set_flag vector -> mte3, %c1
  hwsched_npu.wait_flag vector -> mte3, %c1
  return
}

// A set nobody waits for before the kernel returns.
func.func @case_left_set(%n: index) {
  %c3 = arith.constant 3 : index
  hwsched_npu.set_flag cube -> vector, %c3
  return
}

// A computed event id outside [0, 8).
func.func @case_bad_event(%n: index) {
  %c1 = arith.constant 1 : index
  %ev = arith.addi %n, %c1 : index
  hwsched_npu.set_flag mte2 -> cube, %ev
  hwsched_npu.wait_flag mte2 -> cube, %ev
  return
}

// Balanced, in a function that also asserts (cf.assert lowers to a call to
// abort, which the emulation calls too: one declaration for both).
func.func @case_with_assert(%n: index) {
  %c0 = arith.constant 0 : index
  %ok = arith.cmpi sge, %n, %c0 : index
  cf.assert %ok, "n is non-negative"
  hwsched_npu.set_flag mte2 -> cube, %c0
  hwsched_npu.wait_flag mte2 -> cube, %c0
  return
}

func.func @main() {
  %c7 = arith.constant 7 : index
  func.call @CASE(%c7) : (index) -> ()
  %m = memref.alloc() : memref<1xf32>
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  memref.store %one, %m[%c0] : memref<1xf32>
  %u = memref.cast %m : memref<1xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
