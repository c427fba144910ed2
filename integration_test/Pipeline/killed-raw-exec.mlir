// A loop-carried RAW whose read is killed by a write earlier in the reader's
// iteration carries no value: the scratch buffer of Inputs/killed-raw-exec.mlir
// is refilled at the top of every iteration, so the refill later in the body
// feeds only its own iteration. The scheduler used to keep that RAW with the
// copy latency around the loop (RecMII 550 on the H100, 600 on the 910B, 5 on
// the CPU); now the loop is bound by its stage limit only, with a shorter
// interval on the H100 (550 -> 221) and the same one elsewhere. The rewritten
// loops print exactly what the original prints.
//
// RUN: hwsched-opt %test_src/Pipeline/Inputs/killed-raw-exec.mlir --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/explain-lib.mlir \
// RUN:   --transform-interpreter=entry-point=h100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=H100
// RUN: sed -e 's/#gpu.address_space<workgroup>/"ub"/g' %test_src/Pipeline/Inputs/killed-raw-exec.mlir > %t.npu.mlir
// RUN: hwsched-opt %t.npu.mlir --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/explain-lib.mlir \
// RUN:   --transform-interpreter=entry-point=ascend -o /dev/null 2>&1 | FileCheck %s --check-prefix=NPU
// RUN: sed -e 's/#gpu.address_space<workgroup>/0/g' %test_src/Pipeline/Inputs/killed-raw-exec.mlir > %t.cpu.mlir
// RUN: hwsched-opt %t.cpu.mlir --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/explain-lib.mlir \
// RUN:   --transform-interpreter=entry-point=cpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
//
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/killed-raw-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100 | FileCheck %s
// RUN: %python %utils/exec-check.py %test_src/Pipeline/Inputs/killed-raw-exec.mlir --erase-memory-spaces --erase-gpu-barriers --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=h100_s2 | FileCheck %s
// RUN: %python %utils/exec-check.py %t.npu.mlir --erase-memory-spaces --emulate-npu-sync --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=ascend | FileCheck %s
// RUN: %python %utils/exec-check.py %t.cpu.mlir --erase-memory-spaces --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Pipeline/Inputs/pipeline-lib.mlir --transform-interpreter=entry-point=cpu | FileCheck %s

// The scratch buffer is multi-buffered (its copies rotate) and no loop-carried
// dependence is left: RecMII 1.
// H100: buffer 5 copies x 64 bytes on chip
// H100: stages 5 of limit 5: ResMII 8, RecMII 1, MII 8, achieved interval 221, lower bound with 5 stages 221
// NPU: stages 2 of limit 2: ResMII 16, RecMII 1, MII 16, achieved interval 608, lower bound with 2 stages 601
// CPU: stages 2 of limit 2: ResMII 1, RecMII 1, MII 1, achieved interval 6, lower bound with 2 stages 6

// CHECK: EXEC-CHECK: PASS
