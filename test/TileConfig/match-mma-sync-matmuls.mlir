// transform.hwsched.match_mma_sync_matmuls: which matmuls the tensor-core
// (mma.sync) kernel takes, decided before bufferization by the kernel's
// structural needs and select_tile_config { mma_sync }, each explained; the
// payload is only read.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// On an A100: an f16 and a bf16 matmul into f32 with a fill init are taken
// with the tiles the schedule will build (bf16 with the f16 rules, its
// mma.sync named); the others are not, each with the property that keeps
// it out. The payload is unchanged.
// CHECK-LABEL: func.func @mixed(
// CHECK-NOT:   gpu.launch
// CHECK-COUNT-5: linalg.matmul
func.func @mixed(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>,
                 %abf: tensor<512x256xbf16>, %bbf: tensor<256x512xbf16>,
                 %c: tensor<512x512xf32>, %odd: tensor<100x256xf16>,
                 %c_odd: tensor<100x512xf32>, %bt: tensor<512x256xf16>)
    -> (tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>,
        tensor<100x512xf32>, tensor<512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{taken by the tensor-core kernel (mma.sync), tiles from the cost model: tile 64x64x64, warp 32x32 of mma.sync m16n8k16, 4 stages, split_k 1, 128 threads: 120 registers/thread}}
  %taken = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                         outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{taken by the tensor-core kernel (mma.sync), tiles from the cost model: tile 64x64x64, warp 32x32 of mma.sync m16n8k16 (bf16), 4 stages, split_k 1, 128 threads: 120 registers/thread}}
  %bf16 = linalg.matmul ins(%abf, %bbf : tensor<512x256xbf16>, tensor<256x512xbf16>)
                        outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{not taken by the tensor-core kernel (mma.sync): mma_sync: the kernel fuses the init of C, which must be a linalg.fill; this init is not}}
  %acc = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                       outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  %e_odd = tensor.empty() : tensor<100x512xf32>
  %fill_odd = linalg.fill ins(%zero : f32) outs(%e_odd : tensor<100x512xf32>) -> tensor<100x512xf32>
  // expected-remark @below {{not taken by the tensor-core kernel (mma.sync): no tile candidate satisfies the gpu rules of spec 'nvidia-a100'}}
  %partial = linalg.matmul ins(%odd, %b : tensor<100x256xf16>, tensor<256x512xf16>)
                           outs(%fill_odd : tensor<100x512xf32>) -> tensor<100x512xf32>
  // expected-remark @below {{not taken by the tensor-core kernel (mma.sync): mma_sync: the matmul has user-defined indexing maps (a transposed operand); the kernel reads A as M x K and B as K x N}}
  %transposed = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<512x256xf16>, tensor<512x256xf16>)
      outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %taken, %bf16, %acc, %partial, %transposed
      : tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>,
        tensor<100x512xf32>, tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mms = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %taken, %others = transform.hwsched.match_mma_sync_matmuls %mms { target = "nvidia-a100", explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n = transform.num_associations %taken : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{2}}
    transform.debug.emit_param_as_remark %n : !transform.param<i64>
    transform.yield
  }
}

// -----

// On a CPU target, and on a GPU without the kernel's instructions (sm_75
// through an override of gpu.compute_capability is not possible: the spec's
// string keys are not overridable), nothing is taken and nothing is said.
func.func @cpu(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                     outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mms = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %taken, %others = transform.hwsched.match_mma_sync_matmuls %mms { target = "x86-avx512", explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n = transform.num_associations %others : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{1}}
    transform.debug.emit_param_as_remark %n : !transform.param<i64>
    transform.yield
  }
}

// -----

// f32 matmuls: without allow_tf32 none is taken (routing never changes an
// f32 result unasked), and the remark says how to accept tf32; with it the
// same matmul is taken with the tf32 kernel's tiles (mma.sync m16n8k8, K
// steps of 32 f32).
// CHECK-LABEL: func.func @f32(
// CHECK-COUNT-2: linalg.matmul
func.func @f32(%a: tensor<512x256xf32>, %b: tensor<256x512xf32>)
    -> (tensor<512x512xf32>, tensor<512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{not taken by the tensor-core kernel (mma.sync): mma_sync: input #0 is f32: the tensor-core kernel multiplies f32 inputs only as tf32 (mma.sync m16n8k8: A and B rounded to 10-bit mantissas, f32 accumulation), which changes the result; set allow_tf32 to accept that, or drop mma_sync to use the SIMT rules}}
  %strict = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x512xf32>)
                          outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{taken by the tensor-core kernel (mma.sync), tiles from the cost model: tile 64x64x32, warp 32x32 of mma.sync m16n8k8 (tf32), 4 stages, split_k 1, 128 threads: 120 registers/thread}}
  %tf32 = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x512xf32>)
                        outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %strict, %tf32 : tensor<512x512xf32>, tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mms = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %strict, %tf32 = transform.split_handle %mms : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t0, %o0 = transform.hwsched.match_mma_sync_matmuls %strict { target = "nvidia-a100", explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t1, %o1 = transform.hwsched.match_mma_sync_matmuls %tf32 { target = "nvidia-a100", allow_tf32, explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n0 = transform.num_associations %t0 : (!transform.any_op) -> !transform.param<i64>
    %n1 = transform.num_associations %t1 : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{0}}
    transform.debug.emit_param_as_remark %n0 : !transform.param<i64>
    // expected-remark @below {{1}}
    transform.debug.emit_param_as_remark %n1 : !transform.param<i64>
    transform.yield
  }
}
