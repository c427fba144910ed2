// Transform library for test/Copies/memory-spaces.mlir: the target comes
// from a unit attribute on each function, so one file shows how each spec
// (and an inline override of onchip.direct_read_spaces) decides a
// memory-space-changing copy.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    // x86-avx512 declares ["* -> *"]: every space is the same DRAM.
    %cpu = transform.structured.match ops{["func.func"]}
        attributes{on_cpu} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.eliminate_redundant_copies %cpu
        { target = "x86-avx512", explain } : !transform.any_op
    // nvidia-a100 declares no pair: staging copies stay.
    %gpu = transform.structured.match ops{["func.func"]}
        attributes{on_gpu} in %root : (!transform.any_op) -> !transform.any_op
    transform.smem.eliminate_redundant_copies %gpu
        { target = "nvidia-a100", explain } : !transform.any_op
    // The same GPU spec, told inline that workgroup readers lose nothing
    // reading the default space.
    %gpu_direct = transform.structured.match ops{["func.func"]}
        attributes{on_gpu_direct} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.smem.eliminate_redundant_copies %gpu_direct
        { target = "nvidia-a100", explain,
          "onchip.direct_read_spaces" = ["default -> #gpu.address_space<workgroup>"] }
        : !transform.any_op
    // The CPU spec with its pairs taken away.
    %cpu_none = transform.structured.match ops{["func.func"]}
        attributes{on_cpu_no_pairs} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.smem.eliminate_redundant_copies %cpu_none
        { target = "x86-avx512", explain, "onchip.direct_read_spaces" = [] }
        : !transform.any_op
    transform.yield
  }
}
