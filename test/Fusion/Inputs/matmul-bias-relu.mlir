// Payload for test/Fusion/epilogue-in-place.mlir: relu(A x B + bias) on
// tensors, into an output argument, with a @main that prints C.
func.func @kernel(%A: memref<16x8xf32>, %B: memref<8x24xf32>, %V: memref<24xf32>, %C: memref<16x24xf32>) {
  %a = bufferization.to_tensor %A restrict : memref<16x8xf32> to tensor<16x8xf32>
  %b = bufferization.to_tensor %B restrict : memref<8x24xf32> to tensor<8x24xf32>
  %v = bufferization.to_tensor %V restrict : memref<24xf32> to tensor<24xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x24xf32>) outs(%f : tensor<16x24xf32>) -> tensor<16x24xf32>
  %d = tensor.empty() : tensor<16x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %v : tensor<16x24xf32>, tensor<24xf32>) outs(%d : tensor<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x24xf32>
  bufferization.materialize_in_destination %r in restrict writable %C : (tensor<16x24xf32>, memref<16x24xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %A = memref.alloc() : memref<16x8xf32>
  %B = memref.alloc() : memref<8x24xf32>
  %V = memref.alloc() : memref<24xf32>
  %C = memref.alloc() : memref<16x24xf32>
  // C starts as garbage-like values: the result must not depend on them.
  %c9 = arith.constant 9.0 : f32
  linalg.fill ins(%c9 : f32) outs(%C : memref<16x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%A : memref<16x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %c5 = arith.constant 5 : index
    %r = arith.remui %s, %c5 : index
    %ri = arith.index_cast %r : index to i32
    %w = arith.sitofp %ri : i32 to f32
    %c2 = arith.constant 2.0 : f32
    %x = arith.subf %w, %c2 : f32
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%B : memref<8x24xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i3 = arith.muli %i, %i : index
    %s = arith.addi %i3, %j : index
    %c7 = arith.constant 7 : index
    %r = arith.remui %s, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %w = arith.sitofp %ri : i32 to f32
    %c3 = arith.constant 3.0 : f32
    %x = arith.subf %w, %c3 : f32
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [affine_map<(j) -> (j)>], iterator_types = ["parallel"]} outs(%V : memref<24xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %r = arith.remui %j, %c3 : index
    %ri = arith.index_cast %r : index to i32
    %w = arith.sitofp %ri : i32 to f32
    %c1 = arith.constant 1.0 : f32
    %x = arith.subf %w, %c1 : f32
    linalg.yield %x : f32
  }
  call @kernel(%A, %B, %V, %C) : (memref<16x8xf32>, memref<8x24xf32>, memref<24xf32>, memref<16x24xf32>) -> ()
  %u = memref.cast %C : memref<16x24xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
