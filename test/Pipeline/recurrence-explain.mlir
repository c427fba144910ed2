// schedule_stages { explain } names the recurrence that sets RecMII and its
// cause. Memrefs that are plain function arguments may alias, so a store
// through one and a load through another in the next iteration form a
// loop-carried dependence (correctly: the loop stays at one stage); the
// remark says which accesses, through which arguments, and that noalias on
// them lifts it, which it does (5 stages, RecMII 1; exec-checked).
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s
// (The pipelined noalias case run on the CPU:
// integration_test/Pipeline/recurrence-explain.mlir.)

// CHECK-LABEL: remark: RECURRENCE-CASE aliasing
// CHECK: remark: stages 1 of limit 5: ResMII 4, RecMII 554
// CHECK: remark: RecMII 554 is set by the recurrence 'memref.copy' (line {{[0-9]+}}) -> 'linalg.exp' (line {{[0-9]+}}) -> 'memref.copy' (line {{[0-9]+}}) of the next iteration; 'memref.copy' (line {{[0-9]+}}) reads argument #0 of @scale_rows after 'linalg.exp' (line {{[0-9]+}}) writes argument #1 of @scale_rows in the previous iteration (RAW): the two may be the same memory (function arguments may alias unless marked noalias); marking arguments #0 and #1 of @scale_rows `llvm.noalias` (`bufferization.noalias` on tensor arguments, before bufferization) says they do not alias and lifts this recurrence
module attributes {transform.with_named_sequence} {
  func.func @scale_rows(%A: memref<64x16xf32>, %C: memref<64x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %s = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c64 step %c1 {
      %a = memref.subview %A[%i, 0] [1, 16] [1, 1] : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      memref.copy %a, %s : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32, #gpu.address_space<workgroup>>
      %c = memref.subview %C[%i, 0] [1, 16] [1, 1] : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      linalg.exp ins(%s : memref<16xf32, #gpu.address_space<workgroup>>) outs(%c : memref<16xf32, strided<[1], offset: ?>>)
    }
    memref.dealloc %s : memref<16xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %root, "RECURRENCE-CASE aliasing" : !transform.any_op
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// The same loop with llvm.noalias on both arguments: pipelined.
// CHECK-LABEL: remark: RECURRENCE-CASE llvm.noalias
// CHECK: remark: stages 5 of limit 5: ResMII 4, RecMII 1, MII 4
// CHECK-NOT: is set by the recurrence
// CHECK: remark: on-chip bytes
module attributes {transform.with_named_sequence} {
// NOALIAS-BEGIN
  func.func @scale_rows(%A: memref<64x16xf32> {llvm.noalias}, %C: memref<64x16xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %s = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c64 step %c1 {
      %a = memref.subview %A[%i, 0] [1, 16] [1, 1] : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      memref.copy %a, %s : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32, #gpu.address_space<workgroup>>
      %c = memref.subview %C[%i, 0] [1, 16] [1, 1] : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      linalg.exp ins(%s : memref<16xf32, #gpu.address_space<workgroup>>) outs(%c : memref<16xf32, strided<[1], offset: ?>>)
    }
    memref.dealloc %s : memref<16xf32, #gpu.address_space<workgroup>>
    return
  }
// NOALIAS-END
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %root, "RECURRENCE-CASE llvm.noalias" : !transform.any_op
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// llvm.noalias on one argument is enough: memory reached through it is
// reached through no other argument.
// CHECK-LABEL: remark: RECURRENCE-CASE one llvm.noalias
// CHECK: remark: stages 5 of limit 5: ResMII 4, RecMII 1, MII 4
// CHECK-NOT: is set by the recurrence
// CHECK: remark: on-chip bytes
module attributes {transform.with_named_sequence} {
  func.func @scale_rows(%A: memref<64x16xf32>, %C: memref<64x16xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %s = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c64 step %c1 {
      %a = memref.subview %A[%i, 0] [1, 16] [1, 1] : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      memref.copy %a, %s : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32, #gpu.address_space<workgroup>>
      %c = memref.subview %C[%i, 0] [1, 16] [1, 1] : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      linalg.exp ins(%s : memref<16xf32, #gpu.address_space<workgroup>>) outs(%c : memref<16xf32, strided<[1], offset: ?>>)
    }
    memref.dealloc %s : memref<16xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %root, "RECURRENCE-CASE one llvm.noalias" : !transform.any_op
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}

// -----

// A real recurrence, through one buffer: each iteration adds its row into
// an accumulator that the next iteration reads. No noalias advice.
// CHECK-LABEL: remark: RECURRENCE-CASE one buffer
// CHECK: remark: RecMII {{[0-9]+}} is set by the recurrence 'linalg.add' (line {{[0-9]+}}) -> 'linalg.add' (line {{[0-9]+}}) of the next iteration; 'linalg.add' (line {{[0-9]+}}) accesses the buffer of 'memref.alloc' (line {{[0-9]+}}) after 'linalg.add' (line {{[0-9]+}}) accesses the buffer of 'memref.alloc' (line {{[0-9]+}}) in the previous iteration ({{RAW|WAW}}), one memory for both iterations (not multi-buffered: used outside the loop)
// CHECK-NOT: noalias
// CHECK: remark: on-chip bytes
module attributes {transform.with_named_sequence} {
  func.func @row_sum(%A: memref<64x16xf32>, %O: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %acc = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c64 step %c1 {
      %a = memref.subview %A[%i, 0] [1, 16] [1, 1] : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      linalg.add ins(%acc, %a : memref<16xf32, #gpu.address_space<workgroup>>, memref<16xf32, strided<[1], offset: ?>>) outs(%acc : memref<16xf32, #gpu.address_space<workgroup>>)
    }
    memref.copy %acc, %O : memref<16xf32, #gpu.address_space<workgroup>> to memref<16xf32>
    memref.dealloc %acc : memref<16xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %root, "RECURRENCE-CASE one buffer" : !transform.any_op
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", explain } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
