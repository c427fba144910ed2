// Transform entry points for the NPU flag tests: schedule the scf.for ops
// tagged `pipeline` on ascend-910b with its own stage limit (2, ping-pong),
// one stage, or up to 4 stages (overriding pipeline.max_stages) with
// different units forced into different stages.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @ascend(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "ascend-910b" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @ascend_s1(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "ascend-910b", num_stages = 1 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @ascend_s4(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "ascend-910b", "pipeline.max_stages" = 4, num_stages = 4, separate_unit_stages } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
