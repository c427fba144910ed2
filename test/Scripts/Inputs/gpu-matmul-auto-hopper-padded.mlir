// relu(A x B + bias) (f16 x f16 -> f32, 200x136x100: no extent a whole
// number of 64-element tiles; bias per column)
// with @main for utils/exec-check.py: @gpu_matmul_auto pads the matmul
// with zeros to 256x192x128 for the Hopper kernel and cuts C back; the
// bias + ReLU reads the cut C in a kernel of its own. Inputs as in
// gpu-matmul-auto-hopper.mlir: small integers, every sum exact.
func.func @matmul(%A: tensor<200x100xf16>, %B: tensor<100x136xf16>,
                  %C: tensor<200x136xf32>) -> tensor<200x136xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<200x136xf32>)
      -> tensor<200x136xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<200x100xf16>, tensor<100x136xf16>)
                      outs(%init : tensor<200x136xf32>) -> tensor<200x136xf32>
  // The bias of column j is j mod 7 - 3.
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<200x136xf32>) outs(%C : tensor<200x136xf32>) {
  ^bb0(%x: f32, %out: f32):
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %m = arith.remui %j, %c7 : index
    %s = arith.subi %m, %c3 : index
    %si = arith.index_cast %s : index to i32
    %bias = arith.sitofp %si : i32 to f32
    %sum = arith.addf %x, %bias : f32
    %zf = arith.constant 0.0 : f32
    %relu = arith.maximumf %sum, %zf : f32
    linalg.yield %relu : f32
  } -> tensor<200x136xf32>
  return %r : tensor<200x136xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a0 = tensor.empty() : tensor<200x100xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%a0 : tensor<200x100xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %c5 = arith.constant 5 : index
    %t0 = arith.muli %i, %c7 : index
    %t1 = arith.muli %k, %c3 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c11 : index
    %t4 = arith.subi %t3, %c5 : index
    %t5 = arith.index_cast %t4 : index to i32
    %v = arith.sitofp %t5 : i32 to f16
    linalg.yield %v : f16
  } -> tensor<200x100xf16>
  %b0 = tensor.empty() : tensor<100x136xf16>
  %b = linalg.generic {indexing_maps = [affine_map<(k, j) -> (k, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%b0 : tensor<100x136xf16>) {
  ^bb0(%out: f16):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %c13 = arith.constant 13 : index
    %c9 = arith.constant 9 : index
    %c4 = arith.constant 4 : index
    %t0 = arith.muli %k, %c5 : index
    %t1 = arith.muli %j, %c13 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c9 : index
    %t4 = arith.subi %t3, %c4 : index
    %t5 = arith.index_cast %t4 : index to i32
    %v = arith.sitofp %t5 : i32 to f16
    linalg.yield %v : f16
  } -> tensor<100x136xf16>
  // C starts as garbage (the kernel must overwrite all of it).
  %nan = arith.constant 0x7FC00000 : f32
  %c0 = tensor.empty() : tensor<200x136xf32>
  %c = linalg.fill ins(%nan : f32) outs(%c0 : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = call @matmul(%a, %b, %c)
      : (tensor<200x100xf16>, tensor<100x136xf16>, tensor<200x136xf32>) -> tensor<200x136xf32>
  %u = tensor.cast %r : tensor<200x136xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
