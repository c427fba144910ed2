// Transform library for select-tile-config-tiling.mlir: tile the matmul of
// test/Harness/Inputs/matmul-exec.mlir (M=33, N=47, K=29) with the sizes
// select_tile_config picks, fed straight into the upstream tiling ops.
module attributes {transform.with_named_sequence} {
  // CPU: cache tile, K tile and register tile with tile_using_for (sizes
  // split into one param per loop), then the K step of the register kernel.
  transform.named_sequence @cpu_tiles(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
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
    %l4, %kstep = transform.structured.tile_using_for %l3 tile_sizes [0, 0, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // GPU: block tiles and thread tiles with tile_using_forall (packed sizes)
  // and the K tile with tile_using_for; runs sequentially on the CPU.
  transform.named_sequence @gpu_tiles(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %mm { target = "nvidia-a100" }
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %b, %fb = transform.structured.tile_using_forall %mm tile_sizes *(%t#0)
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %k:3 = transform.split_handle %t#2 : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %kt, %kl:3 = transform.structured.tile_using_for %b tile_sizes [%k#0, %k#1, %k#2]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %th, %ft = transform.structured.tile_using_forall %kt tile_sizes *(%t#1)
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
