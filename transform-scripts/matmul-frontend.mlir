// transform-scripts/matmul-frontend.mlir: the matmul-class ops and 2-D
// convolutions that frontends emit, brought into the one form the matmul
// schedules take, each marked for its own schedule; what cannot be is
// reported at the op, in its terms.
//
// Preload it with the schedule that calls it, e.g.
//   --transform-preload-library=transform-library-paths=transform-scripts/matmul-frontend.mlir,transform-scripts/cpu-matmul.mlir
// (or the whole directory). The entry points @hwsched_cpu_matmul_main,
// @gpu_matmul_auto and @gpu_matmul_auto_sequential call
// @hwsched_prepare_contractions first.
//
// The form ("a 2-D contraction"): a Linalg op on tensors with exactly three
// loops in the order (m, n, k), m and n parallel, k the reduction, the result
// indexed (m, n), A by m and k and B by k and n in either order (A may be
// stored K x M, B N x K), a multiply-add body (the element types may differ:
// i8 x i8 -> i32, f16 x f16 -> f32, with the casts in the body) and static
// extents. That is `linalg.matmul` with or without `indexing_maps`, and a
// `linalg.generic` or `linalg.contract` with its loops in that order. Its
// init may be a `linalg.fill` or any value (C += A*B into an argument or a
// loop-carried value). Each gets the attribute `hwsched.contraction`; the
// schedules find their ops by that attribute, not by an op name.
//
// What is rewritten into that form (tensor semantics, static extents):
//  - Quantized ops (`linalg.quantized_matmul`, `linalg.*conv*_q`): their
//    plain form on operands minus their zero points
//    (transform.hwsched.decompose_quantized), then as below.
//  - Convolutions and contractions that none of the routes below takes
//    (`linalg.generic` convolutions, batchless, depthwise, grouped, 1-D or
//    3-D ones, `linalg.mmt4d` and other contractions with several M, N or K
//    loops): one contraction with at most one batch loop
//    (transform.hwsched.contraction_to_matmul: the loops grouped into
//    batch, M, N and K, the operands copied to those layouts where they are
//    not, an im2col gather for a convolution's image; a depthwise
//    convolution is a batch of channels with N = 1), then as below.
//  - `linalg.conv_2d_nhwc_hwcf`, `linalg.conv_2d_nhwc_fhwc`,
//    `linalg.conv_2d_nchw_fchw` (any strides, dilations):
//    transform.structured.convert_conv2d_to_img2col. An im2col
//    `linalg.generic` gathers the patches and the convolution becomes a
//    contraction with one batch loop (the image), handled as below (the
//    im2col op is fused into that loop: one image's patches at a time).
//  - Contractions whose leading loops are batch loops (`linalg.batch_matmul`,
//    the im2col contractions, batched generics; one or two batch loops) and
//    `linalg.batch_reduce_matmul` (its batch loop is a reduction): the batch
//    loop(s) tiled by 1 with scf.for (the parallel ones with the op's
//    producers fused in: its fill, the im2col), the op generalized and its
//    unit dimensions dropped (fold_unit_extent_dims_via_slices): one 2-D
//    contraction per batch element, in the loop body, scheduled once. A
//    reduced batch loop carries C: the 2-D contraction accumulates into it.
//
//  - Dynamic extents (a batch of rows, a sequence or reduction length known
//    at run time): each dynamic loop is tiled by a static chunk with scf.for
//    (marked hwsched.chunk_loop) and the chunk zero-padded to static shapes
//    (transform.hwsched.chunk_dynamic_loops), before the routes above; the
//    op in the chunk loops takes them like any static op. (The CPU schedule
//    handles a dynamic M of a 2-D contraction itself: it premarks those.)
//
// Reported at the op and left as it is (it lowers unscheduled, still
// correct): a dynamic extent the chunks cannot bound (which dimension, and
// what would make the op schedulable), buffer semantics (Linalg on
// memrefs), a dot product (no M and no N), a batch of matrix-vector
// products (a depthwise convolution), and ops whose body is not a
// multiply-add.
//
// Sequence: @hwsched_prepare_contractions(%root) -> the 2-D contractions
// under %root (marked `hwsched.contraction`), in IR order.
module attributes {transform.with_named_sequence} {

  //===--------------------------------------------------------------------===//
  // Entry points.
  //===--------------------------------------------------------------------===//

  transform.named_sequence @hwsched_prepare_contractions(
      %root: !transform.any_op {transform.readonly}) -> !transform.any_op {
    // 0. Quantized contractions and convolutions (int8 frontends) in their
    //    plain form on zero-point-subtracted operands
    //    (transform.hwsched.decompose_quantized; a zero point that is the
    //    constant 0 costs nothing). One on buffers stays as it is and is
    //    reported by step 1.
    %quantized = transform.structured.match ops{["linalg.quantized_matmul",
        "linalg.quantized_batch_matmul", "linalg.conv_2d_nhwc_hwcf_q",
        "linalg.conv_2d_nhwc_fhwc_q", "linalg.conv_2d_nchw_fchw_q",
        "linalg.conv_2d_ngchw_gfchw_q", "linalg.conv_2d_nhwgc_gfhwc_q",
        "linalg.conv_3d_ndhwc_dhwcf_q", "linalg.depthwise_conv_2d_nhwc_hwc_q",
        "linalg.depthwise_conv_2d_nhwc_hwcm_q"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %quantized : !transform.any_op {
    ^bb0(%q: !transform.any_op):
      transform.sequence %q : !transform.any_op failures(suppress) {
      ^bb0(%q0: !transform.any_op):
        %plain = transform.hwsched.decompose_quantized %q0 {explain}
            : (!transform.any_op) -> !transform.any_op
      }
    }

    // 0a. Dynamic loop extents (a batch of rows, a sequence length known at
    //    run time): each matmul-class op and convolution with a dynamic
    //    loop is tiled by static chunks with scf.for, and the chunk padded
    //    to static shapes (transform.hwsched.chunk_dynamic_loops), which the
    //    routes below and the schedules take. Not an op a schedule
    //    premarked (it handles that dynamic M itself). One the op refuses
    //    stays as it is and step 1 reports its dynamic extent.
    %linalg_d = transform.structured.match interface {LinalgOp} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %linalg_d : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %tensor_op = transform.include @hwsched_fe_if_tensor_semantics failures(propagate) (%op)
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %tensor_op : !transform.any_op {
      ^bb0(%t: !transform.any_op):
        transform.include @hwsched_fe_try_static_chunks failures(propagate) (%t)
            : (!transform.any_op) -> ()
      }
    }

    // 0b. Matmul-class ops and convolutions that no route below takes
    //    (generic, batchless, depthwise, grouped, 1-D / 3-D convolutions;
    //    contractions with several M, N or K loops such as linalg.mmt4d) as
    //    one contraction with at most one batch loop
    //    (transform.hwsched.contraction_to_matmul: operands copied to grouped
    //    layouts, an im2col gather for a convolution's image). One it
    //    refuses (a dynamic extent, say) stays as it is and step 1 reports
    //    why.
    %linalg0 = transform.structured.match interface {LinalgOp} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %linalg0 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %tensor_op = transform.include @hwsched_fe_if_tensor_semantics failures(propagate) (%op)
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %tensor_op : !transform.any_op {
      ^bb0(%t: !transform.any_op):
        transform.include @hwsched_fe_try_to_matmul failures(propagate) (%t)
            : (!transform.any_op) -> ()
      }
    }

    // 1. What each matmul-class op and convolution is: a route mark, or a
    //    remark saying why it is left (@hwsched_fe_classify_one).
    %linalg = transform.structured.match interface {LinalgOp} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %linalg : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @hwsched_fe_classify_one failures(propagate) (%op)
          : (!transform.any_op) -> ()
    }

    // 2. Convolutions -> im2col + a contraction with a batch loop.
    %convs = transform.structured.match attributes {hwsched.fe_conv} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %convs : !transform.any_op {
    ^bb0(%conv: !transform.any_op):
      %img2col, %result = transform.structured.convert_conv2d_to_img2col %conv
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      %gemm = transform.get_producer_of_operand %result[0]
          : (!transform.any_op) -> !transform.any_op
      transform.annotate %gemm "hwsched.fe_batch1" : !transform.any_op
      // The fill of the output moves through the reshape to the
      // contraction's init (so that it is fused into the batch loop).
      %f = transform.get_parent_op %gemm {op_name = "func.func"}
          : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %f {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
    }

    // 3. Batch loops tiled by 1 (parallel ones with the producers fused),
    //    the op generalized so that its unit dimensions can be dropped.
    %b1 = transform.structured.match attributes {hwsched.fe_batch1} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %b1 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %tiled, %loop = transform.structured.fuse %op tile_sizes [1]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.include @hwsched_fe_mark_batch_loop failures(propagate) (%loop)
          : (!transform.any_op) -> ()
      transform.include @hwsched_fe_generalize_batch_body failures(propagate) (%tiled)
          : (!transform.any_op) -> ()
    }
    %b2 = transform.structured.match attributes {hwsched.fe_batch2} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %b2 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %tiled, %l0, %l1 = transform.structured.fuse %op tile_sizes [1, 1]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      transform.include @hwsched_fe_mark_batch_loop failures(propagate) (%l1)
          : (!transform.any_op) -> ()
      transform.include @hwsched_fe_generalize_batch_body failures(propagate) (%tiled)
          : (!transform.any_op) -> ()
    }
    %rb = transform.structured.match attributes {hwsched.fe_reduce_batch} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %rb : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      // No producer fusion: the loop reduces, a fused fill would reset C.
      %tiled, %loop = transform.structured.tile_using_for %op tile_sizes [1]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.include @hwsched_fe_mark_batch_loop failures(propagate) (%loop)
          : (!transform.any_op) -> ()
      %g = transform.structured.generalize %tiled
          : (!transform.any_op) -> !transform.any_op
      transform.annotate %g "hwsched.fe_unit_dims" : !transform.any_op
    }

    // 4. Unit dimensions dropped in the functions that hold such ops (the
    //    fused fill, generalized, becomes a 2-D fill-like generic: the
    //    schedules fuse any parallel producer of the init).
    %unit = transform.structured.match attributes {hwsched.fe_unit_dims} in %root
        : (!transform.any_op) -> !transform.any_op
    %unit_funcs = transform.get_parent_op %unit {op_name = "func.func", deduplicate}
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %unit_funcs : !transform.any_op {
    ^bb0(%f: !transform.any_op):
      transform.apply_patterns to %f {
        transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
        transform.apply_patterns.canonicalization
      } : !transform.any_op
      transform.apply_cse to %f : !transform.any_op
    }

    // 5. Every 2-D contraction, the rewritten ones included.
    //    (Ops on tensors only: the matchers read result 0, which upstream
    //    reads unchecked.)
    %linalg2 = transform.structured.match interface {LinalgOp} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %linalg2 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %tensor_op = transform.include @hwsched_fe_if_tensor_semantics failures(propagate) (%op)
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %tensor_op : !transform.any_op {
      ^bb0(%t: !transform.any_op):
        %r = transform.foreach_match restrict_root in %t
            @hwsched_fe_match_2d_f -> @hwsched_fe_mark_contraction,
            @hwsched_fe_match_2d_i -> @hwsched_fe_mark_contraction,
            @hwsched_fe_match_batch_body_left -> @hwsched_fe_report_batch_body
            : (!transform.any_op) -> !transform.any_op
      }
    }
    %marked = transform.structured.match attributes {hwsched.contraction} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.yield %marked : !transform.any_op
  }

  //===--------------------------------------------------------------------===//
  // Classification.
  //===--------------------------------------------------------------------===//

  // Marks %op with its route (the first that matches), or reports why a
  // matmul-class op or convolution has none. The route matchers read result
  // 0 (upstream transform.match.structured.result does not check that there
  // is one): an op without results (buffer semantics) only gets the report.
  transform.named_sequence @hwsched_fe_classify_one(
      %op: !transform.any_op {transform.readonly}) {
    %tensor_op = transform.include @hwsched_fe_if_tensor_semantics failures(propagate) (%op)
        : (!transform.any_op) -> !transform.any_op
    %buffer_op = transform.include @hwsched_fe_if_buffer_semantics failures(propagate) (%op)
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %tensor_op : !transform.any_op {
    ^bb0(%t: !transform.any_op):
      %r = transform.foreach_match restrict_root in %t
          @hwsched_fe_match_premarked -> @hwsched_fe_mark_nothing,
          @hwsched_fe_match_conv -> @hwsched_fe_mark_conv,
          @hwsched_fe_match_2d_f -> @hwsched_fe_mark_nothing,
          @hwsched_fe_match_2d_i -> @hwsched_fe_mark_nothing,
          @hwsched_fe_match_batch1_f -> @hwsched_fe_mark_batch1,
          @hwsched_fe_match_batch1_i -> @hwsched_fe_mark_batch1,
          @hwsched_fe_match_batch2_f -> @hwsched_fe_mark_batch2,
          @hwsched_fe_match_batch2_i -> @hwsched_fe_mark_batch2,
          @hwsched_fe_match_reduce_batch_f -> @hwsched_fe_mark_reduce_batch,
          @hwsched_fe_match_reduce_batch_i -> @hwsched_fe_mark_reduce_batch,
          @hwsched_fe_match_matmul_class -> @hwsched_fe_report,
          @hwsched_fe_match_conv_class -> @hwsched_fe_report,
          @hwsched_fe_match_all_parallel -> @hwsched_fe_mark_nothing,
          @hwsched_fe_match_structured -> @hwsched_fe_report_multiplying_reduction
          : (!transform.any_op) -> !transform.any_op
    }
    transform.foreach %buffer_op : !transform.any_op {
    ^bb0(%b: !transform.any_op):
      %r = transform.foreach_match restrict_root in %b
          @hwsched_fe_match_matmul_class -> @hwsched_fe_report,
          @hwsched_fe_match_conv_class -> @hwsched_fe_report
          : (!transform.any_op) -> !transform.any_op
    }
    transform.yield
  }

  // %op when it has results (tensor semantics) / none (buffer semantics),
  // else an empty handle.
  transform.named_sequence @hwsched_fe_if_tensor_semantics(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %results = transform.get_result %op[all] : (!transform.any_op) -> !transform.any_value
    %n = transform.num_associations %results : (!transform.any_value) -> !transform.param<i64>
    %r = transform.sequence %op, %n : !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o1: !transform.any_op, %n1: !transform.param<i64>):
      %g = transform.sequence %o1, %n1 : !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o2: !transform.any_op, %n2: !transform.param<i64>):
        %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
        transform.match.param.cmpi gt %n2, %zero : !transform.param<i64>
        transform.yield %o2 : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    transform.yield %r : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_if_buffer_semantics(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %results = transform.get_result %op[all] : (!transform.any_op) -> !transform.any_value
    %n = transform.num_associations %results : (!transform.any_value) -> !transform.param<i64>
    %r = transform.sequence %op, %n : !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o1: !transform.any_op, %n1: !transform.param<i64>):
      %g = transform.sequence %o1, %n1 : !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o2: !transform.any_op, %n2: !transform.param<i64>):
        %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
        transform.match.param.cmpi eq %n2, %zero : !transform.param<i64>
        transform.yield %o2 : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    transform.yield %r : !transform.any_op
  }

  //===--------------------------------------------------------------------===//
  // Actions.
  //===--------------------------------------------------------------------===//

  // @hwsched_fe_depthwise_ops(%module): the depthwise convolutions of
  // %module on tensors (linalg.depthwise_conv_2d_nhwc_hwc; the quantized
  // form decomposed first, transform.hwsched.decompose_quantized) with
  // static shapes (dynamic extents chunked,
  // transform.hwsched.chunk_dynamic_loops), for an entry point's depthwise
  // schedule. An entry point without one leaves them to
  // @hwsched_prepare_contractions, which reports them.
  transform.named_sequence @hwsched_fe_depthwise_ops(
      %module: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %q = transform.structured.match ops{["linalg.depthwise_conv_2d_nhwc_hwc_q"]} in %module
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %q : !transform.any_op {
    ^bb0(%q0: !transform.any_op):
      %tq = transform.include @hwsched_fe_if_tensor_semantics failures(propagate) (%q0)
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %tq : !transform.any_op {
      ^bb0(%t: !transform.any_op):
        transform.sequence %t : !transform.any_op failures(suppress) {
        ^bb0(%t0: !transform.any_op):
          %plain = transform.hwsched.decompose_quantized %t0
              : (!transform.any_op) -> !transform.any_op
        }
      }
    }
    %dw = transform.structured.match ops{["linalg.depthwise_conv_2d_nhwc_hwc"]} in %module
        : (!transform.any_op) -> !transform.any_op
    %static = transform.foreach %dw : !transform.any_op -> !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t = transform.include @hwsched_fe_if_tensor_semantics failures(propagate) (%op)
          : (!transform.any_op) -> !transform.any_op
      %s = transform.foreach %t : !transform.any_op -> !transform.any_op {
      ^bb0(%t0: !transform.any_op):
        %s0 = transform.hwsched.chunk_dynamic_loops %t0
            : (!transform.any_op) -> !transform.any_op
        transform.yield %s0 : !transform.any_op
      }
      transform.yield %s : !transform.any_op
    }
    transform.yield %static : !transform.any_op
  }
  // An op an entry point's own schedule took (hwsched.fe_premarked = 1,
  // not a contraction): @hwsched_prepare_contractions leaves it alone.
  transform.named_sequence @hwsched_fe_premark_depthwise(
      %op: !transform.any_op {transform.readonly}) {
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.annotate %op "hwsched.fe_premarked" = %one : !transform.any_op, !transform.param<i64>
    transform.yield
  }

  // The batch loops of step 3 (hwsched.fe_batch_loop = 1): what a batch
  // element leaves in them that is not a 2-D contraction is reported in
  // step 5 (@hwsched_fe_match_batch_body_left).
  transform.named_sequence @hwsched_fe_mark_batch_loop(
      %loop: !transform.any_op {transform.readonly}) {
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.annotate %loop "hwsched.fe_batch_loop" = %one : !transform.any_op, !transform.param<i64>
    transform.yield
  }
  // A matmul-class op directly in a batch loop of step 3 that is not a 2-D
  // contraction (the 2-D matchers come first in step 5): a batch element
  // whose unit M or N was dropped, a matrix-vector product.
  transform.named_sequence @hwsched_fe_match_batch_body_left(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_matmul_class failures(propagate) (%op)
        : (!transform.any_op) -> !transform.any_op
    %for = transform.get_parent_op %op {op_name = "scf.for"}
        : (!transform.any_op) -> !transform.any_op
    %mark = transform.hwsched.get_annotation %for "hwsched.fe_batch_loop"
        : (!transform.any_op) -> !transform.param<i64>
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_report_batch_body(
      %op: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %op, "hwsched: not scheduled: each batch element of this op is a matrix-vector product (M or N of extent 1: a depthwise convolution reads one filter channel per output channel; a batched matmul with one row or column), which the matmul schedules do not take; it needs an elementwise multiply-accumulate schedule over the batch (channels). It is left in its batch loop and lowers unscheduled" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @hwsched_fe_mark_contraction(
      %op: !transform.any_op {transform.readonly}) {
    transform.annotate %op "hwsched.contraction" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @hwsched_fe_mark_nothing(
      %op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @hwsched_fe_mark_conv(
      %op: !transform.any_op {transform.readonly}) {
    transform.annotate %op "hwsched.fe_conv" : !transform.any_op
    transform.yield
  }
  // %t with static shapes (transform.hwsched.chunk_dynamic_loops) when it
  // is a matmul-class op or a convolution and not premarked; left as it is
  // when the op refuses (step 1 then reports the dynamic extent). An op
  // without a dynamic loop is returned unchanged by the op.
  transform.named_sequence @hwsched_fe_try_static_chunks(
      %t: !transform.any_op {transform.consumed}) {
    %p = transform.collect_matching @hwsched_fe_match_premarked in %t : (!transform.any_op) -> !transform.any_op
    %c0 = transform.collect_matching @hwsched_fe_match_matmul_class in %t : (!transform.any_op) -> !transform.any_op
    %c1 = transform.collect_matching @hwsched_fe_match_conv_class in %t : (!transform.any_op) -> !transform.any_op
    %class = transform.merge_handles %c0, %c1 : !transform.any_op
    %n_p = transform.num_associations %p : (!transform.any_op) -> !transform.param<i64>
    %n_class = transform.num_associations %class : (!transform.any_op) -> !transform.param<i64>
    // (A suppressing sequence goes on after a failure: the checks and the
    // rewrite sit in a propagating one inside it.)
    transform.sequence %t, %n_p, %n_class : !transform.any_op, !transform.param<i64>, !transform.param<i64>
        failures(suppress) {
    ^bb0(%o0: !transform.any_op, %np0: !transform.param<i64>, %nc0: !transform.param<i64>):
      transform.sequence %o0, %np0, %nc0 : !transform.any_op, !transform.param<i64>, !transform.param<i64>
          failures(propagate) {
      ^bb0(%o: !transform.any_op, %np: !transform.param<i64>, %nc: !transform.param<i64>):
        %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
        transform.match.param.cmpi eq %np, %zero : !transform.param<i64>
        transform.match.param.cmpi gt %nc, %zero : !transform.param<i64>
        %static = transform.hwsched.chunk_dynamic_loops %o
            : (!transform.any_op) -> !transform.any_op
      }
    }
    transform.yield
  }
  // %t as one contraction (transform.hwsched.contraction_to_matmul) when
  // it is a matmul-class op or a convolution that no route of step 1 takes;
  // left as it is when the op refuses (step 1 then reports why).
  transform.named_sequence @hwsched_fe_try_to_matmul(
      %t: !transform.any_op {transform.consumed}) {
    %r0 = transform.collect_matching @hwsched_fe_match_conv in %t : (!transform.any_op) -> !transform.any_op
    %r1 = transform.collect_matching @hwsched_fe_match_2d_f in %t : (!transform.any_op) -> !transform.any_op
    %r2 = transform.collect_matching @hwsched_fe_match_2d_i in %t : (!transform.any_op) -> !transform.any_op
    %r3 = transform.collect_matching @hwsched_fe_match_batch1_f in %t : (!transform.any_op) -> !transform.any_op
    %r4 = transform.collect_matching @hwsched_fe_match_batch1_i in %t : (!transform.any_op) -> !transform.any_op
    %r5 = transform.collect_matching @hwsched_fe_match_batch2_f in %t : (!transform.any_op) -> !transform.any_op
    %r6 = transform.collect_matching @hwsched_fe_match_batch2_i in %t : (!transform.any_op) -> !transform.any_op
    %r7 = transform.collect_matching @hwsched_fe_match_reduce_batch_f in %t : (!transform.any_op) -> !transform.any_op
    %r8 = transform.collect_matching @hwsched_fe_match_reduce_batch_i in %t : (!transform.any_op) -> !transform.any_op
    %r9 = transform.collect_matching @hwsched_fe_match_conv_name in %t : (!transform.any_op) -> !transform.any_op
    %r10 = transform.collect_matching @hwsched_fe_match_premarked in %t : (!transform.any_op) -> !transform.any_op
    %routed = transform.merge_handles %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10 : !transform.any_op
    %c0 = transform.collect_matching @hwsched_fe_match_matmul_class in %t : (!transform.any_op) -> !transform.any_op
    %c1 = transform.collect_matching @hwsched_fe_match_conv_class in %t : (!transform.any_op) -> !transform.any_op
    %class = transform.merge_handles %c0, %c1 : !transform.any_op
    %n_routed = transform.num_associations %routed : (!transform.any_op) -> !transform.param<i64>
    %n_class = transform.num_associations %class : (!transform.any_op) -> !transform.param<i64>
    // (A suppressing sequence goes on after a failure: the checks and the
    // rewrite sit in a propagating one inside it.)
    transform.sequence %t, %n_routed, %n_class : !transform.any_op, !transform.param<i64>, !transform.param<i64>
        failures(suppress) {
    ^bb0(%o0: !transform.any_op, %nr0: !transform.param<i64>, %nc0: !transform.param<i64>):
      transform.sequence %o0, %nr0, %nc0 : !transform.any_op, !transform.param<i64>, !transform.param<i64>
          failures(propagate) {
      ^bb0(%o: !transform.any_op, %nr: !transform.param<i64>, %nc: !transform.param<i64>):
        %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
        transform.match.param.cmpi eq %nr, %zero : !transform.param<i64>
        transform.match.param.cmpi gt %nc, %zero : !transform.param<i64>
        %mm = transform.hwsched.contraction_to_matmul %o
            : (!transform.any_op) -> !transform.any_op
      }
    }
    transform.yield
  }
  transform.named_sequence @hwsched_fe_mark_batch1(
      %op: !transform.any_op {transform.readonly}) {
    transform.annotate %op "hwsched.fe_batch1" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @hwsched_fe_mark_batch2(
      %op: !transform.any_op {transform.readonly}) {
    transform.annotate %op "hwsched.fe_batch2" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @hwsched_fe_mark_reduce_batch(
      %op: !transform.any_op {transform.readonly}) {
    transform.annotate %op "hwsched.fe_reduce_batch" : !transform.any_op
    transform.yield
  }

  // Says, at %op, why it is not scheduled: the first reason that applies.
  // Each case runs while %done (the op once per case that fired) is empty.
  transform.named_sequence @hwsched_fe_report(
      %op: !transform.any_op {transform.readonly}) {
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    // Buffer semantics: no results.
    %fired0 = transform.sequence %op, %zero : !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %z0 : !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %z: !transform.param<i64>):
          %results = transform.get_result %o[all] : (!transform.any_op) -> !transform.any_value
          %n_results = transform.num_associations %results : (!transform.any_value) -> !transform.param<i64>
          transform.match.param.cmpi eq %n_results, %z : !transform.param<i64>
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: this op works on buffers (memref operands); the matmul schedules work on tensors (write it on tensors, e.g. bufferization.to_tensor of the arguments and bufferization.materialize_in_destination of the result)" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done0 = transform.merge_handles %fired0 : !transform.any_op
    // A dynamic extent, named for contractions whose last three loops are
    // (m, n, k) as in linalg.matmul and linalg.batch_matmul.
    %fired1 = transform.sequence %op, %done0, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          transform.include @hwsched_fe_match_mnk_last failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.include @hwsched_fe_match_dynamic_at_m3 failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: dimension M (the rows of A and of the result) has a dynamic extent; the matmul schedules need static M, N, K: any static M works (partial tiles are padded), e.g. pad the rows to a static upper bound, or tensor.cast the operands to a static type where the size is known" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done1 = transform.merge_handles %done0, %fired1 : !transform.any_op
    %fired2 = transform.sequence %op, %done1, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          transform.include @hwsched_fe_match_mnk_last failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.include @hwsched_fe_match_dynamic_at_m2 failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: dimension N (the columns of B and of the result) has a dynamic extent; the matmul schedules need static M, N, K: any static N works (partial tiles are padded), e.g. pad the columns to a static upper bound, or tensor.cast the operands to a static type where the size is known" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done2 = transform.merge_handles %done1, %fired2 : !transform.any_op
    %fired3 = transform.sequence %op, %done2, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          transform.include @hwsched_fe_match_mnk_last failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.include @hwsched_fe_match_dynamic_at_m1 failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: dimension K (the reduction: columns of A, rows of B) has a dynamic extent; the matmul schedules need static M, N, K: any static K works (partial tiles are padded with zeros), e.g. pad A and B with zeros to a static upper bound of K" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done3 = transform.merge_handles %done2, %fired3 : !transform.any_op
    %fired4 = transform.sequence %op, %done3, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          transform.include @hwsched_fe_match_mnk_last failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.include @hwsched_fe_match_dynamic_at_0 failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: the batch dimension (loop d0) has a dynamic extent; the batch loop is tiled by 1 and needs a static count: give the batch a static size (any)" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done4 = transform.merge_handles %done3, %fired4 : !transform.any_op
    // Convolutions: which size is dynamic does not matter to the route.
    %fired5 = transform.sequence %op, %done4, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          transform.include @hwsched_fe_match_conv_name failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: this convolution has a dynamic extent (batch, image, channel or filter size); its im2col route needs static shapes: give the operands static types (any sizes)" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done5 = transform.merge_handles %done4, %fired5 : !transform.any_op
    // Convolution-class ops no route took: multiply-accumulates (float or
    // integer bodies) first, then the rest (poolings, quantized bodies).
    %fired6m = transform.sequence %op, %done5, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          transform.include @hwsched_fe_match_conv_class failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          %mac_f = transform.collect_matching @hwsched_fe_match_body_f in %o : (!transform.any_op) -> !transform.any_op
          %mac_i = transform.collect_matching @hwsched_fe_match_body_i in %o : (!transform.any_op) -> !transform.any_op
          %mac = transform.merge_handles %mac_f, %mac_i : !transform.any_op
          %n_mac = transform.num_associations %mac : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi gt %n_mac, %z : !transform.param<i64>
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: no route to a matmul for this convolution: it is a multiply-accumulate, but neither the im2col route of the named 2-D convolutions nor transform.hwsched.contraction_to_matmul took it (that op needs tensors with static extents and every loop indexing two of the three operands; run it alone on this op to see its reason)" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done6m = transform.merge_handles %done5, %fired6m : !transform.any_op
    %fired6 = transform.sequence %op, %done6m, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          transform.include @hwsched_fe_match_conv_class failures(propagate) (%o) : (!transform.any_op) -> !transform.any_op
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: this convolution-shaped op is not a plain multiply-accumulate, so it is not a contraction and no matmul schedule applies: a pooling (sum, max or min over windows) needs a reduction schedule; a quantized convolution must have its zero points subtracted first (transform.hwsched.decompose_quantized takes the named quantized convolutions)" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done6 = transform.merge_handles %done6m, %fired6 : !transform.any_op
    // Contraction dimensions that are not one M, one N and one K.
    %fired7 = transform.sequence %op, %done6, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          %m, %n, %k = transform.include @hwsched_fe_contraction_dim_counts failures(propagate) (%o)
              : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          transform.match.param.cmpi eq %n, %z : !transform.param<i64>
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: a matrix-vector or dot product (no N dimension); the matmul schedules need M, N and K (write it as a linalg.matmul with N = 1)" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done7 = transform.merge_handles %done6, %fired7 : !transform.any_op
    %fired8 = transform.sequence %op, %done7, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          %m, %n, %k = transform.include @hwsched_fe_contraction_dim_counts failures(propagate) (%o)
              : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          transform.match.param.cmpi eq %m, %z : !transform.param<i64>
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: a vector-matrix or dot product (no M dimension); the matmul schedules need M, N and K (write it as a linalg.matmul with M = 1)" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done8 = transform.merge_handles %done7, %fired8 : !transform.any_op
    %fired9 = transform.sequence %op, %done8, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          %m, %n, %k = transform.include @hwsched_fe_contraction_dim_counts failures(propagate) (%o)
              : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
          %one = transform.param.constant 1 : i64 -> !transform.param<i64>
          transform.match.param.cmpi eq %m, %one : !transform.param<i64>
          transform.match.param.cmpi eq %n, %one : !transform.param<i64>
          transform.match.param.cmpi eq %k, %one : !transform.param<i64>
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: the body is not a multiply-add (or the loops are not batch loops followed by M, N, K in this order); the matmul schedules take C += A * B with casts only" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done9 = transform.merge_handles %done8, %fired9 : !transform.any_op
    // Anything else.
    %fired10 = transform.sequence %op, %done9, %zero : !transform.any_op, !transform.any_op, !transform.param<i64>
        -> !transform.any_op failures(suppress) {
    ^bb0(%o0: !transform.any_op, %d0: !transform.any_op, %z0: !transform.param<i64>):
      %g = transform.sequence %o0, %d0, %z0 : !transform.any_op, !transform.any_op, !transform.param<i64>
          -> !transform.any_op failures(propagate) {
      ^bb0(%o: !transform.any_op, %d: !transform.any_op, %z: !transform.param<i64>):
          %nd = transform.num_associations %d : (!transform.any_op) -> !transform.param<i64>
          transform.match.param.cmpi eq %nd, %z : !transform.param<i64>
          transform.debug.emit_remark_at %o, "hwsched: not scheduled: several M, N or K loops (e.g. linalg.mmt4d, a contraction over several reduction loops) or a batch loop that is not leading; the matmul schedules take one M, one N and one K after at most two batch loops" : !transform.any_op
          transform.yield %o : !transform.any_op
      }
      transform.yield %g : !transform.any_op
    }
    %done10 = transform.merge_handles %done9, %fired10 : !transform.any_op
    transform.yield
  }

  //===--------------------------------------------------------------------===//
  // Rewrites.
  //===--------------------------------------------------------------------===//

  // The tiled batch op (and a fill fused with it) generalized: named ops keep
  // their unit batch dimension, generics lose it in step 4.
  transform.named_sequence @hwsched_fe_generalize_batch_body(
      %tiled: !transform.any_op {transform.consumed}) {
    transform.sequence %tiled : !transform.any_op failures(suppress) {
    ^bb0(%t: !transform.any_op):
      %init = transform.get_producer_of_operand %t[2]
          : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %init ["linalg.fill"] : !transform.any_op
      %gf = transform.structured.generalize %init : (!transform.any_op) -> !transform.any_op
    }
    %g = transform.structured.generalize %tiled : (!transform.any_op) -> !transform.any_op
    transform.annotate %g "hwsched.fe_unit_dims" : !transform.any_op
    transform.yield
  }

  //===--------------------------------------------------------------------===//
  // Matchers.
  //===--------------------------------------------------------------------===//

  // A multiply-add body on floats / on integers (casts allowed).
  transform.named_sequence @hwsched_fe_match_body_f(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.body %s { contraction = ["arith.mulf", "arith.addf"] } : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_body_i(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.body %s { contraction = ["arith.muli", "arith.addi"] } : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }

  // The numbers of M, N and K loops of a contraction.
  transform.named_sequence @hwsched_fe_contraction_dim_counts(
      %op: !transform.any_op {transform.readonly})
      -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    %b, %m, %n, %k = transform.include @hwsched_fe_classify failures(propagate) (%op)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %nm = transform.num_associations %m : (!transform.param<i64>) -> !transform.param<i64>
    %nn = transform.num_associations %n : (!transform.param<i64>) -> !transform.param<i64>
    %nk = transform.num_associations %k : (!transform.param<i64>) -> !transform.param<i64>
    transform.yield %nm, %nn, %nk : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }

  // The contraction dimensions (batch, m, n, k: loop positions) of a Linalg
  // op with a result (tensor semantics).
  transform.named_sequence @hwsched_fe_classify(
      %op: !transform.any_op {transform.readonly})
      -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    %b, %m, %n, %k = transform.match.structured %op
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) {
    ^bb0(%s: !transform.any_op):
      // Tensor semantics: result 0 exists (and is used).
      %res = transform.match.structured.result %s[0] {any} : (!transform.any_op) -> !transform.any_op
      %b, %m, %n, %k = transform.match.structured.classify_contraction_dims %s
          : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      transform.match.structured.yield %b, %m, %n, %k : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
    }
    transform.yield %b, %m, %n, %k : !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
  }

  // The last three loops are parallel, parallel, reduction (M, N, K in
  // linalg.matmul and linalg.batch_matmul order).
  transform.named_sequence @hwsched_fe_match_mnk_last(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // (Negative indexes need at least three loops.)
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %three = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %rank, %three : !transform.param<i64>
      transform.match.structured.dim %s[-1] {reduction} : !transform.any_op
      transform.match.structured.dim %s[-2, -3] {parallel} : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }

  // Loop -3 / -2 / -1 / 0 / 1 has a static extent, or a dynamic one.
  transform.named_sequence @hwsched_fe_match_static_last(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %three = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %rank, %three : !transform.param<i64>
      %z = transform.param.constant 0 : i64 -> !transform.param<i64>
      %d1 = transform.match.structured.dim %s[-1] : (!transform.any_op) -> !transform.param<i64>
      %d2 = transform.match.structured.dim %s[-2] : (!transform.any_op) -> !transform.param<i64>
      %d3 = transform.match.structured.dim %s[-3] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi ge %d1, %z : !transform.param<i64>
      transform.match.param.cmpi ge %d2, %z : !transform.param<i64>
      transform.match.param.cmpi ge %d3, %z : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_static_at_0(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %z = transform.param.constant 0 : i64 -> !transform.param<i64>
      %d = transform.match.structured.dim %s[0] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi ge %d, %z : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_static_at_1(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %z = transform.param.constant 0 : i64 -> !transform.param<i64>
      %d = transform.match.structured.dim %s[1] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi ge %d, %z : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_dynamic_at_m3(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %three = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %rank, %three : !transform.param<i64>
      %z = transform.param.constant 0 : i64 -> !transform.param<i64>
      %d = transform.match.structured.dim %s[-3] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi lt %d, %z : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_dynamic_at_m2(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %three = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %rank, %three : !transform.param<i64>
      %z = transform.param.constant 0 : i64 -> !transform.param<i64>
      %d = transform.match.structured.dim %s[-2] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi lt %d, %z : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_dynamic_at_m1(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %three = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %rank, %three : !transform.param<i64>
      %z = transform.param.constant 0 : i64 -> !transform.param<i64>
      %d = transform.match.structured.dim %s[-1] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi lt %d, %z : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_dynamic_at_0(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %three = transform.param.constant 3 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %rank, %three : !transform.param<i64>
      %z = transform.param.constant 0 : i64 -> !transform.param<i64>
      %d = transform.match.structured.dim %s[0] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi lt %d, %z : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }

  // The routes. 2-D: loops (m, n, k) = (d0, d1, d2).
  transform.named_sequence @hwsched_fe_match_2d_loops(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %b, %m, %n, %k = transform.include @hwsched_fe_classify failures(propagate) (%op)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %c2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    %nb = transform.num_associations %b : (!transform.param<i64>) -> !transform.param<i64>
    %nm = transform.num_associations %m : (!transform.param<i64>) -> !transform.param<i64>
    %nn = transform.num_associations %n : (!transform.param<i64>) -> !transform.param<i64>
    %nk = transform.num_associations %k : (!transform.param<i64>) -> !transform.param<i64>
    transform.match.param.cmpi eq %nb, %c0 : !transform.param<i64>
    transform.match.param.cmpi eq %nm, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %nn, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %nk, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %m, %c0 : !transform.param<i64>
    transform.match.param.cmpi eq %n, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %k, %c2 : !transform.param<i64>
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_2d(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_2d_loops failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_static_last failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  // The same loops (one M, one N, one K, no batch) with a dynamic M and a
  // static N and K, a multiply-add body on floats / integers: the CPU
  // schedule takes these (@hwsched_cpu_mark_dynamic_m: its M loops run to
  // the dynamic bound, the last register tile padded); the GPU schedules
  // do not (their launch grids are static), and the report says so.
  transform.named_sequence @hwsched_fe_match_2d_dynamic_m(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_2d_loops failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_dynamic_at_m3 failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %z = transform.param.constant 0 : i64 -> !transform.param<i64>
      %n = transform.match.structured.dim %s[-2] : (!transform.any_op) -> !transform.param<i64>
      %k = transform.match.structured.dim %s[-1] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi ge %n, %z : !transform.param<i64>
      transform.match.param.cmpi ge %k, %z : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_2d_dynamic_m_f(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_2d_dynamic_m failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_f failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_2d_dynamic_m_i(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_2d_dynamic_m failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_i failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  // An op an entry point marked for its schedule before
  // @hwsched_prepare_contractions ran (hwsched.fe_premarked): the
  // preparation leaves it alone and returns it with the others.
  transform.named_sequence @hwsched_fe_match_premarked(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %v = transform.hwsched.get_annotation %op "hwsched.fe_premarked"
        : (!transform.any_op) -> !transform.param<i64>
    transform.yield %op : !transform.any_op
  }
  // Marks %op for the schedule of the entry point calling
  // @hwsched_prepare_contractions next.
  transform.named_sequence @hwsched_fe_premark_contraction(
      %op: !transform.any_op {transform.readonly}) {
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.annotate %op "hwsched.fe_premarked" = %one : !transform.any_op, !transform.param<i64>
    transform.annotate %op "hwsched.contraction" : !transform.any_op
    transform.yield
  }
  // One batch loop d0, then (m, n, k).
  transform.named_sequence @hwsched_fe_match_batch1(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %b, %m, %n, %k = transform.include @hwsched_fe_classify failures(propagate) (%op)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %c2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    %c3 = transform.param.constant 3 : i64 -> !transform.param<i64>
    %nb = transform.num_associations %b : (!transform.param<i64>) -> !transform.param<i64>
    %nm = transform.num_associations %m : (!transform.param<i64>) -> !transform.param<i64>
    %nn = transform.num_associations %n : (!transform.param<i64>) -> !transform.param<i64>
    %nk = transform.num_associations %k : (!transform.param<i64>) -> !transform.param<i64>
    transform.match.param.cmpi eq %nb, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %nm, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %nn, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %nk, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %b, %c0 : !transform.param<i64>
    transform.match.param.cmpi eq %m, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %n, %c2 : !transform.param<i64>
    transform.match.param.cmpi eq %k, %c3 : !transform.param<i64>
    transform.include @hwsched_fe_match_static_last failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_static_at_0 failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  // Two batch loops d0, d1, then (m, n, k).
  transform.named_sequence @hwsched_fe_match_batch2(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %b, %m, %n, %k = transform.include @hwsched_fe_classify failures(propagate) (%op)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %c2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    %c3 = transform.param.constant 3 : i64 -> !transform.param<i64>
    %c4 = transform.param.constant 4 : i64 -> !transform.param<i64>
    %nb = transform.num_associations %b : (!transform.param<i64>) -> !transform.param<i64>
    %nm = transform.num_associations %m : (!transform.param<i64>) -> !transform.param<i64>
    %nn = transform.num_associations %n : (!transform.param<i64>) -> !transform.param<i64>
    %nk = transform.num_associations %k : (!transform.param<i64>) -> !transform.param<i64>
    transform.match.param.cmpi eq %nb, %c2 : !transform.param<i64>
    transform.match.param.cmpi eq %nm, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %nn, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %nk, %c1 : !transform.param<i64>
    %b0, %b1 = transform.split_handle %b : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.match.param.cmpi eq %b0, %c0 : !transform.param<i64>
    transform.match.param.cmpi eq %b1, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %m, %c2 : !transform.param<i64>
    transform.match.param.cmpi eq %n, %c3 : !transform.param<i64>
    transform.match.param.cmpi eq %k, %c4 : !transform.param<i64>
    transform.include @hwsched_fe_match_static_last failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_static_at_0 failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_static_at_1 failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  // linalg.batch_reduce_matmul: loops (k0, m, n, k1), k0 the batch that is
  // reduced.
  transform.named_sequence @hwsched_fe_match_reduce_batch(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    %b, %m, %n, %k = transform.include @hwsched_fe_classify failures(propagate) (%op)
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %c0 = transform.param.constant 0 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %c2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    %c3 = transform.param.constant 3 : i64 -> !transform.param<i64>
    %nb = transform.num_associations %b : (!transform.param<i64>) -> !transform.param<i64>
    %nm = transform.num_associations %m : (!transform.param<i64>) -> !transform.param<i64>
    %nn = transform.num_associations %n : (!transform.param<i64>) -> !transform.param<i64>
    %nk = transform.num_associations %k : (!transform.param<i64>) -> !transform.param<i64>
    transform.match.param.cmpi eq %nb, %c0 : !transform.param<i64>
    transform.match.param.cmpi eq %nm, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %nn, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %nk, %c2 : !transform.param<i64>
    %k0, %k1 = transform.split_handle %k : (!transform.param<i64>) -> (!transform.param<i64>, !transform.param<i64>)
    transform.match.param.cmpi eq %k0, %c0 : !transform.param<i64>
    transform.match.param.cmpi eq %k1, %c3 : !transform.param<i64>
    transform.match.param.cmpi eq %m, %c1 : !transform.param<i64>
    transform.match.param.cmpi eq %n, %c2 : !transform.param<i64>
    transform.include @hwsched_fe_match_static_last failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_static_at_0 failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_2d_f(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_2d failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_f failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_2d_i(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_2d failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_i failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_batch1_f(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_batch1 failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_f failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_batch1_i(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_batch1 failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_i failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_batch2_f(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_batch2 failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_f failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_batch2_i(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_batch2 failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_i failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_reduce_batch_f(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_reduce_batch failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_f failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_reduce_batch_i(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_reduce_batch failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.include @hwsched_fe_match_body_i failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.yield %op : !transform.any_op
  }

  // The 2-D convolutions with an im2col route (any extents) / with static
  // extents (all seven loops).
  transform.named_sequence @hwsched_fe_match_conv_name(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.conv_2d_nhwc_hwcf", "linalg.conv_2d_nhwc_fhwc", "linalg.conv_2d_nchw_fchw"] : !transform.any_op
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      // Tensor semantics: result 0 exists (and is used).
      %res = transform.match.structured.result %s[0] {any} : (!transform.any_op) -> !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_conv(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.include @hwsched_fe_match_conv_name failures(propagate) (%op) : (!transform.any_op) -> !transform.any_op
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %z = transform.param.constant 0 : i64 -> !transform.param<i64>
      %d0 = transform.match.structured.dim %s[0] : (!transform.any_op) -> !transform.param<i64>
      %d1 = transform.match.structured.dim %s[1] : (!transform.any_op) -> !transform.param<i64>
      %d2 = transform.match.structured.dim %s[2] : (!transform.any_op) -> !transform.param<i64>
      %d3 = transform.match.structured.dim %s[3] : (!transform.any_op) -> !transform.param<i64>
      %d4 = transform.match.structured.dim %s[4] : (!transform.any_op) -> !transform.param<i64>
      %d5 = transform.match.structured.dim %s[5] : (!transform.any_op) -> !transform.param<i64>
      %d6 = transform.match.structured.dim %s[6] : (!transform.any_op) -> !transform.param<i64>
      transform.match.param.cmpi ge %d0, %z : !transform.param<i64>
      transform.match.param.cmpi ge %d1, %z : !transform.param<i64>
      transform.match.param.cmpi ge %d2, %z : !transform.param<i64>
      transform.match.param.cmpi ge %d3, %z : !transform.param<i64>
      transform.match.param.cmpi ge %d4, %z : !transform.param<i64>
      transform.match.param.cmpi ge %d5, %z : !transform.param<i64>
      transform.match.param.cmpi ge %d6, %z : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }

  // Any other matmul-class op (contraction dimensions classify, with or
  // without results) or convolution (convolution dimensions classify).
  transform.named_sequence @hwsched_fe_match_matmul_class(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %b, %m, %n, %k = transform.match.structured.classify_contraction_dims %s
          : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      // A reduction loop (an elementwise op classifies too, with no K).
      %nk = transform.num_associations %k : (!transform.param<i64>) -> !transform.param<i64>
      %one = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.match.param.cmpi ge %nk, %one : !transform.param<i64>
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  // Any Linalg op; a reduction once @hwsched_fe_match_all_parallel came
  // first.
  transform.named_sequence @hwsched_fe_match_structured(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @hwsched_fe_match_all_parallel(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.dim %s[all] {parallel} : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }

  // A reduction that neither the contraction nor the convolution matchers
  // take, but whose body multiplies (a convolution-like op with a zero
  // point as a third input, a sum of squares): frontends emit these where a
  // matmul-class op is meant, so the user learns why it was left. A
  // reduction without a multiplication (a sum, a max) is not matmul-class
  // and gets no remark.
  transform.named_sequence @hwsched_fe_report_multiplying_reduction(
      %op: !transform.any_op {transform.readonly}) {
    %muls = transform.structured.match ops{["arith.mulf", "arith.muli"]} in %op
        : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %muls : (!transform.any_op) -> !transform.param<i64>
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.sequence %op, %n, %zero : !transform.any_op, !transform.param<i64>, !transform.param<i64>
        failures(suppress) {
    ^bb0(%o0: !transform.any_op, %n0: !transform.param<i64>, %z0: !transform.param<i64>):
      transform.sequence %o0, %n0, %z0 : !transform.any_op, !transform.param<i64>, !transform.param<i64>
          failures(propagate) {
      ^bb0(%o: !transform.any_op, %nm: !transform.param<i64>, %z: !transform.param<i64>):
        transform.match.param.cmpi gt %nm, %z : !transform.param<i64>
        transform.debug.emit_remark_at %o, "hwsched: not scheduled: a reduction whose body multiplies, but neither a contraction of two operands (C += A * B: each reduction loop indexes both A and B, no third input) nor a convolution, so no matmul schedule applies; fold a zero point or scale among its inputs into A or B first (transform.hwsched.decompose_quantized does so for the named quantized ops)" : !transform.any_op
      }
    }
    transform.yield
  }

  transform.named_sequence @hwsched_fe_match_conv_class(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %b, %oi, %oc, %fl, %ic, %dp, %st, %dl = transform.match.structured.classify_convolution_dims %s
          : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
}
