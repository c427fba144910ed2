// op_fuzz finding: verifier failure
// replay: fuzz/op_fuzz.py --replay fuzz/regressions/ops/outline_kernel_function-1ca3ad600ec4.mlir
module attributes {transform.with_named_sequence} {
  module attributes {transform.target_tag = "rob_payload"} {
    func.func @kernel(%arg0: memref<8x12xf32>, %arg1: memref<12x16xf32>, %arg2: memref<8x16xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      linalg.fill ins(%cst : f32) outs(%arg2 : memref<8x16xf32>)
      %alloc = memref.alloc() : memref<8x4xf32, 3>
      %alloc_0 = memref.alloc() : memref<4x16xf32>
      %c0 = arith.constant 0 : index
      %c12 = arith.constant 12 : index
      %c4 = arith.constant 4 : index
      scf.for %arg3 = %c0 to %c12 step %c4 {
        %subview = memref.subview %arg0[0, %arg3] [8, 4] [1, 1] : memref<8x12xf32> to memref<8x4xf32, strided<[12, 1], offset: ?>>
        %subview_1 = memref.subview %arg1[%arg3, 0] [4, 16] [1, 1] : memref<12x16xf32> to memref<4x16xf32, strided<[16, 1], offset: ?>>
        memref.copy %subview, %alloc : memref<8x4xf32, strided<[12, 1], offset: ?>> to memref<8x4xf32, 3>
        memref.copy %subview_1, %alloc_0 : memref<4x16xf32, strided<[16, 1], offset: ?>> to memref<4x16xf32>
        linalg.matmul ins(%alloc, %alloc_0 : memref<8x4xf32, 3>, memref<4x16xf32>) outs(%arg2 : memref<8x16xf32>)
      }
      memref.dealloc %alloc : memref<8x4xf32, 3>
      memref.dealloc %alloc_0 : memref<4x16xf32>
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
      %alloc = memref.alloc() : memref<8x12xf32>
      %cast = memref.cast %alloc : memref<8x12xf32> to memref<?x?xf32>
      %c1 = arith.constant 1 : index
      call @fill2d(%cast, %c1) : (memref<?x?xf32>, index) -> ()
      %alloc_0 = memref.alloc() : memref<12x16xf32>
      %cast_1 = memref.cast %alloc_0 : memref<12x16xf32> to memref<?x?xf32>
      %c4 = arith.constant 4 : index
      call @fill2d(%cast_1, %c4) : (memref<?x?xf32>, index) -> ()
      %alloc_2 = memref.alloc() : memref<8x16xf32>
      %cast_3 = memref.cast %alloc_2 : memref<8x16xf32> to memref<?x?xf32>
      %c7 = arith.constant 7 : index
      call @fill2d(%cast_3, %c7) : (memref<?x?xf32>, index) -> ()
      call @kernel(%alloc, %alloc_0, %alloc_2) : (memref<8x12xf32>, memref<12x16xf32>, memref<8x16xf32>) -> ()
      %cast_4 = memref.cast %alloc_2 : memref<8x16xf32> to memref<*xf32>
      call @printMemrefF32(%cast_4) : (memref<*xf32>) -> ()
      memref.dealloc %alloc : memref<8x12xf32>
      memref.dealloc %alloc_0 : memref<12x16xf32>
      memref.dealloc %alloc_2 : memref<8x16xf32>
      return
    }
  }
  transform.named_sequence @__rob_main(%root: !transform.any_op) {
    transform.debug.emit_remark_at %root, "ROB-BEGIN 23" : !transform.any_op
    %all = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %r:2 = transform.hwsched.outline_kernel_function %all {target = "@HWSCHED_SRC@/test/HwSpec/Inputs/zero-capacity.json", func_name = "", explain} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %again = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %root, "ROB-OK 23" : !transform.any_op
    transform.yield
  }
}
