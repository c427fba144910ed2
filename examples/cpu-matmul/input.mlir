// examples/cpu-matmul/input.mlir: C = relu(A x B + bias), f32, 512x512x512.
//
// @kernel is the computation (Linalg on tensors over memref arguments);
// @main builds integer-valued inputs, calls @kernel once, prints a checksum
// (the sum of C, exact) and the corner C[0:4, 0:8], then times 20 calls with
// rtclock and prints the seconds per call. run.sh schedules @kernel with
// transform-scripts/cpu-matmul.mlir and runs it next to the unscheduled
// program.
func.func @kernel(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %Bias: memref<512xf32>, %C: memref<512x512xf32>) {
  %ta = bufferization.to_tensor %A restrict : memref<512x512xf32> to tensor<512x512xf32>
  %tb = bufferization.to_tensor %B restrict : memref<512x512xf32> to tensor<512x512xf32>
  %tv = bufferization.to_tensor %Bias restrict : memref<512xf32> to tensor<512xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %mm = linalg.matmul ins(%ta, %tb : tensor<512x512xf32>, tensor<512x512xf32>)
                      outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  %e2 = tensor.empty() : tensor<512x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                        affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %tv : tensor<512x512xf32>, tensor<512xf32>) outs(%e2 : tensor<512x512xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<512x512xf32>
  bufferization.materialize_in_destination %r in restrict writable %C
      : (tensor<512x512xf32>, memref<512x512xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @rtclock() -> f64

func.func @main() {
  %A = memref.alloc() : memref<512x512xf32>
  %B = memref.alloc() : memref<512x512xf32>
  %Bias = memref.alloc() : memref<512xf32>
  %C = memref.alloc() : memref<512x512xf32>
  // A[i][k] = (i + k) mod 7 - 3, B[k][j] = (2k + j) mod 5 - 2,
  // bias[j] = j mod 3 - 4 (negative often enough for ReLU to clip).
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]} outs(%A : memref<512x512xf32>) {
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
                  iterator_types = ["parallel", "parallel"]} outs(%B : memref<512x512xf32>) {
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
                  iterator_types = ["parallel"]} outs(%Bias : memref<512xf32>) {
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
  call @kernel(%A, %B, %Bias, %C) : (memref<512x512xf32>, memref<512x512xf32>, memref<512xf32>, memref<512x512xf32>) -> ()
  // Checksum: the sum of C in f64 (exact: integer values), printed as i64.
  %sum0 = memref.alloc() : memref<f64>
  %zd = arith.constant 0.0 : f64
  memref.store %zd, %sum0[] : memref<f64>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%C : memref<512x512xf32>) outs(%sum0 : memref<f64>) {
  ^bb0(%x: f32, %acc: f64):
    %xd = arith.extf %x : f32 to f64
    %s = arith.addf %acc, %xd : f64
    linalg.yield %s : f64
  }
  %sum = memref.load %sum0[] : memref<f64>
  %sumi = arith.fptosi %sum : f64 to i64
  vector.print str "checksum (sum of C): "
  vector.print %sumi : i64
  %corner = memref.subview %C[0, 0] [4, 8] [1, 1]
      : memref<512x512xf32> to memref<4x8xf32, strided<[512, 1]>>
  %u = memref.cast %corner : memref<4x8xf32, strided<[512, 1]>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // Timing: 20 calls, after the one above (JIT compilation excluded).
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %reps = arith.constant 20 : index
  %t0 = call @rtclock() : () -> f64
  scf.for %it = %c0 to %reps step %c1 {
    func.call @kernel(%A, %B, %Bias, %C) : (memref<512x512xf32>, memref<512x512xf32>, memref<512xf32>, memref<512x512xf32>) -> ()
  }
  %t1 = call @rtclock() : () -> f64
  %dt = arith.subf %t1, %t0 : f64
  %nf = arith.constant 20.0 : f64
  %per = arith.divf %dt, %nf : f64
  vector.print str "seconds per call: "
  vector.print %per : f64
  memref.dealloc %sum0 : memref<f64>
  memref.dealloc %A : memref<512x512xf32>
  memref.dealloc %B : memref<512x512xf32>
  memref.dealloc %Bias : memref<512xf32>
  memref.dealloc %C : memref<512x512xf32>
  return
}
