// transform-scripts/pipeline.mlir: software pipelining of the loops a
// payload marks.
//
// @hwsched_pipeline_tagged_loops(%root): every scf.for under %root that
// carries the unit attribute `pipeline` is software-pipelined by
// transform.pipeline.schedule_stages at the target's stage limit, with the
// decision explained (a remark per scheduled op and per loop). The target
// is the payload's (transform.hwsched.attach_target_spec), the driver's
// (`hwsched-opt --hwsched-target=NAME`, `$HWSCHED_TARGET`), else the
// builtin default: one script for every spec. bench/pipeline/run.py runs
// it over test/Pipeline/Inputs for each of its targets.
//
// Load with
//   hwsched-opt payload.mlir --hwsched-target=nvidia-h100 \
//     --transform-preload-library=transform-library-paths=transform-scripts/pipeline.mlir \
//     --transform-interpreter=entry-point=hwsched_pipeline_tagged_loops

module attributes {transform.with_named_sequence} {
  transform.named_sequence @hwsched_pipeline_tagged_loops(
      %root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root
        : (!transform.any_op) -> !transform.op<"scf.for">
    %pipelined = transform.pipeline.schedule_stages %loops { explain }
        : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
