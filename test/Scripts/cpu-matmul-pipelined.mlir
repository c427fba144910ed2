// transform-scripts/cpu-matmul.mlir @hwsched_cpu_matmul_main_pipelined: the
// CPU schedule with every micro-kernel K loop software-pipelined by
// transform.pipeline.schedule_stages at the spec's stage count (x86-avx512:
// pipeline.max_stages 2): the loads of K step k+1 (A column, packed B row) in
// stage 0, the contraction of step k in stage 1. Semantics checked by running
// before/after on the CPU (outputs compared exactly;
// integration_test/Scripts/cpu-matmul-pipelined.mlir): at 256^3 (one K block,
// split off), at 384^3 (12 x 32 register tiles, KC = 64: the first K block
// split off and five more in a K loop, so two pipelined micro-kernel loops
// per register tile) and at 32x64x48, all with the bias + ReLU epilogue
// fused, with the column panels on x86-avx512's 40 OpenMP threads.
//
// The decisions (remarks of schedule_stages { explain }) and the structure:
// the pipelined loop carries the next step's A column and B row as vectors
// next to the accumulator tile.
// (Planned for one core of x86-avx512: 8 x 32 register tiles; its 40 cores
// would cut the panels to 16 columns.)
// RUN: %python %S/Inputs/override-spec.py %specs/x86-avx512.json %t-avx512-1core.json \
// RUN:   cpu.cores=1 offchip.bandwidth_gb_per_s=5.12
// RUN: hwsched-opt %S/Inputs/cpu-matmul-bias-relu-256.mlir --hwsched-target=%t-avx512-1core.json \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main_pipelined \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
// CHECK-DAG: remark: stage 0 on unit load
// CHECK-DAG: remark: stage 1 on unit vector
// CHECK: remark: stages 2 of limit 2: {{.*}}achieved interval
// CHECK-LABEL: func.func @kernel
// CHECK: scf.for {{.+}} iter_args({{.+}}) -> (vector<8x32xf32>, vector<8x1xf32>, vector<1x32xf32>) {
// CHECK: vector.fma
//
// The entry point without pipelining keeps the plain loop (only the
// accumulator carried):
// RUN: hwsched-opt %S/Inputs/cpu-matmul-bias-relu-256.mlir --hwsched-target=%t-avx512-1core.json \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN-NOT: remark: stages
// PLAIN-LABEL: func.func @kernel
// PLAIN-NOT: vector<8x1xf32>, vector<1x32xf32>) {
// PLAIN: scf.for {{.+}} -> (vector<8x32xf32>) {
