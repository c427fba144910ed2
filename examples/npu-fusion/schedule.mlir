// examples/npu-fusion/schedule.mlir: the schedule of input.mlir, the knobs
// (vector tile sizes) and one call per kernel of transform-scripts/npu.mlir.
// Preload it with transform-scripts/npu.mlir and run @npu_fusion_main.
module attributes {transform.with_named_sequence} {
  transform.named_sequence private @npu_fuse_elementwise_chain(
      !transform.any_op {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})
  transform.named_sequence private @npu_cube_reduction(
      !transform.any_op {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})

  transform.named_sequence @npu_fusion_main(%root: !transform.any_op {transform.readonly}) {
    %chain = transform.structured.match ops{["func.func"]} attributes{sym_name = "chain"} in %root
        : (!transform.any_op) -> !transform.any_op
    %cube = transform.structured.match ops{["func.func"]} attributes{sym_name = "cube"} in %root
        : (!transform.any_op) -> !transform.any_op
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    %cols = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @npu_fuse_elementwise_chain failures(propagate) (%chain, %rows, %cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    %crows = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.include @npu_cube_reduction failures(propagate) (%cube, %crows, %cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
