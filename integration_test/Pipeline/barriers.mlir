// Barriers skipped between stages (test/Pipeline/barriers.mlir checks the
// decisions), executed: test/Pipeline/Inputs/thread-slice-exec.mlir runs such
// kernels once per emulated thread (gpu.thread_id replaced by a call, threads
// one after the other, barriers erased). This checks that every thread
// computes the same results after the rewrite as before; a single-threaded
// run cannot observe a missing barrier between threads, which is why the
// rule only skips barriers where no element is shared between threads.
//
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/thread-slice-exec.mlir --erase-memory-spaces --erase-gpu-barriers --thread-ids-from tid --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s3 | FileCheck %s --check-prefix=EXEC
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/thread-slice-exec.mlir --erase-memory-spaces --erase-gpu-barriers --thread-ids-from tid --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100 | FileCheck %s --check-prefix=EXEC
//
// EXEC: EXEC-CHECK: PASS
