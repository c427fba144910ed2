// transform-scripts/gpu-matmul-tensorcore.mlir: a tensor-core (mma.sync)
// matmul schedule fed by a multi-stage cp.async pipeline, from Linalg to a
// gpu.launch, with upstream MLIR 22 transform ops only.
//
// @gpu_matmul_tensorcore_mma_sync(%root) builds, for one
//   C = fill(0); C += A x B      (linalg.fill + linalg.matmul on tensors,
//                                  A: MxK f16, B: KxN f16, C: MxN f32)
// under %root, with static M, N multiples of 128 and K a multiple of 32 of
// at least 96 (3 K steps: pipeline_shared_memory_copies fails with
// "pipelining preconditions failed" on fewer steps than stages):
//   - one 128x128 C tile per block (grid N/128 x M/128), 128 threads = 4 warps,
//     each warp a 64x64 C tile held in registers across the K loop;
//   - K steps of 32: the block's A (128x32) and B (32x128) tiles copied to
//     shared memory with 16-byte `nvgpu.device_async_copy` (cp.async.cg),
//     8 per thread and step, in one async group per step;
//   - 3 shared-memory buffers per tile (48 KiB in all) and the K loop
//     pipelined so that 2 K steps of loads are in flight while one is
//     computed (`cp.async.wait_group 2`, 2 barriers per step);
//   - the warp's matmul as 64 `nvgpu.mma.sync` m16n8k16 (f16 x f16 + f32)
//     per K step, operands read from shared memory with `nvgpu.ldmatrix`.
// These tiles are fixed (they are the probe of issue 20);
// @gpu_matmul_tensorcore_tiles (at the end of the file) builds the same
// kernel for tiles given as parameters, in the layout of
// transform.cost_model.select_tile_config's results, with the pipelining
// from schedule_stages.
//
// Load with
//   hwsched-opt payload.mlir \
//     --transform-preload-library=transform-library-paths=transform-scripts/gpu-matmul-tensorcore.mlir \
//     --transform-interpreter=entry-point=gpu_matmul_tensorcore_mma_sync
// Lowering to PTX (bench/gpu-runner/tensorcore-ptx.py does all of it): the
// shared buffers are still workgroup `memref.alloc`s in the launch, which
// the NVVM path would turn into a malloc (a miscompile ptxas accepts);
// examples/gpu-matmul/run.py's allocs_to_globals makes them workgroup
// memref.globals (48 KiB: the static limit, exactly), then
// utils/ptxas-report.py lowers (convert-nvgpu-to-nvvm included).
//
// @gpu_matmul_tensorcore_mma_sync_swizzled(%root) is the same kernel with
// upstream's shared-memory swizzle against ldmatrix bank conflicts; its
// variants with more shared memory than the 48 KiB static limit mark their
// gpu.launch hwsched.dynamic_shared_memory, and the lowering
// (tensorcore-ptx.py) places their buffers in dynamic shared memory:
//   - _k64: K steps of 64 (A 128x64, B 64x128), 3 stages, 96 KiB;
//   - _s4: K steps of 32, 4 stages (3 steps of loads in flight), 64 KiB;
//   - _k64_s4: K steps of 64, 4 stages, 128 KiB;
//   - _k64_128x256: 128x256 C tiles per block (8 warps of 64x64, 256
//     threads), K steps of 64, 3 stages, 144 KiB; _k64_128x256_s4 the same
//     with 4 stages, 192 KiB (more than sm_80's 163 KiB per block);
// K must be a multiple of the K step and hold at least as many steps as
// stages.
// @gpu_matmul_tensorcore_sequential(%root) the vector-level form with every
// loop left a loop, for CPU execution checks (utils/exec-check.py);
// @gpu_matmul_tensorcore_thread_level(%root) the gpu.launch of 128 threads
// with its async copies and barriers, the warp contractions lowered for the
// CPU instead of to mma.sync, for execution checks with real threads
// (exec-check.py --emulate-gpu-launch --emulate-async-copies).
// @gpu_matmul_tensorcore_tiles(%root, %block, %warp, %red, %stages,
// %threads) the swizzled scheduled kernel for block tiles BM x BN in {64,
// 128, 256}, warp tiles WM x WN in {32, 64}, K steps of 32 or 64, a stage
// cap and 32 to 512 threads, given as parameters;
// @gpu_matmul_tensorcore_tiles_thread_level_scheduled its thread-level form
// for execution checks; @gpu_matmul_tensorcore_tiles_fixed_* examples on
// constant tiles (_128x128_k32 is
// @gpu_matmul_tensorcore_mma_sync_swizzled_scheduled, op for op).
//
// Order constraints (each step's comment says why it is where it is):
// promote at tensor level (issue 20's probe: a memref-level promotion
// cannot be multi-buffered), fuse the A and B copy loops (one async group
// per step, else two groups per step and only one step in flight), unroll
// the warp contraction to mma shapes before hoisting the accumulator (else
// the mma conversion does nothing), swizzle before multi-buffering (after,
// the swizzle pass does nothing), multi-buffer explicitly before pipelining
// (pipeline_shared_memory_copies does not multi-buffer these buffers itself
// and then overwrites a tile still being read). Shared memory is
// `#gpu.address_space<workgroup>`, not the integer space 3: with 3,
// convert-vector-to-gpu reads the operands with scalar loads instead of
// ldmatrix.
module attributes {transform.with_named_sequence} {
  // Steps 1-7: blocks, K loop, shared-memory promotion, warps, bufferization,
  // the copies over the block's threads, vectorization. Yields the function.
  // K steps of 32.
  transform.named_sequence @gpu_matmul_tensorcore_vector_level(
      %root: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %mm_b, %fill_b = transform.include @gpu_matmul_tensorcore_blocks failures(propagate) (%root)
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // 2. The K loop, steps of 32.
    %mm_k, %loop_k = transform.structured.tile_using_for %mm_b tile_sizes [0, 0, 32]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    transform.include @gpu_matmul_tensorcore_promote_and_warps failures(propagate)
        (%mm_k, %fill_b) : (!transform.any_op, !transform.any_op) -> ()
    %func_b = transform.include @gpu_matmul_tensorcore_bufferize failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op

    // 6. The two copies into shared memory (A's first, in program order)
    //    over the block's 128 threads as 32x4 thread grids: A (128x32) is
    //    4x8 per thread, 4 rows of one 16-byte copy; B (32x128) is 1x32 per
    //    thread, cut into four 1x8 (16-byte) pieces and unrolled. The same
    //    thread grid lets the two loops fuse into one (one async group per K
    //    step in step 10).
    %copies = transform.structured.match ops{["linalg.copy"]} in %func_b
        : (!transform.any_op) -> !transform.any_op
    %copy_a, %copy_b = transform.split_handle %copies
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %copy_a_t, %copy_a_f = transform.structured.tile_using_forall %copy_a
        num_threads [32, 4] (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %copy_b_t, %copy_b_f = transform.structured.tile_using_forall %copy_b
        num_threads [32, 4] (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %copy_b_16, %copy_b_loop = transform.structured.tile_using_for %copy_b_t tile_sizes [0, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %copy_b_loop {factor = 4} : !transform.any_op
    %copy_f = transform.loop.fuse_sibling %copy_a_f into %copy_b_f
        : (!transform.any_op, !transform.any_op) -> !transform.any_op

    %func_v = transform.include @gpu_matmul_tensorcore_vectorize failures(propagate) (%func_b)
        : (!transform.any_op) -> !transform.any_op
    transform.yield %func_v : !transform.any_op
  }

  // Steps 1-7 with K steps of 64: the same block and warp tiles, twice the
  // K extent per shared-memory tile (A 128x64, B 64x128: 32 KiB per stage),
  // so half the barriers, async groups and waits per multiply-add.
  transform.named_sequence @gpu_matmul_tensorcore_vector_level_k64(
      %root: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %mm_b, %fill_b = transform.include @gpu_matmul_tensorcore_blocks failures(propagate) (%root)
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // 2. The K loop, steps of 64.
    %mm_k, %loop_k = transform.structured.tile_using_for %mm_b tile_sizes [0, 0, 64]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    transform.include @gpu_matmul_tensorcore_promote_and_warps failures(propagate)
        (%mm_k, %fill_b) : (!transform.any_op, !transform.any_op) -> ()
    %func_b = transform.include @gpu_matmul_tensorcore_bufferize failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op

    // 6. The two copies as 16x8 thread grids: A (128x64) is 8x8 per thread,
    //    8 rows of one 16-byte copy (8 threads cover one 128-byte row);
    //    B (64x128) is 4x16 per thread, cut into two 4x8 (16-byte wide)
    //    pieces and unrolled. The same grid for both lets the loops fuse.
    %copies = transform.structured.match ops{["linalg.copy"]} in %func_b
        : (!transform.any_op) -> !transform.any_op
    %copy_a, %copy_b = transform.split_handle %copies
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %copy_a_t, %copy_a_f = transform.structured.tile_using_forall %copy_a
        num_threads [16, 8] (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %copy_b_t, %copy_b_f = transform.structured.tile_using_forall %copy_b
        num_threads [16, 8] (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %copy_b_16, %copy_b_loop = transform.structured.tile_using_for %copy_b_t tile_sizes [0, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %copy_b_loop {factor = 2} : !transform.any_op
    %copy_f = transform.loop.fuse_sibling %copy_a_f into %copy_b_f
        : (!transform.any_op, !transform.any_op) -> !transform.any_op

    %func_v = transform.include @gpu_matmul_tensorcore_vectorize failures(propagate) (%func_b)
        : (!transform.any_op) -> !transform.any_op
    transform.yield %func_v : !transform.any_op
  }

  // Steps 1-7 for 128x256 C tiles per block (8 warps, 256 threads) with K
  // steps of 64: A 128x64 and B 64x256, 48 KiB per stage.
  transform.named_sequence @gpu_matmul_tensorcore_vector_level_k64_128x256(
      %root: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %mm_b, %fill_b = transform.include @gpu_matmul_tensorcore_blocks_128x256
        failures(propagate) (%root)
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // 2. The K loop, steps of 64.
    %mm_k, %loop_k = transform.structured.tile_using_for %mm_b tile_sizes [0, 0, 64]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    transform.include @gpu_matmul_tensorcore_promote_and_warps failures(propagate)
        (%mm_k, %fill_b) : (!transform.any_op, !transform.any_op) -> ()
    %func_b = transform.include @gpu_matmul_tensorcore_bufferize failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op

    // 6. The two copies over the 256 threads as 32x8 thread grids: A
    //    (128x64) is 4x8 per thread, 4 rows of one 16-byte copy; B (64x256)
    //    is 2x32 per thread, cut into four 2x8 (16-byte wide) pieces and
    //    unrolled. The same grid for both lets the loops fuse.
    %copies = transform.structured.match ops{["linalg.copy"]} in %func_b
        : (!transform.any_op) -> !transform.any_op
    %copy_a, %copy_b = transform.split_handle %copies
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %copy_a_t, %copy_a_f = transform.structured.tile_using_forall %copy_a
        num_threads [32, 8] (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %copy_b_t, %copy_b_f = transform.structured.tile_using_forall %copy_b
        num_threads [32, 8] (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %copy_b_16, %copy_b_loop = transform.structured.tile_using_for %copy_b_t tile_sizes [0, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %copy_b_loop {factor = 4} : !transform.any_op
    %copy_f = transform.loop.fuse_sibling %copy_a_f into %copy_b_f
        : (!transform.any_op, !transform.any_op) -> !transform.any_op

    %func_v = transform.include @gpu_matmul_tensorcore_vectorize failures(propagate) (%func_b)
        : (!transform.any_op) -> !transform.any_op
    transform.yield %func_v : !transform.any_op
  }

  // Step 1 with 128x256 C tiles (rows x columns) per block.
  transform.named_sequence @gpu_matmul_tensorcore_blocks_128x256(
      %root: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.get_producer_of_operand %mm[2]
        : (!transform.any_op) -> !transform.any_op
    %mm_b, %forall_b = transform.structured.tile_using_forall %mm
        tile_sizes [128, 256] (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b2 = transform.structured.fuse_into_containing_op %fill into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %mm_b, %fill_b : !transform.any_op, !transform.any_op
  }

  // Step 1: one 128x128 C tile per block, rows on block y, columns on
  // block x; the zero fill of C fused into the same block loop. Yields the
  // block-level matmul and fill.
  transform.named_sequence @gpu_matmul_tensorcore_blocks(
      %root: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    // The fill of C: the producer of the matmul's init (a fill elsewhere in
    // the module is not this kernel's).
    %fill = transform.get_producer_of_operand %mm[2]
        : (!transform.any_op) -> !transform.any_op
    %mm_b, %forall_b = transform.structured.tile_using_forall %mm
        tile_sizes [128, 128] (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b2 = transform.structured.fuse_into_containing_op %fill into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %mm_b, %fill_b : !transform.any_op, !transform.any_op
  }

  // Steps 3-4 on the K loop's matmul %mm_k and the block's fill %fill_b.
  transform.named_sequence @gpu_matmul_tensorcore_promote_and_warps(
      %mm_k: !transform.any_op {transform.consumed},
      %fill_b: !transform.any_op {transform.consumed}) {
    // 3. A and B tiles of each K step copied to shared memory, at tensor
    //    level: bufferization then gives a workgroup memref.alloc and a
    //    linalg.copy per tile, which the K loop's multi-buffering (step 12)
    //    can expand (a memref-level promotion's buffers cannot be).
    %a_k = transform.get_operand %mm_k[0] : (!transform.any_op) -> !transform.any_value
    %b_k = transform.get_operand %mm_k[1] : (!transform.any_op) -> !transform.any_value
    %a_s = transform.structured.promote_tensor to #gpu.address_space<workgroup> %a_k
        : !transform.any_value
    %b_s = transform.structured.promote_tensor to #gpu.address_space<workgroup> %b_k
        : !transform.any_value

    // 4. Warps of 64x64 C (linear warp ids): 2x2 warps (128 threads) for a
    //    128x128 block, 2x4 (256 threads) for a 128x256 one.
    %mm_w, %forall_w = transform.structured.tile_using_forall %mm_k
        tile_sizes [64, 64] (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_w, %forall_fw = transform.structured.tile_using_forall %fill_b
        tile_sizes [64, 64] (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The matmul's function, marked so that it is found again after the
    // bufferization (which replaces every handle); other functions of
    // the module (a test driver's @main) are left alone.
    %func = transform.get_parent_op %forall_w {op_name = "func.func"}
        : (!transform.any_op) -> !transform.any_op
    transform.annotate %func "hwsched.tensorcore_kernel" : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    transform.yield
  }

  // Step 5 on everything under %root. Yields the function marked in step 4.
  transform.named_sequence @gpu_matmul_tensorcore_bufferize(
      %root: !transform.any_op {transform.consumed}) -> !transform.any_op {
    // 5. Bufferize (C in place in the function's argument, identity layouts
    //    at the function boundary: the kernel ABI of hwsched-gpu-run).
    transform.bufferization.eliminate_empty_tensors %root : !transform.any_op
    %root_b = transform.bufferization.one_shot_bufferize %root
        {bufferize_function_boundaries = true,
         function_boundary_type_conversion = 1 : i32, memcpy_op = "linalg.copy"}
        : (!transform.any_op) -> !transform.any_op
    %func_b = transform.structured.match ops{["func.func"]}
        attributes {hwsched.tensorcore_kernel} in %root_b
        : (!transform.any_op) -> !transform.any_op
    // Canonicalize, CSE, canonicalize: the copies of C's tiles onto
    // themselves become identical subviews only after CSE and are then
    // erased, leaving the two copies into shared memory.
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield %func_b : !transform.any_op
  }

  // Step 7 on the function whose copies are on threads: vectorize. The warp
  // matmul becomes one vector.contract, the copies transfer_read /
  // transfer_write pairs of vector<8xf16> (1-D, which create_async_groups
  // turns into 16-byte async copies). Yields the function.
  transform.named_sequence @gpu_matmul_tensorcore_vectorize(
      %func_b: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func_b
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.vector.fold_arith_extension
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    %copy_threads = transform.structured.match ops{["scf.forall"]}
        attributes {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]} in %func_v
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %copy_threads {
      transform.apply_patterns.vector.transfer_to_scf full_unroll = true
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield %func_v : !transform.any_op
  }

  // Steps 1-11: to a gpu.launch of mma.sync, ldmatrix and async copies,
  // single-buffered and not yet pipelined. Yields the function.
  transform.named_sequence @gpu_matmul_tensorcore_to_nvgpu(
      %root: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %func_v = transform.include @gpu_matmul_tensorcore_vector_level failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %f_m = transform.include @gpu_matmul_tensorcore_vector_to_nvgpu failures(propagate) (%func_v)
        : (!transform.any_op) -> !transform.any_op
    transform.yield %f_m : !transform.any_op
  }

  // The same with K steps of 64.
  transform.named_sequence @gpu_matmul_tensorcore_to_nvgpu_k64(
      %root: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %func_v = transform.include @gpu_matmul_tensorcore_vector_level_k64 failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %f_m = transform.include @gpu_matmul_tensorcore_vector_to_nvgpu failures(propagate) (%func_v)
        : (!transform.any_op) -> !transform.any_op
    transform.yield %f_m : !transform.any_op
  }

  // The same with 128x256 block tiles (8 warps) and K steps of 64.
  transform.named_sequence @gpu_matmul_tensorcore_to_nvgpu_k64_128x256(
      %root: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %func_v = transform.include @gpu_matmul_tensorcore_vector_level_k64_128x256
        failures(propagate) (%root) : (!transform.any_op) -> !transform.any_op
    %f_m = transform.include @gpu_matmul_tensorcore_vector_to_nvgpu_256_threads
        failures(propagate) (%func_v) : (!transform.any_op) -> !transform.any_op
    transform.yield %f_m : !transform.any_op
  }

  // Steps 8-11 on the vectorized function (whatever the K step) of a
  // 128-thread block. Yields the function.
  transform.named_sequence @gpu_matmul_tensorcore_vector_to_nvgpu(
      %func_v: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %mapped = transform.include @gpu_matmul_tensorcore_threads_128 failures(propagate)
        (%func_v) : (!transform.any_op) -> !transform.any_op
    %f_m = transform.include @gpu_matmul_tensorcore_threads_to_nvgpu failures(propagate)
        (%mapped) : (!transform.any_op) -> !transform.any_op
    transform.yield %f_m : !transform.any_op
  }

  // Step 8 for a 128-thread block: the gpu.launch, its warp and thread
  // loops mapped to ids. Yields the launch.
  transform.named_sequence @gpu_matmul_tensorcore_threads_128(
      %func_v: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %launch_h = transform.include @gpu_matmul_tensorcore_launch failures(propagate) (%func_v)
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch_h block_dims = [128, 1, 1]
        : (!transform.any_op) -> !transform.any_op
    transform.yield %mapped : !transform.any_op
  }

  // The same for a block of 256 threads (8 warps).
  transform.named_sequence @gpu_matmul_tensorcore_vector_to_nvgpu_256_threads(
      %func_v: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %launch_h = transform.include @gpu_matmul_tensorcore_launch failures(propagate) (%func_v)
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch_h block_dims = [256, 1, 1]
        : (!transform.any_op) -> !transform.any_op
    %f_m = transform.include @gpu_matmul_tensorcore_threads_to_nvgpu failures(propagate)
        (%mapped) : (!transform.any_op) -> !transform.any_op
    transform.yield %f_m : !transform.any_op
  }

  // Step 8, first half: the block loop becomes the gpu.launch; the shared
  // buffers move out of the K loop (buffer-loop-hoisting stops at the
  // launch), where step 12 can multi-buffer them. Yields the launch, whose
  // warp and thread loops the caller maps to ids (block_dims is its
  // thread count).
  transform.named_sequence @gpu_matmul_tensorcore_launch(
      %func_v: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %launch = transform.gpu.map_forall_to_blocks %func_v {generate_gpu_launch}
        : (!transform.any_op) -> !transform.any_op
    %func_l = transform.get_parent_op %launch {op_name = "func.func"}
        : (!transform.any_op) -> !transform.any_op
    %func_h = transform.apply_registered_pass "buffer-loop-hoisting" to %func_l
        : (!transform.any_op) -> !transform.any_op
    %launch_h = transform.structured.match ops{["gpu.launch"]} in %func_h
        : (!transform.any_op) -> !transform.any_op
    transform.yield %launch_h : !transform.any_op
  }

  // Steps 8 (the rest) to 11 on the launch whose loops are mapped to ids.
  // Yields its function.
  transform.named_sequence @gpu_matmul_tensorcore_threads_to_nvgpu(
      %mapped: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %f_a = transform.include @gpu_matmul_tensorcore_threads_to_async_copies
        failures(propagate) (%mapped) : (!transform.any_op) -> !transform.any_op

    // 11. Warp-level vector ops to nvgpu: vector.contract -> mma.sync,
    //     shared-memory reads -> ldmatrix (A as is, B transposed; f32 B as
    //     single loads: ldmatrix transposes 16-bit elements only). Our
    //     pass is upstream's convert-vector-to-gpu{use-nvgpu} that also
    //     takes bf16 (upstream has no bf16 fragments). An f32 mma.sync
    //     runs on the tensor cores only as tf32: marked so (the NVVM
    //     lowering refuses it otherwise); f16 and bf16 ones are left alone
    //     (bf16, and tf32 with rounded operands, are lowered after the pipeline,
    //     @gpu_matmul_tensorcore_lower_mma_inputs).
    %f_m = transform.apply_registered_pass "hwsched-convert-vector-to-nvgpu"
        to %f_a : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f_m {
      transform.apply_patterns.hwsched.mma_sync_f32_to_tf32
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %f_m : !transform.any_op
    transform.yield %f_m : !transform.any_op
  }

  // Steps 8 (the rest) to 10 on the launch whose loops are mapped to ids:
  // the thread-level kernel with async copies and barriers, its warp
  // matmul still vector.contracts of mma shapes. Yields its function.
  transform.named_sequence @gpu_matmul_tensorcore_threads_to_async_copies(
      %mapped: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %f = transform.get_parent_op %mapped {op_name = "func.func"}
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %f : !transform.any_op

    // 9. The warp contraction unrolled to mma.sync shapes (m16n8k16 for
    //    f16, m16n8k8 for f32), then the 64 accumulators (16x8 f32 each)
    //    hoisted out of the K loop into iter_args. In this order: hoisting
    //    first leaves one 64x64 accumulator that the mma conversion (step
    //    11) silently skips.
    transform.include @gpu_matmul_tensorcore_unroll_to_mma failures(propagate) (%f)
        : (!transform.any_op) -> ()
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    %f_h = transform.structured.hoist_redundant_vector_transfers %f
        : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %f_h : !transform.any_op

    // 10. The copies into shared memory as 16-byte async copies bypassing
    //     L1 (cp.async.cg), one group per K step with its wait.
    %f_a = transform.nvgpu.create_async_groups %f_h {bypass_l1}
        : (!transform.any_op) -> !transform.any_op

    // The fill of C forwarded into the K loop's accumulators: the warp's
    // zero fill is a transfer_write of its whole C tile that the mma
    // conversion leaves out of its fragments (every lane would store the
    // whole tile), read back as the accumulators' start. Store-to-load
    // forwarding (erase_dead_alloc_and_stores' vector transfer flow
    // optimization) starts them from the constant instead and drops the
    // overwritten store: C is written once, at the end.
    transform.apply_cse to %f_a : !transform.any_op
    transform.memref.erase_dead_alloc_and_stores %f_a : (!transform.any_op) -> ()
    transform.apply_patterns to %f_a {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %f_a : !transform.any_op
    transform.yield %f_a : !transform.any_op
  }

  // Steps 12-14 on the function of the one gpu.launch: multi-buffering and
  // the pipeline.
  transform.named_sequence @gpu_matmul_tensorcore_pipeline(
      %f_m: !transform.any_op {transform.readonly}) {
    // 12. Three buffers per tile, indexed by (k / 32) mod 3. Every element
    //     of a tile is overwritten by the copies of each K step before any
    //     read of that step (the copies cover the tile), so no data is
    //     carried between iterations through the buffer: skip_analysis is
    //     exact here.
    %launch_m = transform.structured.match ops{["gpu.launch"]} in %f_m
        : (!transform.any_op) -> !transform.any_op
    %allocs = transform.structured.match ops{["memref.alloc"]} in %launch_m
        : (!transform.any_op) -> !transform.op<"memref.alloc">
    %multi = transform.memref.multibuffer %allocs {factor = 3 : i64, skip_analysis}
        : (!transform.op<"memref.alloc">) -> !transform.any_op

    // 13. Pipeline the K loop: a prologue issues the groups of steps 0-2;
    //     iteration k waits until at most 2 groups are pending (step k has
    //     landed, k+1 and k+2 stay in flight), a barrier makes every
    //     thread's copies visible, ldmatrix/mma.sync read buffer k mod 3, a
    //     barrier, then step k+3's copies go into that same buffer. The last
    //     3 iterations' copies are predicated to zero source bytes instead
    //     of peeled (they read nothing and fill buffers no step reads).
    %k_loop = transform.structured.match ops{["scf.for"]} in %launch_m
        : (!transform.any_op) -> !transform.op<"scf.for">
    %pipelined = transform.nvgpu.pipeline_shared_memory_copies failures(propagate)
        %k_loop { depth = 3 } : (!transform.op<"scf.for">) -> !transform.any_op

    transform.include @gpu_matmul_tensorcore_copies_bypass_l1 failures(propagate) (%launch_m)
        : (!transform.any_op) -> ()
    transform.include @gpu_matmul_tensorcore_lower_mma_inputs failures(propagate) (%f_m)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // Steps 12-14 decided by our own op instead of upstream's fixed depth:
  // transform.pipeline.schedule_stages on the K loop of the thread-level
  // launch. It proves from the thread ids that the block's 16-byte async
  // copies together overwrite each shared tile every K step and are
  // disjoint across threads (Analysis/ThreadIndexSpace.h), so the tiles are
  // multi-buffered with no barrier between the copies; it picks the stage
  // count from the target's latencies and shared memory (at most 4 here),
  // orders each step as wait, one barrier, the next step's copies, this
  // step's reads (checked over the whole expansion,
  // Transforms/PipelineBarriers.h), and sets the group counts. The target
  // is the payload's (--hwsched-target or hwsched.target). K needs at least
  // as many K steps as stages (fewer: the loop is unrolled, not pipelined).
  transform.named_sequence @gpu_matmul_tensorcore_pipeline_scheduled(
      %f_m: !transform.any_op {transform.readonly}) {
    %launch_m = transform.structured.match ops{["gpu.launch"]} in %f_m
        : (!transform.any_op) -> !transform.any_op
    %k_loop = transform.structured.match ops{["scf.for"]} in %launch_m
        : (!transform.any_op) -> !transform.op<"scf.for">
    %pipelined = transform.pipeline.schedule_stages %k_loop { max_stages = 4 }
        : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.include @gpu_matmul_tensorcore_copies_bypass_l1 failures(propagate) (%launch_m)
        : (!transform.any_op) -> ()
    // The stage count is decided here, at schedule time: merge_allocations
    // lays the multi-buffered tiles out in the launch's dynamic shared
    // memory whatever it is (4 stages are 64 KiB, above the 48 KiB static
    // limit), as views at offsets it packs, and sets the launch's dynamic
    // size to its peak.
    %smem = transform.smem.merge_allocations %launch_m { dynamic_shared_memory }
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_lower_mma_inputs failures(propagate) (%f_m)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // Steps 12-14 with four stages: four buffers per tile, three K steps of
  // loads in flight while one is computed (cp.async.wait_group 3). Needs at
  // least 4 K steps.
  transform.named_sequence @gpu_matmul_tensorcore_pipeline_4_stages(
      %f_m: !transform.any_op {transform.readonly}) {
    %launch_m = transform.structured.match ops{["gpu.launch"]} in %f_m
        : (!transform.any_op) -> !transform.any_op
    %allocs = transform.structured.match ops{["memref.alloc"]} in %launch_m
        : (!transform.any_op) -> !transform.op<"memref.alloc">
    %multi = transform.memref.multibuffer %allocs {factor = 4 : i64, skip_analysis}
        : (!transform.op<"memref.alloc">) -> !transform.any_op
    %k_loop = transform.structured.match ops{["scf.for"]} in %launch_m
        : (!transform.any_op) -> !transform.op<"scf.for">
    %pipelined = transform.nvgpu.pipeline_shared_memory_copies failures(propagate)
        %k_loop { depth = 4 } : (!transform.op<"scf.for">) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_copies_bypass_l1 failures(propagate) (%launch_m)
        : (!transform.any_op) -> ()
    transform.include @gpu_matmul_tensorcore_lower_mma_inputs failures(propagate) (%f_m)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // The bf16 and tf32 nvgpu.mma.sync ops of %f as nvvm.mma.sync, which
  // convert-nvgpu-to-nvvm cannot lower (bf16 x bf16 + f32, m16n8k16) or
  // lowers with truncated operands (tf32, m16n8k8: the tensor core reads
  // the top 19 bits of each f32 register; ours rounds them to the nearest
  // tf32 first, as cuBLAS does); f16 ones are left to it. After the
  // pipeline: NVVM's mma.sync declares no memory effects, so schedule_stages
  // could not move it, and the scheduler sees the same mma.sync ops as for
  // f16. Applied to the launches that hold such an mma.sync only: the
  // pattern driver also folds, which would reorder the f16 kernels.
  transform.named_sequence @gpu_matmul_tensorcore_lower_mma_inputs(
      %f: !transform.any_op {transform.readonly}) {
    %bf16 = transform.structured.match ops{["nvgpu.mma.sync"]}
        filter_operand_types = [vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>]
        in %f : (!transform.any_op) -> !transform.any_op
    %tf32 = transform.structured.match ops{["nvgpu.mma.sync"]}
        filter_operand_types = [vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>]
        in %f : (!transform.any_op) -> !transform.any_op
    %launch_bf16 = transform.get_parent_op %bf16 {op_name = "gpu.launch", deduplicate}
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %launch_bf16 {
      transform.apply_patterns.hwsched.mma_sync_bf16_to_nvvm
    } : !transform.any_op
    %launch_tf32 = transform.get_parent_op %tf32 {op_name = "gpu.launch", deduplicate}
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %launch_tf32 {
      transform.apply_patterns.hwsched.mma_sync_tf32_to_nvvm
    } : !transform.any_op
    transform.yield
  }

  // 14. The pipeliner rebuilds the loop's copies (predicated) without their
  //     bypassL1 flag (cp.async.ca, allocating the tiles in L1 for nothing):
  //     set it again on every copy of %launch, all 16 bytes wide
  //     (cp.async.cg only takes 16).
  transform.named_sequence @gpu_matmul_tensorcore_copies_bypass_l1(
      %launch: !transform.any_op {transform.readonly}) {
    %async_copies = transform.structured.match ops{["nvgpu.device_async_copy"]} in %launch
        : (!transform.any_op) -> !transform.any_op
    transform.annotate %async_copies "bypassL1" : !transform.any_op
    transform.yield
  }

  // Marks the function's gpu.launch for dynamic shared memory: the lowering
  // (bench/gpu-runner/tensorcore-ptx.py) then places its workgroup buffers
  // in one gpu.dynamic_shared_memory (memref.view at 128-byte aligned
  // offsets) and sets the launch's dynamic_shared_memory_size, instead of
  // static workgroup globals, which ptxas caps at 48 KiB.
  transform.named_sequence @gpu_matmul_tensorcore_mark_dynamic_shared_memory(
      %f: !transform.any_op {transform.readonly}) {
    %launch = transform.structured.match ops{["gpu.launch"]} in %f
        : (!transform.any_op) -> !transform.any_op
    transform.annotate %launch "hwsched.dynamic_shared_memory" : !transform.any_op
    transform.yield
  }

  // The schedule (steps 1-14), down to a gpu.launch of nvgpu ops; shared
  // memory row-major, unswizzled (ldmatrix reads of A rows 64 bytes apart
  // and of B rows 256 bytes apart meet bank conflicts).
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline failures(propagate) (%f)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // The schedule with steps 12-14 from schedule_stages
  // (@gpu_matmul_tensorcore_pipeline_scheduled): the same kernel, one
  // barrier per K step, the stage count from the target.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_scheduled(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline_scheduled failures(propagate) (%f)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // The scheduled kernel with upstream's shared-memory swizzle (below),
  // applied before schedule_stages multi-buffers the tiles: the swizzled
  // copy columns (16-byte chunk XOR row) are still a permutation of each
  // tile's chunks, which the coverage proof evaluates per thread.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_swizzled_scheduled(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %f_sw = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline_scheduled failures(propagate) (%f_sw)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // The same with upstream's shared-memory swizzle (nvgpu-optimize-shared-
  // memory: the column of every 16-byte chunk XORed with its row, in the
  // async copies' writes and the ldmatrix reads alike) against those bank
  // conflicts. It must run before the multi-buffering of step 12: on the
  // multi-buffered (3-D) buffers it silently does nothing.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_swizzled(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %f_sw = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline failures(propagate) (%f_sw)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // The swizzled kernel with K steps of 64 (3 stages of a 128x64 A and a
  // 64x128 B tile: 96 KiB of dynamic shared memory): per K step twice the
  // mma.sync and ldmatrix of the K-32 kernel for the same one async group,
  // one wait and two barriers. K a multiple of 64, at least 192.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_swizzled_k64(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu_k64 failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %f_sw = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline failures(propagate) (%f_sw)
        : (!transform.any_op) -> ()
    transform.include @gpu_matmul_tensorcore_mark_dynamic_shared_memory failures(propagate)
        (%f_sw) : (!transform.any_op) -> ()
    transform.yield
  }

  // The swizzled K-64 kernel with steps 12-14 from schedule_stages: the
  // stage count from the target's latencies and shared memory (at most 4),
  // one barrier per K step, the tiles laid out in dynamic shared memory by
  // merge_allocations. K a multiple of 64, at least the stage count times 64.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_swizzled_k64_scheduled(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu_k64 failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %f_sw = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline_scheduled failures(propagate) (%f_sw)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // The same on 128x256 C tiles per block (8 warps of 64x64). M a multiple
  // of 128, N of 256, K of 64.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_swizzled_k64_128x256_scheduled(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu_k64_128x256 failures(propagate)
        (%root) : (!transform.any_op) -> !transform.any_op
    %f_sw = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline_scheduled failures(propagate) (%f_sw)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // The swizzled K-32 kernel with 4 stages (64 KiB of dynamic shared
  // memory): 3 K steps of loads in flight. K a multiple of 32, at least 128.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_swizzled_s4(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %f_sw = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline_4_stages failures(propagate) (%f_sw)
        : (!transform.any_op) -> ()
    transform.include @gpu_matmul_tensorcore_mark_dynamic_shared_memory failures(propagate)
        (%f_sw) : (!transform.any_op) -> ()
    transform.yield
  }

  // The swizzled K-64 kernel with 4 stages (128 KiB of dynamic shared
  // memory: one block per SM on sm_80 and sm_90). K a multiple of 64, at
  // least 256.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_swizzled_k64_s4(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu_k64 failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %f_sw = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline_4_stages failures(propagate) (%f_sw)
        : (!transform.any_op) -> ()
    transform.include @gpu_matmul_tensorcore_mark_dynamic_shared_memory failures(propagate)
        (%f_sw) : (!transform.any_op) -> ()
    transform.yield
  }

  // The swizzled K-64 kernel on 128x256 C tiles per block: 8 warps (256
  // threads) of 64x64, 3 stages of a 128x64 A and a 64x256 B tile (144 KiB
  // of dynamic shared memory). Each block loads 384 rows/columns of K per
  // step for 128x256 outputs, where two 128x128 blocks load 512. M a
  // multiple of 128, N of 256, K of 64 and at least 192.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_swizzled_k64_128x256(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu_k64_128x256 failures(propagate)
        (%root) : (!transform.any_op) -> !transform.any_op
    %f_sw = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline failures(propagate) (%f_sw)
        : (!transform.any_op) -> ()
    transform.include @gpu_matmul_tensorcore_mark_dynamic_shared_memory failures(propagate)
        (%f_sw) : (!transform.any_op) -> ()
    transform.yield
  }

  // The same with 4 stages (192 KiB of dynamic shared memory: sm_90 only;
  // sm_80 allows 163 KiB per block). K a multiple of 64, at least 256.
  transform.named_sequence @gpu_matmul_tensorcore_mma_sync_swizzled_k64_128x256_s4(
      %root: !transform.any_op {transform.consumed}) {
    %f = transform.include @gpu_matmul_tensorcore_to_nvgpu_k64_128x256 failures(propagate)
        (%root) : (!transform.any_op) -> !transform.any_op
    %f_sw = transform.apply_registered_pass "nvgpu-optimize-shared-memory" to %f
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline_4_stages failures(propagate) (%f_sw)
        : (!transform.any_op) -> ()
    transform.include @gpu_matmul_tensorcore_mark_dynamic_shared_memory failures(propagate)
        (%f_sw) : (!transform.any_op) -> ()
    transform.yield
  }

  // The schedule's vector-level form (steps 1-7 and step 9's unrolling to
  // mma shapes) with every loop left a loop (scf.forall run as scf.for), for
  // checking its semantics by CPU execution (utils/exec-check.py
  // --erase-memory-spaces): the tiling, the tensor-level promotion, the fused
  // copy loops and the vectorization. Not covered: the thread mapping,
  // the accumulator hoisting, async copies, the mma conversion and the
  // pipeline (no CPU lowering; the PTX is checked on a GPU).
  transform.named_sequence @gpu_matmul_tensorcore_sequential(
      %root: !transform.any_op {transform.consumed}) {
    %func_v = transform.include @gpu_matmul_tensorcore_vector_level failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_sequential_from_vector failures(propagate)
        (%func_v) : (!transform.any_op) -> ()
    transform.yield
  }

  // The same for the K-64 vector level (the _k64 kernels' tiling, promotion
  // and 16x8-thread copies).
  transform.named_sequence @gpu_matmul_tensorcore_sequential_k64(
      %root: !transform.any_op {transform.consumed}) {
    %func_v = transform.include @gpu_matmul_tensorcore_vector_level_k64 failures(propagate)
        (%root) : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_sequential_from_vector failures(propagate)
        (%func_v) : (!transform.any_op) -> ()
    transform.yield
  }

  // The same for the 128x256-block K-64 vector level (8 warps, 32x8-thread
  // copies).
  transform.named_sequence @gpu_matmul_tensorcore_sequential_k64_128x256(
      %root: !transform.any_op {transform.consumed}) {
    %func_v = transform.include @gpu_matmul_tensorcore_vector_level_k64_128x256
        failures(propagate) (%root) : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_sequential_from_vector failures(propagate)
        (%func_v) : (!transform.any_op) -> ()
    transform.yield
  }

  // The schedule at thread level (steps 1-10, then the warp contractions
  // lowered for the CPU instead of step 11), for CPU execution with real
  // threads (utils/exec-check.py --emulate-gpu-launch --emulate-async-copies
  // --erase-memory-spaces): the gpu.launch of 128 threads, the copies into
  // shared memory as async copies in one group per K step with its wait,
  // the barriers, single-buffered and not pipelined. Every lane computes
  // its warp's tile by itself (the lanes write identical values); not
  // covered: the mma conversion, multi-buffering and the pipeline.
  transform.named_sequence @gpu_matmul_tensorcore_thread_level(
      %root: !transform.any_op {transform.consumed}) {
    %func_v = transform.include @gpu_matmul_tensorcore_vector_level failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.include @gpu_matmul_tensorcore_threads_128 failures(propagate)
        (%func_v) : (!transform.any_op) -> !transform.any_op
    %f_a = transform.include @gpu_matmul_tensorcore_threads_to_async_copies
        failures(propagate) (%mapped) : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_contractions_for_cpu failures(propagate)
        (%f_a) : (!transform.any_op) -> ()
    transform.yield
  }

  // The same thread-level form pipelined by schedule_stages as
  // @gpu_matmul_tensorcore_mma_sync_scheduled is (the multi-buffered tiles,
  // the wait first, one barrier per K step, the group counts), for checking
  // the pipeline by CPU execution with concurrent threads (exec-check.py
  // --emulate-gpu-launch --emulate-async-copies). The target is the
  // payload's (--hwsched-target).
  transform.named_sequence @gpu_matmul_tensorcore_thread_level_scheduled(
      %root: !transform.any_op {transform.consumed}) {
    %func_v = transform.include @gpu_matmul_tensorcore_vector_level failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.include @gpu_matmul_tensorcore_threads_128 failures(propagate)
        (%func_v) : (!transform.any_op) -> !transform.any_op
    %f_a = transform.include @gpu_matmul_tensorcore_threads_to_async_copies
        failures(propagate) (%mapped) : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_pipeline_scheduled failures(propagate) (%f_a)
        : (!transform.any_op) -> ()
    transform.include @gpu_matmul_tensorcore_contractions_for_cpu failures(propagate)
        (%f_a) : (!transform.any_op) -> ()
    transform.yield
  }

  // The sequential form's steps after the vector level: the unrolling to
  // mma shapes, loops as loops, contractions as outer products.
  transform.named_sequence @gpu_matmul_tensorcore_sequential_from_vector(
      %func_v: !transform.any_op {transform.consumed}) {
    transform.include @gpu_matmul_tensorcore_unroll_to_mma failures(propagate) (%func_v)
        : (!transform.any_op) -> ()
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %func_s = transform.apply_registered_pass "scf-forall-to-for" to %func_v
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_contractions_for_cpu failures(propagate)
        (%func_s) : (!transform.any_op) -> ()
    transform.yield
  }

  // Step 9's unrolling of the warp contraction of %f (one per kernel
  // function) to the mma.sync shape of its inputs' element width, the one
  // element-width choice after vectorization: m16n8k16 for 16-bit inputs
  // (f16, bf16), m16n8k8 for 32-bit ones (f32, multiplied as tf32 in step
  // 11).
  // Any other width is refused before the payload changes.
  transform.named_sequence @gpu_matmul_tensorcore_unroll_to_mma(
      %f: !transform.any_op {transform.readonly}) {
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c16 = transform.param.constant 16 : i64 -> !transform.param<i64>
    %c32 = transform.param.constant 32 : i64 -> !transform.param<i64>
    %contract = transform.structured.match ops{["vector.contract"]} in %f
        : (!transform.any_op) -> !transform.any_op
    %lhs = transform.get_operand %contract[0] : (!transform.any_op) -> !transform.any_value
    %bits = transform.include @gpu_matmul_tensorcore_element_bits failures(propagate) (%lhs)
        : (!transform.any_value) -> !transform.param<i64>
    %f16 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%f, %bits, %c16)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %f32 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%f, %bits, %c32)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %both = transform.merge_handles %f16, %f32 : !transform.any_op
    %n = transform.num_associations %both : (!transform.any_op) -> !transform.param<i64>
    %bad = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%f, %n, %c0)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.hwsched.refuse_if %bad
        { message = "the tensor-core kernel multiplies f16 or bf16 inputs (mma.sync m16n8k16) or f32 inputs as tf32 (m16n8k8)" }
        : !transform.any_op
    transform.apply_patterns to %f16 {
      transform.apply_patterns.gpu.unroll_vectors_subgroup_mma [16, 8, 16]
    } : !transform.any_op
    transform.apply_patterns to %f32 {
      transform.apply_patterns.gpu.unroll_vectors_subgroup_mma [16, 8, 8]
    } : !transform.any_op
    transform.yield
  }

  // The mma-shaped contractions of %func as outer products (the CPU
  // lowering has no vector.contract), one pattern set per rewrite.
  transform.named_sequence @gpu_matmul_tensorcore_contractions_for_cpu(
      %func_s: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %func_s {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
    } : !transform.any_op
    transform.apply_patterns to %func_s {
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
    transform.apply_patterns to %func_s {
      transform.apply_patterns.vector.transfer_permutation_patterns
    } : !transform.any_op
    transform.apply_patterns to %func_s {
      transform.apply_patterns.vector.lower_transpose
    } : !transform.any_op
    transform.apply_patterns to %func_s {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }

  // ---------------------------------------------------------------------
  // The schedule driven by parameters: the tiles of select_tile_config.
  // ---------------------------------------------------------------------
  //
  // @gpu_matmul_tensorcore_tiles builds the swizzled, scheduled mma.sync
  // kernel (@gpu_matmul_tensorcore_mma_sync_swizzled_scheduled's steps) for
  // tiles given as parameters, in the layout of the five results of
  // transform.cost_model.select_tile_config on the linalg.matmul (one value
  // per loop, loop order m, n, k):
  //   %block   [BM, BN, 0]  the C tile of a block, rows on #gpu.block<y>,
  //                         columns on #gpu.block<x>; BM, BN in {64, 128, 256};
  //   %warp    [WM, WN, 0]  the C tile of a warp, WM, WN in {32, 64}; the
  //                         warps are linear ids as in the fixed schedules;
  //   %red     [0, 0, BK]   the K step, 64 or 128 bytes of a row: 32 or 64
  //                         for f16, 16 or 32 for f32;
  //   %stages  [S]          the stage cap of schedule_stages (max_stages);
  //   %threads [T, 1, 1]    the block's threads, 32 (BM / WM) (BN / WN), in
  //                         {32, 64, 128, 256, 512}.
  // The inputs are f16 or bf16 (mma.sync m16n8k16; bf16 through our
  // conversion in step 11 and lowering after the pipeline) or f32,
  // multiplied as tf32
  // (m16n8k8: A and B rounded to 10-bit mantissas, f32 sums; the script
  // itself does not ask, select_tile_config { allow_tf32 } does). The
  // element width is read from the payload where a step depends on it:
  // the copy grid and B's piece width (below), the mma shape
  // (@gpu_matmul_tensorcore_unroll_to_mma) and the tf32 marking of the
  // f32 mma.sync ops (step 11; f32 B is read with single loads, ldmatrix
  // transposing 16-bit elements only).
  // The A and B copies go over one thread grid TR x TC with TC = BK / E (E
  // elements, 8 f16 or 4 f32, in one 16-byte copy per thread and row) and
  // TR = T / TC: A (BM x BK) is BM / TR rows of one copy per thread, B (BK x
  // BN) BK / TR rows of BN / TC columns, cut into E-column (16-byte)
  // pieces. The one grid for both lets the two copy loops fuse (one async
  // group per K step). Buildable when TR divides BM and BK and E divides
  // BN / TC: with the sets above, when T is at most 128 for f16 K steps of
  // 32, 64 for f32 K steps of 16 and 256 for f32 K steps of 32 (checked
  // and refused otherwise). The warp count
  // (BM / WM) (BN / WN) must be T / 32, which a script cannot check: more
  // warps fail the thread mapping, fewer leave warps idle. M must be a
  // multiple of BM, N of BN, K of BK (with at least S K steps to be
  // pipelined; schedule_stages may also take fewer than S stages for the
  // target's shared memory).
  //
  // Register pressure: a warp loads all of a K step's ldmatrix fragments
  // before its mma.sync, so a 64x64 warp tile with K steps of 64 needs 128
  // accumulator and 128 operand registers and spills (ptxas: 255 registers,
  // about 400-500 bytes of spills on sm_80 and sm_90, as the fixed _k64
  // kernels do); 64x64 with K 32, or 64x32 / 32x64 with K 64, do not.
  //
  // A script can compute no arithmetic on parameters, and
  // map_nested_forall_to_threads takes its block_dims as an attribute: TR,
  // TC and the thread mapping are picked by comparing T and BK with each
  // supported value (transform.match.param.cmpi under a suppressed
  // sequence, as transform-scripts/gpu-matmul.mlir's split-K guards do); a
  // T or BK outside those sets is refused before the payload changes.
  transform.named_sequence @gpu_matmul_tensorcore_tiles(
      %root: !transform.any_op {transform.consumed},
      %block: !transform.param<i64> {transform.readonly},
      %warp: !transform.param<i64> {transform.readonly},
      %red: !transform.param<i64> {transform.readonly},
      %stages: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) {
    %mapped = transform.include @gpu_matmul_tensorcore_tiles_mapped failures(propagate)
        (%root, %block, %warp, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %f = transform.include @gpu_matmul_tensorcore_threads_to_nvgpu failures(propagate)
        (%mapped) : (!transform.any_op) -> !transform.any_op
    // The swizzle before schedule_stages multi-buffers the tiles (see
    // @gpu_matmul_tensorcore_mma_sync_swizzled), decided per tile from the
    // target's banks by transform.smem.avoid_bank_conflicts: the XOR of
    // 16-byte chunks with the fewest wavefronts for the tile's async copies
    // and ldmatrix reads, then the smallest mask (docs/Smem.md; the fixed
    // _swizzled entries keep upstream's nvgpu-optimize-shared-memory, and
    // bench/gpu-runner/swizzle-ptx.py compares the two).
    transform.smem.avoid_bank_conflicts %f : !transform.any_op
    transform.include @gpu_matmul_tensorcore_tiles_pipeline_scheduled failures(propagate)
        (%f, %stages) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  // The same schedule at thread level, pipelined (steps 1-10, steps 12-14
  // with the stage cap %stages, then the warp contractions lowered for the
  // CPU instead of step 11), as @gpu_matmul_tensorcore_thread_level_scheduled
  // is for the fixed tiles: for CPU execution with concurrent threads
  // (utils/exec-check.py --emulate-gpu-launch --emulate-async-copies
  // --erase-memory-spaces). Not covered: the mma conversion and the swizzle.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_thread_level_scheduled(
      %root: !transform.any_op {transform.consumed},
      %block: !transform.param<i64> {transform.readonly},
      %warp: !transform.param<i64> {transform.readonly},
      %red: !transform.param<i64> {transform.readonly},
      %stages: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) {
    %mapped = transform.include @gpu_matmul_tensorcore_tiles_mapped failures(propagate)
        (%root, %block, %warp, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %f_a = transform.include @gpu_matmul_tensorcore_threads_to_async_copies
        failures(propagate) (%mapped) : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_tiles_pipeline_scheduled failures(propagate)
        (%f_a, %stages) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.include @gpu_matmul_tensorcore_contractions_for_cpu failures(propagate)
        (%f_a) : (!transform.any_op) -> ()
    transform.yield
  }

  // Steps 1-8 for the parameters' tiles: the vector level, then the
  // gpu.launch of T threads with its warp and thread loops mapped to ids.
  // Yields the launch.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_mapped(
      %root: !transform.any_op {transform.consumed},
      %block: !transform.param<i64> {transform.readonly},
      %warp: !transform.param<i64> {transform.readonly},
      %red: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %func_v = transform.include @gpu_matmul_tensorcore_tiles_vector_level failures(propagate)
        (%root, %block, %warp, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %launch_h = transform.include @gpu_matmul_tensorcore_launch failures(propagate) (%func_v)
        : (!transform.any_op) -> !transform.any_op
    %t, %t_y, %t_z = transform.split_handle %threads
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %mapped = transform.include @gpu_matmul_tensorcore_tiles_map_threads failures(propagate)
        (%launch_h, %t) : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield %mapped : !transform.any_op
  }

  // Steps 1-7 for the parameters' tiles (see @gpu_matmul_tensorcore_tiles;
  // each step as in @gpu_matmul_tensorcore_vector_level): the tensor-level
  // steps on the matmul under %root, bufferization, the steps after it.
  // Yields the function.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_vector_level(
      %root: !transform.any_op {transform.consumed},
      %block: !transform.param<i64> {transform.readonly},
      %warp: !transform.param<i64> {transform.readonly},
      %red: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_tiles_tensor_level failures(propagate)
        (%mm, %block, %warp, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    %func_b = transform.include @gpu_matmul_tensorcore_bufferize failures(propagate) (%root)
        : (!transform.any_op) -> !transform.any_op
    %func_v = transform.include @gpu_matmul_tensorcore_tiles_after_bufferize failures(propagate)
        (%func_b, %block, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> !transform.any_op
    transform.yield %func_v : !transform.any_op
  }

  // Steps 1-4 on the matmul %mm (its init a linalg.fill) for the
  // parameters' tiles, on tensors: blocks, the K loop, the tensor-level
  // promotion of its A and B tiles, warps. Marks the matmul's function
  // hwsched.tensorcore_kernel.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_tensor_level(
      %mm: !transform.any_op {transform.consumed},
      %block: !transform.param<i64> {transform.readonly},
      %warp: !transform.param<i64> {transform.readonly},
      %red: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) {
    // 1. Blocks of BM x BN (the packed list [BM, BN, 0]: the K loop is not
    //    tiled here), the fill of C fused into the block loop.
    %fill = transform.get_producer_of_operand %mm[2]
        : (!transform.any_op) -> !transform.any_op

    // The copy thread grid of step 6, picked first: an unsupported T or BK
    // is refused before the payload changes.
    %bm, %bn, %b_k = transform.split_handle %block
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %r_m, %r_n, %bk = transform.split_handle %red
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %t, %t_y, %t_z = transform.split_handle %threads
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %a = transform.get_operand %mm[0] : (!transform.any_op) -> !transform.any_value
    %bits = transform.include @gpu_matmul_tensorcore_element_bits failures(propagate) (%a)
        : (!transform.any_value) -> !transform.param<i64>
    %tr, %tc, %piece = transform.include @gpu_matmul_tensorcore_tiles_copy_grid
        failures(propagate) (%mm, %t, %bk, %bits)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)

    %mm_b, %forall_b = transform.structured.tile_using_forall %mm
        tile_sizes *(%block) (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b2 = transform.structured.fuse_into_containing_op %fill into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // 2. The K loop, steps of BK (the third value of [0, 0, BK]; the packed
    //    form is not accepted by tile_using_for).
    %mm_k, %loop_k = transform.structured.tile_using_for %mm_b tile_sizes [0, 0, %bk]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)

    transform.include @gpu_matmul_tensorcore_tiles_promote_and_warps failures(propagate)
        (%mm_k, %fill_b, %warp)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  // Steps 6-7 on the bufferized function %func_b of steps 1-4 for the
  // parameters' tiles. Yields the function.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_after_bufferize(
      %func_b: !transform.any_op {transform.consumed},
      %block: !transform.param<i64> {transform.readonly},
      %red: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %bm, %bn, %b_k = transform.split_handle %block
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %r_m, %r_n, %bk = transform.split_handle %red
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %t, %t_y, %t_z = transform.split_handle %threads
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // 6. The two copies into shared memory (A's first) over one TR x TC
    //    thread grid, TC = BK / E threads per row of one 16-byte copy (E
    //    elements) each: A is BM / TR rows of one copy per thread, B BK / TR
    //    rows of BN / TC columns, cut into E-column pieces and unrolled. The
    //    same grid lets the loops fuse.
    %copies = transform.structured.match ops{["linalg.copy"]} in %func_b
        : (!transform.any_op) -> !transform.any_op
    %copy_a, %copy_b = transform.split_handle %copies
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a = transform.get_operand %copy_a[0] : (!transform.any_op) -> !transform.any_value
    %bits = transform.include @gpu_matmul_tensorcore_element_bits failures(propagate) (%a)
        : (!transform.any_value) -> !transform.param<i64>
    %tr, %tc, %piece = transform.include @gpu_matmul_tensorcore_tiles_copy_grid
        failures(propagate) (%func_b, %t, %bk, %bits)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %copy_a_t, %copy_a_f = transform.structured.tile_using_forall %copy_a
        num_threads [%tr, %tc] (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    %copy_b_t, %copy_b_f = transform.structured.tile_using_forall %copy_b
        num_threads [%tr, %tc] (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    %copy_b_16, %copy_b_loop = transform.structured.tile_using_for %copy_b_t tile_sizes [0, %piece]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.include @gpu_matmul_tensorcore_tiles_unroll_copy_b failures(propagate)
        (%copy_b_loop, %bn, %bk)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    %copy_f = transform.loop.fuse_sibling %copy_a_f into %copy_b_f
        : (!transform.any_op, !transform.any_op) -> !transform.any_op

    %func_v = transform.include @gpu_matmul_tensorcore_vectorize failures(propagate) (%func_b)
        : (!transform.any_op) -> !transform.any_op
    transform.yield %func_v : !transform.any_op
  }

  // Steps 3-4 (@gpu_matmul_tensorcore_promote_and_warps) with warps of
  // WM x WN, the packed list [WM, WN, 0] of %warp (the matmul's K loop is
  // not tiled again; the 2-D fill takes the first two values).
  transform.named_sequence @gpu_matmul_tensorcore_tiles_promote_and_warps(
      %mm_k: !transform.any_op {transform.consumed},
      %fill_b: !transform.any_op {transform.consumed},
      %warp: !transform.param<i64> {transform.readonly}) {
    // 3. A and B tiles of each K step copied to shared memory, at tensor
    //    level (multi-bufferable after bufferization).
    %a_k = transform.get_operand %mm_k[0] : (!transform.any_op) -> !transform.any_value
    %b_k = transform.get_operand %mm_k[1] : (!transform.any_op) -> !transform.any_value
    %a_s = transform.structured.promote_tensor to #gpu.address_space<workgroup> %a_k
        : !transform.any_value
    %b_s = transform.structured.promote_tensor to #gpu.address_space<workgroup> %b_k
        : !transform.any_value

    // 4. Warps of WM x WN C (linear warp ids), (BM / WM) x (BN / WN) of them.
    %wm, %wn, %w_k = transform.split_handle %warp
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %mm_w, %forall_w = transform.structured.tile_using_forall %mm_k
        tile_sizes *(%warp) (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>])
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_w, %forall_fw = transform.structured.tile_using_forall %fill_b
        tile_sizes [%wm, %wn] (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    // The matmul's function, marked to be found again after bufferization.
    %func = transform.get_parent_op %forall_w {op_name = "func.func"}
        : (!transform.any_op) -> !transform.any_op
    transform.annotate %func "hwsched.tensorcore_kernel" : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    transform.yield
  }

  // The copy thread grid (TR, TC) = (T / (BK / E), BK / E) and B's piece
  // width E, the elements of one 16-byte copy (8 f16, 4 f32), for T threads
  // (%t), K steps of %bk and inputs of %bits bits, one value each, picked
  // among the supported T and BK; %anchor is any handle to one payload op
  // (it only carries the comparisons). A K step is 64 or 128 bytes of a row
  // (TC = 4 or 8): BK 32 or 64 for f16, 16 or 32 for f32. A T, BK or width
  // outside the sets, or a grid with more rows than B's tile (TR > BK), is
  // refused. With BM, BN in {64, 128, 256} the other conditions (TR
  // divides BM, BN / TC a multiple of E) then hold.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_copy_grid(
      %anchor: !transform.any_op {transform.readonly},
      %t: !transform.param<i64> {transform.readonly},
      %bk: !transform.param<i64> {transform.readonly},
      %bits: !transform.param<i64> {transform.readonly})
      -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c4 = transform.param.constant 4 : i64 -> !transform.param<i64>
    %c8 = transform.param.constant 8 : i64 -> !transform.param<i64>
    %c16 = transform.param.constant 16 : i64 -> !transform.param<i64>
    %c32 = transform.param.constant 32 : i64 -> !transform.param<i64>
    %c64 = transform.param.constant 64 : i64 -> !transform.param<i64>
    %c128 = transform.param.constant 128 : i64 -> !transform.param<i64>
    %c256 = transform.param.constant 256 : i64 -> !transform.param<i64>
    %c512 = transform.param.constant 512 : i64 -> !transform.param<i64>
    // %anchor for each supported (width, BK), else empty: h32 is f16 with
    // K steps of 32, s16 f32 with K steps of 16, and so on.
    %h = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%anchor, %bits, %c16)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %s = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%anchor, %bits, %c32)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %h32 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%h, %bk, %c32)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %h64 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%h, %bk, %c64)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %s16 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%s, %bk, %c16)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %s32 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%s, %bk, %c32)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    // 64-byte and 128-byte K steps.
    %row64 = transform.merge_handles %h32, %s16 : !transform.any_op
    %row128 = transform.merge_handles %h64, %s32 : !transform.any_op
    // TC = BK / E: 4 threads per 64-byte row, 8 per 128-byte row (the
    // comparison of %t with itself holds: only the guard decides).
    %tc64 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%row64, %t, %t, %c4)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %tc128 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%row128, %t, %t, %c8)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %tc = transform.merge_handles %tc64, %tc128 : !transform.param<i64>
    // E: 8 f16 or 4 f32 per 16-byte copy.
    %e16 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%anchor, %bits, %c16, %c8)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %e32 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%anchor, %bits, %c32, %c4)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %piece = transform.merge_handles %e16, %e32 : !transform.param<i64>
    // TR = T / TC, at most BK: T / 4 for 64-byte rows (T up to 128 for f16
    // K steps of 32, up to 64 for f32 K steps of 16), T / 8 for 128-byte
    // rows (up to 512 for f16 K steps of 64, 256 for f32 K steps of 32).
    %a0 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%row64, %t, %c32, %c8)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %a1 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%row64, %t, %c64, %c16)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %a2 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%h32, %t, %c128, %c32)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %b0 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%row128, %t, %c32, %c4)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %b1 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%row128, %t, %c64, %c8)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %b2 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%row128, %t, %c128, %c16)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %b3 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%row128, %t, %c256, %c32)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %b4 = transform.include @gpu_matmul_tensorcore_tiles_param_if_eq failures(propagate)
        (%h64, %t, %c512, %c64)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          -> !transform.param<i64>
    %tr = transform.merge_handles %a0, %a1, %a2, %b0, %b1, %b2, %b3, %b4
        : !transform.param<i64>
    // No value: the width, T or BK is not one of the supported, or T is too
    // many for B's BK rows (some threads would copy nothing, the others
    // partial tiles).
    %n_tr = transform.num_associations %tr : (!transform.param<i64>) -> !transform.param<i64>
    %bad = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%anchor, %n_tr, %c0)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.hwsched.refuse_if %bad
        { message = "@gpu_matmul_tensorcore_tiles takes f16 inputs with K steps of 32 and 32, 64 or 128 threads or K steps of 64 and 32 to 512 threads, or f32 inputs (tf32) with K steps of 16 and 32 or 64 threads or K steps of 32 and 32 to 256 threads" }
        : !transform.any_op
    transform.yield %tr, %tc, %piece : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }

  // The bits of the elements of %value (one payload value of shaped type:
  // the matmul's A, or the copy of A into shared memory after
  // bufferization): 16 for f16, 32 for f32 (tf32 on the tensor cores).
  transform.named_sequence @gpu_matmul_tensorcore_element_bits(
      %value: !transform.any_value {transform.readonly}) -> !transform.param<i64> {
    %bits = transform.match.structured.elemental_bitwidth %value
        : (!transform.any_value) -> !transform.param<i64>
    transform.yield %bits : !transform.param<i64>
  }

  // Step 8, second half, for T threads (%t, one value): the warp and thread
  // loops of %launch mapped to ids with block_dims [T, 1, 1]. The
  // attribute is picked by comparing T with each supported value; every
  // guard is computed before the one mapping that runs consumes the launch
  // (the other guards are empty, so the consumption leaves them valid).
  // Yields the launch.
  //
  // %launch is marked readonly though the mapping consumes it: the mapping
  // consumes the guard's handle to it, inside a foreach, which the named
  // sequence's verifier does not see through (it warns that a consumed
  // argument is not consumed); the caller's handle is invalidated all the
  // same.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_map_threads(
      %launch: !transform.any_op {transform.readonly},
      %t: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c32 = transform.param.constant 32 : i64 -> !transform.param<i64>
    %c64 = transform.param.constant 64 : i64 -> !transform.param<i64>
    %c128 = transform.param.constant 128 : i64 -> !transform.param<i64>
    %c256 = transform.param.constant 256 : i64 -> !transform.param<i64>
    %c512 = transform.param.constant 512 : i64 -> !transform.param<i64>
    %l32 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%launch, %t, %c32)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %l64 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%launch, %t, %c64)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %l128 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%launch, %t, %c128)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %l256 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%launch, %t, %c256)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %l512 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%launch, %t, %c512)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %all = transform.merge_handles %l32, %l64, %l128, %l256, %l512 : !transform.any_op
    %n = transform.num_associations %all : (!transform.any_op) -> !transform.param<i64>
    %bad = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%launch, %n, %c0)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.hwsched.refuse_if %bad
        { message = "@gpu_matmul_tensorcore_tiles takes 32, 64, 128, 256 or 512 threads per block" }
        : !transform.any_op
    %m32 = transform.foreach %l32 : !transform.any_op -> !transform.any_op {
    ^bb0(%l: !transform.any_op):
      %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [32, 1, 1]
          : (!transform.any_op) -> !transform.any_op
      transform.yield %m : !transform.any_op
    }
    %m64 = transform.foreach %l64 : !transform.any_op -> !transform.any_op {
    ^bb0(%l: !transform.any_op):
      %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [64, 1, 1]
          : (!transform.any_op) -> !transform.any_op
      transform.yield %m : !transform.any_op
    }
    %m128 = transform.foreach %l128 : !transform.any_op -> !transform.any_op {
    ^bb0(%l: !transform.any_op):
      %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [128, 1, 1]
          : (!transform.any_op) -> !transform.any_op
      transform.yield %m : !transform.any_op
    }
    %m256 = transform.foreach %l256 : !transform.any_op -> !transform.any_op {
    ^bb0(%l: !transform.any_op):
      %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [256, 1, 1]
          : (!transform.any_op) -> !transform.any_op
      transform.yield %m : !transform.any_op
    }
    %m512 = transform.foreach %l512 : !transform.any_op -> !transform.any_op {
    ^bb0(%l: !transform.any_op):
      %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [512, 1, 1]
          : (!transform.any_op) -> !transform.any_op
      transform.yield %m : !transform.any_op
    }
    %mapped = transform.merge_handles %m32, %m64, %m128, %m256, %m512 : !transform.any_op
    transform.yield %mapped : !transform.any_op
  }

  // Unrolls the loop of B's E-column copy pieces (BN / TC / E = BN / BK
  // iterations, whatever the element width) completely. transform.loop.unroll leaves a loop with fewer
  // iterations than its factor as it is (whatever its description says),
  // and consumes its handle, so one call with the exact trip count as factor
  // is picked by comparing BN (%bn) and BK (%bk) with each supported pair;
  // every guard is computed before the unrolling consumes the loop. A trip
  // count of 1 (BN = BK) needs no unrolling: the loop is folded away by the
  // vectorization's canonicalization.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_unroll_copy_b(
      %loop: !transform.any_op {transform.readonly},
      %bn: !transform.param<i64> {transform.readonly},
      %bk: !transform.param<i64> {transform.readonly}) {
    %c32 = transform.param.constant 32 : i64 -> !transform.param<i64>
    %c64 = transform.param.constant 64 : i64 -> !transform.param<i64>
    %c128 = transform.param.constant 128 : i64 -> !transform.param<i64>
    %c256 = transform.param.constant 256 : i64 -> !transform.param<i64>
    %c16 = transform.param.constant 16 : i64 -> !transform.param<i64>
    %k16 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%loop, %bk, %c16)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %k32 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%loop, %bk, %c32)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %k64 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%loop, %bk, %c64)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    // BN / BK = 2: 64 / 32 and 128 / 64.
    %u2a = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%k32, %bn, %c64)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %u2b = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%k64, %bn, %c128)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    // BN / BK = 4: 64 / 16 (f32), 128 / 32 and 256 / 64.
    %u4c = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%k16, %bn, %c64)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %u4a = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%k32, %bn, %c128)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %u4b = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%k64, %bn, %c256)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    // BN / BK = 8: 128 / 16 (f32) and 256 / 32.
    %u8a = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%k32, %bn, %c256)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %u8b = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%k16, %bn, %c128)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    // BN / BK = 16: 256 / 16 (f32).
    %u16 = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%k16, %bn, %c256)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %u2 = transform.merge_handles %u2a, %u2b : !transform.any_op
    %u4 = transform.merge_handles %u4a, %u4b, %u4c : !transform.any_op
    %u8 = transform.merge_handles %u8a, %u8b : !transform.any_op
    transform.foreach %u2 : !transform.any_op {
    ^bb0(%l: !transform.any_op):
      transform.loop.unroll %l {factor = 2} : !transform.any_op
    }
    transform.foreach %u4 : !transform.any_op {
    ^bb0(%l: !transform.any_op):
      transform.loop.unroll %l {factor = 4} : !transform.any_op
    }
    transform.foreach %u8 : !transform.any_op {
    ^bb0(%l: !transform.any_op):
      transform.loop.unroll %l {factor = 8} : !transform.any_op
    }
    transform.foreach %u16 : !transform.any_op {
    ^bb0(%l: !transform.any_op):
      transform.loop.unroll %l {factor = 16} : !transform.any_op
    }
    transform.yield
  }

  // @gpu_matmul_tensorcore_pipeline_scheduled with the stage cap %stages
  // (one value; schedule_stages' max_stages, which may lower it for the
  // target's shared memory) instead of 4.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_pipeline_scheduled(
      %f_m: !transform.any_op {transform.readonly},
      %stages: !transform.param<i64> {transform.readonly}) {
    %launch_m = transform.structured.match ops{["gpu.launch"]} in %f_m
        : (!transform.any_op) -> !transform.any_op
    %k_loop = transform.structured.match ops{["scf.for"]} in %launch_m
        : (!transform.any_op) -> !transform.op<"scf.for">
    %pipelined = transform.pipeline.schedule_stages %k_loop params(max_stages = %stages)
        : (!transform.op<"scf.for">, !transform.param<i64>) -> !transform.op<"scf.for">
    transform.include @gpu_matmul_tensorcore_copies_bypass_l1 failures(propagate) (%launch_m)
        : (!transform.any_op) -> ()
    %smem = transform.smem.merge_allocations %launch_m { dynamic_shared_memory }
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_lower_mma_inputs failures(propagate) (%f_m)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // %a when %n == %want (one value each), else an empty handle.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_if_eq(
      %a: !transform.any_op {transform.readonly},
      %n: !transform.param<i64> {transform.readonly},
      %want: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %r = transform.sequence %a, %n, %want
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
          -> !transform.any_op failures(suppress) {
    ^bb0(%a1: !transform.any_op, %n1: !transform.param<i64>, %w1: !transform.param<i64>):
      %g = transform.sequence %a1, %n1, %w1
          : !transform.any_op, !transform.param<i64>, !transform.param<i64>
            -> !transform.any_op failures(propagate) {
      ^bb0(%a2: !transform.any_op, %n2: !transform.param<i64>, %w2: !transform.param<i64>):
        transform.match.param.cmpi eq %n2, %w2 : !transform.param<i64>
        transform.yield %a2 : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    transform.yield %r : !transform.any_op
  }

  // %val when %guard holds one op and %n == %want, else no value (a
  // parameter cannot come out of a suppressed sequence; a foreach over the
  // guard yields it once or not at all).
  transform.named_sequence @gpu_matmul_tensorcore_tiles_param_if_eq(
      %guard: !transform.any_op {transform.readonly},
      %n: !transform.param<i64> {transform.readonly},
      %want: !transform.param<i64> {transform.readonly},
      %val: !transform.param<i64> {transform.readonly}) -> !transform.param<i64> {
    %g = transform.include @gpu_matmul_tensorcore_tiles_if_eq failures(propagate)
        (%guard, %n, %want)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    %r = transform.foreach %g : !transform.any_op -> !transform.param<i64> {
    ^bb0(%x: !transform.any_op):
      transform.yield %val : !transform.param<i64>
    }
    transform.yield %r : !transform.param<i64>
  }

  // Fixed-parameter entries: @gpu_matmul_tensorcore_tiles on constant
  // tiles, for tests and as examples of the configurations it builds. With
  // --hwsched-target=nvidia-a100 (bench/gpu-runner/tensorcore-ptx.py, ptxas
  // of CUDA 12; registers sm_80/sm_90, dynamic shared memory, per K step
  // and thread: mma.sync, ldmatrix, cp.async; every one a single
  // cp.async.wait_group and bar.sync per K step):
  //   _128x128_k32         222/226, no spills,  48 KiB,  64,  24,  8
  //   _128x128_k64         255/255, ~500 B spilled, 96 KiB, 128, 48, 16
  //   _128x256_k64         255/255, ~420 B spilled, 144 KiB, 128, 48, 12
  //   _256x128_k64         255/255, ~430 B spilled, 144 KiB, 128, 48, 12
  //   _128x128_k64_w64x32  166/168, no spills, 128 KiB,  64,  32,  8
  //   _64x64_k32_w32x32     90/90,  no spills,  32 KiB,  16,  12,  4
  //   _64x128_k32          237/240, no spills,  48 KiB,  64,  24, 12
  //   _64x128_k64_w32x64   199/198, no spills,  96 KiB,  64,  40, 12
  //   _64x64_k64           255/255, ~400 B spilled, 48 KiB, 128, 48, 32
  //   _256x256_k64         255/255, ~390 B spilled, 128 KiB, 128, 48, 8
  // (the spills: 64x64 warp tiles with K steps of 64, see
  // @gpu_matmul_tensorcore_tiles).
  // @gpu_matmul_tensorcore_tiles_fixed takes one value per parameter (BM,
  // BN, WM, WN, BK, S, T) and passes them in select_tile_config's layout.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed(
      %root: !transform.any_op {transform.consumed},
      %bm: !transform.param<i64> {transform.readonly},
      %bn: !transform.param<i64> {transform.readonly},
      %wm: !transform.param<i64> {transform.readonly},
      %wn: !transform.param<i64> {transform.readonly},
      %bk: !transform.param<i64> {transform.readonly},
      %stages: !transform.param<i64> {transform.readonly},
      %t: !transform.param<i64> {transform.readonly}) {
    // The lists, one value per loop of the matmul (m, n, k) and (x, y, z)
    // for the threads: param.constant makes one value, merge_handles
    // concatenates.
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %block = transform.merge_handles %bm, %bn, %c0 : !transform.param<i64>
    %warp = transform.merge_handles %wm, %wn, %c0 : !transform.param<i64>
    %red = transform.merge_handles %c0, %c0, %bk : !transform.param<i64>
    %threads = transform.merge_handles %t, %c1, %c1 : !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles failures(propagate)
        (%root, %block, %warp, %red, %stages, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 128x128 blocks, 2x2 warps of 64x64 (128 threads), K steps of 32, at
  // most 4 stages: the kernel of
  // @gpu_matmul_tensorcore_mma_sync_swizzled_scheduled, op for op.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_128x128_k32(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 32 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 128 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 128x128 blocks, 2x2 warps of 64x64 (128 threads), K steps of 64: the
  // kernel of @gpu_matmul_tensorcore_mma_sync_swizzled_k64_scheduled.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_128x128_k64(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 64 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 128 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 128x256 blocks, 2x4 warps of 64x64 (256 threads), K steps of 64.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_128x256_k64(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 256 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 64 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 256 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 256x128 blocks, 4x2 warps of 64x64 (256 threads), K steps of 64.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_256x128_k64(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 256 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 64 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 256 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 128x128 blocks, 2x4 warps of 64x32 (256 threads), K steps of 64.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_128x128_k64_w64x32(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 128 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 32 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 64 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 256 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 64x64 blocks, 2x2 warps of 32x32 (128 threads), K steps of 32.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_64x64_k32_w32x32(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 32 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 32 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 32 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 128 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 64x128 blocks, 1x2 warps of 64x64 (64 threads), K steps of 32.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_64x128_k32(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 32 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 64x128 blocks, 2x2 warps of 32x64 (128 threads), K steps of 64.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_64x128_k64_w32x64(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 128 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 32 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 64 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 128 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 64x64 blocks, one warp of 64x64 (32 threads), K steps of 64.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_64x64_k64(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 64 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // 256x256 blocks, 4x4 warps of 64x64 (512 threads), K steps of 64.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_fixed_256x256_k64(
      %root: !transform.any_op {transform.consumed}) {
    %bm = transform.param.constant 256 : i64 -> !transform.param<i64>
    %bn = transform.param.constant 256 : i64 -> !transform.param<i64>
    %wm = transform.param.constant 64 : i64 -> !transform.param<i64>
    %wn = transform.param.constant 64 : i64 -> !transform.param<i64>
    %bk = transform.param.constant 64 : i64 -> !transform.param<i64>
    %s = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t = transform.param.constant 512 : i64 -> !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_fixed failures(propagate)
        (%root, %bm, %bn, %wm, %wn, %bk, %s, %t)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // The vector-level form of @gpu_matmul_tensorcore_tiles for the
  // parameters' tiles with every loop left a loop and the warp contraction
  // unrolled to the mma shape of its inputs, then lowered for the CPU (as
  // @gpu_matmul_tensorcore_sequential for the fixed tiles): the CPU
  // execution check of steps 1-7 and 9's unrolling. Not covered: the
  // thread mapping, async copies, the mma conversion (and the tf32
  // marking) and the pipeline.
  transform.named_sequence @gpu_matmul_tensorcore_tiles_sequential(
      %root: !transform.any_op {transform.consumed},
      %block: !transform.param<i64> {transform.readonly},
      %warp: !transform.param<i64> {transform.readonly},
      %red: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) {
    %func_v = transform.include @gpu_matmul_tensorcore_tiles_vector_level failures(propagate)
        (%root, %block, %warp, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_sequential_from_vector failures(propagate)
        (%func_v) : (!transform.any_op) -> ()
    transform.yield
  }

  // The sequential form for f32 inputs (tf32 on the GPU) with the tiles
  // select_tile_config { mma_sync, allow_tf32 } picks for 2048^3 on the
  // A100: 64x128 blocks, one warp of 64x64 per 64 columns (64 threads), K
  // steps of 16 f32 (4 x 16 copy grid of 16-byte copies).
  transform.named_sequence @gpu_matmul_tensorcore_tiles_sequential_fixed_64x128_k16_tf32(
      %root: !transform.any_op {transform.consumed}) {
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %c16 = transform.param.constant 16 : i64 -> !transform.param<i64>
    %c64 = transform.param.constant 64 : i64 -> !transform.param<i64>
    %c128 = transform.param.constant 128 : i64 -> !transform.param<i64>
    %block = transform.merge_handles %c64, %c128, %c0 : !transform.param<i64>
    %warp = transform.merge_handles %c64, %c64, %c0 : !transform.param<i64>
    %red = transform.merge_handles %c0, %c0, %c16 : !transform.param<i64>
    %threads = transform.merge_handles %c64, %c1, %c1 : !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_sequential failures(propagate)
        (%root, %block, %warp, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // The thread-level form (@gpu_matmul_tensorcore_tiles_thread_level_
  // scheduled) of the 64x128-block, 32x64-warp, K-64 configuration, for CPU
  // execution checks of a configuration other than the fixed schedules'.
  // At most 3 stages: on the 4 K steps of a 128x128x256 test payload, 4
  // stages would leave no kernel loop (prologue and epilogue only).
  transform.named_sequence @gpu_matmul_tensorcore_tiles_thread_level_fixed_64x128_k64_w32x64(
      %root: !transform.any_op {transform.consumed}) {
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %c32 = transform.param.constant 32 : i64 -> !transform.param<i64>
    %c64 = transform.param.constant 64 : i64 -> !transform.param<i64>
    %c128 = transform.param.constant 128 : i64 -> !transform.param<i64>
    %stages = transform.param.constant 3 : i64 -> !transform.param<i64>
    %block = transform.merge_handles %c64, %c128, %c0 : !transform.param<i64>
    %warp = transform.merge_handles %c32, %c64, %c0 : !transform.param<i64>
    %red = transform.merge_handles %c0, %c0, %c64 : !transform.param<i64>
    %threads = transform.merge_handles %c128, %c1, %c1 : !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_thread_level_scheduled failures(propagate)
        (%root, %block, %warp, %red, %stages, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // @gpu_matmul_tensorcore_auto(%root): the tensor-core kernel with every
  // tile from the cost model: transform.cost_model.select_tile_config
  // { mma_sync } on the matmul (the target's spec: --hwsched-target or
  // hwsched.target) picks the block tile, the warp tile of mma.sync
  // m16n8k16, the K step, the stage cap and the threads (its `explain`
  // remarks say why, and what each candidate's registers and shared memory
  // are), and @gpu_matmul_tensorcore_tiles builds them; schedule_stages and
  // merge_allocations then decide the pipeline and the shared-memory
  // layout. One f16 x f16 -> f32 or bf16 x bf16 -> f32 (sm_80 and later)
  // linalg.matmul with a zero linalg.fill init; M, N, K multiples of the
  // tiles the model picks (it refuses, and says what is needed, when none
  // divides them). A tuning database
  // ($HWSCHED_TUNING_DB) overrides the model as for any select_tile_config.
  // An f32 matmul is refused here (tf32 would change its result):
  // @gpu_matmul_tensorcore_auto_tf32 takes it.
  transform.named_sequence @gpu_matmul_tensorcore_auto(
      %root: !transform.any_op {transform.consumed}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %block, %warp, %red, %stages, %threads =
        transform.cost_model.select_tile_config %mm { mma_sync, explain }
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.include @gpu_matmul_tensorcore_tiles failures(propagate)
        (%root, %block, %warp, %red, %stages, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // @gpu_matmul_tensorcore_auto for f32 x f32 -> f32 matmuls computed on
  // the tensor cores as tf32 (mma.sync m16n8k8: A and B rounded to 10-bit
  // mantissas, f32 sums): select_tile_config { mma_sync, allow_tf32 }, the
  // same kernel otherwise (the element width picks the mma shape, the copy
  // grid and the tf32 marking in @gpu_matmul_tensorcore_tiles). f16
  // matmuls get the f16 kernel, as from @gpu_matmul_tensorcore_auto.
  transform.named_sequence @gpu_matmul_tensorcore_auto_tf32(
      %root: !transform.any_op {transform.consumed}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %block, %warp, %red, %stages, %threads =
        transform.cost_model.select_tile_config %mm { mma_sync, allow_tf32, explain }
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.include @gpu_matmul_tensorcore_tiles failures(propagate)
        (%root, %block, %warp, %red, %stages, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  //===--------------------------------------------------------------------===//
  // The route of @gpu_matmul_auto (transform-scripts/gpu-matmul.mlir)
  //===--------------------------------------------------------------------===//

  // Before bufferization, for a matmul transform.hwsched.match_mma_sync_
  // matmuls took: the matmul and its fill move into a function of their own
  // (transform.hwsched.outline_kernel_function of a one-iteration
  // scf.forall, which canonicalization then removes: the function is fill +
  // matmul on its arguments, the fill value a constant in it, the call
  // takes its place), because the kernel's later steps
  // (vectorization, the mma conversion, the swizzle) work on a whole
  // function; select_tile_config { mma_sync } picks its tiles (the
  // decision the routing reported), steps 1-4 run on tensors, and the
  // decision is recorded on the function (hwsched.gpu.mma_*) for
  // @gpu_matmul_tensorcore_route_to_gpu after the one bufferization.
  transform.named_sequence @gpu_matmul_tensorcore_route_tensor_level(
      %mm: !transform.any_op {transform.consumed}) {
    %fill = transform.get_producer_of_operand %mm[2]
        : (!transform.any_op) -> !transform.any_op
    %one, %forall = transform.structured.tile_using_forall %mm num_threads [1, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_1, %forall_1 = transform.structured.fuse_into_containing_op %fill into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func, %call = transform.hwsched.outline_kernel_function %forall_1
        { func_name = "hwsched_tensorcore_kernel" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @gpu_matmul_tensorcore_route_kernel_function failures(propagate) (%func)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // The same with the matmul's one elementwise epilogue %epilogue (the one
  // filter_fusable_consumers kept, the matmul's only user): it moves into
  // the function too (the one-iteration loop is the epilogue's, the matmul
  // and its fill fused into it), generalized, and stays outside the
  // kernel's tiles (a linalg.generic on the whole C after the block loop);
  // after bufferization @gpu_matmul_tensorcore_route_to_gpu applies it at
  // the kernel's C stores (transform.fusion.epilogue_into_stores), so the
  // kernel writes epilogue(A x B) and C is never written nor allocated.
  transform.named_sequence @gpu_matmul_tensorcore_route_tensor_level_epilogue(
      %mm: !transform.any_op {transform.consumed},
      %epilogue: !transform.any_op {transform.consumed}) {
    %fill = transform.get_producer_of_operand %mm[2]
        : (!transform.any_op) -> !transform.any_op
    %empty = transform.get_producer_of_operand %fill[1]
        : (!transform.any_op) -> !transform.any_op
    %generic = transform.structured.generalize %epilogue
        : (!transform.any_op) -> !transform.any_op
    %one, %forall = transform.structured.tile_using_forall %generic num_threads [1, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_1, %forall_1 = transform.structured.fuse_into_containing_op %mm into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_1, %forall_2 = transform.structured.fuse_into_containing_op %fill into %forall_1
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The fill's destination (the matmul's C) into the loop too: in the
    // function it is a temporary the epilogue alone reads, which
    // epilogue_into_stores then erases (as an argument it would be written
    // for the caller).
    %empty_1, %forall_3 = transform.structured.fuse_into_containing_op %empty into %forall_2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func, %call = transform.hwsched.outline_kernel_function %forall_3
        { func_name = "hwsched_tensorcore_kernel" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // The epilogue in a function of its own, called after the kernel's
    // block loop: the kernel function's whole-function steps
    // (vectorization, unrolling, the mma conversion) leave it alone until
    // epilogue_into_stores brings it back.
    %e_k = transform.structured.match ops{["linalg.generic"]} in %func
        : (!transform.any_op) -> !transform.any_op
    %e_one, %e_forall = transform.structured.tile_using_forall %e_k num_threads [1, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %e_func, %e_call = transform.hwsched.outline_kernel_function %e_forall
        { func_name = "hwsched_tensorcore_epilogue" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %e_func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.include @gpu_matmul_tensorcore_route_kernel_function failures(propagate) (%func)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // The kernel function's decision and steps 1-4 (on tensors), for both
  // sequences above.
  transform.named_sequence @gpu_matmul_tensorcore_route_kernel_function(
      %func: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %mm_k = transform.structured.match ops{["linalg.matmul"]} in %func
        : (!transform.any_op) -> !transform.any_op
    // allow_tf32: an f32 matmul reaches this point only when the routing
    // op was told allow_tf32 (match_mma_sync_matmuls takes none otherwise).
    %block, %warp, %red, %stages, %threads =
        transform.cost_model.select_tile_config %mm_k { mma_sync, allow_tf32 }
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %bm, %bn, %b_k = transform.split_handle %block
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %r_m, %r_n, %bk = transform.split_handle %red
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %t, %t_y, %t_z = transform.split_handle %threads
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.annotate %func "hwsched.gpu.mma_bm" = %bm : !transform.any_op, !transform.param<i64>
    transform.annotate %func "hwsched.gpu.mma_bn" = %bn : !transform.any_op, !transform.param<i64>
    transform.annotate %func "hwsched.gpu.mma_bk" = %bk : !transform.any_op, !transform.param<i64>
    transform.annotate %func "hwsched.gpu.mma_threads" = %t : !transform.any_op, !transform.param<i64>
    transform.annotate %func "hwsched.gpu.mma_stages" = %stages : !transform.any_op, !transform.param<i64>
    transform.include @gpu_matmul_tensorcore_tiles_tensor_level failures(propagate)
        (%mm_k, %block, %warp, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // The decision @gpu_matmul_tensorcore_route_tensor_level recorded on the
  // bufferized function %func, as select_tile_config's lists: [BM, BN, 0],
  // [0, 0, BK], [T, 1, 1], and the stage cap.
  transform.named_sequence @gpu_matmul_tensorcore_route_decision(
      %func: !transform.any_op {transform.readonly})
      -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>) {
    %bm = transform.hwsched.get_annotation %func "hwsched.gpu.mma_bm"
        : (!transform.any_op) -> !transform.param<i64>
    %bn = transform.hwsched.get_annotation %func "hwsched.gpu.mma_bn"
        : (!transform.any_op) -> !transform.param<i64>
    %bk = transform.hwsched.get_annotation %func "hwsched.gpu.mma_bk"
        : (!transform.any_op) -> !transform.param<i64>
    %t = transform.hwsched.get_annotation %func "hwsched.gpu.mma_threads"
        : (!transform.any_op) -> !transform.param<i64>
    %stages = transform.hwsched.get_annotation %func "hwsched.gpu.mma_stages"
        : (!transform.any_op) -> !transform.param<i64>
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %block = transform.merge_handles %bm, %bn, %c0 : !transform.param<i64>
    %red = transform.merge_handles %c0, %c0, %bk : !transform.param<i64>
    %threads = transform.merge_handles %t, %c1, %c1 : !transform.param<i64>
    transform.yield %block, %red, %threads, %stages
        : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }

  // After the one bufferization, on the function
  // @gpu_matmul_tensorcore_route_tensor_level made: steps 6-14 with its
  // decision (copies on threads, vectorization, the gpu.launch, async
  // copies, the mma conversion, the swizzle, schedule_stages with the stage
  // cap, merge_allocations in dynamic shared memory).
  transform.named_sequence @gpu_matmul_tensorcore_route_to_gpu(
      %func: !transform.any_op {transform.consumed}) {
    %block, %red, %threads, %stages = transform.include @gpu_matmul_tensorcore_route_decision
        failures(propagate) (%func)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>)
    %func_v = transform.include @gpu_matmul_tensorcore_tiles_after_bufferize failures(propagate)
        (%func, %block, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> !transform.any_op
    %launch_h = transform.include @gpu_matmul_tensorcore_launch failures(propagate) (%func_v)
        : (!transform.any_op) -> !transform.any_op
    %t, %t_y, %t_z = transform.split_handle %threads
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %mapped = transform.include @gpu_matmul_tensorcore_tiles_map_threads failures(propagate)
        (%launch_h, %t) : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %f = transform.include @gpu_matmul_tensorcore_threads_to_nvgpu failures(propagate)
        (%mapped) : (!transform.any_op) -> !transform.any_op
    // The tiles' swizzle, as in @gpu_matmul_tensorcore_tiles.
    transform.smem.avoid_bank_conflicts %f : !transform.any_op
    transform.include @gpu_matmul_tensorcore_tiles_pipeline_scheduled failures(propagate)
        (%f, %stages) : (!transform.any_op, !transform.param<i64>) -> ()
    // The epilogue @gpu_matmul_tensorcore_route_tensor_level_epilogue kept
    // in a function of its own (none otherwise), applied at the C stores of
    // the kernel, the mma.sync fragments' vector<2xf32> stores after the
    // pipelined K loop.
    %epilogue = transform.structured.match ops{["func.call"]} in %f
        : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %epilogue { explain } : !transform.any_op
    transform.yield
  }

  // The same function for CPU execution (@gpu_matmul_auto_sequential):
  // steps 6-7 with the decision (the copies over the thread grid,
  // vectorization), then every loop a loop and the warps' contractions
  // lowered for the CPU, as @gpu_matmul_tensorcore_sequential does. Not
  // covered: the thread mapping, async copies, the mma conversion and the
  // pipeline (see @gpu_matmul_tensorcore_tiles_thread_level_scheduled).
  transform.named_sequence @gpu_matmul_tensorcore_route_sequential(
      %func: !transform.any_op {transform.consumed}) {
    %block, %red, %threads, %stages = transform.include @gpu_matmul_tensorcore_route_decision
        failures(propagate) (%func)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>)
    %func_v = transform.include @gpu_matmul_tensorcore_tiles_after_bufferize failures(propagate)
        (%func, %block, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> !transform.any_op
    // (A fused epilogue stays a call of its function here: this form keeps
    // the accumulators in C between K steps, so its C stores are not final
    // values; @gpu_matmul_tensorcore_route_thread_level checks the fusion.)
    transform.include @gpu_matmul_tensorcore_sequential_from_vector failures(propagate)
        (%func_v) : (!transform.any_op) -> ()
    transform.yield
  }

  // The same function for CPU execution with concurrent threads
  // (@gpu_matmul_auto_thread_level; utils/exec-check.py --emulate-gpu-launch
  // --emulate-async-copies --erase-memory-spaces): the steps of
  // @gpu_matmul_tensorcore_route_to_gpu up to the async copies, the pipeline
  // with the decision's stage cap, the warp contractions lowered for the
  // CPU instead of the mma conversion (the accumulators stay in registers
  // through the K loop, as with mma.sync), and the fused epilogue applied
  // at the C stores as on the GPU. Not covered: the mma conversion and the
  // swizzle (their PTX is checked by ptxas).
  transform.named_sequence @gpu_matmul_tensorcore_route_thread_level(
      %func: !transform.any_op {transform.consumed}) {
    %block, %red, %threads, %stages = transform.include @gpu_matmul_tensorcore_route_decision
        failures(propagate) (%func)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>)
    %func_v = transform.include @gpu_matmul_tensorcore_tiles_after_bufferize failures(propagate)
        (%func, %block, %red, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> !transform.any_op
    %launch_h = transform.include @gpu_matmul_tensorcore_launch failures(propagate) (%func_v)
        : (!transform.any_op) -> !transform.any_op
    %t, %t_y, %t_z = transform.split_handle %threads
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %mapped = transform.include @gpu_matmul_tensorcore_tiles_map_threads failures(propagate)
        (%launch_h, %t) : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %f_a = transform.include @gpu_matmul_tensorcore_threads_to_async_copies
        failures(propagate) (%mapped) : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_tiles_pipeline_scheduled failures(propagate)
        (%f_a, %stages) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.include @gpu_matmul_tensorcore_contractions_for_cpu failures(propagate)
        (%f_a) : (!transform.any_op) -> ()
    %epilogue = transform.structured.match ops{["func.call"]} in %f_a
        : (!transform.any_op) -> !transform.any_op
    transform.fusion.epilogue_into_stores %epilogue { explain } : !transform.any_op
    transform.yield
  }
}
