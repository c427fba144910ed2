// A 256^3 matmul and a script that asks select_tile_config for its tiles
// (CPU spec, as @hwsched_cpu_matmul_tiles_from_spec does) and prints them.
module attributes {transform.with_named_sequence} {
  func.func @mm(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    return %r : tensor<256x256xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %mm { target = "x86-avx512", packed_operands = array<i64: 1> } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.debug.emit_param_as_remark %t#0, "tile_sizes" at %mm : !transform.param<i64>, !transform.any_op
    transform.debug.emit_param_as_remark %t#1, "thread_tile_sizes" at %mm : !transform.param<i64>, !transform.any_op
    transform.debug.emit_param_as_remark %t#2, "reduction_tile_sizes" at %mm : !transform.param<i64>, !transform.any_op
    %k = transform.tune.knob<"test.choice"> = 0 : i64 from options = [0, 1, 2] -> !transform.param<i64>
    %v = transform.cost_model.tuned_knob %k for %mm { target = "x86-avx512" } : (!transform.param<i64>, !transform.any_op) -> !transform.param<i64>
    transform.debug.emit_param_as_remark %v, "test.choice" at %mm : !transform.param<i64>, !transform.any_op
    transform.tune.alternatives<"test.choice"> selected_region = %v : !transform.param<i64> {
      transform.debug.emit_remark_at %mm, "region 0" : !transform.any_op
    }, {
      transform.debug.emit_remark_at %mm, "region 1" : !transform.any_op
    }, {
      transform.debug.emit_remark_at %mm, "region 2" : !transform.any_op
    }
    transform.yield
  }
}
