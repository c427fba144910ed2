// Concatenation and padding on tensors: results computed separately and
// inserted into a larger tensor (tensor.insert_slice, tensor.pad), the
// pattern that bufferizes to "compute into a temporary, copy into a
// subview". @main makes it executable.
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @concat(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<18x18xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x16xf32>
    %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<8x16xf32>
    %diff = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.subf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<8x16xf32>
    %full = tensor.empty() : tensor<16x16xf32>
    %c1 = tensor.insert_slice %sum into %full[0, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<16x16xf32>
    %c2 = tensor.insert_slice %diff into %c1[8, 0] [8, 16] [1, 1] : tensor<8x16xf32> into tensor<16x16xf32>
    %padded = tensor.pad %c2 low[1, 1] high[1, 1] {
    ^bb0(%i: index, %j: index):
      tensor.yield %zero : f32
    } : tensor<16x16xf32> to tensor<18x18xf32>
    return %padded : tensor<18x18xf32>
  }

  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %e = tensor.empty() : tensor<8x16xf32>
    %a = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x16xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %s = arith.addi %i, %j : index
      %ri = arith.index_cast %s : index to i32
      %f = arith.sitofp %ri : i32 to f32
      linalg.yield %f : f32
    } -> tensor<8x16xf32>
    %b = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x16xf32>) {
    ^bb0(%o: f32):
      %j = linalg.index 1 : index
      %ri = arith.index_cast %j : index to i32
      %f = arith.sitofp %ri : i32 to f32
      linalg.yield %f : f32
    } -> tensor<8x16xf32>
    %r = call @concat(%a, %b) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<18x18xf32>
    %m = bufferization.to_buffer %r : tensor<18x18xf32> to memref<18x18xf32>
    %u = memref.cast %m : memref<18x18xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
