// The `host` target: a CPU spec built at run time from the machine. Tests
// simulate machines with HWSCHED_HOST_CPU / HWSCHED_HOST_FEATURES (the ISA,
// LLVM spelling) and HWSCHED_HOST_SYSFS (a tree laid out like
// /sys/devices/system/cpu: caches, cores, clock), so they do not depend on
// the machine that runs them; query_spec { explain } names where each
// figure came from.
//
// An AVX2 machine (Zen 3 with SMT: 4 CPUs, 2 cores).
// RUN: env HWSCHED_HOST_CPU=znver3 HWSCHED_HOST_FEATURES=+sse2,+avx,+avx2,+fma \
// RUN:   HWSCHED_HOST_SYSFS=%S/Inputs/host-sysfs/zen3 \
// RUN:   hwsched-opt %s --transform-interpreter 2>&1 | FileCheck %s --check-prefix=ZEN3
// ZEN3: spec 'host' cpu.vector_width_bits = 256 : i64 (source: host: $HWSCHED_HOST_CPU + $HWSCHED_HOST_FEATURES (znver3: avx, no avx512f: 16 ymm registers of 256 bits))
// ZEN3: spec 'host' cpu.vector_registers = 16 : i64
// ZEN3: spec 'host' cpu.fma_units_per_core = 2 : i64 (source: host: table for LLVM CPU 'znver3': AMD Software Optimization Guide for Family 19h
// ZEN3-SAME: (2 pipe(s) of 256 bits: 2 FMA(s) per cycle at 256-bit vectors)
// ZEN3: spec 'host' cpu.l1d_bytes = 32768 : i64 (source: host: {{.*}}host-sysfs/zen3/cpu0/cache/index0/size (32K))
// ZEN3: spec 'host' cpu.l2_bytes = 524288 : i64 (source: host: {{.*}}host-sysfs/zen3/cpu0/cache/index2/size (512K))
// ZEN3: spec 'host' cpu.l3_bytes = 33554432 : i64 (source: host: {{.*}}host-sysfs/zen3/cpu0/cache/index3/size (32768K))
// ZEN3: spec 'host' cpu.l3_sharing_cores = 2 : i64 (source: host: {{.*}}host-sysfs/zen3/cpu0/cache/index3/shared_cpu_list (0-3), 2 thread(s) per core)
// ZEN3: spec 'host' cpu.cores = 2 : i64 (source: host: {{.*}}host-sysfs/zen3/online (4 CPUs), 2 thread(s) per core (topology/thread_siblings_list))
// ZEN3: spec 'host' cpu.cache_line_bytes = 64 : i64 (source: host: {{.*}}host-sysfs/zen3/cpu0/cache/index0/coherency_line_size)
// ZEN3: spec 'host' compute.clock_ghz = 4.700000e+00 : f64 (source: host: {{.*}}host-sysfs/zen3/cpu0/cpufreq/cpuinfo_max_freq (4700000 kHz))
// ZEN3: spec 'host' compute.peak_fp32_gflops = 1.504000e+02 : f64
// ZEN3: spec 'host' onchip.capacity_bytes = 524288 : i64
// ZEN3: spec 'host' offchip.bandwidth_gb_per_s = 24 : i64 (source: host: not detectable without measuring; assumed 12 GB/s per core
//
// An AVX-512 server (Ice Lake-SP).
// RUN: env HWSCHED_HOST_CPU=icelake-server HWSCHED_HOST_FEATURES=+sse2,+avx,+avx2,+fma,+avx512f \
// RUN:   HWSCHED_HOST_SYSFS=%S/Inputs/host-sysfs/icelake-server \
// RUN:   hwsched-opt %s --transform-interpreter 2>&1 | FileCheck %s --check-prefix=ICX
// ICX: cpu.vector_width_bits = 512 : i64 (source: host: $HWSCHED_HOST_CPU + $HWSCHED_HOST_FEATURES (icelake-server: avx512f: 32 zmm registers of 512 bits))
// ICX: cpu.vector_registers = 32 : i64
// ICX: cpu.fma_units_per_core = 2 : i64
// ICX: cpu.l1d_bytes = 49152 : i64
// ICX: cpu.l2_bytes = 1310720 : i64
// ICX: cpu.l3_bytes = 56623104 : i64
// ICX: cpu.l3_sharing_cores = 4 : i64
// ICX: cpu.cores = 4 : i64 (source: host: {{.*}}icelake-server/online (4 CPUs), 1 thread(s) per core
//
// Zen 4: AVX-512 on two 256-bit pipes is one 512-bit FMA per cycle; the same
// CPU told to use AVX2 only (the bench's proxy) gets two 256-bit FMAs.
// RUN: env HWSCHED_HOST_CPU=znver4 HWSCHED_HOST_FEATURES=+avx,+avx2,+fma,+avx512f \
// RUN:   HWSCHED_HOST_SYSFS=%S/Inputs/host-sysfs/zen3 \
// RUN:   hwsched-opt %s --transform-interpreter 2>&1 | FileCheck %s --check-prefix=ZEN4
// ZEN4: cpu.vector_width_bits = 512
// ZEN4: cpu.fma_units_per_core = 1 : i64 {{.*}}(2 pipe(s) of 256 bits: 1 FMA(s) per cycle at 512-bit vectors)
// RUN: env HWSCHED_HOST_CPU=znver4 HWSCHED_HOST_FEATURES=+avx,+avx2,+fma,+avx512f,-avx512f \
// RUN:   HWSCHED_HOST_SYSFS=%S/Inputs/host-sysfs/zen3 \
// RUN:   hwsched-opt %s --transform-interpreter 2>&1 | FileCheck %s --check-prefix=ZEN4AVX2
// ZEN4AVX2: cpu.vector_width_bits = 256
// ZEN4AVX2: cpu.fma_units_per_core = 2 : i64 {{.*}}(2 pipe(s) of 256 bits: 2 FMA(s) per cycle at 256-bit vectors)
//
// Arm Neoverse V1 (SVE): fixed-width vectors are NEON, 4 pipes; no L3 and no
// clock in its sysfs: assumed, and the sources say so.
// RUN: env HWSCHED_HOST_CPU=neoverse-v1 HWSCHED_HOST_FEATURES=+neon,+sve \
// RUN:   HWSCHED_HOST_SYSFS=%S/Inputs/host-sysfs/neoverse-v1 \
// RUN:   hwsched-opt %s --transform-interpreter 2>&1 | FileCheck %s --check-prefix=V1
// V1: cpu.vector_width_bits = 128 : i64 (source: host: $HWSCHED_HOST_CPU + $HWSCHED_HOST_FEATURES (neoverse-v1: neon/sve: fixed-width vectors use the 32 NEON registers of 128 bits))
// V1: cpu.vector_registers = 32 : i64
// V1: cpu.fma_units_per_core = 4 : i64
// V1: cpu.l2_bytes = 1048576 : i64
// V1: cpu.l3_bytes = 8388608 : i64 (source: host: L3 no cache/ in $HWSCHED_HOST_SYSFS; assumed 8192 KiB)
// V1: cpu.cores = 4 : i64
// V1: compute.clock_ghz = 3.000000e+00 : f64 (source: host: not exposed (no cpufreq, no /proc/cpuinfo clock); assumed 3.0 GHz)
//
// An unknown CPU gets a typical core of its ISA, and says so.
// RUN: env HWSCHED_HOST_CPU=some-future-cpu HWSCHED_HOST_FEATURES=+avx,+avx2,+fma \
// RUN:   HWSCHED_HOST_SYSFS=%S/Inputs/host-sysfs/zen3 \
// RUN:   hwsched-opt %s --transform-interpreter 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: cpu.fma_units_per_core = 2 : i64 (source: host: LLVM CPU 'some-future-cpu' is not in hwsched's table; assumed a typical x86 core
//
// The machine running the test: whatever it is, a valid CPU spec whose
// sources name where the figures came from.
// RUN: hwsched-opt %s --transform-interpreter 2>&1 | FileCheck %s --check-prefix=REAL
// REAL: spec 'host' cpu.vector_width_bits = {{128|256|512}} : i64 (source: host: LLVM host CPU name and features
// REAL: spec 'host' cpu.cores = {{[1-9][0-9]*}} : i64 (source: host:

module attributes {transform.with_named_sequence} {
  func.func @f() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %0 = transform.hwsched.query_spec %f { target = "host", key = "cpu.vector_width_bits", explain } : (!transform.any_op) -> !transform.any_param
    %1 = transform.hwsched.query_spec %f { target = "host", key = "cpu.vector_registers", explain } : (!transform.any_op) -> !transform.any_param
    %2 = transform.hwsched.query_spec %f { target = "host", key = "cpu.fma_units_per_core", explain } : (!transform.any_op) -> !transform.any_param
    %3 = transform.hwsched.query_spec %f { target = "host", key = "cpu.l1d_bytes", explain } : (!transform.any_op) -> !transform.any_param
    %4 = transform.hwsched.query_spec %f { target = "host", key = "cpu.l2_bytes", explain } : (!transform.any_op) -> !transform.any_param
    %5 = transform.hwsched.query_spec %f { target = "host", key = "cpu.l3_bytes", explain } : (!transform.any_op) -> !transform.any_param
    %6 = transform.hwsched.query_spec %f { target = "host", key = "cpu.l3_sharing_cores", explain } : (!transform.any_op) -> !transform.any_param
    %7 = transform.hwsched.query_spec %f { target = "host", key = "cpu.cores", explain } : (!transform.any_op) -> !transform.any_param
    %8 = transform.hwsched.query_spec %f { target = "host", key = "cpu.cache_line_bytes", explain } : (!transform.any_op) -> !transform.any_param
    %9 = transform.hwsched.query_spec %f { target = "host", key = "compute.clock_ghz", explain } : (!transform.any_op) -> !transform.any_param
    %10 = transform.hwsched.query_spec %f { target = "host", key = "compute.peak_fp32_gflops", explain } : (!transform.any_op) -> !transform.any_param
    %11 = transform.hwsched.query_spec %f { target = "host", key = "onchip.capacity_bytes", explain } : (!transform.any_op) -> !transform.any_param
    %12 = transform.hwsched.query_spec %f { target = "host", key = "offchip.bandwidth_gb_per_s", explain } : (!transform.any_op) -> !transform.any_param
    transform.yield
  }
}
