// REQUIRES: ptxas
//
// The register model against ptxas on two kernels of the GPU corpus
// (bench/costmodel/gpu_corpus.py): matmul + bias + ReLU with 4x4 and 8x8
// outputs per thread. At a 64-register cap the model's floor says 4x4 fits
// and 8x8 spills, and ptxas agrees; both demand estimates are within 20% of
// what ptxas allocates without a cap.
//
// RUN: %python %hwsched_src/bench/costmodel/gpu_corpus.py --opt hwsched-opt \
// RUN:   --cap 64 --only "mm_bias_relu (4x4x4|8x8x4)" | FileCheck %s
//
// CHECK: mm_bias_relu 4x4x4 {{.*}} 0/0 no Y
// CHECK: mm_bias_relu 8x8x4 {{.*}} {{[1-9][0-9]*}}/{{[1-9][0-9]*}} yes Y
// CHECK: spill prediction at cap 64: 2/2
// CHECK: register estimate within 20% of ptxas@255: 2/2
