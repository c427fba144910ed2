// C += A x B (f16 x f16 -> f32, 256x256x128) with @main for
// utils/exec-check.py, for @gpu_matmul_auto's route of an accumulating
// matmul to the tensor-core kernel: transform.hwsched.split_accumulation
// makes it a zero-filled product (the kernel) and an addition of C (a
// kernel of its own after it). C starts as small integers (i - j mod 5);
// inputs as in gpu-matmul-auto-hopper.mlir: every sum exact.
func.func @matmul(%A: tensor<256x128xf16>, %B: tensor<128x256xf16>,
                  %C: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %mm = linalg.matmul ins(%A, %B : tensor<256x128xf16>, tensor<128x256xf16>)
                      outs(%C : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %mm : tensor<256x256xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a0 = tensor.empty() : tensor<256x128xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%a0 : tensor<256x128xf16>) {
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
  } -> tensor<256x128xf16>
  %b0 = tensor.empty() : tensor<128x256xf16>
  %b = linalg.generic {indexing_maps = [affine_map<(k, j) -> (k, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%b0 : tensor<128x256xf16>) {
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
  } -> tensor<128x256xf16>
  // C = (i - j) mod 5, accumulated into.
  %c0 = tensor.empty() : tensor<256x256xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%c0 : tensor<256x256xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %d = arith.subi %i, %j : index
    %di = arith.index_cast %d : index to i32
    %c5i = arith.constant 5 : i32
    %m = arith.remsi %di, %c5i : i32
    %v = arith.sitofp %m : i32 to f32
    linalg.yield %v : f32
  } -> tensor<256x256xf32>
  %r = call @matmul(%a, %b, %c)
      : (tensor<256x128xf16>, tensor<128x256xf16>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %u = tensor.cast %r : tensor<256x256xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
