// Two matmuls of different shapes in one handle, and a knob read for both
// (tuning-database.test: a database that gives the knob a different value
// for each problem is refused).
module attributes {transform.with_named_sequence} {
  func.func @mm(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>,
                %d: tensor<128x128xf32>, %e: tensor<128x128xf32>, %f: tensor<128x128xf32>)
      -> (tensor<256x256xf32>, tensor<128x128xf32>) {
    %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    %s = linalg.matmul ins(%d, %e : tensor<128x128xf32>, tensor<128x128xf32>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
    return %r, %s : tensor<256x256xf32>, tensor<128x128xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.tune.knob<"test.choice"> = 0 : i64 from options = [0, 1, 2] -> !transform.param<i64>
    %v = transform.cost_model.tuned_knob %k for %mm { target = "x86-avx512" } : (!transform.param<i64>, !transform.any_op) -> !transform.param<i64>
    transform.debug.emit_param_as_remark %v, "test.choice" : !transform.param<i64>
    transform.yield
  }
}
