//===- HwschedTransformBase.td - Shared pieces of hwsched ops --*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_BASE
#define HWSCHED_TRANSFORMOPS_BASE

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

/// Every hwsched op is a transform op; `effects` says how it declares its
/// handle and payload effects.
class Hwsched_Op<string mnemonic, list<Trait> effects, list<Trait> traits>
    : Op<Transform_Dialect, mnemonic,
         !listconcat([TransformOpInterface], effects, traits)> {
  // Our op classes live in our namespace (hwsched::SelectTileConfigOp), not
  // next to upstream's in mlir::transform, where generic names such as
  // EstimateOp would read as upstream ops and could collide with them.
  let cppNamespace = "::hwsched";
}

/// An op whose effects differ by operand (it consumes one handle and only
/// reads its params, say): it declares them in C++ (getEffects).
class Hwsched_TransformOp<string mnemonic, list<Trait> traits = []>
    : Hwsched_Op<mnemonic,
                 [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>],
                 traits>;

/// An op that only reads its operands and the payload and produces new
/// handles or params (a query or a decision): upstream's trait declares the
/// effects.
class Hwsched_NavigationOp<string mnemonic, list<Trait> traits = []>
    : Hwsched_Op<mnemonic,
                 [MemoryEffectsOpInterface, NavigationTransformOpTrait],
                 traits>;

/// A rewrite whose only operand is the handle it consumes; it produces new
/// handles and modifies the payload: upstream's trait declares the effects.
class Hwsched_FunctionalOp<string mnemonic, list<Trait> traits = []>
    : Hwsched_Op<mnemonic,
                 [MemoryEffectsOpInterface, FunctionalStyleTransformOpTrait],
                 traits>;

/// Numeric decision inputs given as `!transform.param`s instead of
/// attributes: `params(num_stages = %s, "gpu.sm_count" = %n)`. The names go
/// to `param_names`, the values are the variadic `params` operands; the
/// HwschedNumericParams trait checks that they pair up.
defvar HwschedParamArgs = (ins Variadic<TransformParamTypeInterface>:$params,
                               OptionalAttr<StrArrayAttr>:$param_names);

/// Checks `params` against `param_names` (lib/TransformOps/NumericInputs.cpp).
def HwschedNumericParams : NativeOpTrait<"HwschedNumericParams"> {
  let cppNamespace = "::hwsched";
}

/// Documentation of the `params(...)` clause shared by the ops that take it.
defvar HwschedParamsDoc = [{

    #### Inputs as parameters

    Every numeric input of the op (an attribute below, or a spec override
    such as `max_stages`, `reg_limit` or `"gpu.sm_count"`) can instead come
    from a `!transform.param`, so that a `transform.tune.knob`, the result of
    another op or a value from a tuning database drives it without editing
    the script: `params(name = %p, ...)` after the handle, e.g.
    `transform.pipeline.schedule_stages %loop params(num_stages = %k) { explain }
    : (!transform.any_op, !transform.param<i64>) -> !transform.any_op`.
    A parameter behaves exactly like the attribute of the same name. It must
    hold exactly one value (list inputs such as `packed_operands` take all
    of its values) and, for an integer input, an integer; the range checks
    of the attribute apply (e.g. `num_stages` at least 1). A name given both
    as an attribute and a parameter, or twice, is rejected by the verifier;
    a parameter with no value or several, a value of the wrong type or out
    of range is a silenceable failure naming the input, before the payload
    is touched.
}];

/// Documentation shared by every op that reads a hardware spec.
defvar HwschedTargetDoc = [{

    #### Target and overrides

    `target` names a hardware spec: a name, looked up as `<name>.json` in the
    directories of `$HWSCHED_SPEC_PATH` (colon separated) and then in the
    shipped `hw-specs/`, or a path to a `.json` file. Without `target`, the
    op uses, in order: the target recorded on the payload op or an ancestor
    (entry `hwsched.target` of a `#dlti.target_system_spec`, written by
    `transform.hwsched.attach_target_spec` or the `hwsched-attach-target-spec`
    pass), the driver's default (`hwsched-opt --hwsched-target=NAME` or the
    environment variable `HWSCHED_TARGET`), the op's `default_target` (a
    script's own fallback: the CPU scripts say `default_target = "host"`),
    and finally `nvidia-a100`. So one script serves every target. The name
    `host` is the machine running the op, detected at run time (vector ISA,
    caches, cores; see `hw-specs/README.md`).

    Any other attribute overrides one figure of the spec for this call only:
    `reg_limit` (GPU `gpu.max_registers_per_thread`), `smem_limit_bytes` (GPU)
    and `ub_limit_bytes` (NPU) and `l2_limit_bytes` (CPU) for
    `onchip.capacity_bytes`, `max_stages` for `pipeline.max_stages`, or any
    figure by its quoted key path, e.g. `"gpu.sm_count" = 80`. A shorthand
    that does not apply to the target's kind is ignored (and reported by
    `explain`); an unknown name, a value of the wrong type or range, or two
    overrides of one figure with different values are errors.

    `explain` emits remarks, on the payload ops, with the numbers behind each
    decision.
}];

/// Return-mode text for the failures every spec-reading op shares.
defvar HwschedSpecFailureDoc = [{
    A spec that cannot be found, parsed or validated, and an unknown or
    ill-typed override, produce a silenceable failure before the payload is
    touched; the message names the file, the key path and what was expected.
}];

#endif // HWSCHED_TRANSFORMOPS_BASE
