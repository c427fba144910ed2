// REQUIRES: ptxas
//
// Ground-truth harness: map matmul+bias+ReLU to the GPU with the transform
// library, lower it through NVVM to PTX and read `ptxas -v` at a fixed
// register cap (utils/ptxas-report.py).
//
// 4x4 per thread, no cap pressure: no spills.
// RUN: %python %utils/ptxas-report.py %test_src/Harness/Inputs/matmul-bias-relu.mlir \
// RUN:   --transform-library %test_src/Harness/Inputs/map-matmul-to-gpu.mlir \
// RUN:   --entry-point map_matmul_to_gpu_4x4 --opt %mlir_opt \
// RUN:   --maxrregcount 255 --format text | FileCheck %s --check-prefix=CAP255
//
// 8x8 per thread at 255: more registers, still no spills.
// RUN: %python %utils/ptxas-report.py %test_src/Harness/Inputs/matmul-bias-relu.mlir \
// RUN:   --transform-library %test_src/Harness/Inputs/map-matmul-to-gpu.mlir \
// RUN:   --entry-point map_matmul_to_gpu_8x8 --opt %mlir_opt \
// RUN:   --maxrregcount 255 --format text | FileCheck %s --check-prefix=CAP255
//
// 8x8 per thread at a 32-register cap: the cap holds and ptxas spills.
// RUN: %python %utils/ptxas-report.py %test_src/Harness/Inputs/matmul-bias-relu.mlir \
// RUN:   --transform-library %test_src/Harness/Inputs/map-matmul-to-gpu.mlir \
// RUN:   --entry-point map_matmul_to_gpu_8x8 --opt %mlir_opt \
// RUN:   --maxrregcount 32 --format text | FileCheck %s --check-prefix=CAP32
//
// JSON output parses; 8x8 needs more registers than 4x4.
// RUN: %python %utils/ptxas-report.py %test_src/Harness/Inputs/matmul-bias-relu.mlir \
// RUN:   --transform-library %test_src/Harness/Inputs/map-matmul-to-gpu.mlir \
// RUN:   --entry-point map_matmul_to_gpu_4x4 --opt %mlir_opt \
// RUN:   --format json > %t.4x4.json
// RUN: %python %utils/ptxas-report.py %test_src/Harness/Inputs/matmul-bias-relu.mlir \
// RUN:   --transform-library %test_src/Harness/Inputs/map-matmul-to-gpu.mlir \
// RUN:   --entry-point map_matmul_to_gpu_8x8 --opt %mlir_opt \
// RUN:   --format json > %t.8x8.json
// RUN: %python -c "import json,sys; d=json.load(sys.stdin); print('KERNELS', len(d['kernels']), d['arch'], d['maxrregcount']); print('FIELDS', sorted(k for k in d['kernels'][0] if k.endswith('_bytes') or k == 'registers'))" < %t.4x4.json | FileCheck %s --check-prefix=JSON
// RUN: %python -c "import json,sys; r=[json.load(open(f))['kernels'][0]['registers'] for f in sys.argv[1:]]; print('MORE_REGS_8x8', r[1] > r[0])" %t.4x4.json %t.8x8.json | FileCheck %s --check-prefix=CMP

// CAP255: kernel matmul_bias_relu_kernel: registers={{([1-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])}} spill_store_bytes=0 spill_load_bytes=0 smem_bytes={{[0-9]+}}{{$}}
// CAP255-NOT: kernel

// CAP32: kernel matmul_bias_relu_kernel: registers={{([1-9]|[12][0-9]|3[0-2])}} spill_store_bytes={{[1-9][0-9]*}} spill_load_bytes={{[1-9][0-9]*}} smem_bytes={{[0-9]+}}{{$}}
// CAP32-NOT: kernel

// JSON: KERNELS 1 sm_80 255
// JSON-NEXT: FIELDS ['cmem_bytes', 'registers', 'smem_bytes', 'spill_load_bytes', 'spill_store_bytes', 'stack_frame_bytes']

// CMP: MORE_REGS_8x8 True
