// transform-scripts/cpu-matmul.mlir: a CPU schedule for f32 linalg.matmul
// with an optional elementwise epilogue (bias + ReLU as a linalg.generic),
// GotoBLAS-style, with every tile size a !transform.param<i64> chosen by
// transform.cost_model.select_tile_config from the CPU spec.
//
// Load with
//   hwsched-opt --transform-preload-library=transform-library-paths=transform-scripts
// and either run the whole thing
//   --transform-interpreter=entry-point=hwsched_cpu_matmul_main
// or call the pieces with `transform.include` after declaring them private.
//
// What it does to one chain fill -> matmul -> [epilogue]:
//  0. (Chains, in @hwsched_cpu_matmul_main) transform.fusion.epilogue_in_place:
//     the fill and the matmul write into the epilogue's destination and the
//     epilogue updates the matmul result in place, so that after
//     bufferization the C block is a block of the output itself, not a
//     block-sized temporary next to it (one MC x NC block less in L2).
//  1. Cache tiling. The chain's root (the epilogue, else the matmul) is tiled
//     by [MC, NC] with scf.for, the NC (column) loop outside the MC (row)
//     loop, and the matmul and its fill are fused into that loop nest
//     (transform.structured.fuse), so the epilogue runs on an MC x NC block
//     of C while it is still in L2: bias + ReLU cost one pass over a
//     cache-resident block instead of one over the whole C.
//  2. The first K block split off (transform.structured.split at KC along
//     K): its register tiles are made with transform.structured.fuse, which
//     pulls the fill into them, so each MR x NR tile of C is zeroed right
//     before the micro-kernel reads it (the "write, don't accumulate" of the
//     first K block: no separate pass over the C block, whose first touch
//     of memory then overlaps the FMAs; about +2% at 512 and 2048, see
//     bench/cpu-matmul/README.md). The rest of K is blocked by KC. Register
//     tiling by [MR, NR] with the MR loop outside the NR loop: one MR x KC
//     sliver of A stays in L1 while the packed KC x NC panel of B streams
//     through it from L2, sequentially.
//     (NR outside, keeping a B sliver in L1 instead, measured 113-117
//     against 123 GFLOP/s at 2048, and 99-119 against 139-147 at 512 with
//     A packed as well: see bench/cpu-matmul/README.md.)
//  3. Packing of B, once per NC block. The KC x NR sliver is padded (nofold)
//     and the pad hoisted out of the NR, MR, K and MC loops
//     (transform.structured.hoist_pad by 4 loops, by 3 for the first K
//     block, which has no K loop; only the K and NR loops index B, so they
//     become the packed dimensions): one contiguous [NC/NR][KC][NR] buffer
//     for the first K block and one [K/KC - 1][NC/NR][KC][NR] for the rest
//     per NC block, filled before the loop over
//     the C blocks of that column block and reused by all of them (Goto's
//     "pack B once per (K block, N block)"; before, B was re-packed for
//     every C block, M/MC times). The KC x NR sliver read in place would be
//     NR floats every N*4 bytes: a handful of L1 sets and one page per row.
//     The copy is tiled by rows and vectorized to NR-wide loads/stores.
//     Consecutive extract_slices are merged first so that the sliver's
//     source is B itself (hoist_pad needs it defined above the loops); no
//     canonicalization before the hoisting, which would fold a
//     single-iteration NR loop (NC = NR) and change what "4 loops" covers.
//  4. The MR x NR x 1 matmul tile is vectorized into vector.contract, the C
//     accumulator transfers are hoisted out of the K loop (MR*NR/lanes vector
//     registers carried as loop values), the K loop is unrolled by 4, and the
//     contraction is lowered to outer products, i.e. one broadcast of
//     A[i][k] and NR/lanes FMAs per row: vbroadcastss + vfmadd231ps on
//     AVX-512. The fill (in the first K block's register tiles, step 2) and
//     the epilogue (tiled by [1, NR]) are vectorized too.
//  5. Bufferization (whole module, function boundaries, identity layouts),
//     buffers hoisted out of loops and put on the stack up to 1.5 MiB each
//     (the packed panels, KC*NC*4 bytes for the first K block and
//     (K - KC)*NC*4 for the rest: 1.5 MiB at K = 2048, NC = 256; larger ones
//     stay heap buffers, allocated once per column panel), vector lowering
//     to 1-D transfers. The column-panel loop (step 1) then becomes
//     scf.parallel and, with more than one core in the spec (cpu.cores),
//     OpenMP with cpu.cores threads, each thread allocating its panels once
//     on its own stack (libomp's worker stacks are 4 to 8 MiB by default,
//     hence the 1.5 MiB bound per buffer; @hwsched_cpu_parallelize). What
//     is left lowers with the usual pipeline (see utils/exec-check.py
//     --print-pipeline, or
//     bench/cpu-matmul/run.py) plus convert-openmp-to-llvm, and runs with
//     LLVM's libomp; mlir-runner's JIT targets the host CPU, so AVX-512 is
//     used where the host has it, no flag needed.
//  6. (Only in @hwsched_cpu_matmul_main_pipelined.) Software pipelining of
//     the micro-kernel K loops with transform.pipeline.schedule_stages at
//     the spec's stage count: the A column and B row of K step k+1 are
//     loaded in the iteration that runs the FMAs of step k. Off by default:
//     an out-of-order core already overlaps these loads with the FMAs, and
//     on the x86 bench machine the explicit version runs at 0.87x (see
//     @hwsched_cpu_pipeline_micro_kernels and bench/cpu-matmul/README.md).
//
// Knobs (all !transform.param<i64>, in this order):
//   MC, NC  cache block of C (rows, columns); fused epilogue block
//   KC      reduction block (rows of one packed B sliver)
//   MR, NR  register tile; NR must be a multiple of the vector lanes
// Requirements: static shapes, f32, each dimension a multiple of its tile
// (M of MC and MR, N of NC and NR, K of KC, MC of MR, NC of NR); the epilogue
// is a 2-D all-parallel linalg.generic whose first input is the matmul result.
// A partial tile makes the transform fail with an error (nothing is silently
// left scalar or computed wrong). @hwsched_cpu_matmul_main schedules only
// matmuls with static M, N and K: one with a dynamic dimension is left as it
// is (it lowers unscheduled), with a remark at it saying so.
//
// Where the knobs come from. @hwsched_cpu_matmul_tiles_from_spec calls
// transform.cost_model.select_tile_config on the matmul (the spec that
// applies there: DLTI on the payload, the driver's --hwsched-target, ...)
// and splits its lists: tile_sizes = [MC, NC, 0], thread_tile_sizes =
// [MR, NR, 0], reduction_tile_sizes = [0, 0, KC]. Its CPU rule (see the op's
// description) bounds the register tile by cpu.vector_registers, the A
// sliver MR x KC by cpu.l1d_bytes / 2 (the sliver this loop order keeps in
// L1) and the cache block by cpu.l2_bytes, prefers tiles that divide the
// problem and scores the rest with a roofline estimate. For x86-avx512 it
// gives MC=256 NC=256 KC=512 MR=8 NR=32 from 512^3 up (KC=256 at 256^3);
// a 256 KiB L2 gives 64 x 128 blocks, 16 vector registers a 4 x 32
// register tile (test/Scripts/cpu-matmul-tiles.mlir). The same script
// therefore serves every CPU spec; a GPU or NPU spec is refused (no cpu.*
// figures). To try other tiles, call @hwsched_cpu_matmul_tile with your own
// params (bench/cpu-matmul/run.py --tiles does).
module attributes {transform.with_named_sequence} {
  // Defined in matmul-frontend.mlir (preload it too for the entry points).
  transform.named_sequence private @hwsched_prepare_contractions(
      !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence private @hwsched_fe_depthwise_ops(
      !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence private @hwsched_fe_premark_depthwise(
      !transform.any_op {transform.readonly})
  transform.named_sequence private @hwsched_fe_if_tensor_semantics(
      !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence private @hwsched_fe_match_2d_dynamic_m_f(
      !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence private @hwsched_fe_match_2d_dynamic_m_i(
      !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence private @hwsched_fe_premark_contraction(
      !transform.any_op {transform.readonly})

  //===--------------------------------------------------------------------===//
  // Tensor-level schedule of one chain.
  //===--------------------------------------------------------------------===//

  // @hwsched_cpu_matmul_tile(%root, MC, NC, KC, MR, NR)
  // %root: the last op of one chain: the epilogue linalg.generic fed by the
  // matmul, or the linalg.matmul itself when there is no epilogue. Tiles,
  // fuses, packs B and marks the micro-kernel K loop (hwsched.micro_k) for
  // @hwsched_cpu_bufferize_and_lower. Tensor semantics; one chain per call
  // (a param carries one value per payload op).
  transform.named_sequence @hwsched_cpu_matmul_tile(
      %root: !transform.any_op {transform.consumed},
      %mc: !transform.param<i64> {transform.readonly},
      %nc: !transform.param<i64> {transform.readonly},
      %kc: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly}) {
    %func = transform.get_parent_op %root {op_name = "func.func"}
        : (!transform.any_op) -> !transform.any_op
    // @hwsched_cpu_bufferize_and_lower vectorizes the functions marked here
    // and leaves the others alone.
    transform.annotate %func "hwsched.cpu_schedule" : !transform.any_op
    // The root is the epilogue unless it is the contraction itself (a
    // linalg.matmul, or any op @hwsched_prepare_contractions marked): the
    // mark finds the epilogue's tile again after step 1.
    transform.include @hwsched_cpu_mark_epilogue_root failures(propagate) (%root)
        : (!transform.any_op) -> ()
    // 1. Cache block of C, the NC loop outside the MC loop (so that B can be
    // packed once per NC block, step 3); the matmul and its fill are fused
    // producers. The NC loop is an scf.forall: its column panels run on the
    // cores (@hwsched_cpu_parallelize), each thread packing its own panel.
    %panel, %panels = transform.structured.fuse %root tile_sizes [0, %nc]
        {use_forall}
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    transform.annotate %panels "hwsched.cpu_panels" : !transform.any_op
    %block, %mc_loop = transform.structured.fuse %panel tile_sizes [%mc, 0]
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op)
    // With a dynamic M the tile loops' bounds read tensor.dim of the fused
    // ops' results, which keeps a second copy of the contraction alive in
    // the panel loop: resolve those dims from the operands (no-op for
    // static shapes, whose dims are constants).
    transform.apply_patterns to %func {
      transform.apply_patterns.memref.resolve_ranked_shaped_type_result_dims
    } : !transform.any_op
    %mm_named = transform.structured.match ops{["linalg.matmul"]} in %panels
        : (!transform.any_op) -> !transform.any_op
    %mm_marked = transform.structured.match attributes {hwsched.contraction} in %panels
        : (!transform.any_op) -> !transform.any_op
    %mm = transform.merge_handles deduplicate %mm_named, %mm_marked : !transform.any_op
    // Other fused producers (an im2col, a broadcast init) stay as they are:
    // tiled with the C block, vectorized after bufferization.
    %epilogue = transform.structured.match attributes {hwsched.cpu_epilogue} in %panels
        : (!transform.any_op) -> !transform.any_op
    // The untiled originals are dead now.
    transform.apply_dce to %func : !transform.any_op

    // 2. The first K block apart: its register tiles start from the fill
    // (fused into them: zeros stored into the C tile right before the tile
    // is read, instead of a separate pass over the whole C block); the rest
    // of K is blocked by KC. Then register tiles, MR loop outside NR loop.
    %parts = transform.structured.split %mm after %kc {dimension = 2}
        : !transform.any_op, !transform.param<i64>
    %mm_first, %mm_rest = transform.split_handle %parts
        {fail_on_payload_too_small = false}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The split reads and writes the C block through full-size slices: fold
    // them (op folders; no canonicalization, see step 3) so that the fill is
    // the direct producer of the first part's output.
    transform.apply_patterns to %func {
      transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice
    } : !transform.any_op
    %mmr0, %li0, %lj0 = transform.structured.fuse %mm_first
        tile_sizes [%mr, %nr]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.apply_dce to %func : !transform.any_op
    // (No rest when K = KC: the loop below then runs zero times.)
    %mmr = transform.foreach %mm_rest : !transform.any_op -> !transform.any_op {
    ^bb0(%rest: !transform.any_op):
      %mmk, %lk = transform.structured.tile_using_for %rest tile_sizes [0, 0, %kc]
          : (!transform.any_op, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op)
      %t, %li, %lj = transform.structured.tile_using_for %mmk
          tile_sizes [%mr, %nr, 0] interchange = [0, 1, 2]
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op, !transform.any_op)
      transform.yield %t : !transform.any_op
    }

    // 3. Pack B: nofold pad of the KC x NR sliver, hoisted out of the NR, MR,
    // (K) and MC loops into one [NC/NR][KC][NR] buffer (first K block) and
    // one [K/KC - 1][NC/NR][KC][NR] buffer (the rest) per NC block.
    // hoist_pad needs the sliver's source defined above those loops: merge
    // the chain of extract_slices (C block, K block, register tile) into one
    // slice of B. No canonicalization here: it would fold a one-iteration NR
    // loop (NC = NR) and the loop counts would then reach over the NC loop.
    transform.apply_patterns to %func {
      transform.apply_patterns.tensor.merge_consecutive_insert_extract_slice
    } : !transform.any_op
    // Whether the register tiles are whole (static N and K): partial ones
    // (a tile that does not divide, e.g. a prime N) give pack rows of
    // dynamic length, which are not vectorized here (masked pad
    // vectorization is not reliable upstream): the pad's copy is vectorized
    // after bufferization.
    %whole = transform.collect_matching @hwsched_cpu_match_static_nk in %mmr0
        : (!transform.any_op) -> !transform.any_op
    %n_whole = transform.num_associations %whole : (!transform.any_op) -> !transform.param<i64>
    // Padded in M, N and K: the register tile is MR x NR x KC even where the
    // problem ends inside it (the pads of A and C fold away for whole
    // tiles; B's, nofold, is the packing). No padding values: zeros of each
    // operand's element type, f32, f16, bf16 or i8 alike.
    %padded0, %pad0, %copy0 = transform.structured.pad %mmr0 {
        padding_dimensions = [0, 1, 2], nofold_flags = [0, 1, 0],
        copy_back_op = "none"}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %pad_b0 = transform.get_producer_of_operand %padded0[1]
        : (!transform.any_op) -> !transform.any_op
    // A partial register tile pads by (NR - width), the width read back with
    // tensor.dim of B's slice. hoist_pad only follows index arithmetic, and
    // tensor.dim of a rank-reducing slice (a batched contraction: the batch
    // index is dropped) does not fold to the slice's size by itself: resolve
    // it from the slice's sizes, or the hoisting fails on every batched
    // contraction whose N or K is not a multiple of the tile. Only within
    // the loops hoisted over (the 3rd enclosing loop; none when the nest is
    // shallower): the folding that comes with any pattern application would
    // reshape the loops of a tiny matmul (1 x 1 x 6) and fail hoist_pad.
    %pad_loop0 = transform.get_parent_op %pad_b0 {op_name = "scf.for", nth_parent = 3, allow_empty_results}
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %pad_loop0 {
      transform.apply_patterns.memref.resolve_ranked_shaped_type_result_dims
    } : !transform.any_op
    %packing0 = transform.structured.hoist_pad %pad_b0 by 3 loops
        : (!transform.any_op) -> !transform.any_op
    %padded, %pad, %copy = transform.structured.pad %mmr {
        padding_dimensions = [0, 1, 2], nofold_flags = [0, 1, 0],
        copy_back_op = "none"}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %pad_b = transform.get_producer_of_operand %padded[1]
        : (!transform.any_op) -> !transform.any_op
    // (The same for the pads of the later K blocks, hoisted over 4 loops.)
    %pad_loop = transform.get_parent_op %pad_b {op_name = "scf.for", nth_parent = 4, allow_empty_results}
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %pad_loop {
      transform.apply_patterns.memref.resolve_ranked_shaped_type_result_dims
    } : !transform.any_op
    %packing = transform.structured.hoist_pad %pad_b by 4 loops
        : (!transform.any_op) -> !transform.any_op
    // Copy one row of the sliver at a time (NR floats: NR/lanes vectors).
    %packings = transform.merge_handles %packing0, %packing : !transform.any_op
    %pack_rows, %pack_loop = transform.structured.tile_using_for %packings
        tile_sizes [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // (Vectorized before the canonicalization, which folds a one-row pack
    // loop (K = 1) away. A B stored N x K gives rows of KC, not NR,
    // elements: those are left to the vectorization after bufferization.)
    transform.foreach %pack_rows : !transform.any_op {
    ^bb0(%row_pad: !transform.any_op):
      transform.sequence %row_pad, %nr, %n_whole : !transform.any_op, !transform.param<i64>, !transform.param<i64> failures(suppress) {
      ^bb0(%p0: !transform.any_op, %n0: !transform.param<i64>, %w0: !transform.param<i64>):
        transform.sequence %p0, %n0, %w0 : !transform.any_op, !transform.param<i64>, !transform.param<i64> failures(propagate) {
        ^bb0(%p: !transform.any_op, %n: !transform.param<i64>, %w: !transform.param<i64>):
          %one = transform.param.constant 1 : i64 -> !transform.param<i64>
          transform.match.param.cmpi eq %w, %one : !transform.param<i64>
          transform.structured.vectorize %p vector_sizes [1, %n]
              : !transform.any_op, !transform.param<i64>
        }
      }
    }
    // A row beyond K in the last K block (K not a multiple of KC) is read
    // under a mask: turn `vector.mask { transfer_read }` into a transfer
    // with a mask operand now, before later patterns (fold_memref_alias_ops
    // after bufferization) put index arithmetic inside the mask region,
    // which then no longer verifies ("expects only one operation to mask").
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_masked_transfers
      transform.apply_patterns.canonicalization
    } : !transform.any_op

    // 4. Micro-kernel: MR x NR x 1 steps over K, vectorized after
    // bufferization; the mark finds the loop again for unrolling.
    %paddeds = transform.merge_handles %padded0, %padded : !transform.any_op
    %micro, %micro_k = transform.structured.tile_using_for %paddeds
        tile_sizes [0, 0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %micro_k "hwsched.micro_k" : !transform.any_op
    transform.foreach %epilogue : !transform.any_op {
    ^bb0(%e: !transform.any_op):
      %e_t, %e_loops:2 = transform.structured.tile_using_for %e
          tile_sizes [1, %nr] : (!transform.any_op, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }
    // Without the in-place epilogue (step 0) the C block becomes a
    // block-sized temporary rather than a slice of a whole-matrix one.
    transform.apply_patterns to %func {
      transform.apply_patterns.tensor.fold_tensor_empty
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }

  //===--------------------------------------------------------------------===//
  // Bufferization, vectorization and vector lowering of a whole module.
  //===--------------------------------------------------------------------===//

  // @hwsched_cpu_bufferize_and_lower(%module)
  // After @hwsched_cpu_matmul_tile on every chain: bufferizes the module
  // (function boundaries, identity layouts), moves the temporaries out of
  // the loops and onto the stack, vectorizes every remaining linalg op,
  // keeps the C accumulators in registers across the micro-kernel K loop,
  // unrolls that loop by 4 and lowers contractions to FMAs, in the functions
  // @hwsched_cpu_matmul_tile marked (hwsched.cpu_schedule). Consumes %module.
  // = @hwsched_cpu_bufferize_and_vectorize + @hwsched_cpu_lower_micro_kernels.
  transform.named_sequence @hwsched_cpu_bufferize_and_lower(
      %module: !transform.any_op {transform.consumed}) {
    %bufferized = transform.include @hwsched_cpu_bufferize_and_vectorize
        failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_cpu_lower_micro_kernels failures(propagate)
        (%bufferized) : (!transform.any_op) -> ()
    transform.include @hwsched_cpu_parallelize failures(propagate)
        (%bufferized) : (!transform.any_op) -> ()
    transform.yield
  }

  // @hwsched_cpu_bufferize_pipeline_and_lower(%module)
  // The same with the micro-kernel K loops software-pipelined in between
  // (@hwsched_cpu_pipeline_micro_kernels).
  transform.named_sequence @hwsched_cpu_bufferize_pipeline_and_lower(
      %module: !transform.any_op {transform.consumed}) {
    %bufferized = transform.include @hwsched_cpu_bufferize_and_vectorize
        failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_cpu_pipeline_micro_kernels failures(propagate)
        (%bufferized) : (!transform.any_op) -> ()
    transform.include @hwsched_cpu_lower_micro_kernels failures(propagate)
        (%bufferized) : (!transform.any_op) -> ()
    transform.include @hwsched_cpu_parallelize failures(propagate)
        (%bufferized) : (!transform.any_op) -> ()
    transform.yield
  }

  // @hwsched_cpu_panels_to_loops(%bufferized_module)
  // The column-panel loops (the scf.forall of step 1, one iteration per NC
  // block) become scf.parallel when the spec gives more than one core
  // (cpu.cores: for `host`, the cores this process may run on), else plain
  // scf.for loops.
  transform.named_sequence @hwsched_cpu_panels_to_loops(
      %bufferized: !transform.any_op {transform.readonly}) {
    %cores = transform.hwsched.query_spec %bufferized
        { key = "cpu.cores", default_target = "host" }
        : (!transform.any_op) -> !transform.param<i64>
    // The guard (cmpi) stops the inner sequence for one core.
    transform.sequence %bufferized, %cores : !transform.any_op, !transform.param<i64>
        failures(suppress) {
    ^bb0(%m: !transform.any_op, %t: !transform.param<i64>):
      transform.sequence %m, %t : !transform.any_op, !transform.param<i64>
          failures(propagate) {
      ^bb0(%m2: !transform.any_op, %threads: !transform.param<i64>):
        %one = transform.param.constant 1 : i64 -> !transform.param<i64>
        transform.match.param.cmpi gt %threads, %one : !transform.param<i64>
        %panels = transform.structured.match ops{["scf.forall"]}
            attributes {hwsched.cpu_panels} in %m2
            : (!transform.any_op) -> !transform.any_op
        transform.foreach %panels : !transform.any_op {
        ^bb0(%forall: !transform.any_op):
          %parallel = transform.loop.forall_to_parallel %forall
              : (!transform.any_op) -> !transform.any_op
        }
      }
    }
    %left = transform.structured.match ops{["scf.forall"]}
        attributes {hwsched.cpu_panels} in %bufferized
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %left : !transform.any_op {
    ^bb0(%forall: !transform.any_op):
      %loop = transform.loop.forall_to_for %forall
          : (!transform.any_op) -> !transform.any_op
    }
    transform.yield
  }

  // @hwsched_cpu_parallelize(%bufferized_module)
  // The parallel column-panel loops (@hwsched_cpu_panels_to_loops) to
  // OpenMP on cpu.cores threads (convert-scf-to-openmp): the lowered program
  // then needs an OpenMP runtime (LLVM's libomp: mlir-runner
  // -shared-libs=.../libomp.so; utils/exec-check.py adds it). Nothing to do
  // for one core. Consumes %bufferized_module.
  transform.named_sequence @hwsched_cpu_parallelize(
      %bufferized: !transform.any_op {transform.consumed}) {
    %cores = transform.hwsched.query_spec %bufferized
        { key = "cpu.cores", default_target = "host" }
        : (!transform.any_op) -> !transform.param<i64>
    transform.sequence %bufferized, %cores : !transform.any_op, !transform.param<i64>
        failures(suppress) {
    ^bb0(%m: !transform.any_op, %t: !transform.param<i64>):
      transform.sequence %m, %t : !transform.any_op, !transform.param<i64>
          failures(propagate) {
      ^bb0(%m2: !transform.any_op, %threads: !transform.param<i64>):
        %one = transform.param.constant 1 : i64 -> !transform.param<i64>
        transform.match.param.cmpi gt %threads, %one : !transform.param<i64>
        %converted = transform.apply_registered_pass "convert-scf-to-openmp"
            with options = { "num-threads" = %threads } to %m2
            : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
        // The pass wraps each iteration in a memref.alloca_scope, which must
        // stay one block through the later scf-to-cf lowering: the packed
        // panels' allocas move to the parallel region (once per thread, on
        // its own stack) and the emptied scopes are inlined.
        %hoisted = transform.apply_registered_pass "hwsched-hoist-parallel-allocas"
            to %converted : (!transform.any_op) -> !transform.any_op
      }
    }
    transform.yield
  }

  // @hwsched_cpu_bufferize_and_vectorize(%module) -> %bufferized_module
  // Bufferization, vectorization and accumulator hoisting (steps 4-5 up to
  // the micro-kernel's unrolling). Consumes %module, yields the bufferized
  // module.
  transform.named_sequence @hwsched_cpu_bufferize_and_vectorize(
      %module: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %funcs = transform.structured.match ops{["func.func"]} in %module
        : (!transform.any_op) -> !transform.any_op
    transform.bufferization.eliminate_empty_tensors %funcs : !transform.any_op
    %bufferized = transform.bufferization.one_shot_bufferize %module {
        bufferize_function_boundaries = true,
        function_boundary_type_conversion = 1 : i32,
        memcpy_op = "linalg.copy"} : (!transform.any_op) -> !transform.any_op
    // The column panels: parallel for more than one core, else sequential
    // (before the hoisting below, which then moves the panel buffers out of
    // a sequential loop: one per call, not one per panel).
    transform.include @hwsched_cpu_panels_to_loops failures(propagate)
        (%bufferized) : (!transform.any_op) -> ()
    %f0 = transform.structured.match ops{["func.func"]}
        attributes {hwsched.cpu_schedule} in %bufferized
        : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %f0 : !transform.any_op
    %f1 = transform.apply_registered_pass "buffer-loop-hoisting" to %f0
        : (!transform.any_op) -> !transform.any_op
    %f2 = transform.apply_registered_pass "promote-buffers-to-stack"
        with options = {"max-alloc-size-in-bytes" = 1572864 : i64} to %f1
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f2 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // Linalg ops outside every loop of the schedule (an op of the payload
    // that is not part of the scheduled chain, e.g. a reduction beside the
    // matmul, or one directly in a frontend chunk or batch loop) as scalar
    // loops first: vectorized whole, a 2x4096x640 one
    // kept the greedy rewriter below busy for minutes (IREE's
    // sink_reshapes.mlir @better_producer_estimate, over 300 s; 0.4 s now).
    %host0 = transform.collect_matching @hwsched_cpu_match_unscheduled_linalg in %f2
        : (!transform.any_op) -> !transform.any_op
    %host1 = transform.collect_matching @hwsched_cpu_match_linalg_in_chunk_loop in %f2
        : (!transform.any_op) -> !transform.any_op
    %host2 = transform.collect_matching @hwsched_cpu_match_linalg_in_batch_loop in %f2
        : (!transform.any_op) -> !transform.any_op
    %host = transform.merge_handles %host0, %host1, %host2 : !transform.any_op
    transform.foreach %host : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %loops = transform.structured.convert_to_loops %op
          : (!transform.any_op) -> !transform.any_op
    }
    %f3 = transform.structured.vectorize_children_and_apply_patterns %f2
        : (!transform.any_op) -> !transform.any_op
    // Plain indices on the base memrefs let the hoisting see that the C
    // accumulator is neither read nor written by anything else in the loop.
    // At most 10 sweeps (upstream's default for the greedy driver), and a
    // run that has not converged by then goes on with the IR it has (valid
    // after every rewrite): on a vector read through a memref.expand_shape
    // (an epilogue after a reshape of the contraction's result, as frontends
    // write it) upstream's alias folding never converges and hung here.
    transform.sequence %f3 : !transform.any_op failures(suppress) {
    ^bb0(%f3s: !transform.any_op):
      transform.apply_patterns to %f3s {
        transform.apply_patterns.memref.fold_memref_alias_ops
        transform.apply_patterns.canonicalization
      } {max_iterations = 10} : !transform.any_op
    }
    transform.apply_cse to %f3 : !transform.any_op
    %f4 = transform.structured.hoist_redundant_vector_transfers %f3
        : (!transform.any_op) -> !transform.any_op
    transform.yield %bufferized : !transform.any_op
  }

  // @hwsched_cpu_pipeline_micro_kernels(%bufferized_module)
  // Software-pipelines every micro-kernel K loop (hwsched.micro_k) with
  // transform.pipeline.schedule_stages { explain } at the spec's stage count
  // (pipeline.max_stages): the loads of K step k+1 (packed B row, A column)
  // are issued in the iteration that runs the FMAs of step k. Not part of
  // @hwsched_cpu_matmul_main: on an out-of-order x86 core it costs time
  // (0.87x at 512 on the bench machine, bench/cpu-matmul/README.md): the
  // core overlaps the loads with the FMAs by itself, and the A column
  // carried to the next iteration in registers is broadcast from a register
  // (a shuffle on one of the two FMA ports) instead of from memory (a load
  // port): 8 shuffles per 64 FMAs of the unrolled body. For cores that do
  // not reorder (in-order cores, DSP-like CPUs) the explicit overlap is the
  // only one. Call between @hwsched_cpu_bufferize_and_vectorize and
  // @hwsched_cpu_lower_micro_kernels (@hwsched_cpu_matmul_main_pipelined).
  transform.named_sequence @hwsched_cpu_pipeline_micro_kernels(
      %bufferized: !transform.any_op {transform.readonly}) {
    %micro_k = transform.structured.match ops{["scf.for"]}
        attributes {hwsched.micro_k} in %bufferized : (!transform.any_op) -> !transform.any_op
    transform.foreach %micro_k : !transform.any_op {
    ^bb0(%loop: !transform.any_op):
      %kernel = transform.pipeline.schedule_stages %loop { explain }
          : (!transform.any_op) -> !transform.any_op
      // The steady-state loop is the one to unroll.
      transform.annotate %kernel "hwsched.micro_k" : !transform.any_op
    }
    transform.yield
  }

  // @hwsched_cpu_lower_micro_kernels(%bufferized_module)
  // Unrolls every micro-kernel K loop (hwsched.micro_k) by 4 and lowers the
  // vector ops of the functions marked hwsched.cpu_schedule: contractions to
  // broadcast + FMA, then 1-D transfers.
  transform.named_sequence @hwsched_cpu_lower_micro_kernels(
      %bufferized: !transform.any_op {transform.readonly}) {
    %f4 = transform.structured.match ops{["func.func"]}
        attributes {hwsched.cpu_schedule} in %bufferized
        : (!transform.any_op) -> !transform.any_op
    %micro_k = transform.structured.match ops{["scf.for"]}
        attributes {hwsched.micro_k} in %bufferized : (!transform.any_op) -> !transform.any_op
    transform.foreach %micro_k : !transform.any_op {
    ^bb0(%loop: !transform.any_op):
      transform.loop.unroll %loop {factor = 4} : !transform.any_op
    }
    // Contractions to broadcast + FMA; then 1-D transfers. Kept as separate
    // pattern sets: mixed with the shape_cast/broadcast lowerings the greedy
    // driver does not converge.
    transform.apply_patterns to %f4 {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %f4 {
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }

  //===--------------------------------------------------------------------===//
  // Tile sizes from the hardware spec.
  //===--------------------------------------------------------------------===//

  // @hwsched_cpu_matmul_tiles_from_spec(%matmul) -> MC, NC, KC, MR, NR
  // transform.cost_model.select_tile_config on the spec that applies at
  // %matmul (no `target` here: DLTI on the payload, the driver's
  // --hwsched-target, ...), its lists split into the five knobs of
  // @hwsched_cpu_matmul_tile: tile_sizes = [MC, NC, 0], thread_tile_sizes =
  // [MR, NR, 0], reduction_tile_sizes = [0, 0, KC]. One linalg.matmul per
  // call (each list has one value per loop of one op). select_tile_config
  // already fits the tiles to the problem (a tile is at most its dimension
  // and divides it when some candidate does).
  transform.named_sequence @hwsched_cpu_matmul_tiles_from_spec(
      %matmul: !transform.any_op {transform.readonly})
      -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>) {
    // A CPU schedule: refuse a spec without CPU figures (a GPU or NPU spec
    // would give tiles for another machine) with an error naming the key.
    // With no target named anywhere (op, payload, driver), the CPU schedule
    // uses the machine it runs on (`host`).
    %lanes_bits = transform.hwsched.query_spec %matmul
        { key = "cpu.vector_width_bits", default_target = "host" }
        : (!transform.any_op) -> !transform.param<i64>
    // packed_operands: @hwsched_cpu_matmul_tile packs B (operand 1 of
    // linalg.matmul) into a contiguous panel, so the model counts the B
    // panel at its size in L2 and drops the bound on the span of B's rows
    // (which only holds for B read in place).
    %tiles, %reg, %red, %stages, %threads =
        transform.cost_model.select_tile_config %matmul
        { packed_operands = array<i64: 1>, default_target = "host" }
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %mc, %nc, %t0 = transform.split_handle %tiles : (!transform.param<i64>)
        -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %mr, %nr, %r0 = transform.split_handle %reg : (!transform.param<i64>)
        -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %k0, %k1, %kc = transform.split_handle %red : (!transform.param<i64>)
        -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield %mc, %nc, %kc, %mr, %nr
        : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
          !transform.param<i64>, !transform.param<i64>
  }

  //===--------------------------------------------------------------------===//
  // Whole-module entry point.
  //===--------------------------------------------------------------------===//

  // Matches a register tile of a contraction whose N and K extents are
  // static (whole tiles).
  transform.named_sequence @hwsched_cpu_match_static_nk(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
      %n = transform.match.structured.dim %s[1] : (!transform.any_op) -> !transform.param<i64>
      %k = transform.match.structured.dim %s[2] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi ge %n, %zero : !transform.param<i64>
      transform.match.param.cmpi ge %k, %zero : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }

  // Matches a linalg op whose loop ranges are all static (the schedule needs
  // static M, N and K: its tiles must divide them).
  transform.named_sequence @hwsched_cpu_match_static_loops(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %dims = transform.match.structured %op : (!transform.any_op) -> !transform.param<i64> {
    ^bb0(%s: !transform.any_op):
      %d = transform.match.structured.dim %s[all] : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.yield %d : !transform.param<i64>
    }
    // A dynamic extent is negative (kDynamic).
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    %m, %n, %k = transform.split_handle %dims
        : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.match.param.cmpi ge %m, %zero : !transform.param<i64>
    transform.match.param.cmpi ge %n, %zero : !transform.param<i64>
    transform.match.param.cmpi ge %k, %zero : !transform.param<i64>
    transform.yield %op : !transform.any_op
  }
  // Matches an epilogue: a linalg.generic whose first operand is produced by
  // a linalg.matmul with static shapes.
  transform.named_sequence @hwsched_cpu_match_epilogue(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.generic"] : !transform.any_op
    %producer = transform.get_producer_of_operand %op[0]
        : (!transform.any_op) -> !transform.any_op
    transform.match.operation_name %producer ["linalg.matmul"] : !transform.any_op
    transform.include @hwsched_cpu_match_static_loops failures(propagate) (%producer)
        : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  // Matches a linalg.matmul not scheduled yet (directly in a function body).
  transform.named_sequence @hwsched_cpu_match_unscheduled_matmul(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.matmul"] : !transform.any_op
    %parent = transform.get_parent_op %op : (!transform.any_op) -> !transform.any_op
    transform.match.operation_name %parent ["func.func"] : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  // Matches a linalg.matmul with static shapes not scheduled yet.
  transform.named_sequence @hwsched_cpu_match_bare_matmul(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_cpu_match_unscheduled_matmul failures(propagate) (%op)
        : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_cpu_match_static_loops failures(propagate) (%op)
        : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }

  // One remark per decision, at the matmul: the tiles the spec gave.
  transform.named_sequence @hwsched_cpu_report_tiles(
      %mm: !transform.any_op {transform.readonly},
      %mc: !transform.param<i64> {transform.readonly},
      %nc: !transform.param<i64> {transform.readonly},
      %kc: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly}) {
    transform.debug.emit_param_as_remark %mc, "hwsched cpu matmul: MC (C block rows) =" at %mm
        : !transform.param<i64>, !transform.any_op
    transform.debug.emit_param_as_remark %nc, "hwsched cpu matmul: NC (C block columns) =" at %mm
        : !transform.param<i64>, !transform.any_op
    transform.debug.emit_param_as_remark %kc, "hwsched cpu matmul: KC (K block) =" at %mm
        : !transform.param<i64>, !transform.any_op
    transform.debug.emit_param_as_remark %mr, "hwsched cpu matmul: MR (register tile rows) =" at %mm
        : !transform.param<i64>, !transform.any_op
    transform.debug.emit_param_as_remark %nr, "hwsched cpu matmul: NR (register tile columns) =" at %mm
        : !transform.param<i64>, !transform.any_op
    transform.yield
  }

  // @hwsched_cpu_matmul_main(%module)
  // Schedules every matmul (+ epilogue) chain of %module with tiles from the
  // spec (one remark per tile size, at the matmul), then bufferizes and
  // lowers the module. Usable as the interpreter's
  // entry point: --transform-interpreter=entry-point=hwsched_cpu_matmul_main.
  // Tuning: the tiles come from select_tile_config, i.e. from a tuning
  // database when one answers the matmul's problem ($HWSCHED_TUNING_DB,
  // written by hwsched-tune), else from the model. The knob
  // "cpu_matmul.pipelined" chooses between the plain micro-kernel (0, the
  // default: see @hwsched_cpu_pipeline_micro_kernels for why) and the
  // software-pipelined one (1, as @hwsched_cpu_matmul_main_pipelined); the
  // database value recorded for the module's matmuls wins over the
  // default (transform.cost_model.tuned_knob).
  transform.named_sequence @hwsched_cpu_matmul_main(
      %module: !transform.any_op {transform.readonly}) {
    %matmuls = transform.structured.match ops{["linalg.matmul"]} in %module
        : (!transform.any_op) -> !transform.any_op
    %pipelined_knob = transform.tune.knob<"cpu_matmul.pipelined"> = 0 : i64
        from options = [0, 1] -> !transform.param<i64>
    %pipelined = transform.cost_model.tuned_knob %pipelined_knob for %matmuls
        : (!transform.param<i64>, !transform.any_op) -> !transform.param<i64>
    %n = transform.include @hwsched_cpu_schedule_chains failures(propagate) (%module)
        : (!transform.any_op) -> !transform.param<i64>
    // A payload without a contraction is left exactly as it is (%module is
    // consumed through this alias only when there is one).
    %todo = transform.include @hwsched_cpu_if_some failures(propagate) (%module, %n)
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.foreach %todo : !transform.any_op {
    ^bb0(%m: !transform.any_op):
      transform.include @hwsched_cpu_bufferize_and_lower_tuned failures(propagate)
          (%m, %pipelined) : (!transform.any_op, !transform.param<i64>) -> ()
    }
    transform.yield
  }

  // @hwsched_cpu_matmul_main_with_tiles(%module, %mc, %nc, %kc, %mr, %nr)
  // The schedule of @hwsched_cpu_matmul_main with the five tile sizes given
  // (MC, NC, KC cache tiles, MR x NR register tile) instead of chosen by
  // select_tile_config, for every matmul under %module: chains first (their
  // matmul computes into the epilogue's destination,
  // transform.fusion.epilogue_in_place), then the bare matmuls; then the
  // plain micro-kernel, bufferized and lowered. bench/cpu-matmul/run.py
  // --tiles calls it with fixed params (tile experiments).
  transform.named_sequence @hwsched_cpu_matmul_main_with_tiles(
      %module: !transform.any_op {transform.consumed},
      %mc: !transform.param<i64> {transform.readonly},
      %nc: !transform.param<i64> {transform.readonly},
      %kc: !transform.param<i64> {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly},
      %nr: !transform.param<i64> {transform.readonly}) {
    // Chains first: their matmuls are fused into the epilogue's loops, so
    // the bare matmuls collected afterwards are the others.
    %e = transform.collect_matching @hwsched_cpu_match_epilogue in %module
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %e : !transform.any_op {
    ^bb0(%epilogue: !transform.any_op):
      %root = transform.fusion.epilogue_in_place %epilogue
          : (!transform.any_op) -> !transform.any_op
      transform.include @hwsched_cpu_matmul_tile failures(propagate)
          (%root, %mc, %nc, %kc, %mr, %nr)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    %m = transform.collect_matching @hwsched_cpu_match_bare_matmul in %module
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %m : !transform.any_op {
    ^bb0(%root: !transform.any_op):
      transform.include @hwsched_cpu_matmul_tile failures(propagate)
          (%root, %mc, %nc, %kc, %mr, %nr)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    transform.include @hwsched_cpu_bufferize_and_lower failures(propagate) (%module)
        : (!transform.any_op) -> ()
    transform.yield
  }

  // @hwsched_cpu_bufferize_and_lower_tuned(%module, %pipelined)
  // @hwsched_cpu_bufferize_and_lower with the micro-kernel K loops
  // software-pipelined when %pipelined is 1 (the tuning knob
  // "cpu_matmul.pipelined" of @hwsched_cpu_matmul_main).
  transform.named_sequence @hwsched_cpu_bufferize_and_lower_tuned(
      %module: !transform.any_op {transform.consumed},
      %pipelined: !transform.param<i64> {transform.readonly}) {
    // %module is consumed here, in the body (not inside a region of the
    // alternatives, where the sequence's consumption check does not look).
    %bufferized = transform.include @hwsched_cpu_bufferize_and_vectorize
        failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    transform.tune.alternatives<"cpu_matmul.pipelined">
        selected_region = %pipelined : !transform.param<i64> {
      // 0: the plain micro-kernel.
    }, {
      // 1: the micro-kernel K loops software-pipelined.
      transform.include @hwsched_cpu_pipeline_micro_kernels failures(propagate)
          (%bufferized) : (!transform.any_op) -> ()
    }
    transform.include @hwsched_cpu_lower_micro_kernels failures(propagate)
        (%bufferized) : (!transform.any_op) -> ()
    transform.include @hwsched_cpu_parallelize failures(propagate)
        (%bufferized) : (!transform.any_op) -> ()
    transform.yield
  }

  // @hwsched_cpu_matmul_main_pipelined(%module)
  // @hwsched_cpu_matmul_main with the micro-kernel K loops software-pipelined
  // by transform.pipeline.schedule_stages at the spec's stage count (see
  // @hwsched_cpu_pipeline_micro_kernels for when this pays and when not).
  transform.named_sequence @hwsched_cpu_matmul_main_pipelined(
      %module: !transform.any_op {transform.readonly}) {
    %n = transform.include @hwsched_cpu_schedule_chains failures(propagate) (%module)
        : (!transform.any_op) -> !transform.param<i64>
    %todo = transform.include @hwsched_cpu_if_some failures(propagate) (%module, %n)
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.foreach %todo : !transform.any_op {
    ^bb0(%m: !transform.any_op):
      transform.include @hwsched_cpu_bufferize_pipeline_and_lower failures(propagate)
          (%m) : (!transform.any_op) -> ()
    }
    transform.yield
  }

  // @hwsched_cpu_schedule_chains(%module): every matmul-class op and 2-D
  // convolution of %module, brought into a 2-D contraction by
  // @hwsched_prepare_contractions (transform-scripts/matmul-frontend.mlir,
  // preload it too; what it cannot bring there gets a remark at the op and
  // is left as it is), gets its own schedule:
  // @hwsched_cpu_schedule_contraction. Yields the number of contractions
  // scheduled.
  transform.named_sequence @hwsched_cpu_schedule_chains(
      %module: !transform.any_op {transform.readonly}) -> !transform.param<i64> {
    %depthwise = transform.include @hwsched_cpu_schedule_depthwise failures(propagate) (%module)
        : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_cpu_mark_dynamic_m failures(propagate) (%module)
        : (!transform.any_op) -> ()
    %contractions = transform.include @hwsched_prepare_contractions failures(propagate) (%module)
        : (!transform.any_op) -> !transform.any_op
    %scheduled = transform.merge_handles %depthwise, %contractions : !transform.any_op
    %n = transform.num_associations %scheduled : (!transform.any_op) -> !transform.param<i64>
    transform.foreach %contractions : !transform.any_op {
    ^bb0(%mm: !transform.any_op):
      transform.include @hwsched_cpu_schedule_contraction failures(propagate) (%mm)
          : (!transform.any_op) -> ()
    }
    transform.yield %n : !transform.param<i64>
  }

  // @hwsched_cpu_schedule_depthwise(%module): every depthwise convolution
  // (@hwsched_fe_depthwise_ops: linalg.depthwise_conv_2d_nhwc_hwc, its
  // quantized form decomposed, dynamic extents chunked) gets its own
  // schedule, since it is no matmul: each output channel reads one filter
  // channel, so the channels are the vector lanes. The output is tiled by 1 batch
  // element x 1 row x 4 columns x 16 channels (16 f32 lanes: one AVX-512
  // register, two AVX2 ones), the filter rows by 1 and the filter columns
  // kept whole; a partial tile of columns or channels is zero-padded (the
  // padded taps add 0, the padded outputs are cut off); each tile is
  // decomposed to a 1-D depthwise convolution (upstream's
  // transform.structured.decompose), which the function's vectorization
  // turns into one vector FMA per filter column on a 4 x 16 accumulator.
  // The 1-D convolutions are premarked (hwsched.fe_premarked) so that
  // @hwsched_prepare_contractions leaves them alone. Yields them.
  transform.named_sequence @hwsched_cpu_schedule_depthwise(
      %module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %dw = transform.include @hwsched_fe_depthwise_ops failures(propagate) (%module)
        : (!transform.any_op) -> !transform.any_op
    %done = transform.foreach %dw : !transform.any_op -> !transform.any_op {
    ^bb0(%static: !transform.any_op):
      %tiled, %l0, %l1, %l2, %l3, %l4 = transform.structured.tile_using_for %static
          tile_sizes [1, 1, 4, 16, 1, 0]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
      %padded, %pad, %copy = transform.structured.pad %tiled {padding_dimensions = [2, 3]}
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      %conv1d = transform.structured.decompose %padded : (!transform.any_op) -> !transform.any_op
      transform.include @hwsched_fe_premark_depthwise failures(propagate) (%conv1d)
          : (!transform.any_op) -> ()
      %f = transform.get_parent_op %conv1d {op_name = "func.func"}
          : (!transform.any_op) -> !transform.any_op
      transform.annotate %f "hwsched.cpu_schedule" : !transform.any_op
      transform.yield %conv1d : !transform.any_op
    }
    transform.yield %done : !transform.any_op
  }
  // Marks the 2-D contractions on tensors with a dynamic M (static N and K)
  // for this schedule, before @hwsched_prepare_contractions, which then
  // neither rewrites nor reports them: the M loops (C blocks, register
  // tiles) run to the dynamic bound, the last register tile is padded, and
  // select_tile_config picks the tiles for an assumed M (its remark says
  // which). The GPU schedules do not take them (static launch grids).
  transform.named_sequence @hwsched_cpu_mark_dynamic_m(
      %module: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match interface {LinalgOp} in %module
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %ops : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %tensor_op = transform.include @hwsched_fe_if_tensor_semantics failures(propagate) (%op)
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %tensor_op : !transform.any_op {
      ^bb0(%t: !transform.any_op):
        %r = transform.foreach_match restrict_root in %t
            @hwsched_fe_match_2d_dynamic_m_f -> @hwsched_fe_premark_contraction,
            @hwsched_fe_match_2d_dynamic_m_i -> @hwsched_fe_premark_contraction
            : (!transform.any_op) -> !transform.any_op
      }
    }
    transform.yield
  }

  // @hwsched_cpu_schedule_contraction(%mm): one contraction with tiles from
  // the spec (@hwsched_cpu_matmul_tiles_from_spec, one remark per tile size)
  // and its epilogue: the contraction's only user when that is an
  // all-parallel linalg.generic reading it with the result's indexing (bias,
  // activation, residual add). The epilogue runs in place
  // (transform.fusion.epilogue_in_place) where that op accepts it, else it
  // is still fused into the C-block loops (a C-block temporary then). A B
  // computed by a Linalg op (the weight transpose of torch-mlir's linear) is
  // materialized first: B is packed from a tensor defined above the loops
  // (hoist_pad), not recomputed in them. The init of the contraction may be
  // anything (a fill, a broadcast bias, an argument C += A*B, a loop-carried
  // value): the first K block starts from it.
  transform.named_sequence @hwsched_cpu_schedule_contraction(
      %mm: !transform.any_op {transform.readonly}) {
    %mc, %nc, %kc, %mr, %nr = transform.include
        @hwsched_cpu_matmul_tiles_from_spec failures(propagate) (%mm)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
            !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.include @hwsched_cpu_report_tiles failures(propagate)
        (%mm, %mc, %nc, %kc, %mr, %nr)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.sequence %mm : !transform.any_op failures(suppress) {
    ^bb0(%m0: !transform.any_op):
      transform.sequence %m0 : !transform.any_op failures(propagate) {
      ^bb0(%m: !transform.any_op):
        %b_producer = transform.get_producer_of_operand %m[1]
            : (!transform.any_op) -> !transform.any_op
        transform.match.structured %b_producer : !transform.any_op {
        ^bb0(%s: !transform.any_op):
          transform.match.structured.yield
        }
        %b = transform.get_operand %m[1] : (!transform.any_op) -> !transform.any_value
        %b_materialized = transform.structured.promote_tensor %b : !transform.any_value
      }
    }
    // The root of the chain: the epilogue (in place when accepted), else
    // the contraction.
    %epilogue = transform.collect_matching @hwsched_cpu_match_epilogue_of_contraction in %mm
        : (!transform.any_op) -> !transform.any_op
    %n_epilogue = transform.num_associations %epilogue : (!transform.any_op) -> !transform.param<i64>
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    %bare = transform.include @hwsched_cpu_if_eq failures(propagate) (%mm, %n_epilogue, %zero)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.foreach %epilogue : !transform.any_op {
    ^bb0(%e: !transform.any_op):
      %in_place = transform.include @hwsched_cpu_try_epilogue_in_place failures(propagate) (%e)
          : (!transform.any_op) -> !transform.any_op
      transform.include @hwsched_cpu_matmul_tile failures(propagate)
          (%in_place, %mc, %nc, %kc, %mr, %nr)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    transform.foreach %bare : !transform.any_op {
    ^bb0(%m: !transform.any_op):
      transform.include @hwsched_cpu_matmul_tile failures(propagate)
          (%m, %mc, %nc, %kc, %mr, %nr)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    transform.yield
  }

  // The epilogue of the contraction %op (collect_matching from %op itself
  // finds at most one): its only user, an all-parallel linalg.generic on
  // tensors with the contraction's rank.
  transform.named_sequence @hwsched_cpu_match_epilogue_of_contraction(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %users = transform.match.structured %op : (!transform.any_op) -> !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %u = transform.match.structured.result %s[0] {single} : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield %u : !transform.any_op
    }
    transform.match.operation_name %users ["linalg.generic"] : !transform.any_op
    transform.match.structured %users : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.dim %s[all] {parallel} : !transform.any_op
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %two = transform.param.constant 2 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %rank, %two : !transform.param<i64>
      %n = transform.match.structured.num_inits %s : (!transform.any_op) -> !transform.param<i64>
      %one = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %n, %one : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %users : !transform.any_op
  }

  // transform.fusion.epilogue_in_place on %e where it accepts (its refusal,
  // e.g. a destination created after the contraction, leaves the payload
  // unchanged); the epilogue to tile either way.
  transform.named_sequence @hwsched_cpu_try_epilogue_in_place(
      %e: !transform.any_op {transform.consumed}) -> !transform.any_op {
    transform.annotate %e "hwsched.cpu_try_in_place" : !transform.any_op
    %func = transform.get_parent_op %e {op_name = "func.func"}
        : (!transform.any_op) -> !transform.any_op
    transform.sequence %e : !transform.any_op failures(suppress) {
    ^bb0(%e1: !transform.any_op):
      %r = transform.fusion.epilogue_in_place %e1 : (!transform.any_op) -> !transform.any_op
      transform.annotate %r "hwsched.cpu_try_in_place" : !transform.any_op
    }
    %tagged = transform.structured.match attributes {hwsched.cpu_try_in_place} in %func
        : (!transform.any_op) -> !transform.any_op
    transform.yield %tagged : !transform.any_op
  }

  // %op when %n == %want, else an empty handle.
  // %op when %n > 0, else an empty handle.
  transform.named_sequence @hwsched_cpu_if_some(
      %op: !transform.any_op {transform.readonly},
      %n: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    %r = transform.sequence %op, %n, %zero : !transform.any_op, !transform.param<i64>, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o1: !transform.any_op, %n1: !transform.param<i64>, %z1: !transform.param<i64>):
      %g = transform.sequence %o1, %n1, %z1 : !transform.any_op, !transform.param<i64>, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o2: !transform.any_op, %n2: !transform.param<i64>, %z2: !transform.param<i64>):
        transform.match.param.cmpi gt %n2, %z2 : !transform.param<i64>
        transform.yield %o2 : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    transform.yield %r : !transform.any_op
  }

  transform.named_sequence @hwsched_cpu_if_eq(
      %op: !transform.any_op {transform.readonly},
      %n: !transform.param<i64> {transform.readonly},
      %want: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %r = transform.sequence %op, %n, %want : !transform.any_op, !transform.param<i64>, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o1: !transform.any_op, %n1: !transform.param<i64>, %w1: !transform.param<i64>):
      %g = transform.sequence %o1, %n1, %w1 : !transform.any_op, !transform.param<i64>, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o2: !transform.any_op, %n2: !transform.param<i64>, %w2: !transform.param<i64>):
        transform.match.param.cmpi eq %n2, %w2 : !transform.param<i64>
        transform.yield %o2 : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    transform.yield %r : !transform.any_op
  }

  // Marks %root `hwsched.cpu_epilogue` unless it is the contraction (a
  // linalg.matmul, or an op marked hwsched.contraction).
  transform.named_sequence @hwsched_cpu_mark_epilogue_root(
      %root: !transform.any_op {transform.readonly}) {
    %marked = transform.structured.match attributes {hwsched.contraction} in %root
        : (!transform.any_op) -> !transform.any_op
    %named = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %both = transform.merge_handles %marked, %named : !transform.any_op
    %n = transform.num_associations %both : (!transform.any_op) -> !transform.param<i64>
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    %epilogue = transform.include @hwsched_cpu_if_eq failures(propagate) (%root, %n, %zero)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.annotate %epilogue "hwsched.cpu_epilogue" : !transform.any_op
    transform.yield
  }

  // Matches a Linalg op whose innermost scf.for is a chunk loop of
  // transform.hwsched.chunk_dynamic_loops (hwsched.chunk_loop), with no
  // scf.forall or scf.parallel around it: the pads and copies of a chunk of
  // a dynamic-shape op, host-side work like the ops outside all loops.
  transform.named_sequence @hwsched_cpu_match_linalg_in_chunk_loop(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.yield
    }
    %for = transform.get_parent_op %op {op_name = "scf.for"}
        : (!transform.any_op) -> !transform.any_op
    %chunk = transform.hwsched.get_annotation %for "hwsched.chunk_loop"
        : (!transform.any_op) -> !transform.param<i64>
    transform.include @hwsched_cpu_match_no_parallel_loop_around failures(propagate) (%op)
        : (!transform.any_op) -> ()
    transform.yield %op : !transform.any_op
  }

  // Matches a Linalg op whose innermost scf.for is a batch loop of the
  // frontend (hwsched.fe_batch_loop, matmul-frontend.mlir step 3), with no
  // scf.forall or scf.parallel around it: what a batch element computes
  // besides its scheduled contraction, such as the im2col copy of an NCHW
  // convolution (1152 x 1024 for IREE's @nchw_conv_mfma; vectorized whole
  // it became 2304 vector<1024xf32> transfers that LLVM's instruction
  // selection did not finish compiling in 300 s).
  transform.named_sequence @hwsched_cpu_match_linalg_in_batch_loop(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.yield
    }
    %for = transform.get_parent_op %op {op_name = "scf.for"}
        : (!transform.any_op) -> !transform.any_op
    %batch = transform.hwsched.get_annotation %for "hwsched.fe_batch_loop"
        : (!transform.any_op) -> !transform.param<i64>
    transform.include @hwsched_cpu_match_no_parallel_loop_around failures(propagate) (%op)
        : (!transform.any_op) -> ()
    transform.yield %op : !transform.any_op
  }

  // Matches a Linalg op with no scf.for, scf.forall or scf.parallel around
  // it: not inside the schedule's loops (see the vectorization step).
  transform.named_sequence @hwsched_cpu_match_unscheduled_linalg(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.yield
    }
    %for = transform.get_parent_op %op {op_name = "scf.for", allow_empty_results}
        : (!transform.any_op) -> !transform.any_op
    transform.match.operation_empty %for : !transform.any_op
    transform.include @hwsched_cpu_match_no_parallel_loop_around failures(propagate) (%op)
        : (!transform.any_op) -> ()
    transform.yield %op : !transform.any_op
  }

  // Matches (succeeds on) an op with no scf.forall or scf.parallel around
  // it: the host-side ops of the three matchers above.
  transform.named_sequence @hwsched_cpu_match_no_parallel_loop_around(
      %op: !transform.any_op {transform.readonly}) {
    %forall = transform.get_parent_op %op {op_name = "scf.forall", allow_empty_results}
        : (!transform.any_op) -> !transform.any_op
    transform.match.operation_empty %forall : !transform.any_op
    %par = transform.get_parent_op %op {op_name = "scf.parallel", allow_empty_results}
        : (!transform.any_op) -> !transform.any_op
    transform.match.operation_empty %par : !transform.any_op
    transform.yield
  }
}
