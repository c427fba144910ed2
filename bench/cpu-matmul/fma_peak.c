// fma_peak.c: single-core FP32 FMA peak of the host, for
// bench/cpu-matmul/run.py.
//
//   fma_peak ITERS REPEATS [ISA]
//
// ISA is avx512, avx2 or neon; without it the widest one the CPU supports
// is chosen at run time (x86: __builtin_cpu_supports), so one binary runs on
// AVX2 and AVX-512 hosts alike (each kernel is compiled for its own ISA with
// a target attribute; nothing is compiled with -mavx512f globally). Naming
// an ISA the CPU lacks is an error, not a SIGILL.
//
// Twelve independent accumulator chains of vector FMAs (24 on NEON, whose
// cores have up to four FMA pipes of latency 4), no memory traffic: the
// throughput bound. Prints "isa NAME", one "sample GFLOPS" per repeat and
// "peak_gflops MEDIAN"; time is the thread's CPU time.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// One kernel per ISA: 12 accumulators A0..A11, each FMA depending only on
// its own chain. Explicit variables (not an array) keep them in registers.
#define CHAIN_BODY(FMA, A)                                                     \
  A##0 = FMA(A##0, x, y);                                                      \
  A##1 = FMA(A##1, x, y);                                                      \
  A##2 = FMA(A##2, x, y);                                                      \
  A##3 = FMA(A##3, x, y);                                                      \
  A##4 = FMA(A##4, x, y);                                                      \
  A##5 = FMA(A##5, x, y);                                                      \
  A##6 = FMA(A##6, x, y);                                                      \
  A##7 = FMA(A##7, x, y);                                                      \
  A##8 = FMA(A##8, x, y);                                                      \
  A##9 = FMA(A##9, x, y);                                                      \
  A##10 = FMA(A##10, x, y);                                                    \
  A##11 = FMA(A##11, x, y);

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// The two x86 kernels differ only in the vector width W (512 for AVX-512,
// 256 for AVX2), which names the type (__mW), the intrinsics (_mmW_*) and
// the lanes (W / 32). The timed loop is CHAIN_BODY in both.
#define X86_KERNEL(W, TARGET)                                                  \
  __attribute__((target(TARGET))) static double run_##W(long iters,            \
                                                        float *sink) {         \
    __m##W x = _mm##W##_set1_ps(0.999999f), y = _mm##W##_set1_ps(1e-7f);       \
    __m##W a0 = _mm##W##_set1_ps(0), a1 = _mm##W##_set1_ps(1),                 \
           a2 = _mm##W##_set1_ps(2), a3 = _mm##W##_set1_ps(3),                 \
           a4 = _mm##W##_set1_ps(4), a5 = _mm##W##_set1_ps(5),                 \
           a6 = _mm##W##_set1_ps(6), a7 = _mm##W##_set1_ps(7),                 \
           a8 = _mm##W##_set1_ps(8), a9 = _mm##W##_set1_ps(9),                 \
           a10 = _mm##W##_set1_ps(10), a11 = _mm##W##_set1_ps(11);             \
    double t0 = now();                                                         \
    for (long i = 0; i < iters; ++i) {                                         \
      CHAIN_BODY(_mm##W##_fmadd_ps, a)                                         \
    }                                                                          \
    double t1 = now();                                                         \
    __m##W s = _mm##W##_add_ps(                                                \
        _mm##W##_add_ps(_mm##W##_add_ps(a0, a1), _mm##W##_add_ps(a2, a3)),     \
        _mm##W##_add_ps(_mm##W##_add_ps(a4, a5), _mm##W##_add_ps(a6, a7)));    \
    s = _mm##W##_add_ps(s, _mm##W##_add_ps(_mm##W##_add_ps(a8, a9),            \
                                           _mm##W##_add_ps(a10, a11)));        \
    float lanes[W / 32];                                                       \
    _mm##W##_storeu_ps(lanes, s);                                              \
    for (int i = 0; i < W / 32; ++i)                                           \
      *sink += lanes[i];                                                       \
    return 2.0 * (W / 32) * 12 * (double)iters / (t1 - t0) / 1e9;              \
  }

X86_KERNEL(512, "avx512f")
X86_KERNEL(256, "avx2,fma")

static const char *best_isa(void) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return "avx512";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return "avx2";
  return NULL;
}

static int supports(const char *isa) {
  __builtin_cpu_init();
  if (!strcmp(isa, "avx512"))
    return __builtin_cpu_supports("avx512f");
  if (!strcmp(isa, "avx2"))
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return 0;
}

static double run(const char *isa, long iters, float *sink) {
  return !strcmp(isa, "avx512") ? run_512(iters, sink) : run_256(iters, sink);
}

#elif defined(__aarch64__)
#include <arm_neon.h>

static double run_neon(long iters, float *sink) {
  float32x4_t x = vdupq_n_f32(0.999999f), y = vdupq_n_f32(1e-7f);
  float32x4_t a0 = vdupq_n_f32(0), a1 = vdupq_n_f32(1), a2 = vdupq_n_f32(2),
              a3 = vdupq_n_f32(3), a4 = vdupq_n_f32(4), a5 = vdupq_n_f32(5),
              a6 = vdupq_n_f32(6), a7 = vdupq_n_f32(7), a8 = vdupq_n_f32(8),
              a9 = vdupq_n_f32(9), a10 = vdupq_n_f32(10), a11 = vdupq_n_f32(11);
  float32x4_t b0 = a0, b1 = a1, b2 = a2, b3 = a3, b4 = a4, b5 = a5, b6 = a6,
              b7 = a7, b8 = a8, b9 = a9, b10 = a10, b11 = a11;
// vfmaq_f32(acc, x, y) = acc + x * y: the chain is the accumulator.
#define NEON_FMA(acc, x, y) vfmaq_f32(acc, x, y)
  double t0 = now();
  for (long i = 0; i < iters; ++i) {
    CHAIN_BODY(NEON_FMA, a)
    CHAIN_BODY(NEON_FMA, b)
  }
  double t1 = now();
  float32x4_t s = vaddq_f32(vaddq_f32(vaddq_f32(a0, a1), vaddq_f32(a2, a3)),
                            vaddq_f32(vaddq_f32(a4, a5), vaddq_f32(a6, a7)));
  s = vaddq_f32(s, vaddq_f32(vaddq_f32(a8, a9), vaddq_f32(a10, a11)));
  s = vaddq_f32(s, vaddq_f32(vaddq_f32(b0, b1), vaddq_f32(b2, b3)));
  s = vaddq_f32(s, vaddq_f32(vaddq_f32(b4, b5), vaddq_f32(b6, b7)));
  s = vaddq_f32(s, vaddq_f32(vaddq_f32(b8, b9), vaddq_f32(b10, b11)));
  *sink += vaddvq_f32(s);
  return 2.0 * 4 * 24 * (double)iters / (t1 - t0) / 1e9;
}

static const char *best_isa(void) { return "neon"; }
static int supports(const char *isa) { return !strcmp(isa, "neon"); }
static double run(const char *isa, long iters, float *sink) {
  (void)isa;
  return run_neon(iters, sink);
}

#else
static const char *best_isa(void) { return NULL; }
static int supports(const char *isa) {
  (void)isa;
  return 0;
}
static double run(const char *isa, long iters, float *sink) {
  (void)isa;
  (void)iters;
  (void)sink;
  return 0;
}
#endif

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 50000000L;
  int repeats = argc > 2 ? atoi(argv[2]) : 7;
  const char *isa = argc > 3 ? argv[3] : best_isa();
  double results[64];
  if (repeats < 1)
    repeats = 1;
  if (repeats > 64)
    repeats = 64;
  if (!isa) {
    fprintf(stderr, "fma_peak: no supported vector FMA ISA on this CPU "
                    "(x86 AVX2+FMA or AVX-512, AArch64 NEON)\n");
    return 2;
  }
  if (!supports(isa)) {
    fprintf(stderr, "fma_peak: this CPU does not support '%s'\n", isa);
    return 2;
  }
  printf("isa %s\n", isa);
  float sink = 0;
  for (int r = 0; r < repeats; ++r) {
    results[r] = run(isa, iters, &sink);
    printf("sample %.2f\n", results[r]);
  }
  qsort(results, repeats, sizeof(double), cmp);
  printf("peak_gflops %.2f\n", results[repeats / 2]);
  fprintf(stderr, "(sink %g)\n", sink);
  return 0;
}
