// The tile sizes of transform-scripts/cpu-matmul.mlir come from the spec,
// through transform.cost_model.select_tile_config: the same unedited script
// picks MC, NC, KC, MR, NR = 256, 256, 256, 8, 32 for a 256^3 matmul on
// x86-avx512 planned for one thread (48 KiB L1d, 1.25 MiB L2, 32 zmm;
// cpu.cores = 1 with one core's share of the bandwidth, 204.8 / 40 GB/s),
// and on that core with single figures overridden: a
// 256 KiB L2 (cpu.l2_bytes and the on-chip capacity) narrows the cache
// block to 256 x 64 (KC 256: the packed B panel, 64 KiB, counts at its size,
// the unpacked 64 KiB C block twice; all 256 rows, so B is read once while
// A, which stays in the L3, is re-read per panel at a quarter of the
// off-chip price); 16 vector registers halve the register
// tile to 4 x 32. With its 40 cores the column panels run on threads: 16
// panels of 16 columns (16 x 16 register tiles, one zmm wide), on 16
// threads, beat 8 panels of 32. A small 4-core AVX2 core (32 KiB L1d,
// 256 KiB L2, 16 ymm) gets 4 x 16 register tiles and 4 panels of 64.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/override-spec.py %specs/x86-avx512.json %t/avx512-1core.json \
// RUN:   cpu.cores=1 offchip.bandwidth_gb_per_s=5.12
// RUN: hwsched-opt %s --hwsched-target=%t/avx512-1core.json \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=AVX512
// RUN: hwsched-opt %s --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=AVX512MT
// RUN: hwsched-opt %s --hwsched-target=%S/Inputs/x86-avx2-test.json \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: %python %S/Inputs/override-spec.py %specs/x86-avx512.json %t/avx512-l2-256k.json \
// RUN:   cpu.l2_bytes=262144 onchip.capacity_bytes=262144 cpu.cores=1 offchip.bandwidth_gb_per_s=5.12
// RUN: hwsched-opt %s --hwsched-target=%t/avx512-l2-256k.json \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=SMALLL2
// RUN: %python %S/Inputs/override-spec.py %specs/x86-avx512.json %t/avx512-16regs.json \
// RUN:   cpu.vector_registers=16 cpu.cores=1 offchip.bandwidth_gb_per_s=5.12
// RUN: hwsched-opt %s --hwsched-target=%t/avx512-16regs.json \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=REGS16
// RUN: not hwsched-opt %s --hwsched-target=nvidia-a100 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=GPU

// AVX512: remark: MC 256 : i64
// AVX512: remark: NC 256 : i64
// AVX512: remark: KC 256 : i64
// AVX512: remark: MR 8 : i64
// AVX512: remark: NR 32 : i64

// AVX512MT: remark: MC 256 : i64
// AVX512MT: remark: NC 16 : i64
// AVX512MT: remark: KC 256 : i64
// AVX512MT: remark: MR 16 : i64
// AVX512MT: remark: NR 16 : i64

// AVX2: remark: MC 256 : i64
// AVX2: remark: NC 64 : i64
// AVX2: remark: KC 256 : i64
// AVX2: remark: MR 4 : i64
// AVX2: remark: NR 16 : i64

// SMALLL2: remark: MC 256 : i64
// SMALLL2: remark: NC 64 : i64
// SMALLL2: remark: KC 256 : i64
// SMALLL2: remark: MR 8 : i64
// SMALLL2: remark: NR 32 : i64

// REGS16: remark: MC 256 : i64
// REGS16: remark: NC 256 : i64
// REGS16: remark: KC 256 : i64
// REGS16: remark: MR 4 : i64
// REGS16: remark: NR 32 : i64

// A GPU spec has no cpu.* figures: the failure names the key.
// GPU: has no figure 'cpu.vector_width_bits'

module attributes {transform.with_named_sequence} {
  func.func @kernel(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>,
                    %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>)
                       outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }

  transform.named_sequence private @hwsched_cpu_matmul_tiles_from_spec(
      !transform.any_op {transform.readonly})
      -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>)

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %mc, %nc, %kc, %mr, %nr = transform.include @hwsched_cpu_matmul_tiles_from_spec
        failures(propagate) (%mm)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
            !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %mc, "MC" : !transform.param<i64>
    transform.debug.emit_param_as_remark %nc, "NC" : !transform.param<i64>
    transform.debug.emit_param_as_remark %kc, "KC" : !transform.param<i64>
    transform.debug.emit_param_as_remark %mr, "MR" : !transform.param<i64>
    transform.debug.emit_param_as_remark %nr, "NR" : !transform.param<i64>
    transform.yield
  }
}
