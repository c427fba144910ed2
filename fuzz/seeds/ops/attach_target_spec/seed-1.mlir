// op_fuzz corpus entry for attach_target_spec (replayed by CI)
module attributes {transform.with_named_sequence} {
  module attributes {transform.target_tag = "rob_payload"} {
    func.func @kernel(%arg0: memref<32xf32>, %arg1: memref<32xf32>) {
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      gpu.launch blocks(%arg2, %arg3, %arg4) in (%arg8 = %c1, %arg9 = %c1, %arg10 = %c1) threads(%arg5, %arg6, %arg7) in (%arg11 = %c32, %arg12 = %c1, %arg13 = %c1) {
        %alloc = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
        %alloc_0 = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
        %0 = arith.muli %arg2, %arg11 : index
        %1 = arith.addi %0, %arg5 : index
        %2 = memref.load %arg0[%1] : memref<32xf32>
        memref.store %2, %alloc[%arg5] : memref<32xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %3 = memref.load %alloc[%arg5] : memref<32xf32, #gpu.address_space<workgroup>>
        %4 = arith.addf %3, %2 : f32
        memref.store %4, %alloc_0[%arg5] : memref<32xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %5 = memref.load %alloc_0[%arg5] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %5, %arg1[%1] : memref<32xf32>
        gpu.terminator
      }
      return
    }
  }
  transform.named_sequence @__rob_main(%root: !transform.any_op) {
    transform.debug.emit_remark_at %root, "ROB-BEGIN 1" : !transform.any_op
    %all = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h:1 = transform.split_handle %all : (!transform.any_op) -> (!transform.any_op)
    transform.hwsched.attach_target_spec %h#0 {reg_limit = 1 : index, explain} : !transform.any_op
    %again = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %root, "ROB-OK 1" : !transform.any_op
    transform.yield
  }
}
