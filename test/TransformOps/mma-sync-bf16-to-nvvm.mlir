// transform.apply_patterns.hwsched.mma_sync_bf16_to_nvvm: a bf16
// nvgpu.mma.sync m16n8k16 with f32 accumulators (what
// hwsched-convert-vector-to-nvgpu makes of a bf16 warp contraction) becomes
// nvvm.mma.sync with bf16 PTX types: A's four and B's two vector<2xbf16>
// rows bitcast to i32, the four f32 accumulators as scalars, the result
// struct back in vector<2x2xf32>, row by row. f16 and tf32 ones are left
// to convert-nvgpu-to-nvvm, which lowers them and, without the patterns,
// refuses the bf16 one.
//
// RUN: hwsched-opt %s --transform-interpreter --split-input-file | FileCheck %s
// RUN: hwsched-opt %s --transform-interpreter --split-input-file \
// RUN:   --convert-nvgpu-to-nvvm --convert-vector-to-llvm --convert-ub-to-llvm \
// RUN:   --reconcile-unrealized-casts | FileCheck %s --check-prefix=NVVM

// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: %[[A:[^:]+]]: vector<4x2xbf16>, %[[B:[^:]+]]: vector<2x2xbf16>, %[[AH:[^:]+]]: vector<4x2xf16>, %[[BH:[^:]+]]: vector<2x2xf16>, %[[C:[^:]+]]: vector<2x2xf32>
// CHECK-DAG: %[[A0:.+]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK-DAG: %[[A0P:.+]] = vector.bitcast %[[A0]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[A0I:.+]] = vector.extract %[[A0P]][0] : i32 from vector<1xi32>
// CHECK-DAG: %[[A1:.+]] = vector.extract %[[A]][1] : vector<2xbf16> from vector<4x2xbf16>
// CHECK-DAG: %[[A1P:.+]] = vector.bitcast %[[A1]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[A1I:.+]] = vector.extract %[[A1P]][0] : i32 from vector<1xi32>
// CHECK-DAG: %[[A2:.+]] = vector.extract %[[A]][2] : vector<2xbf16> from vector<4x2xbf16>
// CHECK-DAG: %[[A2P:.+]] = vector.bitcast %[[A2]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[A2I:.+]] = vector.extract %[[A2P]][0] : i32 from vector<1xi32>
// CHECK-DAG: %[[A3:.+]] = vector.extract %[[A]][3] : vector<2xbf16> from vector<4x2xbf16>
// CHECK-DAG: %[[A3P:.+]] = vector.bitcast %[[A3]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[A3I:.+]] = vector.extract %[[A3P]][0] : i32 from vector<1xi32>
// CHECK-DAG: %[[B0:.+]] = vector.extract %[[B]][0] : vector<2xbf16> from vector<2x2xbf16>
// CHECK-DAG: %[[B0P:.+]] = vector.bitcast %[[B0]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[B0I:.+]] = vector.extract %[[B0P]][0] : i32 from vector<1xi32>
// CHECK-DAG: %[[B1:.+]] = vector.extract %[[B]][1] : vector<2xbf16> from vector<2x2xbf16>
// CHECK-DAG: %[[B1P:.+]] = vector.bitcast %[[B1]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG: %[[B1I:.+]] = vector.extract %[[B1P]][0] : i32 from vector<1xi32>
// CHECK-DAG: %[[C00:.+]] = vector.extract %[[C]][0, 0] : f32 from vector<2x2xf32>
// CHECK-DAG: %[[C01:.+]] = vector.extract %[[C]][0, 1] : f32 from vector<2x2xf32>
// CHECK-DAG: %[[C10:.+]] = vector.extract %[[C]][1, 0] : f32 from vector<2x2xf32>
// CHECK-DAG: %[[C11:.+]] = vector.extract %[[C]][1, 1] : f32 from vector<2x2xf32>
// CHECK: %[[MMA:.+]] = nvvm.mma.sync A[%[[A0I]], %[[A1I]], %[[A2I]], %[[A3I]]] B[%[[B0I]], %[[B1I]]] C[%[[C00]], %[[C01]], %[[C10]], %[[C11]]]
// CHECK-SAME: {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[S0:.+]] = llvm.extractvalue %[[MMA]][0]
// CHECK: %[[S1:.+]] = llvm.extractvalue %[[MMA]][1]
// CHECK: %[[S2:.+]] = llvm.extractvalue %[[MMA]][2]
// CHECK: %[[S3:.+]] = llvm.extractvalue %[[MMA]][3]
// CHECK: %[[R:.+]] = vector.from_elements %[[S0]], %[[S1]], %[[S2]], %[[S3]] : vector<2x2xf32>
// CHECK: %[[H:.+]] = nvgpu.mma.sync(%[[AH]], %[[BH]], %[[C]]) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: return %[[R]], %[[H]]
// NVVM-LABEL: func.func @mixed
// NVVM: nvvm.mma.sync {{.+}} multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// NVVM: nvvm.mma.sync {{.+}} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// NVVM-NOT: nvgpu.mma.sync
func.func @mixed(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>,
                 %ah: vector<4x2xf16>, %bh: vector<2x2xf16>,
                 %c: vector<2x2xf32>) -> (vector<2x2xf32>, vector<2x2xf32>) {
  %0 = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]}
      : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %1 = nvgpu.mma.sync(%ah, %bh, %c) {mmaShape = [16, 8, 16]}
      : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %0, %1 : vector<2x2xf32>, vector<2x2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.hwsched.mma_sync_bf16_to_nvvm
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Without the patterns the bf16 nvgpu.mma.sync stays, and the NVVM
// lowering cannot convert it (the reason the kernel needs the op).
// CHECK-LABEL: func.func @unlowered
// CHECK: nvgpu.mma.sync(%{{.+}}, %{{.+}}, %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>
// NVVM-LABEL: func.func @unlowered
// NVVM: nvgpu.mma.sync
// NVVM-NOT: nvvm.mma.sync
func.func @unlowered(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %0 = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]}
      : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %0 : vector<2x2xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
