// Entry points for the GPU script tests: each binds the knobs of
// transform-scripts/gpu-matmul.mlir @gpu_matmul_epilogue (linked here as
// gpu-matmul.mlir, so that this directory is one transform library for
// utils/ptxas-report.py --transform-library).
module attributes {transform.with_named_sequence} {
  transform.named_sequence private @gpu_matmul_epilogue(
      !transform.any_op {transform.consumed},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly},
      !transform.param<i64> {transform.readonly})

  // 64x64 per block, 4x4 per thread (16x16 threads), K step 4.
  transform.named_sequence @gpu_mm_64_4_k4(%root: !transform.any_op {transform.consumed}) {
    %block = transform.param.constant 64 : i64 -> !transform.param<i64>
    %thread = transform.param.constant 4 : i64 -> !transform.param<i64>
    %k = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_epilogue failures(propagate) (%root, %block, %thread, %k)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 128x128 per block, 8x8 per thread (16x16 threads), K step 4.
  transform.named_sequence @gpu_mm_128_8_k4(%root: !transform.any_op {transform.consumed}) {
    %block = transform.param.constant 128 : i64 -> !transform.param<i64>
    %thread = transform.param.constant 8 : i64 -> !transform.param<i64>
    %k = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_epilogue failures(propagate) (%root, %block, %thread, %k)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
