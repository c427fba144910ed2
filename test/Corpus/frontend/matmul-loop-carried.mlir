// C += A_i * B_i accumulated into a loop-carried value (a recurrence over
// time steps, or a frontend's own K chunking): the matmul's init is the
// scf.for iter_arg. f32, 3 steps of M 32, N 64, K 16.
func.func @recurrent(%A: tensor<3x32x16xf32>, %B: tensor<3x16x64xf32>) -> tensor<32x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<32x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %2 = scf.for %t = %c0 to %c3 step %c1 iter_args(%acc = %1) -> (tensor<32x64xf32>) {
    %a = tensor.extract_slice %A[%t, 0, 0] [1, 32, 16] [1, 1, 1] : tensor<3x32x16xf32> to tensor<32x16xf32>
    %b = tensor.extract_slice %B[%t, 0, 0] [1, 16, 64] [1, 1, 1] : tensor<3x16x64xf32> to tensor<16x64xf32>
    %3 = linalg.matmul ins(%a, %b : tensor<32x16xf32>, tensor<16x64xf32>) outs(%acc : tensor<32x64xf32>) -> tensor<32x64xf32>
    scf.yield %3 : tensor<32x64xf32>
  }
  return %2 : tensor<32x64xf32>
}
