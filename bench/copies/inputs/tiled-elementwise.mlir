// Tiled elementwise chain on tensors: scf.for over 16-row tiles with
// tensor.extract_slice / tensor.insert_slice, and an explicit linalg.copy of
// the input (e.g. left by a front end). @main makes it executable.
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @tiled(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>) -> tensor<64x32xf32> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %e = tensor.empty() : tensor<64x32xf32>
    %acopy = linalg.copy ins(%a : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
    %init = tensor.empty() : tensor<64x32xf32>
    %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%acc = %init) -> tensor<64x32xf32> {
      %ta = tensor.extract_slice %acopy[%i, 0] [16, 32] [1, 1] : tensor<64x32xf32> to tensor<16x32xf32>
      %tb = tensor.extract_slice %b[%i, 0] [16, 32] [1, 1] : tensor<64x32xf32> to tensor<16x32xf32>
      %te = tensor.empty() : tensor<16x32xf32>
      %t1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%ta, %tb : tensor<16x32xf32>, tensor<16x32xf32>) outs(%te : tensor<16x32xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %s = arith.addf %x, %y : f32
        linalg.yield %s : f32
      } -> tensor<16x32xf32>
      %t2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%t1 : tensor<16x32xf32>) outs(%te : tensor<16x32xf32>) {
      ^bb0(%x: f32, %o: f32):
        %m = arith.mulf %x, %x : f32
        linalg.yield %m : f32
      } -> tensor<16x32xf32>
      %ins = tensor.insert_slice %t2 into %acc[%i, 0] [16, 32] [1, 1] : tensor<16x32xf32> into tensor<64x32xf32>
      scf.yield %ins : tensor<64x32xf32>
    }
    return %r : tensor<64x32xf32>
  }

  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %e = tensor.empty() : tensor<64x32xf32>
    %a = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<64x32xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %s = arith.addi %i, %j : index
      %c7 = arith.constant 7 : index
      %r = arith.remui %s, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      linalg.yield %f : f32
    } -> tensor<64x32xf32>
    %b = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<64x32xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %c5 = arith.constant 5 : index
      %r = arith.remui %i, %c5 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      linalg.yield %f : f32
    } -> tensor<64x32xf32>
    %r = call @tiled(%a, %b) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    %m = bufferization.to_buffer %r : tensor<64x32xf32> to memref<64x32xf32>
    %u = memref.cast %m : memref<64x32xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
