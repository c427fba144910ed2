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
