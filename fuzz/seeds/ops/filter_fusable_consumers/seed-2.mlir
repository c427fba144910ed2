// op_fuzz corpus entry for filter_fusable_consumers (replayed by CI)
module attributes {transform.with_named_sequence} {
  module attributes {transform.target_tag = "rob_payload"} {
    func.func @kernel(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %dim = tensor.dim %arg0, %c0 : tensor<?x?xf32>
      %dim_0 = tensor.dim %arg1, %c1 : tensor<?x?xf32>
      %0 = tensor.empty(%dim, %dim_0) : tensor<?x?xf32>
      %cst = arith.constant 0.000000e+00 : f32
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
      %2 = linalg.matmul ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%1 : tensor<?x?xf32>) -> tensor<?x?xf32>
      %3 = linalg.add ins(%2, %2 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
      %4 = tensor.empty(%dim) : tensor<?xf32>
      %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<?xf32>) -> tensor<?xf32>
      %reduced = linalg.reduce ins(%3 : tensor<?x?xf32>) outs(%5 : tensor<?xf32>) dimensions = [1] 
        (%in: f32, %init: f32) {
          %6 = arith.addf %in, %init : f32
          linalg.yield %6 : f32
        }
      return %3, %reduced : tensor<?x?xf32>, tensor<?xf32>
    }
  }
  transform.named_sequence @__rob_main(%root: !transform.any_op) {
    transform.debug.emit_remark_at %root, "ROB-BEGIN 1" : !transform.any_op
    %all = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.cost_model.filter_fusable_consumers %all {target = "nvidia-rtx4090", "onchip.capacity_bytes" = 1 : i128, "pipeline.units.cube.count" = 3 : i64, explain} : (!transform.any_op) -> !transform.any_op
    %again = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %root, "ROB-OK 1" : !transform.any_op
    transform.yield
  }
}
