// transform.hwsched.chunk_dynamic_loops: every dynamic loop in static,
// zero-padded chunks (scf.for marked hwsched.chunk_loop), static loops left
// whole, an op without a dynamic loop returned unchanged; the plan as a
// remark under `explain`.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REM

// M, N and K dynamic: three chunk loops (K innermost, carrying C), the
// operands padded to 256 x 512, 512 x 256 and 256 x 256 (a fill and an
// insert of the slice: no tensor.pad for a schedule to fuse), the result
// slice inserted back.
// REM: remark: chunk_dynamic_loops: 3 loops: d0 dynamic (parallel) in chunks of 256, d1 dynamic (parallel) in chunks of 256, d2 dynamic (reduction) in chunks of 512; padded with zeros (the padded products add 0); the op in the chunk loops: 256 x 256 x 512
// REM: remark: chunk_dynamic_loops: no dynamic loop: left as it is
// CHECK-LABEL: func.func @mnk(
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK-NOT:           tensor.pad
// CHECK:               linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<256x512xf32>)
// CHECK:               tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [%{{.+}}, %{{.+}}] [1, 1] : tensor<?x?xf32> into tensor<256x512xf32>
// CHECK:               linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<256x512xf32>, tensor<512x256xf32>) outs(%{{.+}} : tensor<256x256xf32>)
// CHECK:               tensor.extract_slice %{{.+}}[0, 0] [%{{.+}}, %{{.+}}] [1, 1] : tensor<256x256xf32> to tensor<?x?xf32>
// CHECK:             } {hwsched.chunk_loop = 512 : i64}
// CHECK:           } {hwsched.chunk_loop = 256 : i64}
// CHECK:         } {hwsched.chunk_loop = 256 : i64}
// CHECK-LABEL: func.func @static(
// CHECK-NEXT:    linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT:    return
func.func @mnk(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @static(%a: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.hwsched.chunk_dynamic_loops %ops {explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A convolution with a dynamic image and filter: the output rows and
// columns in chunks of 64 (parallel_chunk), the filter window in chunks of
// 3 (window_chunk: padded filter taps are zeros), so the image chunk is
// 64 + 3 - 1 = 66 rows.
// REM: remark: chunk_dynamic_loops: 7 loops: d0 = 1, d1 dynamic (parallel) in chunks of 64, d2 dynamic (parallel) in chunks of 64, d3 = 8, d4 dynamic (convolution window) in chunks of 3, d5 dynamic (convolution window) in chunks of 3, d6 = 4; padded with zeros (the padded products add 0); the op in the chunk loops: 1 x 64 x 64 x 8 x 3 x 3 x 4
// CHECK-LABEL: func.func @conv(
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x66x66x4xf32>, tensor<3x3x4x8xf32>) outs(%{{.+}} : tensor<1x64x64x8xf32>)
func.func @conv(%img: tensor<1x?x?x4xf32>, %flt: tensor<?x?x4x8xf32>, %out: tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt : tensor<1x?x?x4xf32>, tensor<?x?x4x8xf32>) outs(%out : tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32>
  return %r : tensor<1x?x?x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.hwsched.chunk_dynamic_loops %ops {parallel_chunk = 64, explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A dynamic batch, height and width with 1024 output channels: chunks of
// 256 x 256 x 256 would pad a 2^34-element output. The largest parallel
// chunk is halved (the outermost first among equals) until every padded
// operand holds at most 2^24 elements: 16 x 32 x 32 x 1024 (the image chunk
// 16 x 34 x 35 x 5 was never over).
// REM: remark: chunk_dynamic_loops: 7 loops: d0 dynamic (parallel) in chunks of 16, d1 dynamic (parallel) in chunks of 32, d2 dynamic (parallel) in chunks of 32, d3 = 1024, d4 = 3, d5 = 4, d6 = 5; padded (the padded part of the result is cut off); parallel chunks halved until each padded operand holds at most the chunk element limit (16777216 elements now); the op in the chunk loops: 16 x 32 x 32 x 1024 x 3 x 4 x 5
// CHECK-LABEL: func.func @conv_dynamic_nhw(
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<16x34x35x5xf32>, tensor<3x4x5x1024xf32>) outs(%{{.+}} : tensor<16x32x32x1024xf32>)
func.func @conv_dynamic_nhw(%img: tensor<?x?x?x5xf32>, %flt: tensor<3x4x5x1024xf32>, %out: tensor<?x?x?x1024xf32>) -> tensor<?x?x?x1024xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %flt : tensor<?x?x?x5xf32>, tensor<3x4x5x1024xf32>) outs(%out : tensor<?x?x?x1024xf32>) -> tensor<?x?x?x1024xf32>
  return %r : tensor<?x?x?x1024xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.hwsched.chunk_dynamic_loops %ops {explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
