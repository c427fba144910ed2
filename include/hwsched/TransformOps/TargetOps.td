//===- TargetOps.td - transform.hwsched.* ops ------------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_TARGETOPS
#define HWSCHED_TRANSFORMOPS_TARGETOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def AttachTargetSpecOp : Hwsched_TransformOp<"hwsched.attach_target_spec", [HwschedNumericParams]> {
  let summary = "Records a hardware spec on the payload as DLTI";
  let description = !strconcat([{
    Loads and validates the spec and attaches it to each payload op of `op`
    (usually the module) as its `dlti.target_system_spec`: one device entry
    named after the kind (`"GPU"`, `"NPU"` or `"CPU"`) whose sections are
    nested `#dlti.map`s, plus the entry `hwsched.target` naming the spec.
    Entries of other devices already on the op are kept.

    Two things follow. Upstream tooling reads the same figures, e.g.
    `transform.dlti.query ["GPU", "gpu", "warp_size"] at %module`. And every
    hwsched op applied under that op without its own `target` uses this
    spec, so a script can be written once and retargeted by this op alone.

    ```mlir
    transform.hwsched.attach_target_spec %module { target = "ascend-910b" }
        : !transform.any_op
    ```

    #### Return modes

    Succeeds after setting the attribute on every payload op.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$op,
                            OptionalAttr<StrAttr>:$target,
                            UnitAttr:$explain),
                          HwschedParamArgs);
  let results = (outs);
  let assemblyFormat =
      "$op (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "type($op) (`,` type($params)^)?";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def QuerySpecOp : Hwsched_TransformOp<"hwsched.query_spec", [HwschedNumericParams]> {
  let summary = "Reads one figure of the resolved hardware spec as a parameter";
  let description = !strconcat([{
    Returns, for each payload op of `op`, the figure `key` (a dotted key path
    such as `"onchip.capacity_bytes"` or `"pipeline.units.vector.latency_cycles"`)
    of the spec that hwsched ops would use at that payload op, overrides
    included. Unlike `transform.dlti.query`, the script need not know the
    target's kind, so one script reads "the on-chip capacity" of a GPU, an NPU
    or a CPU alike.

    ```mlir
    %cap = transform.hwsched.query_spec %func { key = "onchip.capacity_bytes" }
        : (!transform.any_op) -> !transform.param<i64>
    ```

    Integers are returned as `i64` attributes, numbers as `f64`, strings as
    strings and integer arrays as `array<i64>`. With `explain`, one remark
    per payload op gives the value and where it came from: the spec's
    citation, or for the `host` target the file or instruction it was read
    from (e.g. `host: sysfs cpu0/cache/index2/size (1024K)`).

    #### Return modes

    A key the spec does not have is a silenceable failure naming the key and
    the spec file.
  }], HwschedSpecFailureDoc, HwschedTargetDoc, HwschedParamsDoc);

  let arguments = !con((ins TransformHandleTypeInterface:$op,
                            OptionalAttr<StrAttr>:$target,
                            StrAttr:$key,
                            UnitAttr:$explain),
                          HwschedParamArgs);
  let results = (outs TransformParamTypeInterface:$value);
  let assemblyFormat =
      "$op (`params` `(` custom<HwschedParams>($params, $param_names)^ `)`)? attr-dict `:` "
      "functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_TARGETOPS
