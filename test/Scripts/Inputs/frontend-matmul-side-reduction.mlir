// IREE's DispatchCreation/test/sink_reshapes.mlir @better_producer_estimate,
// scaled down (2x4096x640 -> 2x256x64, i32 -> f32): a batch matmul with B
// read as N x K, and beside it a row sum of the same LHS that is not part
// of the scheduled chain (it stays outside the schedule's loops).
func.func @matmul_and_row_sum(%lhs: tensor<2x256x64xf32>, %rhs: tensor<2x48x64xf32>,
    %acc: tensor<2x256x48xf32>, %sum: tensor<2x256xf32>) -> (tensor<2x256x48xf32>, tensor<2x256xf32>) {
  %bmm = linalg.batch_matmul
      indexing_maps = [
        affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
        affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>,
        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
      ]
      ins(%lhs, %rhs : tensor<2x256x64xf32>, tensor<2x48x64xf32>)
      outs(%acc : tensor<2x256x48xf32>) -> tensor<2x256x48xf32>
  %rows = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%lhs : tensor<2x256x64xf32>) outs(%sum : tensor<2x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    } -> tensor<2x256xf32>
  return %bmm, %rows : tensor<2x256x48xf32>, tensor<2x256xf32>
}
