// Transform entry points for async-exec.mlir: schedule_stages on the loops
// tagged `pipeline`, and sabotaged variants that raise the inserted wait
// counts (the emulation must then make the check fail).
module attributes {transform.with_named_sequence} {
  // Only the static-trip loops (tagged `static_trip`) are pipelined here, and
  // their kernel waits (inside the new loop) keep one group more in flight
  // than the schedule allows: the reads see a stale buffer.
  transform.named_sequence @s3_kernel_wait_plus1(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{static_trip} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    %n = transform.param.constant 3 : i32 -> !transform.param<i32>
    transform.foreach %p : !transform.op<"scf.for"> {
    ^bb0(%l: !transform.op<"scf.for">):
      %w = transform.structured.match ops{["nvgpu.device_async_wait"]} in %l : (!transform.op<"scf.for">) -> !transform.any_op
      transform.annotate %w "numGroups" = %n : !transform.any_op, !transform.param<i32>
    }
    transform.yield
  }
  transform.named_sequence @s2_kernel_wait_plus1(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{static_trip} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100", num_stages = 2 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    %n = transform.param.constant 2 : i32 -> !transform.param<i32>
    transform.foreach %p : !transform.op<"scf.for"> {
    ^bb0(%l: !transform.op<"scf.for">):
      %w = transform.structured.match ops{["nvgpu.device_async_wait"]} in %l : (!transform.op<"scf.for">) -> !transform.any_op
      transform.annotate %w "numGroups" = %n : !transform.any_op, !transform.param<i32>
    }
    transform.yield
  }
  // Every wait in the functions (prologue, kernel, epilogue) lets 8 groups
  // stay in flight: copies are still pending when the function returns.
  transform.named_sequence @s3_all_waits_8(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{pipeline} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loops { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    %w = transform.structured.match ops{["nvgpu.device_async_wait"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 8 : i32 -> !transform.param<i32>
    transform.annotate %w "numGroups" = %n : !transform.any_op, !transform.param<i32>
    transform.yield
  }
}
