// Transform entry points that schedule the loops tagged `pipeline` with
// `explain` (the schedule as remarks), one per target.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @h100(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @ascend(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "ascend-910b", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @cpu(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "x86-avx512", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
