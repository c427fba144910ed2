// Tiles from the spec fit the problem: select_tile_config keeps every tile
// within its dimension, so on x86-avx512 a 64x16x48 matmul gets MC = 64 (M),
// NC = 16 (N), KC = 48 (K) and a 16 x 16 register tile (NR is one vector:
// N = 16), instead of 256, 256, 256, 8, 32 for a large problem.
//
// RUN: hwsched-opt %s --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter 2>&1 | FileCheck %s

// CHECK: remark: MC 64 : i64
// CHECK: remark: NC 16 : i64
// CHECK: remark: KC 48 : i64
// CHECK: remark: MR 16 : i64
// CHECK: remark: NR 16 : i64

module attributes {transform.with_named_sequence} {
  func.func @kernel(%a: tensor<64x48xf32>, %b: tensor<48x16xf32>,
                    %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x16xf32>)
                       outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
    return %r : tensor<64x16xf32>
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
