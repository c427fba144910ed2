//===- Passes.td - hwsched passes ------------------------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_PASSES
#define HWSCHED_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def HwschedAttachTargetSpec : Pass<"hwsched-attach-target-spec"> {
  let summary = "Records a hardware spec on the op as #dlti.target_system_spec";
  let description = [{
    The pass form of `transform.hwsched.attach_target_spec`, for pipelines
    that set the target before any transform script runs: hwsched ops
    without their own `target` then use this spec, and upstream DLTI queries
    read its figures.

    ```
    hwsched-opt --hwsched-attach-target-spec=target=ascend-910b in.mlir
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Spec name or path (default: the driver's default target)">,
  ];
  let dependentDialects = ["::mlir::DLTIDialect"];
}

def HwschedEraseMemorySpaces : Pass<"hwsched-erase-memory-spaces"> {
  let summary = "Drops memory spaces from every memref type";
  let description = [{
    Rewrites every memref type in the IR (values, block arguments, function
    types, type attributes such as memref.global's) to the default memory
    space. The CPU has no shared memory or unified buffer, so this is what
    lets the execution checks run GPU- and NPU-shaped IR with mlir-runner;
    it is a testing aid, not part of a real lowering.
  }];
}

#endif // HWSCHED_TRANSFORMS_PASSES
