// op_fuzz finding: verifier failure
// replay: fuzz/op_fuzz.py --replay fuzz/regressions/ops/outline_kernel_function-2cbb9e204c53.mlir
module attributes {transform.with_named_sequence} {
  module attributes {transform.target_tag = "rob_payload"} {
    func.func @kernel(%arg0: tensor<6x6xf32>, %arg1: tensor<6x8xf32>) -> (tensor<6x8xf32>, tensor<6xf32>) {
      %0 = tensor.empty() : tensor<6x8xf32>
      %cst = arith.constant 0.000000e+00 : f32
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<6x8xf32>) -> tensor<6x8xf32>
      %2 = linalg.matmul ins(%arg0, %arg1 : tensor<6x6xf32>, tensor<6x8xf32>) outs(%1 : tensor<6x8xf32>) -> tensor<6x8xf32>
      %3 = tensor.empty() : tensor<6xf32>
      %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<6xf32>) -> tensor<6xf32>
      %reduced = linalg.reduce ins(%2 : tensor<6x8xf32>) outs(%4 : tensor<6xf32>) dimensions = [1] 
        (%in: f32, %init: f32) {
          %5 = arith.addf %in, %init : f32
          linalg.yield %5 : f32
        }
      return %2, %reduced : tensor<6x8xf32>, tensor<6xf32>
    }
  }
  transform.named_sequence @__rob_main(%root: !transform.any_op) {
    transform.debug.emit_remark_at %root, "ROB-BEGIN 24" : !transform.any_op
    %all = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %r:2 = transform.hwsched.outline_kernel_function %all {target = "nvidia-h100", func_name = "f", explain} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %again = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %root, "ROB-OK 24" : !transform.any_op
    transform.yield
  }
}
