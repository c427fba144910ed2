// Entry points for the NPU script tests and exec-checks: each binds the
// knobs of a transform-scripts/npu.mlir sequence and calls it. Preload
// together with transform-scripts/npu.mlir.
module attributes {transform.with_named_sequence} {
  transform.named_sequence private @npu_fuse_elementwise_chain(
      !transform.any_op {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})
  transform.named_sequence private @npu_fuse_and_pipeline_elementwise_chain(
      !transform.any_op {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})
  transform.named_sequence private @npu_cube_reduction(
      !transform.any_op {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})

  // The chain with 16x32 vector tiles.
  transform.named_sequence @chain_16x32(%root: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    %cols = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @npu_fuse_elementwise_chain failures(propagate) (%root, %rows, %cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // The chain fused with 16x32 tiles and pipelined in the UB (ping-pong).
  transform.named_sequence @chain_pipelined_16x32(%root: !transform.any_op {transform.readonly}) {
    %chain = transform.structured.match ops{["func.func"]} attributes{sym_name = "chain"} in %root
        : (!transform.any_op) -> !transform.any_op
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    %cols = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @npu_fuse_and_pipeline_elementwise_chain failures(propagate) (%chain, %rows, %cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // Bad handle: the pipelined chain sequence given the module, not a
  // func.func.
  transform.named_sequence @chain_pipelined_on_module(%root: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    %cols = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @npu_fuse_and_pipeline_elementwise_chain failures(propagate) (%root, %rows, %cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // Cube + consumers with 8x32 tiles for the accepted consumers.
  transform.named_sequence @cube_8x32(%root: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 8 : i64 -> !transform.param<i64>
    %cols = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @npu_cube_reduction failures(propagate) (%root, %rows, %cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // Bad knob: a zero tile size (refused by the script).
  transform.named_sequence @chain_zero_tile(%root: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 0 : i64 -> !transform.param<i64>
    %cols = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @npu_fuse_elementwise_chain failures(propagate) (%root, %rows, %cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
