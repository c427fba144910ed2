// --hwsched-emulate-gpu-launch at run time (test/Passes/emulate-gpu-launch.mlir
// checks the IR it emits), through utils/exec-check.py --emulate-gpu-launch:
// the 2 blocks of 16x4 threads of test/Passes/Inputs/gpu-launch-reverse-exec.mlir
// reverse a row through workgroup memory, with a barrier between the writes
// and the reads.
//
// REQUIRES: openmp
//
// The kernel as written runs and its output is the reversed rows; every GPU
// thread ran on an OpenMP thread of its own (ids[b, t] = t: 64 distinct
// thread numbers per block).
// RUN: rm -rf %t.pass
// RUN: %python %utils/exec-check.py %test_src/Passes/Inputs/gpu-launch-reverse-exec.mlir \
// RUN:   --emulate-gpu-launch --erase-memory-spaces --keep-temps %t.pass | FileCheck %s --check-prefix=PASS
// PASS: EXEC-CHECK: PASS (6 output lines identical)
// RUN: FileCheck %s --check-prefix=OUT < %t.pass/before.output.txt
// OUT: {{\[\[}}64,   63,   62,   61,   60,   59,   58,   57,   56,   55,   54,   53,   52,   51,   50,   49,   48,   47,   46,   45,   44,   43,   42,   41,   40,   39,   38,   37,   36,   35,   34,   33,   32,   31,   30,   29,   28,   27,   26,   25,   24,   23,   22,   21,   20,   19,   18,   17,   16,   15,   14,   13,   12,   11,   10,   9,   8,   7,   6,   5,   4,   3,   2,   1],
// OUT-NEXT: [128,   127,   126,   125,   124,   123,   122,   121,   120,   119,   118,   117,   116,   115,   114,   113,   112,   111,   110,   109,   108,   107,   106,   105,   104,   103,   102,   101,   100,   99,   98,   97,   96,   95,   94,   93,   92,   91,   90,   89,   88,   87,   86,   85,   84,   83,   82,   81,   80,   79,   78,   77,   76,   75,   74,   73,   72,   71,   70,   69,   68,   67,   66,   65]]
// OUT: {{\[\[}}0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   16,   17,   18,   19,   20,   21,   22,   23,   24,   25,   26,   27,   28,   29,   30,   31,   32,   33,   34,   35,   36,   37,   38,   39,   40,   41,   42,   43,   44,   45,   46,   47,   48,   49,   50,   51,   52,   53,   54,   55,   56,   57,   58,   59,   60,   61,   62,   63],
// OUT-NEXT: [0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   16,   17,   18,   19,   20,   21,   22,   23,   24,   25,   26,   27,   28,   29,   30,   31,   32,   33,   34,   35,   36,   37,   38,   39,   40,   41,   42,   43,   44,   45,   46,   47,   48,   49,   50,   51,   52,   53,   54,   55,   56,   57,   58,   59,   60,   61,   62,   63]]
//
// Each block's barrier is an omp.barrier of a team of 64 threads:
// RUN: FileCheck %s --check-prefix=IR < %t.pass/after.prelowered.mlir
// IR: omp.parallel num_threads(%{{.+}} : i32)
// IR: omp.barrier
//
// The barrier replaced by a fence (@barriers_to_fences): threads read
// elements that the others have not written yet, and the outputs differ.
// Checked on three runs (each has 2 x 64 threads racing; a missed race
// would need all 64 writes of a block to land before its first read).
// RUN: not %python %utils/exec-check.py %test_src/Passes/Inputs/gpu-launch-reverse-exec.mlir \
// RUN:   --emulate-gpu-launch --erase-memory-spaces -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Passes/Inputs/gpu-launch-sabotage-lib.mlir \
// RUN:   --transform-interpreter=entry-point=barriers_to_fences | FileCheck %s --check-prefix=RACE
// RUN: not %python %utils/exec-check.py %test_src/Passes/Inputs/gpu-launch-reverse-exec.mlir \
// RUN:   --emulate-gpu-launch --erase-memory-spaces -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Passes/Inputs/gpu-launch-sabotage-lib.mlir \
// RUN:   --transform-interpreter=entry-point=barriers_to_fences | FileCheck %s --check-prefix=RACE
// RUN: not %python %utils/exec-check.py %test_src/Passes/Inputs/gpu-launch-reverse-exec.mlir \
// RUN:   --emulate-gpu-launch --erase-memory-spaces -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Passes/Inputs/gpu-launch-sabotage-lib.mlir \
// RUN:   --transform-interpreter=entry-point=barriers_to_fences | FileCheck %s --check-prefix=RACE
// RACE: EXEC-CHECK: FAIL (outputs differ)
//
// A team smaller than its block (the OpenMP runtime capped at 8 threads)
// aborts the run with the emulation's message instead of running 8 threads
// as if they were 64.
// RUN: env OMP_THREAD_LIMIT=8 not --crash %mlir_runner %t.pass/before.lowered.mlir -e main \
// RUN:   -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libomp.so \
// RUN:   2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: hwsched-emulate-gpu-launch: the OpenMP runtime started fewer than the block's 64 threads
//
// Usage errors: the emulation needs the barriers and the thread ids.
// RUN: not %python %utils/exec-check.py %test_src/Passes/Inputs/gpu-launch-reverse-exec.mlir \
// RUN:   --emulate-gpu-launch --erase-gpu-barriers 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: --emulate-gpu-launch runs the threads concurrently
