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
// The tiles are fixed for now (they are the probe of issue 20); the later
// step is to take them from select_tile_config and the pipelining from
// schedule_stages.
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
    //     shared-memory reads -> ldmatrix (A as is, B transposed).
    %f_m = transform.apply_registered_pass "convert-vector-to-gpu"
        with options = { "use-nvgpu" = true } to %f_a
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f_m {
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

    // 9. The warp contraction unrolled to mma.sync m16n8k16 shapes, then the
    //    64 accumulators (16x8 f32 each) hoisted out of the K loop into
    //    iter_args. In this order: hoisting first leaves one 64x64
    //    accumulator that the mma conversion (step 11) silently skips.
    transform.apply_patterns to %f {
      transform.apply_patterns.gpu.unroll_vectors_subgroup_mma [16, 8, 16]
    } : !transform.any_op
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
    transform.apply_patterns to %func_v {
      transform.apply_patterns.gpu.unroll_vectors_subgroup_mma [16, 8, 16]
    } : !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %func_s = transform.apply_registered_pass "scf-forall-to-for" to %func_v
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_tensorcore_contractions_for_cpu failures(propagate)
        (%func_s) : (!transform.any_op) -> ()
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
}
