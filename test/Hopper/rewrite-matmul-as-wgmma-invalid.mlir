// Bad input for transform.hwsched.rewrite_matmul_as_wgmma: a silenceable
// failure at the transform op naming the property and what would make it
// work, a note at the matmul; the payload is left unchanged (every matmul
// is checked before any is rewritten).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s

// A GPU without wgmma.
// CHECK-LABEL: func.func @ampere(
// CHECK:       linalg.fill
// CHECK:       linalg.matmul
// CHECK-NOT:   gpu.launch
func.func @ampere(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{target 'nvidia-a100' has compute capability sm_80: wgmma and TMA need sm_90 (compiled for sm_90a); use the mma.sync schedule (transform-scripts/gpu-matmul-tensorcore.mlir) on other GPUs}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-a100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// C is not zero-filled: the kernel would drop C's values.
func.func @accumulates(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{C is not zero-filled by a linalg.fill before the matmul: the kernel's accumulators start at zero and it writes C = A x B (C += A x B onto other values of C is not built yet)}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// On tensors.
func.func @tensors(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-note @below {{'linalg.matmul' here}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the matmul is on tensors: bufferize first (transform.bufferization.one_shot_bufferize)}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// f32 inputs (tf32 wgmma is not built).
func.func @f32_inputs(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the inputs are not f16 or bf16: this kernel's wgmma reads 16-bit inputs (tf32 and 8-bit wgmma forms are not built yet)}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A strided operand (a subview): TMA reads contiguous rows of a whole
// buffer.
func.func @strided(%a: memref<512x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.subview %a[0, 0] [256, 256] [2, 1] : memref<512x256xf16> to memref<256x256xf16, strided<[512, 1]>>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%s, %b : memref<256x256xf16, strided<[512, 1]>>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{operand A (memref<256x256xf16, strided<[512, 1]>>) is not a row-major memref with the identity layout: TMA reads contiguous rows (with one-shot bufferization, use function_boundary_type_conversion = identity-layout-map)}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Tiles that do not divide the problem.
func.func @partial(%a: memref<200x256xf16>, %b: memref<256x256xf16>, %c: memref<200x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<200x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<200x256xf16>, memref<256x256xf16>) outs(%c : memref<200x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no wgmma tile configuration fits 200x256x256 on nvidia-h100 (192 tried); the first refusal: 200x256x256 is not a whole number of 64x64 blocks and 64-wide K steps (partial tiles are not built yet: pad the operands or pick tiles that divide)}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Too many stages for the shared memory.
func.func @resources0(%a: memref<256x1024xf16>, %b: memref<1024x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<256x1024xf16>, memref<1024x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{5 stages of 16384 + 32768 bytes (+ 1024 to align) need 246784 bytes of shared memory, the target allows 232448 per block: use fewer stages or smaller blocks}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", block_m = 128, block_n = 256, warpgroups = 2, num_stages = 5, raster_group = 1, producer_warp = 0 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An accumulator too large for one warpgroup's registers.
func.func @resources1(%a: memref<256x1024xf16>, %b: memref<1024x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<256x1024xf16>, memref<1024x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{a warpgroup's 256x128 f32 accumulator takes 256 registers per thread, with about 32 more the kernel would exceed the target's 255: split the block over more warpgroups or narrow it}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", block_m = 256, block_n = 128, warpgroups = 1, num_stages = 3, raster_group = 1, producer_warp = 0 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// 128 rows per warpgroup of 256 columns: the accumulator store would place
// the second 64 rows wrong.
func.func @store_rows(%a: memref<256x1024xf16>, %b: memref<1024x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<256x1024xf16>, memref<1024x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{a warpgroup of 128 rows x block_n = 256: the accumulator store (nvgpu.warpgroup.mma.store) places rows past the first 64 right only for 128 columns; use block_n = 128 or 64 rows per warpgroup}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", block_m = 128, block_n = 256, warpgroups = 1, num_stages = 3, raster_group = 1, producer_warp = 0 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Too few K steps for the prologue of 4 stages.
func.func @resources2(%a: memref<256x128xf16>, %b: memref<128x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{K = 128 has 2 steps of 64, fewer than the 3 the prologue of 4 stages loads}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", block_m = 128, block_n = 128, warpgroups = 1, num_stages = 4, raster_group = 1, producer_warp = 0 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Rows that do not split into warpgroups of 64.
func.func @resources3(%a: memref<256x1024xf16>, %b: memref<1024x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<256x1024xf16>, memref<1024x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{block_m = 128 does not split into 4 warpgroup(s) of a multiple of 64 rows (a wgmma is 64 rows)}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", block_m = 128, block_n = 128, warpgroups = 4, num_stages = 4, raster_group = 1, producer_warp = 0 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Inputs that leave no legal configuration: the model says how many it
// tried and the first refusal.
func.func @none_left(%a: memref<256x1024xf16>, %b: memref<1024x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  // expected-note @below {{'linalg.matmul' here}}
  linalg.matmul ins(%a, %b : memref<256x1024xf16>, memref<1024x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no wgmma tile configuration fits 256x256x1024 on nvidia-h100 (4 tried); the first refusal: a warpgroup of 256 rows x block_n = 256: the accumulator store (nvgpu.warpgroup.mma.store) places rows past the first 64 right only for 128 columns; use block_n = 128 or 64 rows per warpgroup}}
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm { target = "nvidia-h100", block_m = 256, block_n = 256, warpgroups = 1 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
