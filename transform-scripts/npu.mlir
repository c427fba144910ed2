// transform-scripts/npu.mlir: NPU (Ascend) fusion schedules decided by the
// unified-buffer cost model of transform.cost_model.filter_fusable_consumers.
//
// Load with
//   hwsched-opt --transform-preload-library=transform-library-paths=transform-scripts/npu.mlir
// and call a sequence with `transform.include @<name> failures(propagate) (...)`
// after a private declaration of it in your script. No sequence names a
// `target`: the spec is the one recorded on the payload
// (@hwsched_attach_target), else the driver's (--hwsched-target or
// $HWSCHED_TARGET, $HWSCHED_SPEC_PATH for the spec directory). Run them with an
// NPU spec (e.g. --hwsched-target=ascend-910b): on another kind the model
// applies its own rules.
module attributes {transform.with_named_sequence} {

  // @npu_measure_pick(%root)
  // select_tile_config's pick for the linalg.matmul under %root with its
  // `explain` remark (block tile, UB bytes against the capacity, blocks and
  // waves over the AI cores). Changes nothing. The query of
  // bench/tileconfig/npu_check.py, which varies the UB size through a copy
  // of the spec (onchip.capacity_bytes).
  transform.named_sequence @npu_measure_pick(
      %root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %mm {explain}
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
            !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }

  // @npu_fuse_elementwise_chain(%root, %tile_rows, %tile_cols)
  // Fuses one 2-D elementwise chain head -> mid -> tail under %root (e.g.
  // linalg.add -> linalg.mul -> ReLU linalg.generic, on tensors; the head is
  // the `linalg.add`) as far as the NPU cost model allows. Call it once per
  // chain (e.g. per function).
  //   1. Decisions: c1 = filter_fusable_consumers(head) { explain }, then
  //      c2 = filter_fusable_consumers(c1) { explain } (the fused group grows
  //      from the head). The model keeps a pair when its live tiles (aligned
  //      to onchip.alignment_bytes) times npu.ping_pong_factor fit
  //      onchip.capacity_bytes (the UB) and the fusion saves MTE traffic;
  //      each remark prints the UB bytes against the capacity. An untiled op
  //      counts as one tile: the ops are the per-core block the driver hands
  //      to one AI core.
  //   2. Fusion: the last kept op is tiled with scf.forall by
  //      [%tile_rows, %tile_cols] (the vector tile inside that block) and its
  //      kept producers are fused into the loop: head+mid+tail when both
  //      pairs are kept, head+mid when only the first is, nothing (the chain
  //      stays unfused) when none is.
  // Knobs: %tile_rows, %tile_cols (!transform.param<i64>, the forall tile);
  // the spec's onchip.capacity_bytes and npu.ping_pong_factor decide
  // (HWSCHED_SPEC_PATH can point at a spec with another UB size). Emits one
  // remark per considered pair and, when something was fused, one on the
  // fused head with the live UB bytes of one fused tile
  // (transform.cost_model.estimate onchip_bytes).
  //
  // Each branch is a failures(propagate) sequence whose first op is its
  // guard, inside a failures(suppress) sequence: a guard that does not hold
  // ends its branch before any change. A tiling or fusion failure in a
  // taken branch is suppressed the same way, so the sequence checks at the
  // end that the head sits in a loop exactly when head -> mid was kept and
  // fails otherwise.
  transform.named_sequence @npu_fuse_elementwise_chain(
      %root: !transform.any_op {transform.readonly},
      %tile_rows: !transform.param<i64> {transform.readonly},
      %tile_cols: !transform.param<i64> {transform.readonly}) {
    // A zero tile size would crash upstream tile_using_forall: refuse it.
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.match.param.cmpi gt %tile_rows, %zero : !transform.param<i64>
    transform.match.param.cmpi gt %tile_cols, %zero : !transform.param<i64>
    %head = transform.structured.match ops{["linalg.add"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %c1 = transform.cost_model.filter_fusable_consumers %head { explain }
        : (!transform.any_op) -> !transform.any_op
    %c2 = transform.cost_model.filter_fusable_consumers %c1 { explain }
        : (!transform.any_op) -> !transform.any_op
    %n1 = transform.num_associations %c1 : (!transform.any_op) -> !transform.param<i64>
    %n2 = transform.num_associations %c2 : (!transform.any_op) -> !transform.param<i64>
    // Both pairs kept: tile the tail, fuse mid and head.
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%s: !transform.any_op):
      transform.sequence %s : !transform.any_op failures(propagate) {
      ^bb1(%s1: !transform.any_op):
        transform.match.param.cmpi gt %n2, %zero : !transform.param<i64>
        %t, %loop = transform.structured.tile_using_forall %c2
            tile_sizes [%tile_rows, %tile_cols]
            : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
            -> (!transform.any_op, !transform.any_op)
        %fm, %loop1 = transform.structured.fuse_into_containing_op %c1 into %loop
            : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
        %fh, %loop2 = transform.structured.fuse_into_containing_op %head into %loop1
            : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      }
    }
    // Only head -> mid kept: tile mid, fuse head.
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%s: !transform.any_op):
      transform.sequence %s : !transform.any_op failures(propagate) {
      ^bb1(%s1: !transform.any_op):
        transform.match.param.cmpi eq %n2, %zero : !transform.param<i64>
        transform.match.param.cmpi gt %n1, %zero : !transform.param<i64>
        %t, %loop = transform.structured.tile_using_forall %c1
            tile_sizes [%tile_rows, %tile_cols]
            : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
            -> (!transform.any_op, !transform.any_op)
        %fh, %loop1 = transform.structured.fuse_into_containing_op %head into %loop
            : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      }
    }
    // The fused producers' originals are dead now; fusion also duplicates
    // index computations.
    transform.apply_dce to %root : !transform.any_op
    transform.apply_cse to %root : !transform.any_op
    // Did the taken branch do what was decided? The head is in a loop iff
    // the model kept head -> mid; a tiling or fusion failure that the
    // branch suppressed fails the sequence here.
    %heads = transform.structured.match ops{["linalg.add"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %head_loops = transform.get_parent_op %heads
        { op_name = "scf.forall", allow_empty_results, deduplicate }
        : (!transform.any_op) -> !transform.any_op
    %n_loops = transform.num_associations %head_loops
        : (!transform.any_op) -> !transform.param<i64>
    transform.match.param.cmpi eq %n_loops, %n1 : !transform.param<i64>
    // The fused tile's live UB bytes (each operand once, aligned), next to
    // the UB budget; none when nothing was fused.
    transform.foreach %head_loops : !transform.any_op {
    ^bb0(%loop: !transform.any_op):
      %f = transform.structured.match ops{["linalg.add"]} in %loop
          : (!transform.any_op) -> !transform.any_op
      %tile_bytes = transform.cost_model.estimate %f { metric = "onchip_bytes" }
          : (!transform.any_op) -> !transform.param<i64>
      transform.debug.emit_param_as_remark %tile_bytes,
          "fused tile: live UB bytes (x npu.ping_pong_factor for double buffering):" at %f
          : !transform.param<i64>, !transform.any_op
    }
    transform.yield
  }

  // @npu_fuse_and_pipeline_elementwise_chain(%func, %tile_rows, %tile_cols)
  // @npu_fuse_elementwise_chain on the chain in %func (a func.func), then the
  // fused tile loop becomes a ping-pong pipeline in the unified buffer, i.e.
  // the double buffering the fusion decision budgeted for
  // (npu.ping_pong_factor) is materialized in the IR:
  //   1. every input tile the loop reads from global memory is promoted to
  //      the UB (promote_tensor to "ub": a copy-in, unit mte2), and every
  //      fused op writes its result into a UB tile of its own
  //      (bufferize_to_allocation of the destination only, memory space "ub":
  //      a destination the op does not read is not copied in): the loop
  //      computes on the UB only (unit vector) and its last result is copied
  //      out to the output tile (unit mte3);
  //   2. the module holding %func is bufferized (function boundaries,
  //      identity layouts: call this after the module's other tensor-level
  //      schedules), the tile loop
  //      (scf.forall) becomes one scf.for over all tiles (forall_to_for,
  //      coalesce) and the UB buffers move out of it (buffer-loop-hoisting);
  //   3. transform.pipeline.schedule_stages { explain } on that loop, with
  //      the spec's stage limit: copy-in, compute and copy-out of different
  //      tiles overlap, each UB buffer that crosses a stage gets one copy per
  //      tile in flight (two: ping-pong), and set_flag / wait_flag pairs
  //      order the MTE and vector pipes (pipeline.sync = "npu_flags").
  // When the model fuses nothing, the chain is left as
  // @npu_fuse_elementwise_chain leaves it (its remarks say why) and nothing
  // is bufferized. Knobs as @npu_fuse_elementwise_chain.
  transform.named_sequence @npu_fuse_and_pipeline_elementwise_chain(
      %func: !transform.any_op {transform.readonly},
      %tile_rows: !transform.param<i64> {transform.readonly},
      %tile_cols: !transform.param<i64> {transform.readonly}) {
    // One function: it is found again by a mark after the module is
    // bufferized (a silenceable "wrong operation name" otherwise, before any
    // change).
    transform.match.operation_name %func ["func.func"] : !transform.any_op
    transform.include @npu_fuse_elementwise_chain failures(propagate)
        (%func, %tile_rows, %tile_cols)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    %heads = transform.structured.match ops{["linalg.add"]} in %func
        : (!transform.any_op) -> !transform.any_op
    %loops = transform.get_parent_op %heads
        { op_name = "scf.forall", allow_empty_results, deduplicate }
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %loops : !transform.any_op {
    ^bb0(%loop: !transform.any_op):
      // 1., on tensors.
      %tiles = transform.structured.match ops{["tensor.extract_slice"]} in %loop
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %tiles : !transform.any_op {
      ^bb1(%tile: !transform.any_op):
        %v = transform.get_result %tile[0] : (!transform.any_op) -> !transform.any_value
        %ub = transform.structured.promote_tensor to "ub" %v : !transform.any_value
      }
      %ops = transform.structured.match interface{LinalgOp} in %loop
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %ops : !transform.any_op {
      ^bb1(%op: !transform.any_op):
        %buf, %new = transform.structured.bufferize_to_allocation %op
            {memory_space = "ub", bufferize_destination_only, memcpy_op = "linalg.copy"}
            : !transform.any_op
      }
    }
    // 2. Only when something was fused (one loop per fused chain): the
    // guard yields %func or nothing; the steps run in a foreach over that
    // (zero or one iteration), so their own failures propagate.
    %n = transform.num_associations %loops : (!transform.any_op) -> !transform.param<i64>
    %to_pipeline = transform.sequence %func, %n : !transform.any_op, !transform.param<i64> -> !transform.any_op failures(suppress) {
    ^bb0(%f0: !transform.any_op, %n0: !transform.param<i64>):
      %g = transform.sequence %f0, %n0 : !transform.any_op, !transform.param<i64> -> !transform.any_op failures(propagate) {
      ^bb1(%f1: !transform.any_op, %n1: !transform.param<i64>):
        %z = transform.param.constant 0 : i64 -> !transform.param<i64>
        transform.match.param.cmpi gt %n1, %z : !transform.param<i64>
        transform.yield %f1 : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    transform.foreach %to_pipeline : !transform.any_op {
    ^bb0(%f: !transform.any_op):
      // The whole module, across function boundaries (a function bufferized
      // alone returns a to_tensor that later bufferization rejects); the
      // mark finds %func again afterwards.
      transform.annotate %f "hwsched.npu_pipeline" : !transform.any_op
      %module = transform.get_parent_op %f {op_name = "builtin.module"}
          : (!transform.any_op) -> !transform.any_op
      %mb = transform.bufferization.one_shot_bufferize %module {
          bufferize_function_boundaries = true,
          function_boundary_type_conversion = 1 : i32,
          memcpy_op = "linalg.copy"} : (!transform.any_op) -> !transform.any_op
      %fb = transform.structured.match ops{["func.func"]}
          attributes {hwsched.npu_pipeline} in %mb
          : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %fb {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      %foralls = transform.structured.match ops{["scf.forall"]} in %fb
          : (!transform.any_op) -> !transform.any_op
      %outer, %inner = transform.loop.forall_to_for %foralls
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %loop = transform.loop.coalesce %outer
          : (!transform.any_op) -> !transform.any_op
      %fh = transform.apply_registered_pass "buffer-loop-hoisting" to %fb
          : (!transform.any_op) -> !transform.any_op
      %tile_loop = transform.structured.match ops{["scf.for"]} in %fh
          : (!transform.any_op) -> !transform.any_op
      // 3.
      %pipelined = transform.pipeline.schedule_stages %tile_loop { explain }
          : (!transform.any_op) -> !transform.any_op
    }
    transform.yield
  }

  // @npu_cube_reduction(%root, %tile_rows, %tile_cols)
  // For every cube op (linalg.matmul) under %root, asks the NPU cost model
  // whether its consumers (e.g. a LayerNorm-style row reduction) should be
  // fused with it (a consumer must read the matmul as its first operand), and fuses only the accepted ones: each accepted consumer
  // is tiled with scf.forall and the matmul is fused into the loop. An
  // elementwise consumer gets [%tile_rows, %tile_cols] tiles; a row
  // reduction (first loop parallel, innermost loop reducing) gets
  // [%tile_rows] tiles of whole rows, since a forall tile along a reduced
  // loop would have its iterations write partial results of the same
  // element; any other accepted consumer (e.g. a column reduction) is left
  // unfused with a remark saying so. A vector consumer that reduces (or relayouts) the
  // cube result pays the fractal -> ND format cast
  // (npu.format_cast_bytes_per_cycle) against the MTE traffic saved
  // (npu.mte_bytes_per_cycle); on ascend-910b the model refuses the
  // reduction, its remark says format_cast dominates, and the pair is left
  // unfused.
  // Knobs: %tile_rows, %tile_cols (!transform.param<i64>, the forall tile of
  // an accepted consumer). Emits one remark per considered pair.
  transform.named_sequence @npu_cube_reduction(
      %root: !transform.any_op {transform.readonly},
      %tile_rows: !transform.param<i64> {transform.readonly},
      %tile_cols: !transform.param<i64> {transform.readonly}) {
    // A zero tile size would crash upstream tile_using_forall: refuse it.
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.match.param.cmpi gt %tile_rows, %zero : !transform.param<i64>
    transform.match.param.cmpi gt %tile_cols, %zero : !transform.param<i64>
    %cube = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %kept = transform.cost_model.filter_fusable_consumers %cube { explain }
        : (!transform.any_op) -> !transform.any_op
    // A forall tile must not split a reduction (its parallel iterations
    // would each write a partial result of the same element): elementwise
    // consumers are tiled rows x cols, row reductions (rows parallel, the
    // innermost loop reducing, e.g. LayerNorm's mean/variance) by rows only,
    // each tile reducing whole rows. Any other kept consumer is left
    // unfused, with a remark saying why. (Each guard is a failures(propagate)
    // sequence inside a failures(suppress) one: the inner one stops at a
    // failed match and yields nothing; the outer one drops that failure.)
    transform.foreach %kept : !transform.any_op {
    ^bb0(%consumer: !transform.any_op):
      %elementwise = transform.sequence %consumer : !transform.any_op -> !transform.any_op failures(suppress) {
      ^bb1(%c: !transform.any_op):
        %g = transform.sequence %c : !transform.any_op -> !transform.any_op failures(propagate) {
        ^bb2(%c2: !transform.any_op):
          %m = transform.match.structured %c2 : (!transform.any_op) -> !transform.any_op {
          ^bb3(%s: !transform.any_op):
            transform.match.structured.dim %s[all] {parallel} : !transform.any_op
            transform.match.structured.yield %s : !transform.any_op
          }
          transform.yield %m : !transform.any_op
        }
        transform.yield %g : !transform.any_op
      }
      %row_reduction = transform.sequence %consumer : !transform.any_op -> !transform.any_op failures(suppress) {
      ^bb1(%c: !transform.any_op):
        %g = transform.sequence %c : !transform.any_op -> !transform.any_op failures(propagate) {
        ^bb2(%c2: !transform.any_op):
          %m = transform.match.structured %c2 : (!transform.any_op) -> !transform.any_op {
          ^bb3(%s: !transform.any_op):
            transform.match.structured.dim %s[0] {parallel} : !transform.any_op
            transform.match.structured.dim %s[-1] {reduction} : !transform.any_op
            transform.match.structured.yield %s : !transform.any_op
          }
          transform.yield %m : !transform.any_op
        }
        transform.yield %g : !transform.any_op
      }
      %handled = transform.merge_handles %elementwise, %row_reduction : !transform.any_op
      %n = transform.num_associations %handled : (!transform.any_op) -> !transform.param<i64>
      transform.sequence %consumer, %n : !transform.any_op, !transform.param<i64> failures(suppress) {
      ^bb1(%c: !transform.any_op, %n1: !transform.param<i64>):
        transform.sequence %c, %n1 : !transform.any_op, !transform.param<i64> failures(propagate) {
        ^bb2(%c2: !transform.any_op, %n2: !transform.param<i64>):
          %none = transform.param.constant 0 : i64 -> !transform.param<i64>
          transform.match.param.cmpi eq %n2, %none : !transform.param<i64>
          transform.debug.emit_remark_at %c2,
              "npu_cube_reduction: kept consumer left unfused: a forall tile would split a reduction loop (only all-parallel consumers and row reductions, parallel rows with the innermost loop reducing, are tiled)"
              : !transform.any_op
          transform.yield
        }
        transform.yield
      }
      transform.foreach %elementwise : !transform.any_op {
      ^bb1(%c: !transform.any_op):
        %mm = transform.get_producer_of_operand %c[0]
            : (!transform.any_op) -> !transform.any_op
        %tiled, %loop = transform.structured.tile_using_forall %c
            tile_sizes [%tile_rows, %tile_cols]
            : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
            -> (!transform.any_op, !transform.any_op)
        %fused, %loop2 = transform.structured.fuse_into_containing_op %mm into %loop
            : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      }
      transform.foreach %row_reduction : !transform.any_op {
      ^bb1(%c: !transform.any_op):
        %mm = transform.get_producer_of_operand %c[0]
            : (!transform.any_op) -> !transform.any_op
        %tiled, %loop = transform.structured.tile_using_forall %c
            tile_sizes [%tile_rows]
            : (!transform.any_op, !transform.param<i64>)
            -> (!transform.any_op, !transform.any_op)
        %fused, %loop2 = transform.structured.fuse_into_containing_op %mm into %loop
            : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
      }
    }
    transform.apply_cse to %root : !transform.any_op
    transform.yield
  }
}
