// Execution checks: every loop rewritten by schedule_stages prints exactly
// what the original prints, on the CPU (exec-check.py). Workgroup / "ub"
// memory spaces are erased and gpu.barrier deleted for the single-threaded
// run; on the NPU target the inserted set_flag/wait_flag are checked by
// --hwsched-emulate-npu-sync (--emulate-npu-sync: a wait without a set, a
// flag set twice or a flag left set aborts the run). Inputs cover matmul K loops (copy, load, compute; accumulator in an
// iter_arg or in memory; two loads feeding one compute; alloc and alloca,
// #gpu.address_space<workgroup>, integer space 3 and "ub"), dynamic trip
// counts 0..7 with lower bound 3 and steps 8 and 16 (matmul-k-exec.mlir),
// static trip counts 0, 1, 2, 3, 4, 6, lower bound 3 with step 5, step 3,
// pass-through iter_args, an address carried to the next iteration, writes
// through subviews of one buffer and the read-before-write hazard pattern
// (loops-exec.mlir), and a buffer allocated inside the body
// (local-alloc-exec.mlir).
//
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/matmul-k-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100 | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/matmul-k-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s2 | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/matmul-k-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s3_separate | FileCheck %s
// RUN: sed -e 's/#gpu.address_space<workgroup>/"ub"/' %test_src/Pipeline/Inputs/matmul-k-exec.mlir > %t.npu.mlir
// RUN: %python %utils/exec-check.py %t.npu.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=ascend | FileCheck %s
// RUN: sed -e 's/#gpu.address_space<workgroup>/"ub"/g' %test_src/Pipeline/Inputs/loops-exec.mlir > %t.npu-loops.mlir
// RUN: %python %utils/exec-check.py %t.npu-loops.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=ascend | FileCheck %s
// RUN: sed -e 's/#gpu.address_space<workgroup>/"ub"/g' %test_src/Pipeline/Inputs/local-alloc-exec.mlir > %t.npu-local.mlir
// RUN: %python %utils/exec-check.py %t.npu-local.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=ascend | FileCheck %s
// RUN: sed -e 's/#gpu.address_space<workgroup>/0/' %test_src/Pipeline/Inputs/matmul-k-exec.mlir > %t.cpu.mlir
// RUN: %python %utils/exec-check.py %t.cpu.mlir --erase-memory-spaces --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=cpu | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/loops-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100 | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/loops-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s2 | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/loops-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s3 | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/loops-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=cpu | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/local-alloc-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s3 | FileCheck %s

// CHECK: EXEC-CHECK: PASS
