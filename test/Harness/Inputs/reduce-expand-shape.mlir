// A batch matmul's result expanded to 4-D (output_shape [2, 600, 600, 1])
// and narrowed by an elementwise op, as IREE's sink_reshapes tests write
// it: both tensor types reach a Linalg op, so both shrink, and the static
// entries of output_shape follow the new result type.
func.func @bmm_expand(%a: tensor<2x600x600xf32>, %b: tensor<2x600x600xf32>, %c: tensor<2x600x600xf32>) -> tensor<2x600x600x1xf16> {
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x600x600xf32>, tensor<2x600x600xf32>) outs(%c : tensor<2x600x600xf32>) -> tensor<2x600x600xf32>
  %x = tensor.expand_shape %m [[0], [1], [2, 3]] output_shape [2, 600, 600, 1] : tensor<2x600x600xf32> into tensor<2x600x600x1xf32>
  %e = tensor.empty() : tensor<2x600x600x1xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x600x600x1xf32>) outs(%e : tensor<2x600x600x1xf16>) {
  ^bb0(%in: f32, %out: f16):
    %h = arith.truncf %in : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x600x600x1xf16>
  return %t : tensor<2x600x600x1xf16>
}
