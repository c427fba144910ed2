// transform.hwsched.match_wgmma_matmuls: which matmuls the Hopper kernel
// takes, decided before bufferization on the checks their bufferized form
// will meet, each explained; the payload is only read.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics
// RUN: hwsched-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// On an H100: a zero-filled f16 matmul into f32 is taken, with the tiles
// the rewrite will choose (padded to whole tiles when it is not made of
// them); the others are not, each with the property that keeps it out. The
// payload is unchanged.
// CHECK-LABEL: func.func @mixed(
// CHECK-COUNT-2: linalg.fill
// CHECK-NOT:   gpu.launch
func.func @mixed(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>,
                 %a32: tensor<512x256xf32>, %b32: tensor<256x512xf32>,
                 %big: tensor<1024x256xf16>, %c: tensor<512x512xf32>,
                 %odd: tensor<100x256xf16>, %c_odd: tensor<100x512xf32>,
                 %bt: tensor<512x256xf16>, %dest: tensor<1024x512xf32>)
    -> (tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>,
        tensor<512x512xf32>, tensor<100x512xf32>, tensor<512x512xf32>,
        tensor<1024x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{taken by the Hopper kernel (wgmma + TMA), tiles from the cost model: block 64x64, 1 warpgroup(s) of 64x64, 5 stage(s), raster group 8}}
  %taken = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                         outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{not taken by the Hopper kernel: the inputs are not f16 or bf16: this kernel's wgmma reads 16-bit inputs (tf32 and 8-bit wgmma forms are not built yet)}}
  %f32 = linalg.matmul ins(%a32, %b32 : tensor<512x256xf32>, tensor<256x512xf32>)
                       outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{not taken by the Hopper kernel: C's init is not a linalg.fill of zero: the kernel's accumulators start at zero and it writes C = A x B (C += A x B onto other values of C is not built yet)}}
  %acc = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                       outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  %slice = tensor.extract_slice %big[512, 0] [512, 256] [1, 1] : tensor<1024x256xf16> to tensor<512x256xf16>
  // expected-remark @below {{not taken by the Hopper kernel: operand A (tensor<512x256xf16>) is a slice of a larger tensor (tensor.extract_slice): bufferized it is a strided view, and the kernel's TMA reads whole row-major matrices}}
  %sliced = linalg.matmul ins(%slice, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                          outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  %e_odd = tensor.empty() : tensor<100x512xf32>
  %fill_odd = linalg.fill ins(%zero : f32) outs(%e_odd : tensor<100x512xf32>) -> tensor<100x512xf32>
  // Not whole 64-row tiles: taken as padded with zeros (the script pads).
  // expected-remark @below {{taken by the Hopper kernel (wgmma + TMA), zero-padded from 100x512x256 to 128x512x256, tiles from the cost model: block 64x64, 1 warpgroup(s) of 64x64, 5 stage(s), raster group 8}}
  %partial = linalg.matmul ins(%odd, %b : tensor<100x256xf16>, tensor<256x512xf16>)
                           outs(%fill_odd : tensor<100x512xf32>) -> tensor<100x512xf32>
  // expected-remark @below {{not taken by the Hopper kernel: the matmul transposes or broadcasts an operand (indexing_maps): the kernel reads A as M x K and B as K x N, both row-major}}
  %transposed = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<512x256xf16>, tensor<512x256xf16>)
      outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  // expected-remark @below {{not taken by the Hopper kernel: the result is inserted into a larger tensor ('tensor.insert_slice'): bufferized, C is a strided view of it, and the kernel stores whole row-major rows of C}}
  %inserted = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                            outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  %into = tensor.insert_slice %inserted into %dest[0, 0] [512, 512] [1, 1] : tensor<512x512xf32> into tensor<1024x512xf32>
  return %taken, %f32, %acc, %sliced, %partial, %transposed, %into
      : tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>,
        tensor<512x512xf32>, tensor<100x512xf32>, tensor<512x512xf32>,
        tensor<1024x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %taken, %others = transform.hwsched.match_wgmma_matmuls %mm { target = "nvidia-h100", explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n_taken = transform.num_associations %taken : (!transform.any_op) -> !transform.param<i64>
    %n_others = transform.num_associations %others : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{taken: 2}}
    transform.debug.emit_param_as_remark %n_taken, "taken:" : !transform.param<i64>
    // expected-remark @below {{others: 5}}
    transform.debug.emit_param_as_remark %n_others, "others:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// On buffers, the rewrite's own checks: bf16 taken; a fill with another
// op in between that writes a different, fresh buffer does not hide it.
// Overrides reach the model: with 1 SM the largest tiles win (on 132 SMs
// it is 64x64 blocks, which keep more SMs busy).
func.func @buffers(%a: memref<256x256xbf16>, %b: memref<256x256xbf16>, %c: memref<256x256xf32>,
                   %x: memref<256x256xbf16>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  %tmp = memref.alloc() : memref<256x256xbf16>
  linalg.copy ins(%x : memref<256x256xbf16>) outs(%tmp : memref<256x256xbf16>)
  // expected-remark @below {{taken by the Hopper kernel (wgmma + TMA), tiles from the cost model: block 128x256, 2 warpgroup(s) of 64x256, 4 stage(s), raster group 8}}
  linalg.matmul ins(%tmp, %b : memref<256x256xbf16>, memref<256x256xbf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %taken, %others = transform.hwsched.match_wgmma_matmuls %mm { target = "nvidia-h100", "gpu.sm_count" = 1, explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Two buffers that may alias (two function arguments) written between the
// fill and the matmul: the fill may be overwritten, so it is not taken.
func.func @maybe_aliased(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf32>,
                         %other: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.fill ins(%one : f32) outs(%other : memref<256x256xf32>)
  // expected-remark @below {{not taken by the Hopper kernel: C is not zero-filled by a linalg.fill before the matmul}}
  linalg.matmul ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %taken, %others = transform.hwsched.match_wgmma_matmuls %mm { target = "nvidia-h100", explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Another GPU: nothing is taken and nothing is reported (the kernel does
// not exist there), every op is in `others`.
func.func @ampere(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                      outs(%fill : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %mm : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %taken, %others = transform.hwsched.match_wgmma_matmuls %mm { target = "nvidia-a100", explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n_taken = transform.num_associations %taken : (!transform.any_op) -> !transform.param<i64>
    %n_others = transform.num_associations %others : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{taken: 0}}
    transform.debug.emit_param_as_remark %n_taken, "taken:" : !transform.param<i64>
    // expected-remark @below {{others: 1}}
    transform.debug.emit_param_as_remark %n_others, "others:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A spec that cannot be loaded: a silenceable failure, no remarks.
func.func @bad_spec(%a: tensor<512x256xf16>, %b: tensor<256x512xf16>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x512xf16>)
                      outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %mm : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no-such-gpu}}
    %taken, %others = transform.hwsched.match_wgmma_matmuls %mm { target = "no-such-gpu", explain }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
