// RUN: hwsched-opt %s --transform-interpreter -o /dev/null 2>&1 | FileCheck %s

// Problems smaller than a GPU block tile. Elementwise ops and reductions get
// their tiles clamped to the (padded) extent instead of being refused as
// "tile larger than the problem"; a block covering the whole problem may
// have fewer threads than a warp. num_threads are the trip counts of the
// thread forall: a 2x3x4 matmul in a 16x16 candidate has tile_sizes [2, 3]
// and thread tiles [1, 2]: a 2 x 2 forall, 4 threads (was [8, 16, 1]).
// (The sweep over many shapes: thread-forall-sweep.test.)

func.func @add16(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // CHECK: remark: select_tile_config on 'nvidia-a100' for a elementwise (batch 1, M 16, N 16, K 1): tile_sizes [8, 16], thread_tile_sizes [1, 1], reduction_tile_sizes [0, 0], num_stages 1, num_threads [16, 8, 1]
  %r = linalg.add ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

func.func @mm234(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: remark: select_tile_config on {{.*}}: tile_sizes [2, 3, 0], thread_tile_sizes [1, 2, 0], reduction_tile_sizes [0, 0, 4], num_stages 2, num_threads [2, 2, 1]
  %r = linalg.matmul ins(%a, %b : tensor<2x4xf32>, tensor<4x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// Eight rows: one block of 8 rows, 2 per thread, 4 threads (x runs over
// the only mapped loop, the rows).
func.func @rowsum(%a: tensor<8x100xf32>, %c: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: remark: select_tile_config on {{.*}} for a reduction (batch 1, M 8, N 1, K 104): tile_sizes [8, 0], thread_tile_sizes [2, 0], reduction_tile_sizes [0, 8], num_stages 1, num_threads [4, 1, 1]
  %r = linalg.reduce ins(%a : tensor<8x100xf32>) outs(%c : tensor<8xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8xf32>
}

// Rank 1: no M loop, so no M padding (M 1); 10 elements in one block.
func.func @vec(%a: tensor<10xf32>, %c: tensor<10xf32>) -> tensor<10xf32> {
  // CHECK: remark: select_tile_config on {{.*}} for a elementwise (batch 1, M 1, N 16, K 1): tile_sizes [10], thread_tile_sizes [2], reduction_tile_sizes [0], num_stages 1, num_threads [5, 1, 1]
  %r = linalg.exp ins(%a : tensor<10xf32>) outs(%c : tensor<10xf32>) -> tensor<10xf32>
  return %r : tensor<10xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op) {
    %ops = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %ops { target = "nvidia-a100", explain }
            : (!transform.any_op) -> (!transform.any_param, !transform.any_param, !transform.any_param, !transform.any_param, !transform.any_param)
    transform.yield
  }
}
