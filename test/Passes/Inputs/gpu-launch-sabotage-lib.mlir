// Transform entry points for integration_test/Passes/emulate-gpu-launch.mlir:
// sabotaged variants of a correct kernel, which the emulation of its
// threads must show as wrong.
module attributes {transform.with_named_sequence} {
  // Every gpu.barrier replaced by a memory fence (omp.flush): the threads'
  // writes still become visible, but nobody waits for them any more.
  transform.named_sequence @barriers_to_fences(
      %root: !transform.any_op {transform.readonly}) {
    %barriers = transform.structured.match ops{["gpu.barrier"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %fences = transform.structured.replace %barriers {
      omp.flush
    } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
