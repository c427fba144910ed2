// op_fuzz corpus entry for estimate (replayed by CI)
module attributes {transform.with_named_sequence} {
  module attributes {transform.target_tag = "rob_payload"} {
    func.func @kernel(%arg0: memref<128xf32>, %arg1: memref<128xf32>) {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      gpu.launch blocks(%arg2, %arg3, %arg4) in (%arg8 = %c8, %arg9 = %c1, %arg10 = %c1) threads(%arg5, %arg6, %arg7) in (%arg11 = %c16, %arg12 = %c1, %arg13 = %c1) {
        %alloc = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
        %0 = arith.muli %arg2, %arg11 : index
        %1 = arith.addi %0, %arg5 : index
        %2 = memref.load %arg0[%1] : memref<128xf32>
        memref.store %2, %alloc[%arg5] : memref<16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %3 = memref.load %alloc[%arg5] : memref<16xf32, #gpu.address_space<workgroup>>
        memref.store %3, %arg1[%1] : memref<128xf32>
        gpu.terminator
      }
      return
    }
  }
  transform.named_sequence @__rob_main(%root: !transform.any_op) {
    transform.debug.emit_remark_at %root, "ROB-BEGIN 1" : !transform.any_op
    %all = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %r = transform.cost_model.estimate %all {target = "nvidia-h100", l2_limit_bytes = 2147483647, metric = "FLOPS", explain} : (!transform.any_op) -> !transform.any_param
    transform.debug.emit_param_as_remark %r, "ROB-RESULT" : !transform.any_param
    %again = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %root, "ROB-OK 1" : !transform.any_op
    transform.yield
  }
}
