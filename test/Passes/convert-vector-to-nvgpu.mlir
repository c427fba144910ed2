// hwsched-convert-vector-to-nvgpu: upstream's
// convert-vector-to-gpu{use-nvgpu} that also takes bf16 inputs. A bf16
// warp contraction of mma shape (A 16x16 row-major, B 16x8 K x N, both in
// shared memory; C 16x8 f32) becomes bf16 nvgpu.ldmatrix (A as is, B
// transposed) and a bf16 nvgpu.mma.sync m16n8k16, exactly as the f16 one
// does with f16 types (upstream, compared below), and no f16 is left. (The
// vector ops it replaces stay, dead, as upstream leaves them: the script's
// canonicalization drops them.)
//
// RUN: hwsched-opt %s --split-input-file --hwsched-convert-vector-to-nvgpu \
// RUN:   --verify-diagnostics | FileCheck %s
// The same IR as upstream's pass makes of the f16 twin, retyped bf16:
// RUN: sed -n '/^func.func @bf16(/,/^}/p' %s > %t.bf16.mlir
// RUN: hwsched-opt %t.bf16.mlir --hwsched-convert-vector-to-nvgpu > %t.ours.mlir
// RUN: sed -e 's/bf16/f16/g' %t.bf16.mlir | hwsched-opt --convert-vector-to-gpu=use-nvgpu=true \
// RUN:   | sed -e 's/f16/bf16/g' > %t.upstream.mlir
// RUN: diff %t.upstream.mlir %t.ours.mlir

// CHECK-LABEL: func.func @bf16(
// CHECK-NOT: {{[^b]}}f16
// CHECK: %[[A:.+]] = nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false} : memref<64x32xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: %[[B:.+]] = nvgpu.ldmatrix %{{.+}} {numTiles = 2 : i32, transpose = true} : memref<32x64xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
// CHECK: nvgpu.mma.sync(%[[A]], %[[B]], %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: {{[^b]}}f16
// CHECK: return
func.func @bf16(%a: memref<64x32xbf16, #gpu.address_space<workgroup>>, %b: memref<32x64xbf16, #gpu.address_space<workgroup>>,
                %c: memref<64x64xf32>, %i: index, %j: index) {
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16x8xf32>
  %va = vector.transfer_read %a[%i, %j], %pad {in_bounds = [true, true]}
      : memref<64x32xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
  %vb = vector.transfer_read %b[%j, %i], %pad {in_bounds = [true, true]}
      : memref<32x64xbf16, #gpu.address_space<workgroup>>, vector<16x8xbf16>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                         affine_map<(m, n, k) -> (k, n)>,
                                         affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<add>} %va, %vb, %zero
      : vector<16x16xbf16>, vector<16x8xbf16> into vector<16x8xf32>
  vector.transfer_write %r, %c[%i, %j] {in_bounds = [true, true]}
      : vector<16x8xf32>, memref<64x64xf32>
  return
}

// -----

// The stand-in must not change a computation: an addition on bf16 values
// (which f16 would round differently) is refused, the IR unchanged.
func.func @computes(%a: memref<64x32xbf16, #gpu.address_space<workgroup>>, %i: index) -> vector<16x16xbf16> {
  %pad = arith.constant 0.0 : bf16
  %va = vector.transfer_read %a[%i, %i], %pad {in_bounds = [true, true]}
      : memref<64x32xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
  // expected-error @below {{bf16 on the nvgpu path: only loads, stores, copies and the A and B of vector.contract may handle bf16 values (they are converted as f16 stand-ins); this op computes on them}}
  %s = arith.addf %va, %va : vector<16x16xbf16>
  return %s : vector<16x16xbf16>
}

// -----

// Nor can it take a region that already has f16 values (they could not be
// told from the stand-ins afterwards).
func.func @both(%a: memref<64x32xbf16, #gpu.address_space<workgroup>>, %h: memref<64x32xf16, #gpu.address_space<workgroup>>, %i: index) -> vector<16x16xbf16> {
  %pad = arith.constant 0.0 : bf16
  %va = vector.transfer_read %a[%i, %i], %pad {in_bounds = [true, true]}
      : memref<64x32xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
  return %va : vector<16x16xbf16>
}
// expected-error @-6 {{bf16 on the nvgpu path: converts bf16 as f16 stand-ins, which needs a region without f16 values; this op has some}}

// -----

// Without bf16 values it is upstream's conversion, f16 included.
// CHECK-LABEL: func.func @f16_only(
// CHECK: nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.mma.sync(%{{.+}}, %{{.+}}, %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
func.func @f16_only(%a: memref<64x32xf16, #gpu.address_space<workgroup>>, %b: memref<32x64xf16, #gpu.address_space<workgroup>>,
                    %c: memref<64x64xf32>, %i: index, %j: index) {
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<16x8xf32>
  %va = vector.transfer_read %a[%i, %j], %pad {in_bounds = [true, true]}
      : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
  %vb = vector.transfer_read %b[%j, %i], %pad {in_bounds = [true, true]}
      : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<16x8xf16>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                         affine_map<(m, n, k) -> (k, n)>,
                                         affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "reduction"],
                        kind = #vector.kind<add>} %va, %vb, %zero
      : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
  vector.transfer_write %r, %c[%i, %j] {in_bounds = [true, true]}
      : vector<16x8xf32>, memref<64x64xf32>
  return
}
