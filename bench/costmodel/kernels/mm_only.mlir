// matmul alone (the unfused producer kernel). Root: the matmul.
func.func @mm_only(%A: tensor<512x256xf32>, %B: tensor<256x512xf32>,
                   %out: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<512x512xf32>) -> tensor<512x512xf32>
  %mm = linalg.matmul {producer, root} ins(%A, %B : tensor<512x256xf32>, tensor<256x512xf32>)
                      outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %mm : tensor<512x512xf32>
}
