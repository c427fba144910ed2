// A 64x64x64 matmul on tensors with an executable @main, for the promotion
// benchmark.
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %e = tensor.empty() : tensor<64x64xf32>
    %a = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<64x64xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %s = arith.addi %i, %j : index
      %c5 = arith.constant 5 : index
      %r = arith.remui %s, %c5 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      linalg.yield %f : f32
    } -> tensor<64x64xf32>
    %zero = arith.constant 0.0 : f32
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = call @matmul(%a, %a, %c) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %m = bufferization.to_buffer %r : tensor<64x64xf32> to memref<64x64xf32>
    %u = memref.cast %m : memref<64x64xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
