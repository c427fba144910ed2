// Transform entry points for the pipelining tests: each matches the scf.for
// ops tagged `pipeline` and schedules them for one target.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @h100(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @h100_s2(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100", num_stages = 2 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @h100_s3_separate(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100", num_stages = 3, separate_unit_stages } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @h100_s3(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @ascend(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "ascend-910b" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
  transform.named_sequence @cpu(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "x86-avx512" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
