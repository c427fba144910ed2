// The results of select_tile_config feed the upstream tiling ops directly:
// tile_using_forall with packed sizes, tile_using_for through split_handle.
// The tiled IR uses exactly the chosen sizes, and tiling with them preserves
// the semantics (exec-check on an awkwardly-sized matmul:
// integration_test/TileConfig/select-tile-config-tiling.mlir).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter | FileCheck %s

// A100 picks 32x32 blocks (the SM-fill rule: 64x64 would busy 64 of 108
// SMs), a K tile of 16 and 4x4 per thread for this matmul (see
// select-tile-config.mlir).
// CHECK-LABEL: func.func @gpu_schedule
// 512/32 x 512/32 blocks, the K loop by 16, 32/4 x 32/4 threads.
// CHECK: scf.forall (%{{.+}}, %{{.+}}) in (16, 16)
// CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} iter_args
// CHECK:     scf.forall (%{{.+}}, %{{.+}}) in (8, 8)
// CHECK:       linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x16xf32>, tensor<16x4xf32>) outs(%{{.+}} : tensor<4x4xf32>)
// CHECK:     mapping = [#gpu.thread<y>, #gpu.thread<x>]
// CHECK: mapping = [#gpu.block<y>, #gpu.block<x>]
func.func @gpu_schedule(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %mm { target = "nvidia-a100" }
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %blk, %fb = transform.structured.tile_using_forall %mm tile_sizes *(%t#0) (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %k:3 = transform.split_handle %t#2 : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %kt, %kl:3 = transform.structured.tile_using_for %blk tile_sizes [%k#0, %k#1, %k#2]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %th, %ft = transform.structured.tile_using_forall %kt tile_sizes *(%t#1) (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The CPU spec picks 512x256 cache tiles and a K tile of 128 (B panel and
// C block within half of L2) and an 8x32 register tile (8 rows x 2 AVX-512
// vectors). The M tile is the whole M: its loop folds away.
// CHECK-LABEL: func.func @cpu_schedule
// CHECK:   scf.for %{{.+}} step %c256{{(_[0-9]+)?}} iter_args
// CHECK:     scf.for %{{.+}} step %c128{{(_[0-9]+)?}} iter_args
// CHECK:       scf.for %{{.+}} step %c8{{(_[0-9]+)?}} iter_args
// CHECK:         scf.for %{{.+}} step %c32{{(_[0-9]+)?}} iter_args
// CHECK:           linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<8x128xf32>, tensor<128x32xf32>) outs(%{{.+}} : tensor<8x32xf32>)
func.func @cpu_schedule(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>, %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>) outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %mm { target = "x86-avx512", "cpu.cores" = 1, "offchip.bandwidth_gb_per_s" = 5.12 }
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %c:3 = transform.split_handle %t#0 : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %k:3 = transform.split_handle %t#2 : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %r:3 = transform.split_handle %t#1 : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %l1, %loops1:3 = transform.structured.tile_using_for %mm tile_sizes [%c#0, %c#1, %c#2]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %l2, %loops2:3 = transform.structured.tile_using_for %l1 tile_sizes [%k#0, %k#1, %k#2]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %l3, %loops3:3 = transform.structured.tile_using_for %l2 tile_sizes [%r#0, %r#1, %r#2]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
