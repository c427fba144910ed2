// select_tile_config's sizes fed to the upstream tiling ops
// (test/TileConfig/select-tile-config-tiling.mlir checks the tiled IR)
// preserve the semantics: exec-check on an awkwardly-sized matmul.
//
// RUN: %python %utils/exec-check.py %test_src/Harness/Inputs/matmul-exec.mlir --opt hwsched-opt --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/TileConfig/Inputs/tile-with-selected-config.mlir \
// RUN:   --transform-interpreter=entry-point=cpu_tiles | FileCheck %s --check-prefix=EXEC
// RUN: %python %utils/exec-check.py %test_src/Harness/Inputs/matmul-exec.mlir --opt hwsched-opt --expect-changed -- \
// RUN:   --transform-preload-library=transform-library-paths=%test_src/TileConfig/Inputs/tile-with-selected-config.mlir \
// RUN:   --transform-interpreter=entry-point=gpu_tiles | FileCheck %s --check-prefix=EXEC
// EXEC: EXEC-CHECK: PASS
