// op_fuzz finding: verifier failure
// replay: fuzz/op_fuzz.py --replay fuzz/regressions/ops/outline_kernel_function-0396757cb92f.mlir
module attributes {transform.with_named_sequence} {
  module attributes {transform.target_tag = "rob_payload"} {
    func.func @kernel(%arg0: memref<8xf32>, %arg1: memref<16x8xf32>) {
      linalg.broadcast ins(%arg0 : memref<8xf32>) outs(%arg1 : memref<16x8xf32>) dimensions = [0] 
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg1 : memref<16x8xf32>) outs(%arg1 : memref<16x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %cst = arith.constant 5.000000e-01 : f32
        %0 = arith.mulf %in, %cst : f32
        linalg.yield %0 : f32
      }
      return
    }
    func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
    func.func private @pattern(%arg0: index, %arg1: index, %arg2: index) -> f32 {
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %c7 = arith.constant 7 : index
      %c11 = arith.constant 11 : index
      %cst = arith.constant 2.500000e-01 : f32
      %0 = arith.muli %arg0, %c7 : index
      %1 = arith.muli %arg1, %c3 : index
      %2 = arith.addi %0, %1 : index
      %3 = arith.addi %2, %arg2 : index
      %4 = arith.remui %3, %c11 : index
      %5 = arith.subi %4, %c5 : index
      %6 = arith.index_cast %5 : index to i32
      %7 = arith.sitofp %6 : i32 to f32
      %8 = arith.mulf %7, %cst : f32
      return %8 : f32
    }
    func.func private @fill1d(%arg0: memref<?xf32>, %arg1: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %dim = memref.dim %arg0, %c0 : memref<?xf32>
      scf.for %arg2 = %c0 to %dim step %c1 {
        %0 = func.call @pattern(%arg2, %c0, %arg1) : (index, index, index) -> f32
        memref.store %0, %arg0[%arg2] : memref<?xf32>
      }
      return
    }
    func.func private @fill2d(%arg0: memref<?x?xf32>, %arg1: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %dim = memref.dim %arg0, %c0 : memref<?x?xf32>
      %dim_0 = memref.dim %arg0, %c1 : memref<?x?xf32>
      scf.for %arg2 = %c0 to %dim step %c1 {
        scf.for %arg3 = %c0 to %dim_0 step %c1 {
          %0 = func.call @pattern(%arg2, %arg3, %arg1) : (index, index, index) -> f32
          memref.store %0, %arg0[%arg2, %arg3] : memref<?x?xf32>
        }
      }
      return
    }
    func.func @main() {
      %alloc = memref.alloc() : memref<8xf32>
      %cast = memref.cast %alloc : memref<8xf32> to memref<?xf32>
      %c1 = arith.constant 1 : index
      call @fill1d(%cast, %c1) : (memref<?xf32>, index) -> ()
      %alloc_0 = memref.alloc() : memref<16x8xf32>
      %cast_1 = memref.cast %alloc_0 : memref<16x8xf32> to memref<?x?xf32>
      %c4 = arith.constant 4 : index
      call @fill2d(%cast_1, %c4) : (memref<?x?xf32>, index) -> ()
      call @kernel(%alloc, %alloc_0) : (memref<8xf32>, memref<16x8xf32>) -> ()
      %cast_2 = memref.cast %alloc_0 : memref<16x8xf32> to memref<*xf32>
      call @printMemrefF32(%cast_2) : (memref<*xf32>) -> ()
      memref.dealloc %alloc : memref<8xf32>
      memref.dealloc %alloc_0 : memref<16x8xf32>
      return
    }
  }
  transform.named_sequence @__rob_main(%root: !transform.any_op) {
    transform.debug.emit_remark_at %root, "ROB-BEGIN 46" : !transform.any_op
    %all = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %r:2 = transform.hwsched.outline_kernel_function %all {target = "nvidia-a100", "onchip.memory_space" = #gpu.address_space<workgroup>, explain2 = -9223372036854775808 : i64, "pipeline.max_stages" = {a = 1}, func_name = "hwsched_tensorcore_kernel", explain} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %again = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %root, "ROB-OK 46" : !transform.any_op
    transform.yield
  }
}
