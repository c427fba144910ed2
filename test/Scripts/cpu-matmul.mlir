// transform-scripts/cpu-matmul.mlir keeps the semantics of matmul + bias +
// ReLU (run on the CPU before and after, outputs compared exactly), with
// small explicit tiles and with the tiles it derives from the spec (the
// execution checks are in integration_test/Scripts/cpu-matmul.mlir), and
// produces the intended structure: one packed B panel, the accumulator tile
// carried in vector registers through the K loop, FMAs, the epilogue fused
// into the C-block loop, and B packed once per N block, outside the loop
// over the C blocks of that N block.
//
// Not a power of two: at 384^3 select_tile_config picks 192 x 384 blocks,
// KC = 384 and a 12 x 32 register tile (24 accumulators) for one core of
// x86-avx512 (on its 40 cores: 24 panels of 16 columns on 24 threads).
// RUN: sed 's/256/384/g' %S/Inputs/cpu-matmul-bias-relu-256.mlir > %t-384.mlir
// RUN: %python %S/Inputs/override-spec.py %specs/x86-avx512.json %t-avx512-1core.json \
// RUN:   cpu.cores=1 offchip.bandwidth_gb_per_s=5.12
// RUN: hwsched-opt %t-384.mlir --hwsched-target=%t-avx512-1core.json \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main 2>&1 \
// RUN:   | FileCheck %s --check-prefix=T384
// T384: remark: hwsched cpu matmul: MR (register tile rows) = 12
// T384: scf.for {{.+}} -> (vector<12x32xf32>) {
// T384: vector.fma
// The structure on a simulated 2-core AVX2 host (see
// test/HwSpec/host-spec.mlir), whatever machine runs the test:
// RUN: env HWSCHED_HOST_CPU=znver3 HWSCHED_HOST_FEATURES=+sse2,+avx,+avx2,+fma \
// RUN:   HWSCHED_HOST_SYSFS=%S/../HwSpec/Inputs/host-sysfs/zen3 \
// RUN:   hwsched-opt %S/Inputs/cpu-matmul-bias-relu-small.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir,%S/Inputs/cpu-matmul-small-tiles.mlir \
// RUN:   --transform-interpreter=entry-point=cpu_matmul_small_tiles | FileCheck %s


// Tiles MC=16 NC=32 KC=16 MR=8 NR=32 on 32x64x48: two N blocks of 32
// columns, in each one B panel of 48 x 32 packed once (the first K block of
// 16 x 32 in its own buffer, the two others in a second one) before the two
// C blocks of 16 rows that reuse it.
// The epilogue runs in place (transform.fusion.epilogue_in_place): the
// fill, the matmul and the epilogue all work on the output's block, no
// C-block temporary.
// The two N blocks run on 2 OpenMP threads, each thread packing into its
// own buffers, allocated once per thread at the parallel region.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME:    %[[C:[a-z0-9]+]]: memref<32x64xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         omp.parallel num_threads(%{{.+}} : i32) {
// CHECK-DAG:       %[[PACK0:.+]] = memref.alloca() {alignment = 64 : i64} : memref<16x32xf32>
// CHECK-DAG:       %[[PACK:.+]] = memref.alloca() {alignment = 64 : i64} : memref<2x1x16x32xf32>
// CHECK-NOT:     memref.alloc
// CHECK:           omp.wsloop {
// CHECK:           omp.loop_nest (%[[J:.+]]) : index = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) {
// Pack the panel row by row (NR-wide vector loads/stores): the first K
// block, then the others, K blocks outer.
// CHECK:           scf.for
// CHECK:             %[[ROW0:.+]] = vector.load %{{.+}}[%{{.+}}, %[[J]]] : memref<48x64xf32>, vector<32xf32>
// CHECK:             vector.store %[[ROW0]], %[[PACK0]]
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               %[[ROW:.+]] = vector.load %{{.+}}[%{{.+}}, %[[J]]] : memref<48x64xf32>, vector<32xf32>
// CHECK:               vector.store %[[ROW]], %[[PACK]]
// The C blocks of this N block.
// CHECK:           scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// The first K block: each register tile starts from the fill, fused into
// it (zeros stored into the C tile of the output right before the tile is
// read; no separate pass over the C block).
// CHECK-NOT:         scf.for
// CHECK:             scf.for
// CHECK-NOT:           scf.for
// CHECK:               vector.store %{{.+}}, %[[C]]
// CHECK-NOT:           scf.for
// CHECK:               vector.load %{{.+}}[%{{.+}}, %[[J]]] : memref<32x64xf32>, vector<32xf32>
// CHECK:               %[[ACC0:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}) -> (vector<8x32xf32>) {
// CHECK:                 vector.load %[[PACK0]]
// CHECK:                 vector.broadcast %{{.+}} : f32 to vector<32xf32>
// CHECK:                 vector.fma %{{.+}} : vector<32xf32>
// CHECK:                 scf.yield %{{.+}} : vector<8x32xf32>
// CHECK:               } {hwsched.micro_k}
// The other K blocks, then the register tiles.
// CHECK:             scf.for
// CHECK:               scf.for
// CHECK:                 %[[ACC:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}) -> (vector<8x32xf32>) {
// CHECK:                   vector.load %[[PACK]]
// CHECK:                   vector.broadcast %{{.+}} : f32 to vector<32xf32>
// CHECK:                   vector.fma %{{.+}} : vector<32xf32>
// CHECK:                   scf.yield %{{.+}} : vector<8x32xf32>
// CHECK:                 } {hwsched.micro_k}
// The epilogue on the C block, in place, before the next block starts.
// CHECK:             arith.addf %{{.+}} : vector<{{(1x)?}}32xf32>
// CHECK:             arith.maximumf %{{.+}} : vector<{{(1x)?}}32xf32>
// CHECK:             vector.store %{{.+}}, %[[C]]
// CHECK:           }
// CHECK:         }
// CHECK-NOT:     linalg.
// CHECK:         return
// The rest of the module (the inputs of @main) is left alone.
// CHECK-LABEL: func.func @main
// CHECK:         linalg.generic
