// op_fuzz corpus entry for schedule_stages (replayed by CI)
module attributes {transform.with_named_sequence} {
  module attributes {transform.target_tag = "rob_payload"} {
    func.func @kernel(%arg0: tensor<6x16xf32>, %arg1: tensor<16x8xf32>) -> (tensor<6x8xf32>, tensor<6xf32>) {
      %0 = tensor.empty() : tensor<6x8xf32>
      %cst = arith.constant 0.000000e+00 : f32
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<6x8xf32>) -> tensor<6x8xf32>
      %2 = linalg.matmul ins(%arg0, %arg1 : tensor<6x16xf32>, tensor<16x8xf32>) outs(%1 : tensor<6x8xf32>) -> tensor<6x8xf32>
      %3 = linalg.add ins(%2, %2 : tensor<6x8xf32>, tensor<6x8xf32>) outs(%0 : tensor<6x8xf32>) -> tensor<6x8xf32>
      %4 = tensor.empty() : tensor<8x6xf32>
      %transposed = linalg.transpose ins(%3 : tensor<6x8xf32>) outs(%4 : tensor<8x6xf32>) permutation = [1, 0] 
      %transposed_0 = linalg.transpose ins(%transposed : tensor<8x6xf32>) outs(%0 : tensor<6x8xf32>) permutation = [1, 0] 
      %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%transposed_0 : tensor<6x8xf32>) outs(%0 : tensor<6x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %8 = arith.maximumf %in, %cst : f32
        linalg.yield %8 : f32
      } -> tensor<6x8xf32>
      %6 = tensor.empty() : tensor<6xf32>
      %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<6xf32>) -> tensor<6xf32>
      %reduced = linalg.reduce ins(%5 : tensor<6x8xf32>) outs(%7 : tensor<6xf32>) dimensions = [1] 
        (%in: f32, %init: f32) {
          %8 = arith.addf %in, %init : f32
          linalg.yield %8 : f32
        }
      return %5, %reduced : tensor<6x8xf32>, tensor<6xf32>
    }
  }
  transform.named_sequence @__rob_main(%root: !transform.any_op) {
    transform.debug.emit_remark_at %root, "ROB-BEGIN 1" : !transform.any_op
    %all = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %h:8 = transform.split_handle %all : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %r = transform.pipeline.schedule_stages %h#5 {target = "nvidia-rtx4090", "npu.ping_pong_factor" = array<i64: 1, 64>, num_stages = 1000, explain} : (!transform.any_op) -> !transform.any_op
    %again = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %root, "ROB-OK 1" : !transform.any_op
    transform.yield
  }
}
