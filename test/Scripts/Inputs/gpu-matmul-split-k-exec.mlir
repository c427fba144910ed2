// Payload of integration_test/Scripts/gpu-matmul-split-k-exec.test: C = A x B, f32,
// M 128, N 128, K 128 (select_tile_config splits K by 4 on the H100 and, by
// the SM-fill rule, on the A100);
// integer-valued inputs so that any order of the reductions (the split
// partial sums included) gives the same, exactly representable results.
func.func @kernel(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) {
  %ta = bufferization.to_tensor %A restrict : memref<128x128xf32> to tensor<128x128xf32>
  %tb = bufferization.to_tensor %B restrict : memref<128x128xf32> to tensor<128x128xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul ins(%ta, %tb : tensor<128x128xf32>, tensor<128x128xf32>)
                      outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  bufferization.materialize_in_destination %mm in restrict writable %C
      : (tensor<128x128xf32>, memref<128x128xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %A = memref.alloc() : memref<128x128xf32>
  %B = memref.alloc() : memref<128x128xf32>
  %C = memref.alloc() : memref<128x128xf32>
  // A[i][k] = (i + k) mod 7 - 3, B[k][j] = (2k + j) mod 5 - 2.
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]} outs(%A : memref<128x128xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %cm = arith.constant 1 : index
    %im = arith.muli %i, %cm : index
    %s = arith.addi %im, %j : index
    %cd = arith.constant 7 : index
    %r = arith.remui %s, %cd : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %cs = arith.constant 3.0 : f32
    %w = arith.subf %rf, %cs : f32
    linalg.yield %w : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]} outs(%B : memref<128x128xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %cm = arith.constant 2 : index
    %im = arith.muli %i, %cm : index
    %s = arith.addi %im, %j : index
    %cd = arith.constant 5 : index
    %r = arith.remui %s, %cd : index
    %ri = arith.index_cast %r : index to i32
    %rf = arith.sitofp %ri : i32 to f32
    %cs = arith.constant 2.0 : f32
    %w = arith.subf %rf, %cs : f32
    linalg.yield %w : f32
  }
  call @kernel(%A, %B, %C) : (memref<128x128xf32>, memref<128x128xf32>, memref<128x128xf32>) -> ()
  %u = memref.cast %C : memref<128x128xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<128x128xf32>
  memref.dealloc %B : memref<128x128xf32>
  memref.dealloc %C : memref<128x128xf32>
  return
}
