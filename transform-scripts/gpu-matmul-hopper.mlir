// transform-scripts/gpu-matmul-hopper.mlir: the Hopper (sm_90a) matmul:
// TMA loads into a multi-stage shared-memory ring with one transaction
// mbarrier per stage, warpgroup MMAs (wgmma) reading both operands from
// shared memory, the f32 accumulator in registers.
//
// @gpu_matmul_wgmma_tma(%root) builds, for every
//   C = fill(0); C = A x B       (linalg.fill + linalg.matmul on tensors,
//                                  A: MxK f16 or bf16, B: KxN, C: MxN f32)
// under %root (static shapes; M, N multiples of the block, K of 64), one
// gpu.launch through transform.hwsched.rewrite_matmul_as_wgmma: 128x128 C
// blocks, one warpgroup (128 threads) per block, 4 stages of 32 KiB. The
// variants change the block, the warpgroups sharing it, the stages and the
// order the blocks walk the tiles in:
//   - _s3: 3 stages (97 KiB: two blocks per SM on an H100);
//   - _128x256_w2: 128x256 blocks, 2 warpgroups of 64x256 (256 threads),
//     4 stages of 48 KiB; _128x256_w2_s3 with 3 stages (145 KiB);
//   - _256x128_w2: 256x128 blocks, 2 warpgroups of 128x128, 4 stages of
//     48 KiB;
//   - _g8: blocks walk groups of 8 tile rows (raster_group = 8) for L2
//     reuse: _128x256_w2_g8, _s3_g8;
//   - _auto: every tile from the cost model, explained;
//   - _p: one more warp issues the TMA loads (producer_warp = 1), the
//     warpgroups release slots through mbarriers: _128x256_w2_p,
//     _128x256_w2_p_g8, _256x128_w2_p_g8, _s3_p_g8.
// @gpu_matmul_wgmma_tma_with(%root, %block_m, %block_n, %warpgroups,
// %stages, %raster_group, %producer_warp) takes them as parameters (a knob,
// select_tile_config, a tuning database), the shape every variant calls.
//
// The target is the payload's or the driver's (`--hwsched-target`), else
// nvidia-h100: the op refuses a GPU other than sm_90, and what does not fit
// its shared memory, threads or registers, with the payload unchanged.
//
// Load with
//   hwsched-opt payload.mlir \
//     --transform-preload-library=transform-library-paths=transform-scripts/gpu-matmul-hopper.mlir \
//     --transform-interpreter=entry-point=gpu_matmul_wgmma_tma
// Lowering to PTX (bench/gpu-runner/tensorcore-ptx.py does all of it):
// convert-nvgpu-to-nvvm on the whole module before outlining (the kernel
// then takes each tensor map as a pointer), outlining, then
// utils/ptxas-report.py for sm_90a; the runner passes the tensor maps as
// `--args tmapA,tmapB,C`.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @gpu_matmul_wgmma_tma_with(
      %root: !transform.any_op {transform.consumed},
      %block_m: !transform.param<i64> {transform.readonly},
      %block_n: !transform.param<i64> {transform.readonly},
      %warpgroups: !transform.param<i64> {transform.readonly},
      %stages: !transform.param<i64> {transform.readonly},
      %raster_group: !transform.param<i64> {transform.readonly},
      %producer_warp: !transform.param<i64> {transform.readonly}) {
    // The kernel reads buffers: bufferize with identity layouts at the
    // function boundary (TMA reads contiguous rows), C written in place.
    transform.bufferization.eliminate_empty_tensors %root : !transform.any_op
    %root_b = transform.bufferization.one_shot_bufferize %root
        {bufferize_function_boundaries = true,
         function_boundary_type_conversion = 1 : i32, memcpy_op = "linalg.copy"}
        : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
    %launch = transform.hwsched.rewrite_matmul_as_wgmma %mm
        params(block_m = %block_m, block_n = %block_n,
               warpgroups = %warpgroups, num_stages = %stages,
               raster_group = %raster_group, producer_warp = %producer_warp)
        { default_target = "nvidia-h100", explain }
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> !transform.any_op
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %w = transform.param.constant 1 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %g = transform.param.constant 1 : i64 -> !transform.param<i64>
    %p = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_s3(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %w = transform.param.constant 1 : i64 -> !transform.param<i64>
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %g = transform.param.constant 1 : i64 -> !transform.param<i64>
    %p = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_s3_g8(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %w = transform.param.constant 1 : i64 -> !transform.param<i64>
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    %p = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_128x256_w2(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 256 : i64 -> !transform.param<i64>
    %w = transform.param.constant 2 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %g = transform.param.constant 1 : i64 -> !transform.param<i64>
    %p = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_128x256_w2_s3(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 256 : i64 -> !transform.param<i64>
    %w = transform.param.constant 2 : i64 -> !transform.param<i64>
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %g = transform.param.constant 1 : i64 -> !transform.param<i64>
    %p = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_128x256_w2_g8(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 256 : i64 -> !transform.param<i64>
    %w = transform.param.constant 2 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    %p = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_256x128_w2(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 256 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %w = transform.param.constant 2 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %g = transform.param.constant 1 : i64 -> !transform.param<i64>
    %p = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_128x256_w2_p(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 256 : i64 -> !transform.param<i64>
    %w = transform.param.constant 2 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %g = transform.param.constant 1 : i64 -> !transform.param<i64>
    %p = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_128x256_w2_p_g8(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 256 : i64 -> !transform.param<i64>
    %w = transform.param.constant 2 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    %p = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_256x128_w2_p_g8(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 256 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %w = transform.param.constant 2 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    %p = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_matmul_wgmma_tma_s3_p_g8(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %w = transform.param.constant 1 : i64 -> !transform.param<i64>
    %s = transform.param.constant 3 : i64 -> !transform.param<i64>
    %g = transform.param.constant 8 : i64 -> !transform.param<i64>
    %p = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_wgmma_tma_with failures(propagate)
        (%root, %bm, %bn, %w, %s, %g, %p)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }

  // Every tile from the cost model (CostModel/WarpgroupTiles.h): the op
  // ranks the legal configurations for the shape and the target and
  // explains the winner.
  transform.named_sequence @gpu_matmul_wgmma_tma_auto(
      %root: !transform.any_op {transform.consumed}) {
    transform.bufferization.eliminate_empty_tensors %root : !transform.any_op
    %root_b = transform.bufferization.one_shot_bufferize %root
        {bufferize_function_boundaries = true,
         function_boundary_type_conversion = 1 : i32, memcpy_op = "linalg.copy"}
        : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
    %launch = transform.hwsched.rewrite_matmul_as_wgmma %mm
        { default_target = "nvidia-h100", explain }
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
