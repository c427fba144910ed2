// Transform entry points for
// integration_test/Scripts/gpu-matmul-tensorcore-scheduled-exec.test: the
// pipelined K loop of @gpu_matmul_tensorcore_thread_level_scheduled, each
// with one of its synchronisation decisions undone, which the emulation of
// the block's threads must show as wrong. Applied after the schedule (a
// second --transform-interpreter entry point).
module attributes {transform.with_named_sequence} {
  // The one barrier of each K step replaced by a memory fence: the step's
  // copies may overwrite the slot other threads are still reading, and
  // threads read tiles the others have not waited for.
  transform.named_sequence @kernel_barrier_to_fence(
      %root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %barriers = transform.structured.match ops{["gpu.barrier"]} in %loop
        : (!transform.any_op) -> !transform.any_op
    %fences = transform.structured.replace %barriers {
      omp.flush
    } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  // The kernel's wait lets one group more stay in flight: the step reads a
  // tile whose copies have not landed.
  transform.named_sequence @kernel_wait_plus1(
      %root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %waits = transform.structured.match ops{["nvgpu.device_async_wait"]} in %loop
        : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant 2 : i32 -> !transform.param<i32>
    transform.annotate %waits "numGroups" = %n : !transform.any_op, !transform.param<i32>
    transform.yield
  }
}
