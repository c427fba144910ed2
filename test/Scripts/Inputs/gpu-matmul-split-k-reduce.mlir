// Payload of test/Scripts/gpu-matmul-split-k-epilogue.test: a row sum
// consuming the matmul (128^3, split by 4 on the A100): not elementwise, the
// split-K schedule refuses it.
func.func @kernel(%A: tensor<128x128xf32>, %B: tensor<128x128xf32>) -> tensor<128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %e2 = tensor.empty() : tensor<128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128xf32>) -> tensor<128xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<128x128xf32>, tensor<128x128xf32>)
                      outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.reduce ins(%mm : tensor<128x128xf32>) outs(%f2 : tensor<128xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<128xf32>
}
