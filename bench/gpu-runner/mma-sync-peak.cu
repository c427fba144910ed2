// bench/gpu-runner/mma-sync-peak.cu: the throughput ceiling of the warp-level
// tensor-core instruction (mma.sync) on the GPU this runs on.
//
// Why: issue 20 asks the mma.sync kernel for 0.7x of cuBLAS, and on Hopper
// cuBLAS runs wgmma, which mma.sync cannot issue. Whether 0.7x is reachable
// with mma.sync at all is a property of the card, not of our schedule: this
// program measures it. Each warp issues independent mma.sync chains on
// register operands only (no memory traffic, no ldmatrix), enough warps per
// SM and enough independent accumulators per warp to hide the instruction's
// latency; the figure is the most a kernel built on mma.sync can reach.
//
// Build (needs only the CUDA toolkit; the runtime is linked statically, so
// the binary runs wherever there is an NVIDIA driver):
//   nvcc -O3 -std=c++17 -gencode arch=compute_80,code=sm_80
//        -gencode arch=compute_90,code=sm_90 -o mma-sync-peak mma-sync-peak.cu
// Run: mma-sync-peak [--json OUT]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t err = (x);                                                     \
    if (err != cudaSuccess) {                                                  \
      std::fprintf(stderr, "mma-sync-peak: %s: %s\n", #x,                      \
                   cudaGetErrorString(err));                                   \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

// Independent accumulator chains per warp: mma.sync's latency (about 30
// cycles on sm_80/90) over its issue interval needs several in flight.
constexpr int kChains = 8;

enum class Kind { F16, BF16, TF32, F16AccF16 };

template <Kind K> __device__ inline void mmaStep(float (&acc)[kChains][4],
                                                 const unsigned (&a)[4],
                                                 const unsigned (&b)[2]) {
#pragma unroll
  for (int c = 0; c < kChains; ++c) {
    if constexpr (K == Kind::F16) {
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]),
                     "+f"(acc[c][3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                     "r"(b[1]));
    } else if constexpr (K == Kind::BF16) {
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]),
                     "+f"(acc[c][3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                     "r"(b[1]));
    } else if constexpr (K == Kind::TF32) {
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]),
                     "+f"(acc[c][3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                     "r"(b[1]));
    } else {
      // f16 accumulation: two packed f16x2 accumulator registers.
      unsigned *d = reinterpret_cast<unsigned *>(&acc[c][0]);
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
                   "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                   : "+r"(d[0]), "+r"(d[1])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                     "r"(b[1]));
    }
  }
}

template <Kind K> __global__ void mmaPeak(float *out, int iters) {
  // Operands from the thread id so that the compiler cannot fold them.
  unsigned a[4], b[2];
  for (int i = 0; i < 4; ++i)
    a[i] = 0x3c003c00u ^ (threadIdx.x * (i + 1) & 0x00ff00ffu);
  for (int i = 0; i < 2; ++i)
    b[i] = 0x3c003c00u ^ (threadIdx.x * (i + 5) & 0x00ff00ffu);
  float acc[kChains][4] = {};
  for (int it = 0; it < iters; ++it)
    mmaStep<K>(acc, a, b);
  float s = 0;
  for (int c = 0; c < kChains; ++c)
    for (int i = 0; i < 4; ++i)
      s += acc[c][i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

struct Result {
  const char *name;
  double tflops;
  float ms;
};

template <Kind K>
Result measure(const char *name, int flopsPerMma, int sms, int warpsPerBlock,
               int blocksPerSm) {
  const int iters = 4096;
  int blocks = sms * blocksPerSm, threads = 32 * warpsPerBlock;
  float *out;
  CHECK(cudaMalloc(&out, sizeof(float) * blocks * threads));
  mmaPeak<K><<<blocks, threads>>>(out, iters); // warm-up (clocks, caches)
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  float best = 1e30f;
  for (int rep = 0; rep < 10; ++rep) {
    CHECK(cudaEventRecord(start));
    mmaPeak<K><<<blocks, threads>>>(out, iters);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = ms < best ? ms : best;
  }
  double flops = double(blocks) * warpsPerBlock * iters * kChains * flopsPerMma;
  CHECK(cudaFree(out));
  return {name, flops / (best * 1e-3) / 1e12, best};
}

int main(int argc, char **argv) {
  const char *json = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      json = argv[++i];
    else {
      std::fprintf(stderr, "usage: mma-sync-peak [--json OUT]\n");
      return 2;
    }
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  std::printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major,
              prop.minor, sms);
  // 8 warps per block, 2 blocks per SM: 16 warps per SM, 4 per scheduler.
  Result rs[] = {
      measure<Kind::F16>("f16 x f16 -> f32 (m16n8k16)", 2 * 16 * 8 * 16, sms, 8,
                         2),
      measure<Kind::BF16>("bf16 x bf16 -> f32 (m16n8k16)", 2 * 16 * 8 * 16, sms,
                          8, 2),
      measure<Kind::TF32>("tf32 x tf32 -> f32 (m16n8k8)", 2 * 16 * 8 * 8, sms,
                          8, 2),
      measure<Kind::F16AccF16>("f16 x f16 -> f16 (m16n8k16)", 2 * 16 * 8 * 16,
                               sms, 8, 2),
  };
  for (const Result &r : rs)
    std::printf("mma.sync %-32s %8.1f TFLOP/s  (best of 10: %.3f ms)\n", r.name,
                r.tflops, r.ms);
  if (json) {
    FILE *f = std::fopen(json, "w");
    if (!f)
      return 2;
    std::fprintf(f, "{\"device\": \"%s\", \"sm\": %d, \"sms\": %d, \"peaks\": {",
                 prop.name, prop.major * 10 + prop.minor, sms);
    for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); ++i)
      std::fprintf(f, "%s\"%s\": %.2f", i ? ", " : "", rs[i].name,
                   rs[i].tflops);
    std::fprintf(f, "}}\n");
    std::fclose(f);
  }
  return 0;
}
