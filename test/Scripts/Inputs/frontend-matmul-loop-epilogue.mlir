// A matmul accumulating in the payload's own K loop whose result (the
// loop's) feeds an elementwise op (IREE SPIR-V vectorize_matmul tests): the
// matmul's only user is the scf.yield, so the elementwise op is not its
// epilogue (fusing it as one failed in fuse_into_containing_op: 'could not
// find next producer to fuse into container').
func.func @loop_epilogue(%a: tensor<8x64xf32>, %b: tensor<64x16xf32>, %x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %f0 = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<8x16xf32>
  %fill = linalg.fill ins(%f0 : f32) outs(%init : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %fill) -> (tensor<8x16xf32>) {
    %as = tensor.extract_slice %a[0, %k] [8, 16] [1, 1] : tensor<8x64xf32> to tensor<8x16xf32>
    %bs = tensor.extract_slice %b[%k, 0] [16, 16] [1, 1] : tensor<64x16xf32> to tensor<16x16xf32>
    %c = linalg.matmul ins(%as, %bs : tensor<8x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.yield %c : tensor<8x16xf32>
  }
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.sub ins(%mm, %x : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
