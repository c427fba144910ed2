// Payload of integration_test/Scripts/gpu-matmul-smem-exec.test: C = relu(A x B + bias),
// f32, M 64, N 128, K 256; integer-valued inputs so that any order of the
// reductions gives the same, exactly representable results.
func.func @kernel(%A: memref<64x256xf32>, %B: memref<256x128xf32>, %Bias: memref<128xf32>, %C: memref<64x128xf32>) {
  %ta = bufferization.to_tensor %A restrict : memref<64x256xf32> to tensor<64x256xf32>
  %tb = bufferization.to_tensor %B restrict : memref<256x128xf32> to tensor<256x128xf32>
  %tv = bufferization.to_tensor %Bias restrict : memref<128xf32> to tensor<128xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  // Defined before the matmul: the epilogue's init must dominate the point
  // it is fused at (filter_fusable_consumers' legality check).
  %e2 = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %mm = linalg.matmul ins(%ta, %tb : tensor<64x256xf32>, tensor<256x128xf32>)
                      outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                        affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %tv : tensor<64x128xf32>, tensor<128xf32>) outs(%e2 : tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x128xf32>
  bufferization.materialize_in_destination %r in restrict writable %C
      : (tensor<64x128xf32>, memref<64x128xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %A = memref.alloc() : memref<64x256xf32>
  %B = memref.alloc() : memref<256x128xf32>
  %Bias = memref.alloc() : memref<128xf32>
  %C = memref.alloc() : memref<64x128xf32>
  // A[i][k] = (i + k) mod 7 - 3, B[k][j] = (2k + j) mod 5 - 2,
  // bias[j] = j mod 3 - 4 (negative often enough for ReLU to clip).
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]} outs(%A : memref<64x256xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %c7 = arith.constant 7 : index
    %r = arith.remui %s, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %c3 = arith.constant 3.0 : f32
    %w = arith.subf %rf, %c3 : f32
    linalg.yield %w : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]} outs(%B : memref<256x128xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %i2 = arith.muli %i, %c2 : index
    %s = arith.addi %i2, %j : index
    %c5 = arith.constant 5 : index
    %r = arith.remui %s, %c5 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %c2f = arith.constant 2.0 : f32
    %w = arith.subf %rf, %c2f : f32
    linalg.yield %w : f32
  }
  linalg.generic {indexing_maps = [affine_map<(j) -> (j)>],
                  iterator_types = ["parallel"]} outs(%Bias : memref<128xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %r = arith.remui %j, %c3 : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %c4f = arith.constant 4.0 : f32
    %w = arith.subf %rf, %c4f : f32
    linalg.yield %w : f32
  }
  call @kernel(%A, %B, %Bias, %C) : (memref<64x256xf32>, memref<256x128xf32>, memref<128xf32>, memref<64x128xf32>) -> ()
  %u = memref.cast %C : memref<64x128xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<64x256xf32>
  memref.dealloc %B : memref<256x128xf32>
  memref.dealloc %Bias : memref<128xf32>
  memref.dealloc %C : memref<64x128xf32>
  return
}
