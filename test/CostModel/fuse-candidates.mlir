// The seed script runs as written: filter_fusable_consumers, then fusing the
// candidates with upstream ops (tile the consumers, fuse the producer in).
//
// RUN: hwsched-opt %S/Inputs/fuse-chain-exec.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/fuse-candidates-lib.mlir \
// RUN:   --transform-interpreter=entry-point=fuse_candidates | FileCheck %s --check-prefix=NPU
//
// RUN: hwsched-opt %s \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/fuse-candidates-lib.mlir \
// RUN:   --transform-interpreter=entry-point=fuse_candidates_gpu | FileCheck %s --check-prefix=GPU
//
// The fused program computes what the original does:
// integration_test/CostModel/fuse-candidates.mlir.

// NPU-LABEL: func.func @chain
// NPU: %[[LOOP:.+]] = scf.forall
// NPU:   %[[ADD:.+]] = linalg.add {producer} ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<8x16xf32>)
// NPU:   linalg.mul ins(%[[ADD]], %{{.*}} : tensor<8x16xf32>, tensor<8x16xf32>)
// NPU: scf.forall.in_parallel
// NPU-NOT: linalg.add
// NPU: linalg.generic
// NPU-SAME: ins(%[[LOOP]] : tensor<32x16xf32>)

// GPU-LABEL: func.func @gpu_matmul
// GPU: %[[MM:.+]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<32x64xf32>)
// GPU: scf.forall
// GPU:   linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<32x8xf32>)
// GPU:   linalg.generic
// GPU: scf.forall.in_parallel
// GPU: linalg.transpose ins(%[[MM]] : tensor<64x64xf32>)
func.func @gpu_matmul(%A: tensor<64x32xf32>, %B: tensor<32x64xf32>,
                      %bias: tensor<64xf32>, %out: tensor<64x64xf32>)
    -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x64xf32>)
                      outs(%out : tensor<64x64xf32>) -> tensor<64x64xf32>
  %res = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%acc: f32, %b: f32, %o: f32):
    %sum = arith.addf %acc, %b : f32
    linalg.yield %sum : f32
  } -> tensor<64x64xf32>
  %t = linalg.transpose ins(%mm : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) permutation = [1, 0]
  return %res, %t : tensor<64x64xf32>, tensor<64x64xf32>
}
