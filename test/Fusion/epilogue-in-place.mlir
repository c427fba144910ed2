// transform.fusion.epilogue_in_place: the producer chain computes into the
// epilogue's destination and the epilogue updates it in place; the values
// are unchanged (exec-checked on the CPU:
// integration_test/Fusion/epilogue-in-place.mlir), and after bufferization the
// matmul result has no buffer of its own.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter | FileCheck %s
// RUN: hwsched-opt %S/Inputs/matmul-bias-relu.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/in-place-and-bufferize.mlir \
// RUN:   --transform-interpreter=entry-point=in_place_and_bufferize | FileCheck %s --check-prefix=BUF

// After bufferization the matmul accumulates into the output argument and
// the epilogue reads and writes it: no allocation in @kernel.
// BUF-LABEL: func.func @kernel
// BUF-SAME:    %[[C:[a-z0-9]+]]: memref<16x24xf32>)
// BUF-NOT:     memref.alloc
// BUF:         linalg.fill ins(%{{.+}} : f32) outs(%[[C]] : memref<16x24xf32>)
// BUF-NEXT:    linalg.matmul ins(%{{.+}}, %{{.+}} : memref<16x8xf32>, memref<8x24xf32>) outs(%[[C]] : memref<16x24xf32>)
// BUF-NEXT:    linalg.generic {{.+}} ins(%{{.+}} : memref<24xf32>) outs(%[[C]] : memref<16x24xf32>)
// BUF-NOT:     memref.alloc
// BUF:         return

// CHECK-LABEL: func.func @chain
// CHECK-SAME:    (%[[A:.+]]: tensor<16x8xf32>, %[[B:.+]]: tensor<8x24xf32>, %[[V:.+]]: tensor<24xf32>, %[[D:.+]]: tensor<16x24xf32>)
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[D]] : tensor<16x24xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.+}}) outs(%[[F]] : tensor<16x24xf32>)
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$VMAP:.+]], #[[$IDMAP:.+]]], iterator_types = ["parallel", "parallel"]} ins(%[[V]] : tensor<24xf32>) outs(%[[MM]] : tensor<16x24xf32>) attrs = {keep.me}
// CHECK-NEXT:    ^bb0(%[[Y:.+]]: f32, %[[X:.+]]: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[M:.+]] = arith.maximumf %[[S]], %{{.+}} : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK:         return %[[R]]
func.func @chain(%a: tensor<16x8xf32>, %b: tensor<8x24xf32>, %v: tensor<24xf32>, %d: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x24xf32>) outs(%f : tensor<16x24xf32>) -> tensor<16x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %v : tensor<16x24xf32>, tensor<24xf32>) outs(%d : tensor<16x24xf32>) attrs = {keep.me} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.fusion.epilogue_in_place %g : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The producer's result is input 1 here; the chain starts at a tensor.empty
// (a matmul with no fill accumulates into undefined contents either way) and
// the destination is a tensor.empty created after the matmul: it moves up.
// CHECK-LABEL: func.func @second_input
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[E2:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[MM:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : {{.+}}) outs(%[[E2]] : tensor<4x8xf32>)
// CHECK:         linalg.generic {{.+}} ins(%{{.+}} : tensor<4x8xf32>) outs(%[[MM]] : tensor<4x8xf32>)
// CHECK-NEXT:    ^bb0(%[[P:.+]]: f32, %[[X:.+]]: f32):
// CHECK-NEXT:      arith.mulf %[[P]], %[[X]] : f32
func.func @second_input(%a: tensor<4x2xf32>, %b: tensor<2x8xf32>, %p: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x2xf32>, tensor<2x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p, %mm : tensor<4x8xf32>, tensor<4x8xf32>) outs(%d : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.fusion.epilogue_in_place %g { input = 1 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
