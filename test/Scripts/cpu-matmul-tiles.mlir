// The tile sizes of transform-scripts/cpu-matmul.mlir come from the spec:
// the same unedited script picks MC, NC, KC, MR, NR = 128, 256, 256, 8, 32 on
// x86-avx512 (48 KiB L1d, 1.25 MiB L2, 32 zmm) and 32, 64, 256, 4, 16 on a
// small AVX2 core (32 KiB L1d, 256 KiB L2, 16 ymm).
//
// RUN: hwsched-opt %s --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=AVX512
// RUN: hwsched-opt %s --hwsched-target=%S/Inputs/x86-avx2-test.json \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: not hwsched-opt %s --hwsched-target=nvidia-a100 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s --check-prefix=GPU

// AVX512: remark: MC 128 : i64
// AVX512: remark: NC 256 : i64
// AVX512: remark: KC 256 : i64
// AVX512: remark: MR 8 : i64
// AVX512: remark: NR 32 : i64

// AVX2: remark: MC 32 : i64
// AVX2: remark: NC 64 : i64
// AVX2: remark: KC 256 : i64
// AVX2: remark: MR 4 : i64
// AVX2: remark: NR 16 : i64

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
