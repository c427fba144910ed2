// RUN: env HWSCHED_SPEC_PATH=%S/../HwSpec/Inputs hwsched-opt %s --transform-interpreter --split-input-file -verify-diagnostics
// RUN: env HWSCHED_SPEC_PATH=%S/../HwSpec/Inputs hwsched-opt %s --transform-interpreter --split-input-file -verify-diagnostics --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s

// A handle to a non-Linalg op: silenceable failure, payload unchanged.

// CHECK-LABEL: func.func @not_linalg
// CHECK: linalg.exp
// expected-note @below {{payload op}}
func.func @not_linalg(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{producer must be a Linalg / TilingInterface op, got 'func.func'}}
    %c = transform.cost_model.filter_fusable_consumers %f {target = "nvidia-a100"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @estimate_not_linalg(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-note @below {{payload op}}
  return %x : tensor<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{payload op must be a Linalg / TilingInterface op, got 'func.return'}}
    %r = transform.cost_model.estimate %f {target = "nvidia-a100", metric = "flops"} : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// An unknown metric: the error lists the known ones.

func.func @unknown_metric(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown metric 'bandwidth'; known metrics: registers_per_thread, onchip_bytes, offchip_bytes, flops, estimated_time_ns}}
    %r = transform.cost_model.estimate %e {target = "nvidia-a100", metric = "bandwidth"} : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// Registers per thread are a GPU figure.

func.func @regs_on_npu(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{metric 'registers_per_thread' is modelled for GPU targets only; 'ascend-910b' is a npu}}
    %r = transform.cost_model.estimate %e {target = "ascend-910b", metric = "registers_per_thread"} : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// No consumers: an empty result, no error.

func.func @no_consumers(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %e {target = "x86-avx512", explain} : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %c : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{consumers: 0 : i64}}
    transform.debug.emit_param_as_remark %n, "consumers:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// Dynamic shapes without upper bounds: the conservative decision (not fused)
// with a remark; size-dependent metrics fail, registers are estimated from
// the spec's default per-thread tile with a remark.

func.func @dynamic(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  // expected-remark @below {{dynamic shapes: conservative estimate of 'registers_per_thread'}}
  // expected-note @below {{payload op}}
  %a = linalg.exp ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  // expected-remark @below {{dynamic shapes: conservative fusion decision (reject: dynamic shapes without upper bounds: conservative decision, not fused)}}
  %m = linalg.mul ins(%a, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %m : tensor<?x?xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %a {target = "nvidia-a100"} : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %c : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{fusable: 0 : i64}}
    transform.debug.emit_param_as_remark %n, "fusable:" : !transform.param<i64>
    %r = transform.cost_model.estimate %a {target = "nvidia-a100", metric = "registers_per_thread"} : (!transform.any_op) -> !transform.param<i64>
    // expected-error @below {{metric 'flops' needs static shapes or upper bounds of the dynamic ones}}
    %f = transform.cost_model.estimate %a {target = "nvidia-a100", metric = "flops"} : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// A spec without the model's calibration keys (a user spec written before
// the cost model existed): the failure names the file and the key.

func.func @missing_key(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %n = linalg.negf ins(%r : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %n : tensor<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{good-cpu.json' has no 'cost_weights.recompute_limit', which the cpu cost model needs}}
    %c = transform.cost_model.filter_fusable_consumers %e {target = "good-cpu"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
