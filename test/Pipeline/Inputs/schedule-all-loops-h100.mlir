// schedule_stages on every scf.for of the payload, nvidia-h100.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @schedule_all_loops(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100" } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
