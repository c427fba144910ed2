// transform.hwsched.decompose_quantized: a quantized Linalg op becomes its
// plain form on operands whose zero points are subtracted; an operand whose
// zero point is the constant 0 is passed as it is; strides and dilations
// are kept; dynamic sizes are carried to the subtraction's tensor.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter | FileCheck %s
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @conv_q(
// CHECK-SAME:    %[[IMG:[^:]+]]: tensor<1x11x11x8xi8>, %[[FLT:[^:]+]]: tensor<3x3x8x16xi8>
// CHECK-DAG:   %[[ZI:.+]] = arith.constant 3 : i32
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<1x11x11x8xi32>
// CHECK:       %[[SUB:.+]] = linalg.generic
// CHECK-SAME:    ins(%[[IMG]], %[[ZI]] : tensor<1x11x11x8xi8>, i32) outs(%[[E]] : tensor<1x11x11x8xi32>)
// CHECK:         arith.extsi %{{.+}} : i8 to i32
// CHECK:         arith.subi
// CHECK:       linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME:    ins(%[[SUB]], %[[FLT]] : tensor<1x11x11x8xi32>, tensor<3x3x8x16xi8>)
// CHECK-NEXT:  return
// REMARK: remark: decompose_quantized: linalg.conv_2d_nhwc_hwcf_q -> linalg.conv_2d_nhwc_hwcf on the image minus its zero point (i32) and the filter as it is (zero point 0)
func.func @conv_q(%img: tensor<1x11x11x8xi8>, %flt: tensor<3x3x8x16xi8>, %acc: tensor<1x5x5x16xi32>) -> tensor<1x5x5x16xi32> {
  %zi = arith.constant 3 : i32
  %zf = arith.constant 0 : i32
  %r = linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %flt, %zi, %zf : tensor<1x11x11x8xi8>, tensor<3x3x8x16xi8>, i32, i32)
      outs(%acc : tensor<1x5x5x16xi32>) -> tensor<1x5x5x16xi32>
  return %r : tensor<1x5x5x16xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf_q"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.hwsched.decompose_quantized %q {explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Zero points as function arguments (not known to be 0), a dynamic M, i8
// zero points (extended like the operands).
// CHECK-LABEL: func.func @matmul_q(
// CHECK-SAME:    %[[A:[^:]+]]: tensor<?x24xi8>, %[[B:[^:]+]]: tensor<24x16xi8>, %[[ZA:[^:]+]]: i8, %[[ZB:[^:]+]]: i32
// CHECK:       %[[M:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x24xi8>
// CHECK:       %[[EA:.+]] = tensor.empty(%[[M]]) : tensor<?x24xi32>
// CHECK:       %[[SA:.+]] = linalg.generic {{.+}} ins(%[[A]], %[[ZA]] : tensor<?x24xi8>, i8)
// CHECK:         arith.extsi %{{.+}} : i8 to i32
// CHECK:         arith.extsi %{{.+}} : i8 to i32
// CHECK:       %[[SB:.+]] = linalg.generic {{.+}} ins(%[[B]], %[[ZB]] : tensor<24x16xi8>, i32)
// CHECK:       linalg.matmul ins(%[[SA]], %[[SB]] : tensor<?x24xi32>, tensor<24x16xi32>)
// REMARK: remark: decompose_quantized: linalg.quantized_matmul -> linalg.matmul on A minus its zero point (i32) and B minus its zero point (i32)
func.func @matmul_q(%a: tensor<?x24xi8>, %b: tensor<24x16xi8>, %za: i8, %zb: i32, %c: tensor<?x16xi32>) -> tensor<?x16xi32> {
  %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<?x24xi8>, tensor<24x16xi8>, i8, i32)
      outs(%c : tensor<?x16xi32>) -> tensor<?x16xi32>
  return %r : tensor<?x16xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match ops{["linalg.quantized_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.hwsched.decompose_quantized %q {explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Depthwise and batched forms; both zero points 0: no subtraction at all.
// CHECK-LABEL: func.func @depthwise_and_batch(
// CHECK-NOT:   linalg.generic
// CHECK:       linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<1x6x6x4xi8>, tensor<3x3x4xi8>)
// CHECK:       linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<2x8x4xi8>, tensor<2x4x8xi8>)
func.func @depthwise_and_batch(%i: tensor<1x6x6x4xi8>, %f: tensor<3x3x4xi8>, %o: tensor<1x4x4x4xi32>,
                               %a: tensor<2x8x4xi8>, %b: tensor<2x4x8xi8>, %c: tensor<2x8x8xi32>) -> (tensor<1x4x4x4xi32>, tensor<2x8x8xi32>) {
  %z = arith.constant 0 : i32
  %d = linalg.depthwise_conv_2d_nhwc_hwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f, %z, %z : tensor<1x6x6x4xi8>, tensor<3x3x4xi8>, i32, i32) outs(%o : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  %m = linalg.quantized_batch_matmul ins(%a, %b, %z, %z : tensor<2x8x4xi8>, tensor<2x4x8xi8>, i32, i32)
      outs(%c : tensor<2x8x8xi32>) -> tensor<2x8x8xi32>
  return %d, %m : tensor<1x4x4x4xi32>, tensor<2x8x8xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %q = transform.structured.match ops{["linalg.depthwise_conv_2d_nhwc_hwc_q", "linalg.quantized_batch_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.hwsched.decompose_quantized %q : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
