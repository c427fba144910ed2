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

  // @hwsched_describe_cpu_target(%op)
  // One remark per figure the CPU schedule reads (cores, vector width and
  // registers, FMA units, caches and the cores sharing L3, clock) of the CPU
  // spec that applies at %op,
  // each with where it came from: the spec's citation, or for `host` (the
  // default when nothing names a target, as in the CPU scripts) the file or
  // instruction it was read from. Usable as an entry point:
  // --transform-interpreter=entry-point=hwsched_describe_cpu_target.
  transform.named_sequence @hwsched_describe_cpu_target(
      %op: !transform.any_op {transform.readonly}) {
    %0 = transform.hwsched.query_spec %op
        { key = "cpu.cores", default_target = "host", explain }
        : (!transform.any_op) -> !transform.any_param
    %1 = transform.hwsched.query_spec %op
        { key = "cpu.vector_width_bits", default_target = "host", explain }
        : (!transform.any_op) -> !transform.any_param
    %2 = transform.hwsched.query_spec %op
        { key = "cpu.vector_registers", default_target = "host", explain }
        : (!transform.any_op) -> !transform.any_param
    %3 = transform.hwsched.query_spec %op
        { key = "cpu.fma_units_per_core", default_target = "host", explain }
        : (!transform.any_op) -> !transform.any_param
    %4 = transform.hwsched.query_spec %op
        { key = "cpu.l1d_bytes", default_target = "host", explain }
        : (!transform.any_op) -> !transform.any_param
    %5 = transform.hwsched.query_spec %op
        { key = "cpu.l2_bytes", default_target = "host", explain }
        : (!transform.any_op) -> !transform.any_param
    %6 = transform.hwsched.query_spec %op
        { key = "cpu.l3_bytes", default_target = "host", explain }
        : (!transform.any_op) -> !transform.any_param
    %7 = transform.hwsched.query_spec %op
        { key = "cpu.l3_sharing_cores", default_target = "host", explain }
        : (!transform.any_op) -> !transform.any_param
    %8 = transform.hwsched.query_spec %op
        { key = "compute.clock_ghz", default_target = "host", explain }
        : (!transform.any_op) -> !transform.any_param
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
