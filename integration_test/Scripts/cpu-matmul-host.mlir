// transform-scripts/cpu-matmul.mlir with no target named anywhere schedules
// for `host`: the machine running hwsched-opt, simulated here
// (HWSCHED_HOST_CPU / _FEATURES / _SYSFS, see test/HwSpec/host-spec.mlir),
// so the same unedited script picks AVX2, AVX-512 and NEON register tiles,
// and runs its column panels on the host's cores through OpenMP. The
// multi-threaded programs are execution-checked, with more panels than
// threads (uneven shares), fewer, and as many.
//
// REQUIRES: openmp
//
// DEFINE: %{zen3} = HWSCHED_HOST_CPU=znver3 HWSCHED_HOST_FEATURES=+sse2,+avx,+avx2,+fma \
// DEFINE:   HWSCHED_HOST_SYSFS=%test_src/Scripts/../HwSpec/Inputs/host-sysfs/zen3
// DEFINE: %{icx} = HWSCHED_HOST_CPU=icelake-server HWSCHED_HOST_FEATURES=+sse2,+avx,+avx2,+fma,+avx512f \
// DEFINE:   HWSCHED_HOST_SYSFS=%test_src/Scripts/../HwSpec/Inputs/host-sysfs/icelake-server
// DEFINE: %{v1} = HWSCHED_HOST_CPU=neoverse-v1 HWSCHED_HOST_FEATURES=+neon,+sve \
// DEFINE:   HWSCHED_HOST_SYSFS=%test_src/Scripts/../HwSpec/Inputs/host-sysfs/neoverse-v1
// DEFINE: %{one} = HWSCHED_HOST_CPU=znver3 HWSCHED_HOST_FEATURES=+sse2,+avx,+avx2,+fma \
// DEFINE:   HWSCHED_HOST_SYSFS=%test_src/Scripts/../HwSpec/Inputs/host-sysfs/one-core
// DEFINE: %{main} = --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// DEFINE:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main
//
// The decisions for a 256^3 matmul + bias + ReLU on each simulated host.
// RUN: env %{zen3} hwsched-opt %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir %{main} \
// RUN:   -o %t.zen3.mlir 2>&1 | FileCheck %s --check-prefix=ZEN3
// RUN: FileCheck %s --check-prefix=ZEN3IR < %t.zen3.mlir
// RUN: env %{icx} hwsched-opt %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir %{main} \
// RUN:   -o %t.icx.mlir 2>&1 | FileCheck %s --check-prefix=ICX
// RUN: FileCheck %s --check-prefix=ICXIR < %t.icx.mlir
// RUN: env %{v1} hwsched-opt %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir %{main} \
// RUN:   -o %t.v1.mlir 2>&1 | FileCheck %s --check-prefix=V1
// RUN: FileCheck %s --check-prefix=V1IR < %t.v1.mlir
// One core: no OpenMP.
// RUN: env %{one} hwsched-opt %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir %{main} \
// RUN:   -o %t.one.mlir 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=ONEIR < %t.one.mlir
//
// Execution: the simulated 2-core AVX2 host (the programs run on the real
// CPU: 256-bit vectors are legal on every x86 host with AVX and are split
// elsewhere), the 4-core AVX-512 one, and small explicit tiles with 2, 3
// and 1 column panels on 2 threads.
// RUN: env %{zen3} %python %utils/exec-check.py %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir \
// RUN:   --expect-changed -- %{main} | FileCheck %s --check-prefix=EXEC
// RUN: env %{icx} %python %utils/exec-check.py %test_src/Scripts/Inputs/cpu-matmul-bias-relu-256.mlir \
// RUN:   --expect-changed -- %{main} | FileCheck %s --check-prefix=EXEC
// RUN: sed 's/64/96/g' %test_src/Scripts/Inputs/cpu-matmul-bias-relu-small.mlir > %t-n96.mlir
// RUN: sed 's/64/32/g' %test_src/Scripts/Inputs/cpu-matmul-bias-relu-small.mlir > %t-n32.mlir
// RUN: env %{zen3} %python %utils/exec-check.py %test_src/Scripts/Inputs/cpu-matmul-bias-relu-small.mlir \
// RUN:   --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir,%test_src/Scripts/Inputs/cpu-matmul-small-tiles.mlir \
// RUN:   --transform-interpreter=entry-point=cpu_matmul_small_tiles | FileCheck %s --check-prefix=EXEC
// RUN: env %{zen3} %python %utils/exec-check.py %t-n96.mlir --expect-changed \
// RUN:   --keep-temps %t-n96 -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir,%test_src/Scripts/Inputs/cpu-matmul-small-tiles.mlir \
// RUN:   --transform-interpreter=entry-point=cpu_matmul_small_tiles | FileCheck %s --check-prefix=EXEC
// RUN: FileCheck %s --check-prefix=N96 < %t-n96/after.transformed.mlir
// RUN: env %{zen3} %python %utils/exec-check.py %t-n32.mlir --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir,%test_src/Scripts/Inputs/cpu-matmul-small-tiles.mlir \
// RUN:   --transform-interpreter=entry-point=cpu_matmul_small_tiles | FileCheck %s --check-prefix=EXEC

// AVX2 (16 ymm): a 4 x 16 register tile (4 x 2 accumulators); 2 cores:
// two column panels of 128, on 2 OpenMP threads.
// ZEN3: MC (C block rows) = 256 : i64
// ZEN3: NC (C block columns) = 128 : i64
// ZEN3: KC (K block) = 256 : i64
// ZEN3: MR (register tile rows) = 4 : i64
// ZEN3: NR (register tile columns) = 16 : i64
// ZEN3IR: %[[T:.*]] = llvm.mlir.constant(2 : i32) : i32
// ZEN3IR: omp.parallel num_threads(%[[T]] : i32)
// The packed panel: allocated once per thread, at the parallel region.
// ZEN3IR-NEXT: memref.alloca() {{.*}} : memref<8x256x16xf32>
// ZEN3IR-NEXT: omp.wsloop
// ZEN3IR: vector.fma {{.*}} : vector<16xf32>

// AVX-512 (32 zmm): 8 x 32; 4 cores: four panels of 64.
// ICX: NC (C block columns) = 64 : i64
// ICX: MR (register tile rows) = 8 : i64
// ICX: NR (register tile columns) = 32 : i64
// ICXIR: %[[T:.*]] = llvm.mlir.constant(4 : i32) : i32
// ICXIR: omp.parallel num_threads(%[[T]] : i32)

// NEON (128-bit, 32 registers): NR is a multiple of 4 lanes.
// V1: NC (C block columns) = 64 : i64
// V1: MR (register tile rows) = 8 : i64
// V1: NR (register tile columns) = 8 : i64
// V1IR: omp.parallel
// V1IR: vector.fma {{.*}} : vector<8xf32>

// One core: no OpenMP; the column panels run in a loop. Two panels of 128
// columns with all 256 rows per block (B read once; A, which stays in the
// L3, re-read per panel at a quarter of the off-chip price) rather than
// one panel of 256 columns in blocks of at most 128 rows (the L2 bound),
// which re-read B per block at the full price.
// ONE: MC (C block rows) = 256 : i64
// ONE: NC (C block columns) = 128 : i64
// ONE: NR (register tile columns) = 16 : i64
// ONEIR-NOT: omp.

// EXEC: EXEC-CHECK: PASS

// N96: omp.parallel num_threads(%[[T:.*]] : i32)
// N96: omp.loop_nest (%{{.*}}) : index = (%{{.*}}) to (%{{.*}}) step (%{{.*}})
