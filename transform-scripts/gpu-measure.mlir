// transform-scripts/gpu-measure.mlir: the measurement schedules of the GPU
// benches. Fixed sizes in (!transform.param<i64> arguments), and out either
// a thread-tiled kernel for transform.cost_model.estimate or a gpu.launch
// for utils/ptxas-report.py (no shared memory: operands are read from
// global memory; the shipped GPU schedules are in gpu-matmul.mlir).
//
// Callers: bench/costmodel/gpu_corpus.py (the register estimate against
// ptxas on its kernels/*.mlir, one thread tile per case) and
// bench/tileconfig/gpu_check.py (select_tile_config's pick with `explain`,
// and an unsplit pick lowered as picked). Each writes one small
// @__transform_main per case that makes the sizes with
// transform.param.constant and includes these sequences (the pattern of
// upstream's test-tune-extension.mlir); utils/hwsched_tools/transform_calls.py
// writes it. test/Scripts/gpu-measure.mlir runs them without ptxas.
//
// Load with the two files the lowering includes:
//   --transform-preload-library=transform-library-paths=transform-scripts/gpu-measure.mlir,transform-scripts/gpu-matmul.mlir,transform-scripts/gpu-dispatch.mlir
// No sequence names a `target`: the driver's --hwsched-target (or the
// payload's, or the default) is the spec.
//
// Payload conventions of the tiling sequences: the op whose output the
// blocks and threads tile is marked `root`; in a chain, the op fused into
// its loops is marked `producer`; every linalg.fill under %root is the
// producer's (or the root's) init and is fused too.
module attributes {transform.with_named_sequence} {
  // Defined in gpu-matmul.mlir: vectorization, accumulators hoisted out of
  // the K loops, empty tensors folded (the split-K schedule's step 5).
  transform.named_sequence private @gpu_matmul_split_k_vectorize(
      !transform.any_op {transform.consumed})
  // Defined in gpu-dispatch.mlir: map_nested_forall_to_threads with
  // block_dims from a param.
  transform.named_sequence private @hwsched_gpu_map_threads(
      !transform.any_op {transform.readonly},
      !transform.param<i64> {transform.readonly})
  // Defined in gpu-matmul.mlir: the split-K schedule's sizes
  // (@gpu_measure_split_decision compares them with the picks they come
  // from).
  transform.named_sequence private @gpu_matmul_split_k_config(
      !transform.any_op {transform.readonly})
      -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)

  //===--------------------------------------------------------------------===//
  // Tiling levels, one per loop structure (the mapping is static upstream).
  //===--------------------------------------------------------------------===//

  // %op tiled by [%bm, %bn] onto #gpu.block<y>, <x> (2-D outputs).
  transform.named_sequence @gpu_measure_blocks_2d(
      %op: !transform.any_op {transform.consumed},
      %bm: !transform.param<i64> {transform.readonly},
      %bn: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %op_b, %forall = transform.structured.tile_using_forall %op
        tile_sizes [%bm, %bn] (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    transform.yield %op_b, %forall : !transform.any_op, !transform.any_op
  }

  // %op tiled by [%tm, %tn] onto #gpu.thread<y>, <x> (2-D outputs).
  transform.named_sequence @gpu_measure_threads_2d(
      %op: !transform.any_op {transform.consumed},
      %tm: !transform.param<i64> {transform.readonly},
      %tn: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %op_t, %forall = transform.structured.tile_using_forall %op
        tile_sizes [%tm, %tn] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    transform.yield %op_t, %forall : !transform.any_op, !transform.any_op
  }

  // NHWC convolution outputs: one output row (oh) per block, [%bm, %bn] of
  // (ow, f), onto #gpu.block<z>, <y>, <x>.
  transform.named_sequence @gpu_measure_blocks_conv(
      %op: !transform.any_op {transform.consumed},
      %bm: !transform.param<i64> {transform.readonly},
      %bn: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %op_b, %forall = transform.structured.tile_using_forall %op
        tile_sizes [0, 1, %bm, %bn]
        (mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    transform.yield %op_b, %forall : !transform.any_op, !transform.any_op
  }

  // NHWC convolution outputs: [%tm, %tn] of (ow, f) onto #gpu.thread<y>, <x>.
  transform.named_sequence @gpu_measure_threads_conv(
      %op: !transform.any_op {transform.consumed},
      %tm: !transform.param<i64> {transform.readonly},
      %tn: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %op_t, %forall = transform.structured.tile_using_forall %op
        tile_sizes [0, 0, %tm, %tn] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
    transform.yield %op_t, %forall : !transform.any_op, !transform.any_op
  }

  // The reduction step %kt with scf.for: (m, n, k) loops.
  transform.named_sequence @gpu_measure_k_tile_matmul(
      %op: !transform.any_op {transform.consumed},
      %kt: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %op_k, %loop = transform.structured.tile_using_for %op tile_sizes [0, 0, %kt]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield %op_k : !transform.any_op
  }

  // The same for (b, m, n, k) loops (linalg.batch_matmul).
  transform.named_sequence @gpu_measure_k_tile_batch_matmul(
      %op: !transform.any_op {transform.consumed},
      %kt: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %op_k, %loop = transform.structured.tile_using_for %op tile_sizes [0, 0, 0, %kt]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield %op_k : !transform.any_op
  }

  // The same for conv_2d_nhwc_hwcf (n, oh, ow, f, kh, kw, c): the window
  // loops by 1 (a 1 x 1 window per step), c by %kt.
  transform.named_sequence @gpu_measure_k_tile_conv(
      %op: !transform.any_op {transform.consumed},
      %kt: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %op_k, %loop_h, %loop_w, %loop_c = transform.structured.tile_using_for %op
        tile_sizes [0, 0, 0, 0, 1, 1, %kt]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op,
                                                         !transform.any_op, !transform.any_op)
    transform.yield %op_k : !transform.any_op
  }

  //===--------------------------------------------------------------------===//
  // Block and thread tiling of a kernel (bench/costmodel/gpu_corpus.py).
  //===--------------------------------------------------------------------===//

  // The `root` op, the `producer` op and the fills under %root.
  transform.named_sequence @gpu_measure_match_chain(
      %root: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op) {
    %epi = transform.structured.match attributes {root} in %root
        : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match attributes {producer} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.yield %epi, %mm, %fill : !transform.any_op, !transform.any_op, !transform.any_op
  }

  // The producer, then its fill, fused into %forall (read only, as
  // fuse_into_containing_op reads it: handles to the ops it holds stay
  // valid).
  transform.named_sequence @gpu_measure_fuse_chain(
      %mm: !transform.any_op {transform.consumed},
      %fill: !transform.any_op {transform.consumed},
      %forall: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %mm_f, %forall_2 = transform.structured.fuse_into_containing_op %mm into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_f, %forall_3 = transform.structured.fuse_into_containing_op %fill into %forall_2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %mm_f, %fill_f : !transform.any_op, !transform.any_op
  }

  // @gpu_measure_chain_2d(%root, %bm, %bn, %tm, %tn) -> (%epi_t, %mm_t):
  // the `root` op (a 2-D elementwise epilogue) tiled to [%bm, %bn] blocks
  // and [%tm, %tn] threads, the `producer` and its fill fused at both
  // levels. Yields the thread-level root and producer (K-tile the latter
  // with @gpu_measure_k_tile_*).
  transform.named_sequence @gpu_measure_chain_2d(
      %root: !transform.any_op {transform.readonly},
      %bm: !transform.param<i64> {transform.readonly},
      %bn: !transform.param<i64> {transform.readonly},
      %tm: !transform.param<i64> {transform.readonly},
      %tn: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %epi, %mm, %fill = transform.include @gpu_measure_match_chain failures(propagate) (%root)
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %epi_b, %forall_b = transform.include @gpu_measure_blocks_2d failures(propagate) (%epi, %bm, %bn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %mm_b, %fill_b = transform.include @gpu_measure_fuse_chain failures(propagate) (%mm, %fill, %forall_b)
        : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %epi_t, %forall_t = transform.include @gpu_measure_threads_2d failures(propagate) (%epi_b, %tm, %tn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %mm_t, %fill_t = transform.include @gpu_measure_fuse_chain failures(propagate) (%mm_b, %fill_b, %forall_t)
        : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %epi_t, %mm_t : !transform.any_op, !transform.any_op
  }

  // @gpu_measure_chain_conv: @gpu_measure_chain_2d for a convolution
  // producer (@gpu_measure_blocks_conv, @gpu_measure_threads_conv).
  transform.named_sequence @gpu_measure_chain_conv(
      %root: !transform.any_op {transform.readonly},
      %bm: !transform.param<i64> {transform.readonly},
      %bn: !transform.param<i64> {transform.readonly},
      %tm: !transform.param<i64> {transform.readonly},
      %tn: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %epi, %mm, %fill = transform.include @gpu_measure_match_chain failures(propagate) (%root)
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %epi_b, %forall_b = transform.include @gpu_measure_blocks_conv failures(propagate) (%epi, %bm, %bn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %mm_b, %fill_b = transform.include @gpu_measure_fuse_chain failures(propagate) (%mm, %fill, %forall_b)
        : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %epi_t, %forall_t = transform.include @gpu_measure_threads_conv failures(propagate) (%epi_b, %tm, %tn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %mm_t, %fill_t = transform.include @gpu_measure_fuse_chain failures(propagate) (%mm_b, %fill_b, %forall_t)
        : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %epi_t, %mm_t : !transform.any_op, !transform.any_op
  }

  // @gpu_measure_alone_2d(%root, %bm, %bn, %tm, %tn) -> %op_t: the `root`
  // op alone (no producer: a matmul) tiled as in @gpu_measure_chain_2d,
  // its fill fused at both levels. Yields the thread-level op.
  transform.named_sequence @gpu_measure_alone_2d(
      %root: !transform.any_op {transform.readonly},
      %bm: !transform.param<i64> {transform.readonly},
      %bn: !transform.param<i64> {transform.readonly},
      %tm: !transform.param<i64> {transform.readonly},
      %tn: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %op = transform.structured.match attributes {root} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %op_b, %forall_b = transform.include @gpu_measure_blocks_2d failures(propagate) (%op, %bm, %bn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b2 = transform.structured.fuse_into_containing_op %fill into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %op_t, %forall_t = transform.include @gpu_measure_threads_2d failures(propagate) (%op_b, %tm, %tn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_t, %forall_t2 = transform.structured.fuse_into_containing_op %fill_b into %forall_t
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %op_t : !transform.any_op
  }

  // @gpu_measure_alone_conv: @gpu_measure_alone_2d for a convolution.
  transform.named_sequence @gpu_measure_alone_conv(
      %root: !transform.any_op {transform.readonly},
      %bm: !transform.param<i64> {transform.readonly},
      %bn: !transform.param<i64> {transform.readonly},
      %tm: !transform.param<i64> {transform.readonly},
      %tn: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %op = transform.structured.match attributes {root} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %op_b, %forall_b = transform.include @gpu_measure_blocks_conv failures(propagate) (%op, %bm, %bn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b2 = transform.structured.fuse_into_containing_op %fill into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %op_t, %forall_t = transform.include @gpu_measure_threads_conv failures(propagate) (%op_b, %tm, %tn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_t, %forall_t2 = transform.structured.fuse_into_containing_op %fill_b into %forall_t
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %op_t : !transform.any_op
  }

  // The model's registers per thread for the thread-level op %op, with its
  // terms as a remark (`explain`; what gpu_corpus.py parses).
  transform.named_sequence @gpu_measure_registers(
      %op: !transform.any_op {transform.readonly}) -> !transform.param<i64> {
    %regs = transform.cost_model.estimate %op {metric = "registers_per_thread", explain}
        : (!transform.any_op) -> !transform.param<i64>
    transform.yield %regs : !transform.param<i64>
  }

  // A K-tiled 2-D convolution (oh and kh unit dims) to a 1-D one, which the
  // Linalg vectorizer handles (it has no direct vectorization of conv_2d).
  transform.named_sequence @gpu_measure_decompose(
      %op: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %op_1d = transform.structured.decompose %op : (!transform.any_op) -> !transform.any_op
    transform.yield %op_1d : !transform.any_op
  }

  //===--------------------------------------------------------------------===//
  // select_tile_config's pick, lowered as picked (bench/tileconfig/gpu_check.py).
  //===--------------------------------------------------------------------===//

  // The pick for the linalg.matmul under %root, with `explain`: five results
  // (the unsplit picks), six (the split_k factor too), or five as the
  // shipped shared-memory schedule asks (its accumulator tile and static
  // 48 KiB counted: @gpu_matmul_smem_block_level).
  transform.named_sequence @gpu_measure_pick(
      %root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %mm {explain}
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
  transform.named_sequence @gpu_measure_pick_split_k(
      %root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %t:6 = transform.cost_model.select_tile_config %mm {explain}
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
  transform.named_sequence @gpu_measure_pick_smem(
      %root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %mm {explain, accumulator_in_smem, static_smem}
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }

  //===--------------------------------------------------------------------===//
  // The split-K decision against the picks it is made from
  // (bench/tileconfig/split_decision.py).
  //===--------------------------------------------------------------------===//

  // @gpu_measure_split_decision(%root): for the linalg.matmul under %root,
  // three remarks of select_tile_config's sizes: "AB" (six results, A/B
  // stages only: the first question of the decision), "DECISION" (the
  // shipped @gpu_matmul_split_k_config of gpu-matmul.mlir) and "SMEM" (five
  // results with accumulator_in_smem and static_smem: what
  // @gpu_matmul_smem_pipelined asks). Changes nothing.
  transform.named_sequence @gpu_measure_split_decision(
      %root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %a:6 = transform.cost_model.select_tile_config %mm
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %d:6 = transform.include @gpu_matmul_split_k_config failures(propagate) (%mm)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %u:5 = transform.cost_model.select_tile_config %mm {accumulator_in_smem, static_smem}
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %pa = transform.merge_handles %a#0, %a#1, %a#2, %a#3, %a#4, %a#5 : !transform.param<i64>
    %pd = transform.merge_handles %d#0, %d#1, %d#2, %d#3, %d#4, %d#5 : !transform.param<i64>
    %pu = transform.merge_handles %u#0, %u#1, %u#2, %u#3, %u#4 : !transform.param<i64>
    transform.debug.emit_param_as_remark %pa, "AB" : !transform.param<i64>
    transform.debug.emit_param_as_remark %pd, "DECISION" : !transform.param<i64>
    transform.debug.emit_param_as_remark %pu, "SMEM" : !transform.param<i64>
    transform.yield
  }

  // @gpu_measure_matmul_k_blocked(%root, %bm, %bn, %bk, %tm, %tn): the
  // linalg.matmul under %root (and its linalg.fill) as select_tile_config
  // sizes it: [%bm, %bn] blocks with the fill fused, K tiled by %bk in the
  // block, [%tm, %tn] threads for the matmul and, separately, the fill;
  // each thread's matmul steps K by 1 (the register model's assumption).
  transform.named_sequence @gpu_measure_matmul_k_blocked(
      %root: !transform.any_op {transform.readonly},
      %bm: !transform.param<i64> {transform.readonly},
      %bn: !transform.param<i64> {transform.readonly},
      %bk: !transform.param<i64> {transform.readonly},
      %tm: !transform.param<i64> {transform.readonly},
      %tn: !transform.param<i64> {transform.readonly}) {
    %matmul = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %mm_b, %forall_b = transform.include @gpu_measure_blocks_2d failures(propagate) (%matmul, %bm, %bn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_b, %forall_b2 = transform.structured.fuse_into_containing_op %fill into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k = transform.include @gpu_measure_k_tile_matmul failures(propagate) (%mm_b, %bk)
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    %mm_t, %forall_t = transform.include @gpu_measure_threads_2d failures(propagate) (%mm_k, %tm, %tn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %fill_t, %forall_t2 = transform.include @gpu_measure_threads_2d failures(propagate) (%fill_b, %tm, %tn)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %mm_1 = transform.include @gpu_measure_k_tile_matmul failures(propagate) (%mm_t, %one)
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }

  //===--------------------------------------------------------------------===//
  // To gpu.launch and the vector lowering (both benches).
  //===--------------------------------------------------------------------===//

  // @gpu_measure_to_gpu(%root, %num_threads) -> %func: the tiled kernel of
  // %root vectorized (@gpu_matmul_split_k_vectorize), one-shot bufferized,
  // the block loop made a gpu.launch and the thread loops mapped with
  // block_dims = %num_threads (three values x, y, 1; through
  // @hwsched_gpu_map_threads, which marks the launch
  // hwsched.block_dims_XxY). Yields the function, for the vector lowering.
  transform.named_sequence @gpu_measure_to_gpu(
      %root: !transform.any_op {transform.consumed},
      %num_threads: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %func = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.include @gpu_matmul_split_k_vectorize failures(propagate) (%func)
        : (!transform.any_op) -> ()
    %root_b = transform.bufferization.one_shot_bufferize %root
        {bufferize_function_boundaries = true,
         function_boundary_type_conversion = 1 : i32}
        : (!transform.any_op) -> !transform.any_op
    %func_b = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op
    // The fused fill leaves a write-only per-thread buffer once the
    // accumulator is hoisted into registers.
    transform.memref.erase_dead_alloc_and_stores %func_b
        : (!transform.any_op) -> ()
    %launch = transform.gpu.map_forall_to_blocks %func_b {generate_gpu_launch}
        : (!transform.any_op) -> !transform.any_op
    %func_m = transform.structured.match ops{["func.func"]} in %root_b
        : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_gpu_map_threads failures(propagate) (%func_m, %num_threads)
        : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield %func_m : !transform.any_op
  }

  // Vector ops of %func to 1-D for the NVVM path, all sets in one greedy
  // rewrite (the matmul-like kernels of gpu_corpus.py).
  transform.named_sequence @gpu_measure_lower_vectors(
      %func: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_transpose
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    transform.yield
  }

  // The same sets, one greedy rewrite per set in the same order: all in one
  // rewrite do not terminate on the decomposed convolutions nor on thread
  // tiles with a unit dimension (cast_away_vector_leading_one_dim and the
  // broadcast folds rewrite each other's vector<1xN> ops; each set alone
  // reaches its fixpoint in well under a second).
  transform.named_sequence @gpu_measure_lower_vectors_by_set(
      %func: !transform.any_op {transform.readonly}) {
    transform.include @gpu_measure_lower_contractions_by_set failures(propagate) (%func)
        : (!transform.any_op) -> ()
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.include @gpu_measure_lower_transfers_by_set failures(propagate) (%func)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // @gpu_measure_lower_vectors_by_set without the multi-reduction set (a
  // matmul has none: gpu_check.py's lowering).
  transform.named_sequence @gpu_measure_lower_matmul_vectors_by_set(
      %func: !transform.any_op {transform.readonly}) {
    transform.include @gpu_measure_lower_contractions_by_set failures(propagate) (%func)
        : (!transform.any_op) -> ()
    transform.include @gpu_measure_lower_transfers_by_set failures(propagate) (%func)
        : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @gpu_measure_lower_contractions_by_set(
      %func: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
    transform.yield
  }

  transform.named_sequence @gpu_measure_lower_transfers_by_set(
      %func: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.transfer_permutation_patterns
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_transpose
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_broadcast
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_shape_cast
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    transform.yield
  }
}
