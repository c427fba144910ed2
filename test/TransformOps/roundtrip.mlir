// Every hwsched op parses and prints back (the seed syntax of DESIGN.md).
//
// RUN: hwsched-opt %s | hwsched-opt | FileCheck %s

// CHECK-LABEL: transform.named_sequence @all_ops
module attributes {transform.with_named_sequence} {
  transform.named_sequence @all_ops(%producer: !transform.any_op, %loop: !transform.op<"scf.for">, %func: !transform.any_op) {
    // CHECK: transform.cost_model.filter_fusable_consumers %{{.*}} {reg_limit = 128 : i64, target = "ascend-910b", ub_limit_bytes = 245760 : i64} : (!transform.any_op) -> !transform.any_op
    %fusable = transform.cost_model.filter_fusable_consumers %producer { target = "ascend-910b", ub_limit_bytes = 245760, reg_limit = 128 } : (!transform.any_op) -> !transform.any_op
    // CHECK: transform.cost_model.estimate %{{.*}} {metric = "registers_per_thread", target = "nvidia-a100"} : (!transform.any_op) -> !transform.param<i64>
    %regs = transform.cost_model.estimate %producer { target = "nvidia-a100", metric = "registers_per_thread" } : (!transform.any_op) -> !transform.param<i64>
    // CHECK: transform.cost_model.select_tile_config %{{.*}} {target = "nvidia-h100"} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %t:5 = transform.cost_model.select_tile_config %producer { target = "nvidia-h100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // CHECK: transform.cost_model.select_tile_config %{{.*}} {target = "nvidia-h100"} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %u:6 = transform.cost_model.select_tile_config %producer { target = "nvidia-h100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    // CHECK: transform.hwsched.split_k %{{.*}} by %{{.*}} : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %sf, %part, %comb = transform.hwsched.split_k %producer by %u#5 : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // CHECK: transform.pipeline.schedule_stages %{{.*}} {num_stages = 3 : i64, target = "nvidia-h100"} : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    %loop2 = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 3 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    // CHECK: transform.smem.merge_allocations %{{.*}} {explain, target = "nvidia-a100"} : (!transform.any_op) -> !transform.any_op
    %buf = transform.smem.merge_allocations %func { target = "nvidia-a100", explain } : (!transform.any_op) -> !transform.any_op
    // CHECK: transform.smem.eliminate_redundant_copies %{{.*}} {target = "nvidia-a100"} : !transform.any_op
    transform.smem.eliminate_redundant_copies %func { target = "nvidia-a100" } : !transform.any_op
    // CHECK: transform.hwsched.attach_target_spec %{{.*}} {target = "x86-avx512"} : !transform.any_op
    transform.hwsched.attach_target_spec %func { target = "x86-avx512" } : !transform.any_op
    // CHECK: transform.apply_patterns.hwsched.mma_sync_f32_to_tf32
    transform.apply_patterns to %func {
      transform.apply_patterns.hwsched.mma_sync_f32_to_tf32
    } : !transform.any_op
    // CHECK: transform.apply_patterns.hwsched.mma_sync_bf16_to_nvvm
    transform.apply_patterns to %func {
      transform.apply_patterns.hwsched.mma_sync_bf16_to_nvvm
    } : !transform.any_op
    // CHECK: transform.apply_patterns.hwsched.mma_sync_tf32_to_nvvm
    transform.apply_patterns to %func {
      transform.apply_patterns.hwsched.mma_sync_tf32_to_nvvm
    } : !transform.any_op
    transform.yield
  }
}
