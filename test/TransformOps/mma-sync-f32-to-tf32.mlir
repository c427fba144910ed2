// transform.apply_patterns.hwsched.mma_sync_f32_to_tf32: every f32
// nvgpu.mma.sync (what convert-vector-to-gpu{use-nvgpu} makes of an f32
// warp contraction) is marked tf32Enabled, which convert-nvgpu-to-nvvm
// needs to lower it (to mma.sync ... .f32.tf32.tf32.f32); f16 ones and
// those already marked are left alone.
//
// RUN: hwsched-opt %s --transform-interpreter --split-input-file | FileCheck %s
// RUN: hwsched-opt %s --transform-interpreter --split-input-file \
// RUN:   --convert-nvgpu-to-nvvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=NVVM

// CHECK-LABEL: func.func @mixed
// CHECK: nvgpu.mma.sync(%{{.+}}, %{{.+}}, %{{.+}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: nvgpu.mma.sync(%{{.+}}, %{{.+}}, %{{.+}}) {mmaShape = [16, 8, 4], tf32Enabled} : (vector<2x1xf32>, vector<1x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: nvgpu.mma.sync(%{{.+}}, %{{.+}}, %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// NVVM-LABEL: func.func @mixed
// NVVM: nvvm.mma.sync {{.+}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// NVVM: nvvm.mma.sync {{.+}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 4>}
// NVVM: nvvm.mma.sync {{.+}} shape = #nvvm.shape<m = 16, n = 8, k = 16>
func.func @mixed(%a8: vector<4x1xf32>, %b8: vector<2x1xf32>,
                 %a4: vector<2x1xf32>, %b4: vector<1x1xf32>,
                 %ah: vector<4x2xf16>, %bh: vector<2x2xf16>,
                 %c: vector<2x2xf32>) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
  %0 = nvgpu.mma.sync(%a8, %b8, %c) {mmaShape = [16, 8, 8]}
      : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  %1 = nvgpu.mma.sync(%a4, %b4, %c) {mmaShape = [16, 8, 4]}
      : (vector<2x1xf32>, vector<1x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  %2 = nvgpu.mma.sync(%ah, %bh, %c) {mmaShape = [16, 8, 16]}
      : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %0, %1, %2 : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.hwsched.mma_sync_f32_to_tf32
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Without the patterns an f32 nvgpu.mma.sync stays unmarked, and the NVVM
// lowering leaves it unconverted (the reason the kernel needs the op).
// CHECK-LABEL: func.func @unmarked
// CHECK: nvgpu.mma.sync(%{{.+}}, %{{.+}}, %{{.+}}) {mmaShape = [16, 8, 8]} :
// NVVM-LABEL: func.func @unmarked
// NVVM: nvgpu.mma.sync
// NVVM-NOT: nvvm.mma.sync
func.func @unmarked(%a8: vector<4x1xf32>, %b8: vector<2x1xf32>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %0 = nvgpu.mma.sync(%a8, %b8, %c) {mmaShape = [16, 8, 8]}
      : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  return %0 : vector<2x2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
