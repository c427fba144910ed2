// The library's steps are time-trace events (llvm::TimeTraceScope), written
// by hwsched-opt --hwsched-time-trace; the ops print no timing themselves.
// Benches and hwsched-tune read the events with
// utils/hwsched_tools.py:time_trace_events, as the second RUN line does.
//
// RUN: hwsched-opt %s --transform-interpreter --hwsched-time-trace=%t.json \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=STDERR --allow-empty
// RUN: %python -c "import sys; sys.path.insert(0, '%hwsched_src/utils'); \
// RUN:   from hwsched_tools import time_trace_events as ev; \
// RUN:   [print(n, len(ev('%t.json', n)), *[d for d, us in ev('%t.json', n) if us >= 0]) \
// RUN:    for n in ('hwsched::selectTileConfig', 'hwsched::buildLoopDependenceGraph', \
// RUN:              'hwsched::scheduleForSync', 'hwsched::checkPipelinePreconditions', \
// RUN:              'hwsched::pipelineLoop')]" | FileCheck %s
//
// A trace that cannot be written is an error:
// RUN: not hwsched-opt %s --transform-interpreter -o /dev/null \
// RUN:   --hwsched-time-trace=%t.missing/dir/trace.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNWRITABLE
//
// STDERR-NOT: -time:
// One event per payload op of select_tile_config (no detail: the
// enumeration sees a problem, not an op), one per loop and step of
// schedule_stages with the loop's location as detail.
// CHECK: hwsched::selectTileConfig 2
// CHECK-NEXT: hwsched::buildLoopDependenceGraph 1 loc("{{.*}}time-trace.mlir":[[LINE:[0-9]+]]:{{[0-9]+}})
// CHECK-NEXT: hwsched::scheduleForSync 1 loc("{{.*}}time-trace.mlir":[[LINE]]:
// CHECK-NEXT: hwsched::checkPipelinePreconditions 1 loc("{{.*}}time-trace.mlir":[[LINE]]:
// CHECK-NEXT: hwsched::pipelineLoop 1 loc("{{.*}}time-trace.mlir":[[LINE]]:
// UNWRITABLE: error: cannot write the time trace

module attributes {transform.with_named_sequence} {
  func.func @mm(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
    return %r : tensor<64x48xf32>
  }
  func.func @add(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %r = linalg.add ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
    return %r : tensor<16x16xf32>
  }
  func.func @copy_loop(%A: memref<64x4xf32>, %out: memref<64x4xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %s = memref.alloc() : memref<8x4xf32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c64 step %c8 {
      %a = memref.subview %A[%k, 0] [8, 4] [1, 1] : memref<64x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
      memref.copy %a, %s : memref<8x4xf32, strided<[4, 1], offset: ?>> to memref<8x4xf32, #gpu.address_space<workgroup>>
      %o = memref.subview %out[%k, 0] [8, 4] [1, 1] : memref<64x4xf32> to memref<8x4xf32, strided<[4, 1], offset: ?>>
      memref.copy %s, %o : memref<8x4xf32, #gpu.address_space<workgroup>> to memref<8x4xf32, strided<[4, 1], offset: ?>>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %t:5 = transform.cost_model.select_tile_config %mm { target = "nvidia-a100" } : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.pipeline.schedule_stages %loop { target = "nvidia-h100", num_stages = 2 } : (!transform.op<"scf.for">) -> !transform.op<"scf.for">
    transform.yield
  }
}
