// C = 0; C += A x B (bf16 x bf16 -> f32, 256x256x128) with @main for
// utils/exec-check.py: small integer inputs that vary along both dimensions
// of each operand (A[i][k] = (7i + 3k) mod 11 - 5, B[k][j] = (5k + 13j) mod
// 9 - 4), exact in bf16 (8-bit mantissas: integers up to 256 are exact),
// every product sum exact in f32, so any misplaced row, column or K step
// changes the printed C.
func.func @matmul(%A: tensor<256x128xbf16>, %B: tensor<128x256xbf16>,
                  %C: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%C : tensor<256x256xf32>)
      -> tensor<256x256xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<256x128xbf16>, tensor<128x256xbf16>)
                      outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %mm : tensor<256x256xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a0 = tensor.empty() : tensor<256x128xbf16>
  %a = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%a0 : tensor<256x128xbf16>) {
  ^bb0(%out: bf16):
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
    %v = arith.sitofp %t5 : i32 to bf16
    linalg.yield %v : bf16
  } -> tensor<256x128xbf16>
  %b0 = tensor.empty() : tensor<128x256xbf16>
  %b = linalg.generic {indexing_maps = [affine_map<(k, j) -> (k, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%b0 : tensor<128x256xbf16>) {
  ^bb0(%out: bf16):
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
    %v = arith.sitofp %t5 : i32 to bf16
    linalg.yield %v : bf16
  } -> tensor<128x256xbf16>
  // C starts as garbage (the kernel must overwrite all of it).
  %nan = arith.constant 0x7FC00000 : f32
  %c0 = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%nan : f32) outs(%c0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = call @matmul(%a, %b, %c)
      : (tensor<256x128xbf16>, tensor<128x256xbf16>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %u = tensor.cast %r : tensor<256x256xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
