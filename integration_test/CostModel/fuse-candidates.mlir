// The fused program of test/CostModel/fuse-candidates.mlir (the seed script:
// filter_fusable_consumers, then fusing the candidates with upstream ops)
// computes what the original does, on the CPU.
//
// RUN: %python %utils/exec-check.py %test_src/CostModel/Inputs/fuse-chain-exec.mlir --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/CostModel/Inputs/fuse-candidates-lib.mlir \
// RUN:   --transform-interpreter=entry-point=fuse_candidates | FileCheck %s --check-prefix=EXEC
//
// EXEC: EXEC-CHECK: PASS
