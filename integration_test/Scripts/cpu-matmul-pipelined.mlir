// @hwsched_cpu_matmul_main_pipelined (test/Scripts/cpu-matmul-pipelined.mlir
// checks its decisions and IR) computes what the original does at 256^3,
// 384^3 and 32x64x48.
//
// RUN: %python %utils/exec-check.py %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir \
// RUN:   --expect-changed -- --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main_pipelined \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: sed 's/256/384/g' %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir > %t-384.mlir
// RUN: %python %utils/exec-check.py %t-384.mlir \
// RUN:   --expect-changed -- --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main_pipelined \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: %python %utils/exec-check.py %test_src/Scripts/Inputs/cpu-matmul-bias-relu-small.mlir \
// RUN:   --expect-changed -- --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main_pipelined \
// RUN:   | FileCheck %s --check-prefix=EXEC
// EXEC: EXEC-CHECK: PASS
