// Entry point for test/Scripts/cpu-matmul.mlir: the CPU schedule of
// transform-scripts/cpu-matmul.mlir with small tiles given as params (the
// knobs a user or select_tile_config passes), so that a 32x64x48 problem has
// two N blocks, two C blocks per N block, three K blocks and two register
// tiles per C block; the epilogue runs in place (as in
// @hwsched_cpu_matmul_main).
module attributes {transform.with_named_sequence} {
  transform.named_sequence private @hwsched_cpu_match_epilogue(
      !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence private @hwsched_cpu_matmul_tile(
      !transform.any_op {transform.consumed},
      !transform.param<i64> {transform.readonly}, !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly}, !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})
  transform.named_sequence private @hwsched_cpu_bufferize_and_lower(
      !transform.any_op {transform.consumed})

  transform.named_sequence @cpu_matmul_small_tiles(
      %module: !transform.any_op {transform.consumed}) {
    %mc = transform.param.constant 16 : i64 -> !transform.param<i64>
    %nc = transform.param.constant 32 : i64 -> !transform.param<i64>
    %kc = transform.param.constant 16 : i64 -> !transform.param<i64>
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %nr = transform.param.constant 32 : i64 -> !transform.param<i64>
    %epilogue = transform.collect_matching @hwsched_cpu_match_epilogue in %module
        : (!transform.any_op) -> !transform.any_op
    %in_place = transform.fusion.epilogue_in_place %epilogue
        : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_cpu_matmul_tile failures(propagate)
        (%in_place, %mc, %nc, %kc, %mr, %nr)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.include @hwsched_cpu_bufferize_and_lower failures(propagate) (%module)
        : (!transform.any_op) -> ()
    transform.yield
  }
}
