// fma_peak.c: single-core AVX-512 FP32 FMA peak, for bench/cpu-matmul/run.py.
//
// Twelve independent accumulator chains (FMA latency 4 cycles x 2 FMA pipes
// needs at least 8 in flight) of vfmadd231ps zmm, no memory traffic. Prints
// the median GFLOP/s of REPEATS timed runs as "peak_gflops <value>".
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHAINS 12

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 50000000L;
  int repeats = argc > 2 ? atoi(argv[2]) : 7;
  double results[64];
  if (repeats > 64)
    repeats = 64;
  __m512 x = _mm512_set1_ps(0.999999f), y = _mm512_set1_ps(1e-7f);
  float sink = 0;
  for (int r = 0; r < repeats; ++r) {
    // Explicit variables (not an array) keep all chains in zmm registers at -O2.
    __m512 a0 = _mm512_set1_ps(0), a1 = _mm512_set1_ps(1), a2 = _mm512_set1_ps(2),
           a3 = _mm512_set1_ps(3), a4 = _mm512_set1_ps(4), a5 = _mm512_set1_ps(5),
           a6 = _mm512_set1_ps(6), a7 = _mm512_set1_ps(7), a8 = _mm512_set1_ps(8),
           a9 = _mm512_set1_ps(9), a10 = _mm512_set1_ps(10), a11 = _mm512_set1_ps(11);
    double t0 = now();
    for (long i = 0; i < iters; ++i) {
      // Each FMA depends only on its own chain: throughput-bound.
      a0 = _mm512_fmadd_ps(a0, x, y);
      a1 = _mm512_fmadd_ps(a1, x, y);
      a2 = _mm512_fmadd_ps(a2, x, y);
      a3 = _mm512_fmadd_ps(a3, x, y);
      a4 = _mm512_fmadd_ps(a4, x, y);
      a5 = _mm512_fmadd_ps(a5, x, y);
      a6 = _mm512_fmadd_ps(a6, x, y);
      a7 = _mm512_fmadd_ps(a7, x, y);
      a8 = _mm512_fmadd_ps(a8, x, y);
      a9 = _mm512_fmadd_ps(a9, x, y);
      a10 = _mm512_fmadd_ps(a10, x, y);
      a11 = _mm512_fmadd_ps(a11, x, y);
    }
    double t1 = now();
    __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
                             _mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)));
    s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(a8, a9), _mm512_add_ps(a10, a11)));
    sink += _mm512_reduce_add_ps(s);
    results[r] = 2.0 * 16 * CHAINS * (double)iters / (t1 - t0) / 1e9;
    printf("sample %.2f\n", results[r]);
  }
  qsort(results, repeats, sizeof(double), cmp);
  printf("peak_gflops %.2f\n", results[repeats / 2]);
  fprintf(stderr, "(sink %g)\n", sink);
  return 0;
}
