// The CPU matmul + bias + ReLU chain on memrefs (as bench/cpu-matmul and
// bench/tuning measure it), 64 x 64 x 64.
func.func @kernel(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %Bias: memref<64xf32>, %C: memref<64x64xf32>) {
  %ta = bufferization.to_tensor %A restrict : memref<64x64xf32> to tensor<64x64xf32>
  %tb = bufferization.to_tensor %B restrict : memref<64x64xf32> to tensor<64x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%ta, %tb : tensor<64x64xf32>, tensor<64x64xf32>)
                      outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %bv = bufferization.to_tensor %Bias restrict : memref<64xf32> to tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                        affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bv : tensor<64x64xf32>, tensor<64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %C
      : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
  return
}
