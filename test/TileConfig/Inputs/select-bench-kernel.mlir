// Two Linalg ops for select-bench.test: a matmul and an elementwise add.
func.func @kernel(%A: tensor<256x128xf32>, %B: tensor<128x512xf32>, %C: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<256x128xf32>, tensor<128x512xf32>) outs(%C : tensor<256x512xf32>) -> tensor<256x512xf32>
  %s = linalg.add ins(%r, %C : tensor<256x512xf32>, tensor<256x512xf32>) outs(%C : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %s : tensor<256x512xf32>
}
