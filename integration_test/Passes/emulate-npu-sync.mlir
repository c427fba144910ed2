// --hwsched-emulate-npu-sync at run time (test/Passes/emulate-npu-sync.mlir
// checks the IR it emits): the handwritten flag programs of
// test/Passes/Inputs/npu-flags-handwritten.mlir run on the CPU; a balanced one
// runs normally, each synchronisation error aborts with its message.
//
// RUN: sed -e 's/@CASE/@case_balanced/' %test_src/Passes/Inputs/npu-flags-handwritten.mlir > %t.balanced.mlir
// RUN: %python %utils/exec-check.py %t.balanced.mlir --emulate-npu-sync | FileCheck %s --check-prefix=BALANCED
// BALANCED: EXEC-CHECK: PASS
//
// A payload with cf.assert: its lowering declares abort, which the
// emulation's checks call too (once "redefinition of symbol named 'abort'").
// RUN: sed -e 's/@CASE/@case_with_assert/' %test_src/Passes/Inputs/npu-flags-handwritten.mlir > %t.assert.mlir
// RUN: %python %utils/exec-check.py %t.assert.mlir --emulate-npu-sync | FileCheck %s --check-prefix=BALANCED
//
// RUN: sed -e 's/@CASE/@case_wait_without_set/' %test_src/Passes/Inputs/npu-flags-handwritten.mlir > %t.wait.mlir
// RUN: not %python %utils/exec-check.py %t.wait.mlir --emulate-npu-sync | FileCheck %s --check-prefix=WAIT
// WAIT: EXEC-CHECK: FAIL (step 'BEFORE: run' was killed by signal 6)
// WAIT: hwsched-emulate-npu-sync: no set_flag to consume (deadlock on the hardware) in hwsched_npu.wait_flag mte2 -> vector at {{.*}}wait.mlir":29
//
// RUN: sed -e 's/@CASE/@case_set_twice/' %test_src/Passes/Inputs/npu-flags-handwritten.mlir > %t.twice.mlir
// RUN: not %python %utils/exec-check.py %t.twice.mlir --emulate-npu-sync | FileCheck %s --check-prefix=TWICE
// TWICE: hwsched-emulate-npu-sync: flag already set (set twice without a wait_flag) in hwsched_npu.set_flag vector -> mte3 at {{.*}}twice.mlir":37
//
// RUN: sed -e 's/@CASE/@case_left_set/' %test_src/Passes/Inputs/npu-flags-handwritten.mlir > %t.left.mlir
// RUN: not %python %utils/exec-check.py %t.left.mlir --emulate-npu-sync | FileCheck %s --check-prefix=LEFT
// LEFT: hwsched-emulate-npu-sync: a flag is still set (set_flag without wait_flag) when returning from @case_left_set
//
// RUN: sed -e 's/@CASE/@case_bad_event/' %test_src/Passes/Inputs/npu-flags-handwritten.mlir > %t.event.mlir
// RUN: not %python %utils/exec-check.py %t.event.mlir --emulate-npu-sync | FileCheck %s --check-prefix=EVENT
// EVENT: hwsched-emulate-npu-sync: event id out of range [0, 8) in hwsched_npu.set_flag mte2 -> cube
