// op_fuzz corpus entry for select_tile_config (replayed by CI)
module attributes {transform.with_named_sequence} {
  module attributes {transform.target_tag = "rob_payload"} {
    func.func @kernel(%arg0: tensor<6x6xf32>, %arg1: tensor<6x4xf32>) -> tensor<6x4xf32> {
      %0 = tensor.empty() : tensor<6x4xf32>
      %cst = arith.constant 0.000000e+00 : f32
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<6x4xf32>) -> tensor<6x4xf32>
      %2 = linalg.matmul ins(%arg0, %arg1 : tensor<6x6xf32>, tensor<6x4xf32>) outs(%1 : tensor<6x4xf32>) -> tensor<6x4xf32>
      %3 = linalg.add ins(%2, %2 : tensor<6x4xf32>, tensor<6x4xf32>) outs(%0 : tensor<6x4xf32>) -> tensor<6x4xf32>
      %4 = tensor.empty() : tensor<4x6xf32>
      %transposed = linalg.transpose ins(%3 : tensor<6x4xf32>) outs(%4 : tensor<4x6xf32>) permutation = [1, 0] 
      %transposed_0 = linalg.transpose ins(%transposed : tensor<4x6xf32>) outs(%0 : tensor<6x4xf32>) permutation = [1, 0] 
      return %transposed_0 : tensor<6x4xf32>
    }
  }
  transform.named_sequence @__rob_main(%root: !transform.any_op) {
    transform.debug.emit_remark_at %root, "ROB-BEGIN 1" : !transform.any_op
    transform.hwsched.attach_target_spec %root {target = "x86-avx512"} : !transform.any_op
    %all = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %h:5 = transform.split_handle %all : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %t:5 = transform.cost_model.select_tile_config %h#4 {"onchip.capacity_bytes" = "", explain} : (!transform.any_op) -> (!transform.any_param, !transform.any_param, !transform.any_param, !transform.any_param, !transform.any_param)
    transform.debug.emit_param_as_remark %t#0, "ROB-RESULT" : !transform.any_param
    %again = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %root, "ROB-OK 1" : !transform.any_op
    transform.yield
  }
}
