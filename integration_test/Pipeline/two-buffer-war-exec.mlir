// Two loop-carried WAR edges of the same kind between the same two ops,
// through different buffers (Inputs/two-buffer-war-exec.mlir): the binding
// one (through a function argument) must not be hidden by the removable one
// (through a multi-buffered scratch buffer). The writer and the reader of
// the argument rows stay in one stage, and the rewritten loop prints what
// the original prints (it printed different rows before the fix).
//
// RUN: hwsched-opt %test_src/Pipeline/Inputs/two-buffer-war-exec.mlir --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/explain-lib.mlir \
// RUN:   --transform-interpreter=entry-point=h100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: sed -e 's/#gpu.address_space<workgroup>/"ub"/g' %test_src/Pipeline/Inputs/two-buffer-war-exec.mlir > %t.npu.mlir
// RUN: hwsched-opt %t.npu.mlir --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/explain-lib.mlir \
// RUN:   --transform-interpreter=entry-point=ascend -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: sed -e 's/#gpu.address_space<workgroup>/0/g' %test_src/Pipeline/Inputs/two-buffer-war-exec.mlir > %t.cpu.mlir
//
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/two-buffer-war-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100 | FileCheck %s
// RUN: %python %utils/exec-check.py %t.npu.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=ascend | FileCheck %s
// RUN: %python %utils/exec-check.py %t.cpu.mlir --erase-memory-spaces --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=cpu | FileCheck %s

// The generic (writer, line 21 of the input) and the add (reader, line 28)
// share a stage.
// STAGES: .mlir:21:5: remark: stage [[#S:]] on unit vector
// STAGES: .mlir:28:5: remark: stage [[#S]] on unit vector

// CHECK: EXEC-CHECK: PASS
