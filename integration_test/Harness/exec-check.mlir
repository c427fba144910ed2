// Tests utils/exec-check.py, the execution-based semantics check.
// Inputs/matmul-exec.mlir is the payload, Inputs/tile-matmul.mlir the
// transform library (@tile_matmul preserves semantics, @wrong_transform pads
// the reduction with 1.0 and does not).

// Positive: tiling with remainders gives identical output, and the IR changed.
// RUN: %python %utils/exec-check.py %test_src/Harness/Inputs/matmul-exec.mlir --opt %mlir_opt --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Harness/Inputs/tile-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=tile_matmul \
// RUN: | FileCheck %s --check-prefix=PASS
// PASS: EXEC-CHECK: PASS (34 output lines identical)

// Negative: a semantics-changing transform must be reported, with a diff.
// RUN: not %python %utils/exec-check.py %test_src/Harness/Inputs/matmul-exec.mlir --opt %mlir_opt -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Harness/Inputs/tile-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=wrong_transform \
// RUN: | FileCheck %s --check-prefix=FAIL
// FAIL: EXEC-CHECK: FAIL (outputs differ)
// FAIL-NEXT: --- BEFORE
// FAIL-NEXT: +++ AFTER
// FAIL: Unranked Memref base@ = <addr> rank = 2 offset = 0 sizes = [33, 47]
// FAIL: -{{\[\[}}1.84375,
// FAIL: +{{\[\[}}4.84375,

// Tolerance: the wrong transform shifts values by at most 3.0.
// RUN: %python %utils/exec-check.py %test_src/Harness/Inputs/matmul-exec.mlir --opt %mlir_opt --atol 3 -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Harness/Inputs/tile-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=wrong_transform \
// RUN: | FileCheck %s --check-prefix=ATOL-PASS
// ATOL-PASS: EXEC-CHECK: PASS (34 output lines match within rtol=0 atol=3; max abs diff 3,
// RUN: not %python %utils/exec-check.py %test_src/Harness/Inputs/matmul-exec.mlir --opt %mlir_opt --atol 2.5 -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Harness/Inputs/tile-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=wrong_transform \
// RUN: | FileCheck %s --check-prefix=ATOL-FAIL
// ATOL-FAIL: EXEC-CHECK: FAIL (outputs differ beyond rtol=0 atol=2.5: line 2, number 1: BEFORE 1.84375, AFTER 4.84375

// --expect-changed rejects a transform that leaves the IR unchanged.
// RUN: not %python %utils/exec-check.py %test_src/Harness/Inputs/matmul-exec.mlir --opt %mlir_opt --expect-changed -- \
// RUN: | FileCheck %s --check-prefix=UNCHANGED
// UNCHANGED: EXEC-CHECK: FAIL (--expect-changed: the transformed IR equals the original IR

// A failing step is reported with its name and command.
// RUN: not %python %utils/exec-check.py %test_src/Harness/Inputs/matmul-exec.mlir --opt %mlir_opt -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/Harness/Inputs/tile-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=no_such_sequence \
// RUN: | FileCheck %s --check-prefix=STEP
// STEP: EXEC-CHECK: FAIL (step 'AFTER: transform' failed with exit code 1)
// STEP-NEXT: command: {{.*}}mlir-opt {{.*}}matmul-exec.mlir {{.*}}entry-point=no_such_sequence
// STEP: error: could not find a nested named sequence with name: no_such_sequence

// Dynamic shapes: the harness's extents are solved from the ops that read
// the arguments, so a convolution whose filter and output are both dynamic
// gets a filter that fits its static image (output 7 x 8, filter 8 x 9 for
// a 14 x 16 image) and the check runs.
// RUN: %python %utils/exec-check.py %test_src/Harness/Inputs/conv-dynamic-filter.mlir --add-main --opt hwsched-opt -- \
// RUN:   --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN: | FileCheck %s --check-prefix=SOLVED
// SOLVED: EXEC-CHECK: PASS

// Extents the solver cannot reach (the image goes through a tensor.cast, so
// image and output both get the default 24, and a 3 x 3 window needs 26
// rows): the reference runs with upstream's runtime op verification, which
// stops it, while the plain reference runs (reading out of bounds): an
// invalid instance, not a comparison. An abort the plain reference has as
// well (an emulated deadlock, Pipeline/npu-flags-exec.mlir) is reported as
// it is.
// RUN: not %python %utils/exec-check.py %test_src/Harness/Inputs/conv-dynamic-through-cast.mlir --add-main --opt hwsched-opt -- \
// RUN:   --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN: | FileCheck %s --check-prefix=INVALID
// INVALID: EXEC-CHECK: FAIL (invalid instance: the dynamic extents of this run do not fit the payload's ops

// A payload that accumulates into a tensor.empty (undefined values; the
// unscheduled loops and the CPU schedule read different memory for it):
// outputs that differ are an invalid instance, never a miscompile. (Both
// runs may happen to read the same bytes, a PASS; the verdicts that must
// not appear are "outputs differ" and a crash.)
// RUN: %python %utils/exec-check.py %test_src/Harness/Inputs/conv-accumulates-into-empty.mlir --add-main --opt hwsched-opt -- \
// RUN:   --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main > %t.undef.txt || true
// RUN: FileCheck %s --check-prefix=UNDEF < %t.undef.txt
// UNDEF: EXEC-CHECK: {{PASS|FAIL \(invalid instance: the payload reads an uninitialized tensor, so its results are undefined .*@conv_into_empty: .* \(tensor.empty\) is the init of a linalg.generic whose body reads it}}

// A payload too large for its unscheduled reference (1.8 G loop iterations
// of a stride-2 convolution): with --reduce-above it is checked on a
// reduced instance of itself (hwsched_tools/reduced_instance.py), and the
// PASS line says so; without it the harness would run the original size.
// The same option on a payload that cannot be reduced (a reshape with a
// static output_shape) is a failed step that names the reason, not a PASS.
// RUN: %python %utils/exec-check.py %test_src/Harness/reduced-instance.mlir --add-main --opt hwsched-opt \
// RUN:   --reduce-above 67108864 -- --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main 2>%t.reduced.err \
// RUN: | FileCheck %s --check-prefix=REDUCED
// RUN: FileCheck %s --check-prefix=REDUCED-ERR < %t.reduced.err
// REDUCED: EXEC-CHECK: PASS ({{[0-9]+}} output lines identical; reduced instance: largest op 1800000000 -> 50803200 loop iterations)
// REDUCED-ERR: exec-check: reduced instance: loops over 32 cut to 32 + their remainder mod 16
// RUN: not %python %utils/exec-check.py %test_src/Harness/Inputs/reduce-reshape.mlir --add-main --opt hwsched-opt \
// RUN:   --reduce-above 10000 -- --hwsched-target=x86-avx512 \
// RUN:   --transform-preload-library=transform-library-paths=%scripts/matmul-frontend.mlir,%scripts/cpu-matmul.mlir \
// RUN:   --transform-interpreter=entry-point=hwsched_cpu_matmul_main \
// RUN: | FileCheck %s --check-prefix=NOT-REDUCED
// NOT-REDUCED: EXEC-CHECK: FAIL (step 'reduce': the payload's largest op runs more than 10000 loop iterations and the reduced payload does not verify
