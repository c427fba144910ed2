// Add + Mul + ReLU chain with a main that prints the result (exec-check).
func.func @chain(%x: tensor<32x16xf32>, %y: tensor<32x16xf32>, %z: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %e = tensor.empty() : tensor<32x16xf32>
  %a = linalg.add {producer} ins(%x, %y : tensor<32x16xf32>, tensor<32x16xf32>) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %m = linalg.mul ins(%a, %z : tensor<32x16xf32>, tensor<32x16xf32>) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<32x16xf32>) outs(%e : tensor<32x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %v, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %x = tensor.generate {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %c = arith.index_cast %s : index to i32
    %f = arith.sitofp %c : i32 to f32
    %q = arith.constant 0.25 : f32
    %v = arith.mulf %f, %q : f32
    tensor.yield %v : f32
  } : tensor<32x16xf32>
  %y = tensor.generate {
  ^bb0(%i: index, %j: index):
    %c = arith.index_cast %j : index to i32
    %f = arith.sitofp %c : i32 to f32
    %k = arith.constant -2.0 : f32
    %v = arith.addf %f, %k : f32
    tensor.yield %v : f32
  } : tensor<32x16xf32>
  %z = tensor.generate {
  ^bb0(%i: index, %j: index):
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %k = arith.constant -0.5 : f32
    %v = arith.mulf %f, %k : f32
    tensor.yield %v : f32
  } : tensor<32x16xf32>
  %r = call @chain(%x, %y, %z) : (tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  %u = tensor.cast %r : tensor<32x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
