//===- TargetOps.td - transform.hwsched.* ops ------------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_TARGETOPS
#define HWSCHED_TRANSFORMOPS_TARGETOPS

include "hwsched/TransformOps/HwschedTransformBase.td"

def AttachTargetSpecOp : Hwsched_TransformOp<"hwsched.attach_target_spec"> {
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
  }], HwschedSpecFailureDoc, HwschedTargetDoc);

  let arguments = (ins TransformHandleTypeInterface:$op,
                       OptionalAttr<StrAttr>:$target,
                       UnitAttr:$explain);
  let results = (outs);
  let assemblyFormat = "$op attr-dict `:` type($op)";
  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure
    apply(::mlir::transform::TransformRewriter &rewriter,
          ::mlir::transform::TransformResults &results,
          ::mlir::transform::TransformState &state);
  }];
}

#endif // HWSCHED_TRANSFORMOPS_TARGETOPS
