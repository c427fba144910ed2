//===- TargetOps.td - transform.hwsched.* ops ------------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_TARGETOPS
#define HWSCHED_TRANSFORMOPS_TARGETOPS

include "hwsched/TransformOps/HwschedTransformBase.td"
include "mlir/Dialect/Transform/Interfaces/MatchInterfaces.td"

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

def QuerySpecOp : Hwsched_NavigationOp<"hwsched.query_spec", [HwschedNumericParams]> {
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

def GetAnnotationOp : Hwsched_NavigationOp<"hwsched.get_annotation",
    [MatchOpInterface]> {
  let summary = "Reads integer annotations of payload ops back as a parameter";
  let description = [{
    The inverse of `transform.annotate %op "name" = %param`: returns, for each
    payload op of `op` in order, the integer value(s) of its attribute `name`
    (an integer attribute gives one value, an `array<i64>` or an array of
    integer attributes one value per element), as `i64` attributes.

    A script that takes a decision on tensors and acts on it after
    bufferization records the decision on an op that survives (a Linalg op
    keeps its attributes through tiling and one-shot bufferization) and reads
    it back here, per kernel:

    ```mlir
    transform.annotate %block_matmul "hwsched.gpu.stages" = %stages
        : !transform.any_op, !transform.param<i64>
    ... bufferization ...
    %s = transform.hwsched.get_annotation %mm "hwsched.gpu.stages"
        : (!transform.any_op) -> !transform.param<i64>
    ```

    A matcher (`MatchOpInterface`): usable in `transform.foreach_match` and
    `transform.collect_matching` matchers.

    #### Return modes

    A payload op without the attribute, or whose attribute is not an integer
    or an array of integers, is a silenceable failure naming the op and the
    attribute; nothing is returned then. Never modifies the payload.
  }];

  let arguments = (ins TransformHandleTypeInterface:$op, StrAttr:$name);
  let results = (outs TransformParamTypeInterface:$value);
  let assemblyFormat =
      "$op $name attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def RefuseIfOp : Hwsched_NavigationOp<"hwsched.refuse_if"> {
  let summary = "Refuses, in the user's terms, when a guard found something";
  let description = [{
    A script's guard computes a handle that holds the payload ops that break
    one of its preconditions (empty when all is well) and passes it here
    with the message to give: for the first payload op of `ops` the
    transform fails with a silenceable error saying `message`, with a note
    at that op; an empty handle succeeds and does nothing. So a refusal
    reads as the script means it ("this schedule takes one linalg.matmul,
    found 2") instead of as the failure of an upstream op used as the check
    (`expected parameter to be equal to 1, got 2`).

    ```mlir
    %extra = ...   // the ops that break the precondition, or empty
    transform.hwsched.refuse_if %extra
        { message = "@my_schedule takes one linalg.matmul under its root" }
        : !transform.any_op
    ```

    #### Return modes

    Silenceable failure (payload untouched) when `ops` is not empty;
    success otherwise. Never modifies the payload.
  }];

  let arguments = (ins TransformHandleTypeInterface:$ops, StrAttr:$message);
  let results = (outs);
  let assemblyFormat = "$ops attr-dict `:` type($ops)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

def OutlineKernelFunctionOp
    : Hwsched_FunctionalOp<"hwsched.outline_kernel_function"> {
  let summary = "Moves an op into a function of its own, constants included";
  let description = [{
    Moves each payload op of `target` into a new function (named after
    `func_name`, made unique in the nearest symbol table) and calls it where
    the op was, as `transform.loop.outline` does, except that the constants
    the op uses from above are cloned into the function instead of becoming
    its arguments. A schedule that works on a whole function (the
    tensor-core kernel of `transform-scripts/gpu-matmul-tensorcore.mlir`,
    which `@gpu_matmul_auto` builds for a matmul in the middle of a frontend
    function) then still sees them as constants: a fill value that arrives
    as an argument starts the accumulators from a `vector.broadcast` of a
    scalar, which the mma conversion does not take.

    ```mlir
    %func, %call = transform.hwsched.outline_kernel_function %forall
        { func_name = "hwsched_tensorcore_kernel" }
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    #### Return modes

    Consumes `target`; returns the functions and the calls in its order.
    Each function is placed before the function that holds its op, in the
    symbol table that holds that one, named `func_name` or, when a symbol
    of that name exists there, `func_name_0`, `func_name_1`, ...

    Every op is checked before any moves; a silenceable failure names the
    first that cannot be outlined and why (the payload is unchanged): an
    empty `func_name`; an op that is a function, a symbol or a symbol table
    (the module itself); an op not inside a function, or inside one that no
    symbol table holds; a terminator; an op in a terminator's region (the
    `tensor.parallel_insert_slice` of an `scf.forall.in_parallel`).
  }];

  let arguments = (ins TransformHandleTypeInterface:$target,
                       StrAttr:$func_name);
  let results = (outs TransformHandleTypeInterface:$function,
                      TransformHandleTypeInterface:$call);
  let assemblyFormat = "$target attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_TARGETOPS
