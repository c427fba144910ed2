//===- CostModelOps.td - transform.cost_model.* ops ------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_COSTMODELOPS
#define HWSCHED_TRANSFORMOPS_COSTMODELOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def FilterFusableConsumersOp
    : Hwsched_TransformOp<"cost_model.filter_fusable_consumers"> {
  let summary = "Selects the consumers that are legal and profitable to fuse";
  let description = !strconcat([{
    For each producer in `producer`, considers the consumers of its results
    that implement `TilingInterface` and keeps those that are legal to fuse
    and that the target's cost model scores as profitable:

    - GPU: `a*RegPressure + b*CoalescingPenalty - c*BandwidthSaved < 0`,
      with the estimated registers per thread of the fused kernel below the
      spec's limits;
    - NPU: `LiveBytes * ping_pong_factor <= UB capacity` (hard) and
      `FormatCastOverhead - DMASaved < 0`;
    - CPU: the same structure with the L2 capacity and the vector width.

    The weights and limits come from the spec. The result lists the kept
    consumers in a stable order (producers in handle order, then consumers in
    program order), possibly none. The op only reads the payload.

    Status: the cost model is not implemented yet; the op validates its spec
    and then fails silenceably.

    #### Return modes

    Succeeds with the (possibly empty) list of consumers. A producer that is
    not a Linalg / `TilingInterface` op is a silenceable failure.
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$producer,
                       OptionalAttr<StrAttr>:$target,
                       UnitAttr:$explain);
  let results = (outs TransformHandleTypeInterface:$fusable);
  let assemblyFormat =
      "$producer attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def EstimateOp : Hwsched_TransformOp<"cost_model.estimate"> {
  let summary = "Exposes one number of the cost model as a parameter";
  let description = !strconcat([{
    Returns, for each payload op in `op`, one `i64` parameter with the value
    of `metric` as the target's cost model computes it, so scripts can branch
    with `transform.match.param.cmpi` or feed other ops. Metrics:
    `registers_per_thread`, `onchip_bytes`, `offchip_bytes`, `flops`,
    `estimated_time_ns`.

    Status: not implemented yet; the op validates its spec and metric and
    then fails silenceably.

    #### Return modes

    An unknown metric is a silenceable failure naming the known ones. A
    payload op the model cannot describe is a silenceable failure.
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$op,
                       OptionalAttr<StrAttr>:$target,
                       StrAttr:$metric,
                       UnitAttr:$explain);
  let results = (outs TransformParamTypeInterface:$value);
  let assemblyFormat = "$op attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def SelectTileConfigOp : Hwsched_TransformOp<"cost_model.select_tile_config"> {
  let summary = "Chooses tile sizes, thread counts and stages from the spec";
  let description = !strconcat([{
    Bolt-style selection of a tiling configuration for one Linalg op: the
    candidate set is pruned by the register file, on-chip capacity (times the
    stage count), warps per block and waves over the SMs (GPU), the unified
    buffer with ping-pong (NPU), or the caches and vector registers (CPU),
    and the best-scoring candidate is returned as parameters that feed
    upstream tiling ops directly: `tile_sizes` (one per loop, 0 = not
    tiled), `thread_tile_sizes`, `reduction_tile_sizes`, `num_stages` and
    `num_threads`.

    Status: not implemented yet; the op validates its spec and then fails
    silenceably.

    #### Return modes

    A payload op without a rule (not a contraction, convolution, elementwise
    or reduction) is a silenceable failure.
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$op,
                       OptionalAttr<StrAttr>:$target,
                       UnitAttr:$explain);
  let results = (outs TransformParamTypeInterface:$tile_sizes,
                      TransformParamTypeInterface:$thread_tile_sizes,
                      TransformParamTypeInterface:$reduction_tile_sizes,
                      TransformParamTypeInterface:$num_stages,
                      TransformParamTypeInterface:$num_threads);
  let assemblyFormat = "$op attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_COSTMODELOPS
