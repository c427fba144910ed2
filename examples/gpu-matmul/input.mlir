// examples/gpu-matmul/input.mlir: matmul + bias + ReLU on tensors,
//   out = relu(A * B + broadcast_rows(bias)),
// scheduled by transform-scripts/gpu-matmul.mlir @gpu_matmul_smem_pipelined
// (see README.md and run.py).

#map_bias = affine_map<(d0, d1) -> (d1)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>

func.func @matmul_bias_relu(%A: tensor<512x256xf32>, %B: tensor<256x512xf32>,
                            %bias: tensor<512xf32>, %out: tensor<512x512xf32>)
    -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<512x512xf32>)
      -> tensor<512x512xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<512x256xf32>, tensor<256x512xf32>)
                      outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  %res = linalg.generic {indexing_maps = [#map_id, #map_bias, #map_id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<512x512xf32>, tensor<512xf32>)
      outs(%out : tensor<512x512xf32>) {
  ^bb0(%acc: f32, %b: f32, %o: f32):
    %sum = arith.addf %acc, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<512x512xf32>
  return %res : tensor<512x512xf32>
}
