// Batched matmul (4 batches) + a reduction consumer summing the batches.
// Root: the reduction.
func.func @bmm_batchsum(%A: tensor<4x256x64xf32>, %B: tensor<4x64x256xf32>,
                        %out: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %bmm = linalg.batch_matmul {producer} ins(%A, %B : tensor<4x256x64xf32>, tensor<4x64x256xf32>)
                             outs(%init : tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%out : tensor<256x256xf32>) -> tensor<256x256xf32>
  %res = linalg.generic {root, indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%bmm : tensor<4x256x256xf32>) outs(%acc : tensor<256x256xf32>) {
  ^bb0(%x: f32, %s: f32):
    %a = arith.addf %s, %x : f32
    linalg.yield %a : f32
  } -> tensor<256x256xf32>
  return %res : tensor<256x256xf32>
}
