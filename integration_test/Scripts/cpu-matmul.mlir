// The CPU matmul schedule (transform-scripts/cpu-matmul.mlir; the IR checks
// are in test/Scripts/cpu-matmul.mlir) computes what the original does:
// small tiles on 32x64x48, and the x86-avx512 spec's tiles at 256^3, at
// 384^3 (not a power of two) and fitted to 32x64x48.
//
// RUN: %python %utils/exec-check.py %test_src/Scripts/Inputs/cpu-matmul-bias-relu-small.mlir \
// RUN:   --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir,%test_src/Scripts/Inputs/cpu-matmul-small-tiles.mlir \
// RUN:   --transform-interpreter=entry-point=cpu_matmul_small_tiles \
// RUN:   | FileCheck %s --check-prefix=EXEC
// RUN: %python %utils/exec-check.py %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir \
// RUN:   --expect-changed -- --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN:   | FileCheck %s --check-prefix=EXEC
//
// RUN: sed 's/256/384/g' %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir > %t-384.mlir
// RUN: %python %utils/exec-check.py %t-384.mlir \
// RUN:   --expect-changed -- --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN:   | FileCheck %s --check-prefix=EXEC
// The same on one core of x86-avx512 with its share of the bandwidth:
// RUN: %python %test_src/Scripts/Inputs/override-spec.py %specs/x86-avx512.json %t-avx512-1core.json \
// RUN:   cpu.cores=1 offchip.bandwidth_gb_per_s=5.12
// RUN: %python %utils/exec-check.py %t-384.mlir \
// RUN:   --expect-changed -- --hwsched-target=%t-avx512-1core.json \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN:   | FileCheck %s --check-prefix=EXEC
//
// RUN: %python %utils/exec-check.py %test_src/Scripts/Inputs/cpu-matmul-bias-relu-small.mlir \
// RUN:   --expect-changed -- --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN:   | FileCheck %s --check-prefix=EXEC
//
// EXEC: EXEC-CHECK: PASS
