// Execution checks of the NPU flags inserted by schedule_stages
// (ascend-910b): the pipelined loops print what the originals print, and
// --hwsched-emulate-npu-sync (exec-check --emulate-npu-sync) aborts the run
// on a wait without a set, a flag set twice or a flag left set, so the
// flags are balanced along the executed paths. Inputs: four pipes in one
// body (MTE2 copy-in, vector fill, cube matmul, vector epilogue, MTE3
// copy-out) and a K loop, dynamic trip counts 0, 1, 2, 3, 8 and lower bound
// 8 with step 16, static trip counts 1 (unrolled), 3 and 8 (peeled); with
// the spec's 2 stages, 1 stage, and 4 stages (3 and 4 buffer copies).
//
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/npu-pipes-exec.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/npu-lib.mlir --transform-interpreter=entry-point=ascend | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/npu-pipes-exec.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/npu-lib.mlir --transform-interpreter=entry-point=ascend_s1 | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/npu-pipes-exec.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/npu-lib.mlir --transform-interpreter=entry-point=ascend_s4 | FileCheck %s
// CHECK: EXEC-CHECK: PASS

// Negative: the same rewritten IR with one flag op deleted must be caught.
// RUN: hwsched-opt %test_src/Pipeline/Inputs/npu-pipes-exec.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/npu-lib.mlir \
// RUN:   --transform-interpreter=entry-point=ascend_s4 -o %t.after.mlir
// RUN: sed -e '0,/hwsched_npu.set_flag/{//d}' %t.after.mlir > %t.noset.mlir
// RUN: not %python %utils/exec-check.py %t.noset.mlir --erase-memory-spaces --emulate-npu-sync | FileCheck %s --check-prefix=NOSET
// NOSET: EXEC-CHECK: FAIL (step 'BEFORE: run' was killed by signal 6)
// NOSET: hwsched-emulate-npu-sync: no set_flag to consume (deadlock on the hardware) in hwsched_npu.wait_flag
// RUN: sed -e '0,/hwsched_npu.wait_flag mte2 -> cube/{//d}' %t.after.mlir > %t.nowait.mlir
// RUN: not %python %utils/exec-check.py %t.nowait.mlir --erase-memory-spaces --emulate-npu-sync | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: EXEC-CHECK: FAIL (step 'BEFORE: run' was killed by signal 6)
// NOWAIT: hwsched-emulate-npu-sync: {{flag already set \(set twice without a wait_flag\) in hwsched_npu.set_flag mte2 -> cube|a flag is still set}}
