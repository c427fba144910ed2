// Execution checks of the nvgpu async-copy groups and waits that
// schedule_stages inserts: --emulate-async-copies defers every copy until a
// device_async_wait completes its group, so the pipelined loops only print
// the original results if the wait counts are right. The sabotaged variants
// (wait counts raised after the rewrite) must fail.
//
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/async-copy-exec.mlir --emulate-async-copies --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s2 | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/async-copy-exec.mlir --emulate-async-copies --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s3 | FileCheck %s
// CHECK: EXEC-CHECK: PASS
//
// The pipelined IR really keeps groups in flight (so the checks above
// exercise the deferral):
// RUN: hwsched-opt %test_src/Pipeline/Inputs/async-copy-exec.mlir --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir \
// RUN:   --transform-interpreter=entry-point=h100_s3 | FileCheck %s --check-prefix=IR3
// (with 3 stages the kernel waits first, before committing its own group,
// so 1 group stays in flight at the wait and 2 during the step's reads)
// IR3-LABEL: func.func @k_loop(
// IR3: scf.for
// IR3-NEXT: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// IR3: nvgpu.device_async_create_group
// IR3: scf.yield
// IR3: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
// IR3: nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
// IR3-LABEL: func.func @k_loop_partial(
// IR3: nvgpu.device_async_wait %{{.+}} {numGroups = 1 : i32}
//
// Kernel wait one group too permissive: stale shared buffer, outputs differ.
// RUN: not %python %utils/exec-check.py %test_src/Pipeline/Inputs/async-copy-exec.mlir --emulate-async-copies --erase-memory-spaces --erase-gpu-barriers -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/async-lib.mlir --transform-interpreter=entry-point=s3_kernel_wait_plus1 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: not %python %utils/exec-check.py %test_src/Pipeline/Inputs/async-copy-exec.mlir --emulate-async-copies --erase-memory-spaces --erase-gpu-barriers -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/async-lib.mlir --transform-interpreter=entry-point=s2_kernel_wait_plus1 2>&1 | FileCheck %s --check-prefix=STALE
// STALE: EXEC-CHECK: FAIL (outputs differ
//
// Waits that never drain: the run aborts at the function's return.
// RUN: not %python %utils/exec-check.py %test_src/Pipeline/Inputs/async-copy-exec.mlir --emulate-async-copies --erase-memory-spaces --erase-gpu-barriers -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/async-lib.mlir --transform-interpreter=entry-point=s3_all_waits_8 2>&1 | FileCheck %s --check-prefix=PENDING
// PENDING: EXEC-CHECK: FAIL
// PENDING: async copies still pending at function exit
//
// Without the emulation the nvgpu ops have no CPU lowering.
// RUN: not %python %utils/exec-check.py %test_src/Pipeline/Inputs/async-copy-exec.mlir --erase-memory-spaces --erase-gpu-barriers -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s3 2>&1 | FileCheck %s --check-prefix=NOEMU
// NOEMU: EXEC-CHECK: FAIL
