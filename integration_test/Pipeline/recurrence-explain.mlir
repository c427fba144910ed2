// The noalias case of test/Pipeline/recurrence-explain.mlir pipelined by
// schedule_stages (5 stages once llvm.noalias lifts the recurrence through
// the two arguments), exec-checked on the CPU.
//
// RUN: sed -n '/^\/\/ NOALIAS-BEGIN/,/^\/\/ NOALIAS-END/p' %test_src/Pipeline/recurrence-explain.mlir > %t.noalias.mlir
// RUN: %python %utils/exec-check.py %t.noalias.mlir --add-main --opt hwsched-opt \
// RUN:   --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/schedule-all-loops-h100.mlir \
// RUN:   --transform-interpreter=entry-point=schedule_all_loops | FileCheck %s
// CHECK: EXEC-CHECK: PASS
