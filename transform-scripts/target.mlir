// transform-scripts/target.mlir: choosing and reading the hardware spec.
//
// Load with
//   hwsched-opt --transform-preload-library=transform-library-paths=transform-scripts
// and call with `transform.include @<name> failures(propagate) (...)` after a
// private declaration of the sequence in your script.
module attributes {transform.with_named_sequence} {

  // @hwsched_attach_target(%module)
  // Records the target on %module as #dlti.target_system_spec, so that every
  // hwsched op below it that names no `target` uses it. The target is the one
  // already recorded on the payload, else the driver's (--hwsched-target or
  // $HWSCHED_TARGET), else nvidia-a100. Emits one remark saying which spec was
  // chosen and why. Retargeting a script is then a command-line change.
  transform.named_sequence @hwsched_attach_target(
      %module: !transform.any_op {transform.readonly}) {
    transform.hwsched.attach_target_spec %module { explain } : !transform.any_op
    transform.yield
  }

  // @hwsched_onchip_capacity(%op) -> param
  // The on-chip capacity in bytes (GPU shared memory per block, NPU unified
  // buffer, CPU L2) of the spec that applies at %op, whatever its kind: a
  // knob for scripts that size tiles or stage counts from the target.
  transform.named_sequence @hwsched_onchip_capacity(
      %op: !transform.any_op {transform.readonly}) -> !transform.any_param {
    %cap = transform.hwsched.query_spec %op { key = "onchip.capacity_bytes" }
        : (!transform.any_op) -> !transform.any_param
    transform.yield %cap : !transform.any_param
  }
}
