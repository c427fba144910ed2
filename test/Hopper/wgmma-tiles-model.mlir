// transform.hwsched.rewrite_matmul_as_wgmma with no tile given: the cost
// model (CostModel/WarpgroupTiles.h) ranks the legal configurations for
// nvidia-h100 and explains the winner. Its picks here are the fastest
// kernels measured on an H100 for these shapes (bench/gpu-runner/README.md:
// 64x128 blocks with 5 stages on 1024^3 and 256x4096x4096, where 128x256
// blocks leave most SMs idle; 128x256 blocks of two 64x256 warpgroups from
// 2048^3 on, where they read fewer bytes per multiply-add); the raster
// group defaults to 8. A fixed input narrows the ranking: with block_n =
// 128 and two warpgroups the model still picks the rest.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter 2>&1 >/dev/null | FileCheck %s

// CHECK: remark: wgmma + TMA matmul 1024x1024x1024 f16: block 64x128, K step 64 (16 steps), 5 stage(s), 1 warpgroup(s) of 64x128
// CHECK: wgmma tiles: block 64x128, 1 warpgroup(s) of 64x128, 5 stage(s), raster group 8 (best of {{[0-9]+}} legal of {{[0-9]+}}); over the runner-up: equal otherwise; 5 stages keep more loads in flight than 4
// CHECK: #1: block 64x128, 1 warpgroup(s) of 64x128, 5 stage(s), raster group 8 | 128 blocks, 1 per SM at once (busiest SM: 1)
// CHECK: pruned by accumulator store: {{[0-9]+}}
func.func @mm1024(%a: memref<1024x1024xf16>, %b: memref<1024x1024xf16>, %c: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1024x1024xf32>)
  linalg.matmul ins(%a, %b : memref<1024x1024xf16>, memref<1024x1024xf16>) outs(%c : memref<1024x1024xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// CHECK: remark: wgmma + TMA matmul 4096x4096x4096 f16: block 128x256, K step 64 (64 steps), 4 stage(s), 2 warpgroup(s) of 64x256
// CHECK-SAME: grid 16x32, blocks walk groups of 8 tile rows
// CHECK: wgmma tiles: block 128x256, 2 warpgroup(s) of 64x256, 4 stage(s), raster group 8
func.func @mm4096(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4096x4096xf32>)
  linalg.matmul ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// At 8192^3, 64x64 blocks quantize 2.4% better over the 132 SMs than
// 128x256 ones: within the model's 5% they count as equally fast, and the
// larger tile's lower traffic decides.
// CHECK: wgmma tiles: block 128x256, 2 warpgroup(s) of 64x256, 4 stage(s), raster group 8
// CHECK-SAME: over the runner-up: equal otherwise
func.func @mm8192(%a: memref<8192x8192xf16>, %b: memref<8192x8192xf16>, %c: memref<8192x8192xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8192x8192xf32>)
  linalg.matmul ins(%a, %b : memref<8192x8192xf16>, memref<8192x8192xf16>) outs(%c : memref<8192x8192xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Skinny: 64x128 blocks keep 128 SMs busy.
// CHECK: wgmma tiles: block 64x128, 1 warpgroup(s) of 64x128, 5 stage(s), raster group 8
func.func @skinny(%a: memref<256x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<256x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x4096xf32>)
  linalg.matmul ins(%a, %b : memref<256x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<256x4096xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Fixed inputs narrow the ranking; the rest is still the model's.
// CHECK: wgmma tiles: block 256x128, 2 warpgroup(s) of 128x128, 4 stage(s)
// CHECK-NOT: raster group
// CHECK-SAME: (best of {{[0-9]+}} legal of 16)
func.func @fixed(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4096x4096xf32>)
  linalg.matmul ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", block_n = 128, warpgroups = 2, raster_group = 1, explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
