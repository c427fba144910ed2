// A script library for the hwsched-tune tests. select_tile_config on the
// matmul gives the configuration space; the knob "test.variant" chooses one
// of three schedules: 0 tiles the matmul by the configuration's cache tile
// (correct), 1 tiles K by 16 and pads the partial K tile with ones (a wrong
// result whenever K is not a multiple of 16), 2 fails (a transform error).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @tune_test_main(%module: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %module
        : (!transform.any_op) -> !transform.any_op
    %tiles, %reg, %red, %stages, %threads = transform.cost_model.select_tile_config %mm
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %k = transform.tune.knob<"test.variant"> = 0 : i64 from options = [0, 1, 2]
        -> !transform.param<i64>
    %v = transform.cost_model.tuned_knob %k for %mm
        : (!transform.param<i64>, !transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"test.variant"> selected_region = %v : !transform.param<i64> {
      %mc, %nc, %z = transform.split_handle %tiles
          : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      %t, %l0, %l1 = transform.structured.tile_using_for %mm tile_sizes [%mc, %nc, 0]
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }, {
      %kt, %kl = transform.structured.tile_using_for %mm tile_sizes [0, 0, 16]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %padded, %pad, %copy = transform.structured.pad %kt {
          padding_values = [1.0 : f32, 1.0 : f32, 0.0 : f32],
          padding_dimensions = [2], copy_back_op = "none"}
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }, {
      %one = transform.param.constant 1 : i64 -> !transform.param<i64>
      %two = transform.param.constant 2 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %one, %two : !transform.param<i64>
    }
    transform.yield
  }
}
