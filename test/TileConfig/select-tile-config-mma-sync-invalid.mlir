// Refusals of select_tile_config { mma_sync } (the tensor-core kernel's
// rules), each naming what is wrong and what would make it work; the
// payload is unchanged.
//
// gpu-sm75 (Inputs/sm75) is the A100 spec at sm_75, a GPU whose tensor
// cores have no bf16 mma.sync.
//
// RUN: env HWSCHED_SPEC_PATH=%S/Inputs/sm75 hwsched-opt %s --split-input-file \
// RUN:   --transform-interpreter --verify-diagnostics
// RUN: env HWSCHED_SPEC_PATH=%S/Inputs/sm75 hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED
// UNCHANGED-LABEL: func.func @bf16
// UNCHANGED: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%{{.*}} : tensor<256x256xf32>) -> tensor<256x256xf32>

// bf16 inputs on a GPU before sm_80: its tensor cores have no bf16
// mma.sync (the kernel takes bf16 on sm_80 and later,
// select-tile-config-mma-sync.mlir); refused at the payload's types, by
// name, before the tile rules.
func.func @bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_sync: input #0 is bf16: the tensor cores multiply bf16 from sm_80 (mma.sync m16n8k16 .bf16); spec 'gpu-sm75' is sm_75: pick an sm_80 or later target, or drop mma_sync to use the SIMT rules}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "gpu-sm75", mma_sync } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A dynamic M: the kernel has no partial tiles.
func.func @dyn(%a: tensor<?x256xf16>, %b: tensor<256x256xf16>, %c: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<?x256xf32>) -> tensor<?x256xf32>
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<?x256xf16>, tensor<256x256xf16>) outs(%init : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_sync: the kernel needs static M, N and K and no batch dimension; pad or specialise the shape first}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// Extents the block tiles and K steps do not divide: every candidate is
// pruned, and the error says what the kernel needs.
func.func @odd(%a: tensor<100x200xf16>, %b: tensor<200x96xf16>, %c: tensor<100x96xf32>) -> tensor<100x96xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<100x96xf32>) -> tensor<100x96xf32>
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<100x200xf16>, tensor<200x96xf16>) outs(%init : tensor<100x96xf32>) -> tensor<100x96xf32>
  return %r : tensor<100x96xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no tile candidate satisfies the gpu rules of spec 'nvidia-a100' (216 enumerated; pruned mma_sync: block tile or K step does not divide M, N, K: 216); the tensor-core kernel has no partial tiles: it needs M and N multiples of 64 and K of 32, this is 100 x 96 x 200; pad the operands first (transform.structured.pad) or drop mma_sync}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// accumulator_in_smem contradicts the kernel (its accumulator is the
// warps' registers).
func.func @acc(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_sync: the kernel keeps its accumulator in registers (the warps' mma.sync fragments); drop accumulator_in_smem}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync, accumulator_in_smem } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A CPU target.
func.func @cpu(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_sync: the tensor-core kernel runs on GPU targets; spec 'x86-avx512' is a cpu target}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "x86-avx512", mma_sync } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// f32 inputs without allow_tf32: the kernel would multiply them as tf32,
// which changes the result; the refusal says how to accept that.
func.func @f32(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_sync: input #0 is f32: the tensor-core kernel multiplies f32 inputs only as tf32 (mma.sync m16n8k8: A and B rounded to 10-bit mantissas, f32 accumulation), which changes the result; set allow_tf32 to accept that, or drop mma_sync to use the SIMT rules}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// One f16 and one f32 input: the kernel multiplies inputs of one type.
func.func @mixed(%a: tensor<256x256xf16>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_sync: the tensor-core kernel multiplies inputs of one type; these are f16 and f32}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync, allow_tf32 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// bf16 A and f16 B: as wide, but mma.sync takes A and B of one type.
func.func @bf16_f16(%a: tensor<256x256xbf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xf16>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_sync: the tensor-core kernel multiplies inputs of one type; these are bf16 and f16 (mma.sync takes A and B of one type): convert one to the other's type first (a linalg.generic of arith.extf and arith.truncf)}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// The kernel's structure is checked as match_mma_sync_matmuls checks it
// (one function, checkMmaSyncEligible): an init that is no linalg.fill.
func.func @no_fill(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{mma_sync: the kernel fuses the init of C, which must be a linalg.fill; this init is not}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", mma_sync } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// allow_tf32 without mma_sync: the SIMT kernels multiply f32 in f32.
func.func @simt(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{allow_tf32 is a promise of the tensor-core kernel: give mma_sync too, or drop allow_tf32}}
    %t:5 = transform.cost_model.select_tile_config %op { target = "nvidia-a100", allow_tf32 } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
