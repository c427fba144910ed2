// Randomized differential test: 300 generated loop bodies (copies global ->
// on-chip, whole and through subviews, elementwise computes, matmuls
// accumulating in memory, vector and scalar accumulators, stores to global
// memory, buffers read before being overwritten, alloc and alloca, carried
// addresses), random bounds (static and dynamic, trip counts 0..7, lower
// bound 0..3, step 1..3), random targets and num_stages, each run before and
// after schedule_stages on the CPU. A fixed seed keeps the test
// reproducible; bench/pipeline runs other seeds.
//
// RUN: %python %utils/pipeline-fuzz.py --seed 7 --cases 300 --per-module 30 | FileCheck %s

// CHECK-COUNT-10: EXEC-CHECK: PASS
// CHECK: PIPELINE-FUZZ: 300 cases, 10 modules, {{[0-9]+}} rewritten, {{[0-9]+}} unchanged, 0 mismatches, 0 harness failures
