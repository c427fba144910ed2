// Transform entry points for the NPU flag coarsening tests (ascend-910b):
// @coarsen: @chain with six stages (pipeline.max_stages overridden, units in
// separate stages); @coarsen_explain adds `explain`. @large: the large body
// as the fuzzer scheduled it (num_stages 5, clamped to the spec's 2), which
// is refused (its shared events are not ordered on the hardware). @fallback: the `pipeline`
// loops of npu-pipes-exec.mlir with 9 stages requested (and allowed).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @coarsen(%root: !transform.any_op {transform.readonly}) {
    %chain = transform.structured.match ops{["scf.for"]} attributes{coarsen_chain} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p0 = transform.pipeline.schedule_stages %chain { target = "ascend-910b", "pipeline.max_stages" = 6, num_stages = 6, separate_unit_stages } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @coarsen_explain(%root: !transform.any_op {transform.readonly}) {
    %chain = transform.structured.match ops{["scf.for"]} attributes{coarsen_chain} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p0 = transform.pipeline.schedule_stages %chain { target = "ascend-910b", "pipeline.max_stages" = 6, num_stages = 6, separate_unit_stages, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @large(%root: !transform.any_op {transform.readonly}) {
    %large = transform.structured.match ops{["scf.for"]} attributes{coarsen_large} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p1 = transform.pipeline.schedule_stages %large { target = "ascend-910b", num_stages = 5 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @fallback(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "ascend-910b", "pipeline.max_stages" = 9, num_stages = 9, separate_unit_stages } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @fallback_explain(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "ascend-910b", "pipeline.max_stages" = 9, num_stages = 9, separate_unit_stages, explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
