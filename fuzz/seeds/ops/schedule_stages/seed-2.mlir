// op_fuzz corpus entry for schedule_stages (replayed by CI)
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
      %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) {
      ^bb0(%in: f32, %out: f32):
        %7 = arith.maximumf %in, %cst : f32
        linalg.yield %7 : f32
      } -> tensor<?x?xf32>
      %4 = linalg.add ins(%3, %2 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
      %5 = tensor.empty(%dim) : tensor<?xf32>
      %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<?xf32>) -> tensor<?xf32>
      %reduced = linalg.reduce ins(%4 : tensor<?x?xf32>) outs(%6 : tensor<?xf32>) dimensions = [1] 
        (%in: f32, %init: f32) {
          %7 = arith.addf %in, %init : f32
          linalg.yield %7 : f32
        }
      return %4, %reduced : tensor<?x?xf32>, tensor<?xf32>
    }
  }
  transform.named_sequence @__rob_main(%root: !transform.any_op) {
    transform.debug.emit_remark_at %root, "ROB-BEGIN 1" : !transform.any_op
    %r = transform.pipeline.schedule_stages %root {target = "@HWSCHED_SRC@/test/HwSpec/Inputs/negative-capacity.json", "onchip..capacity_bytes" = 0xFFF0000000000000 : f32, "onchip.memory_space" = {a = 1}, explain} : (!transform.any_op) -> !transform.any_op
    %again = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %root, "ROB-OK 1" : !transform.any_op
    transform.yield
  }
}
