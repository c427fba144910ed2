// transform.apply_patterns.hwsched.mma_sync_tf32_to_nvvm: a tf32
// nvgpu.mma.sync m16n8k8 (f32 A and B, tf32Enabled, f32 accumulators)
// becomes nvvm.mma.sync with tf32 PTX types whose A and B registers are
// rounded to tf32 first (nvvm.convert.float.to.tf32 <rna>, PTX
// cvt.rna.tf32.f32). Upstream's convert-nvgpu-to-nvvm bitcasts them
// instead, and the tensor core truncates. f16 ones are left alone.
//
// RUN: hwsched-opt %s --transform-interpreter --split-input-file | FileCheck %s
// RUN: hwsched-opt %s --transform-interpreter --split-input-file \
// RUN:   --convert-nvgpu-to-nvvm --convert-vector-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts | FileCheck %s --check-prefix=NVVM

// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: %[[A:[^:]+]]: vector<4x1xf32>, %[[B:[^:]+]]: vector<2x1xf32>, %[[AH:[^:]+]]: vector<4x2xf16>, %[[BH:[^:]+]]: vector<2x2xf16>, %[[C:[^:]+]]: vector<2x2xf32>
// CHECK-DAG: %[[A0:.+]] = vector.extract %[[A]][0, 0] : f32 from vector<4x1xf32>
// CHECK-DAG: %[[A0R:.+]] = nvvm.convert.float.to.tf32 %[[A0]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK-DAG: %[[A3:.+]] = vector.extract %[[A]][3, 0] : f32 from vector<4x1xf32>
// CHECK-DAG: %[[A3R:.+]] = nvvm.convert.float.to.tf32 %[[A3]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK-DAG: %[[B1:.+]] = vector.extract %[[B]][1, 0] : f32 from vector<2x1xf32>
// CHECK-DAG: %[[B1R:.+]] = nvvm.convert.float.to.tf32 %[[B1]] {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: %[[MMA:.+]] = nvvm.mma.sync A[%[[A0R]], %{{.+}}, %{{.+}}, %[[A3R]]] B[%{{.+}}, %[[B1R]]] C[
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: vector.from_elements
// CHECK: nvgpu.mma.sync(%[[AH]], %[[BH]], %[[C]]) {mmaShape = [16, 8, 16]}
// NVVM-LABEL: func.func @mixed
// NVVM-COUNT-6: nvvm.convert.float.to.tf32
// NVVM: nvvm.mma.sync {{.+}} multiplicandAPtxType = #nvvm.mma_type<tf32>
// NVVM-NOT: nvgpu.mma.sync
func.func @mixed(%a: vector<4x1xf32>, %b: vector<2x1xf32>,
                 %ah: vector<4x2xf16>, %bh: vector<2x2xf16>,
                 %c: vector<2x2xf32>) -> (vector<2x2xf32>, vector<2x2xf32>) {
  %0 = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 8], tf32Enabled}
      : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  %1 = nvgpu.mma.sync(%ah, %bh, %c) {mmaShape = [16, 8, 16]}
      : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %0, %1 : vector<2x2xf32>, vector<2x2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.hwsched.mma_sync_tf32_to_nvvm
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Without the patterns upstream's lowering hands the f32 registers over
// unrounded (a bitcast, no conversion): the truncation the op prevents.
// CHECK-LABEL: func.func @unrounded
// CHECK: nvgpu.mma.sync
// NVVM-LABEL: func.func @unrounded
// NVVM-NOT: nvvm.convert.float.to.tf32
// NVVM: llvm.bitcast {{.*}} : vector<1xf32> to i32
// NVVM: nvvm.mma.sync {{.+}} multiplicandAPtxType = #nvvm.mma_type<tf32>
func.func @unrounded(%a: vector<4x1xf32>, %b: vector<2x1xf32>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %0 = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 8], tf32Enabled}
      : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
  return %0 : vector<2x2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
