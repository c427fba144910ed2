// transform.hwsched.outline_kernel_function: the op moves into a function of
// its own and a call takes its place, as transform.loop.outline does, but
// the constants it uses from above are cloned into the function (the fill
// value stays a constant) while other values become arguments.
//
// RUN: hwsched-opt %s --transform-interpreter --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:    %[[S:arg[0-9]]]: f32) -> tensor<64x64xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[ZERO]] : f32)
// CHECK:         linalg.matmul
// CHECK:         arith.mulf %{{.*}}, %[[S]] : f32
// CHECK-LABEL: func.func @f(
// CHECK:         func.call @kernel({{.*}}) : ({{.*}}, f32) -> tensor<64x64xf32>
func.func @f(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>, %s: f32) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %r = scf.execute_region -> tensor<64x64xf32> {
    %fill = linalg.fill ins(%zero : f32) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x64xf16>) outs(%fill : tensor<64x64xf32>) -> tensor<64x64xf32>
    %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm : tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.mulf %x, %s : f32
      linalg.yield %y : f32
    } -> tensor<64x64xf32>
    scf.yield %scaled : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %region = transform.structured.match ops{["scf.execute_region"]} in %root : (!transform.any_op) -> !transform.any_op
    %func, %call = transform.hwsched.outline_kernel_function %region { func_name = "kernel" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The name is made unique in the symbol table that receives the function:
// @kernel exists, so the two outlined ops become @kernel_0 and @kernel_1.
// CHECK-LABEL: func.func @kernel_0(
// CHECK:         arith.addf
// CHECK-LABEL: func.func @kernel_1(
// CHECK:         arith.mulf
// CHECK-LABEL: func.func @g(
// CHECK:         call @kernel_0(
// CHECK:         call @kernel_1(
// CHECK-LABEL: func.func @kernel(
func.func @g(%x: f32) -> f32 {
  %a = arith.addf %x, %x {tag} : f32
  %m = arith.mulf %a, %x {tag} : f32
  return %m : f32
}
func.func @kernel() {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match attributes{tag} in %root : (!transform.any_op) -> !transform.any_op
    %func, %call = transform.hwsched.outline_kernel_function %ops { func_name = "kernel" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
