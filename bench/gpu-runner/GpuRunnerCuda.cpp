//===- GpuRunnerCuda.cpp - CUDA driver API + cuBLAS half ------------------===//
//
// The driver library is opened at run time (dlopen of libcuda.so.1) rather
// than linked: a binary linked against libcuda (even the toolkit's stub)
// needs libcuda.so.1 from the loader before main, so on a machine without
// an NVIDIA driver it would die with a loader error instead of saying
// "no CUDA device". cuBLAS is linked (CUDA::cublas): it loads the driver
// itself, lazily, and its libraries come with the toolkit.
//
//===----------------------------------------------------------------------===//

#include "GpuRunnerDevice.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cublas_v2.h>
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace llvm;

namespace hwsched {
namespace gpurunner {
namespace {

Error error(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

// Every driver entry point the runner calls. The names go through cuda.h's
// macros (cuMemAlloc -> cuMemAlloc_v2, ...), so the symbol looked up is the
// versioned one the header declares.
#define HWSCHED_CU_FUNCTIONS(X)                                                \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD32)                                                               \
  X(cuMemsetD32Async)                                                          \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventElapsedTime)

// Entry points that older drivers lack: resolved when present, and only
// the features that need them fail without them.
#define HWSCHED_CU_OPTIONAL_FUNCTIONS(X) X(cuTensorMapEncodeTiled)

#define HWSCHED_STR2(x) #x
#define HWSCHED_STR(x) HWSCHED_STR2(x)

struct Driver {
#define HWSCHED_DECLARE(f) decltype(&::f) f = nullptr;
  HWSCHED_CU_FUNCTIONS(HWSCHED_DECLARE)
  HWSCHED_CU_OPTIONAL_FUNCTIONS(HWSCHED_DECLARE)
#undef HWSCHED_DECLARE
  void *handle = nullptr;

  /// "no CUDA device: ..." when the library or a symbol is missing.
  Error load() {
    const char *path = std::getenv("HWSCHED_CUDA_DRIVER_LIBRARY");
    if (!path || !*path)
      path = "libcuda.so.1";
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      return error(Twine("no CUDA device: cannot load the CUDA driver "
                         "library ") +
                   path + " (" + (why ? why : "unknown reason") +
                   "); is the NVIDIA driver installed?");
    }
#define HWSCHED_LOAD(f)                                                        \
  f = reinterpret_cast<decltype(f)>(dlsym(handle, HWSCHED_STR(f)));            \
  if (!f)                                                                      \
    return error(Twine("no CUDA device: the driver library ") + path +         \
                 " has no " HWSCHED_STR(f) " (driver older than CUDA " +       \
                 Twine(CUDA_VERSION / 1000) + "?)");
    HWSCHED_CU_FUNCTIONS(HWSCHED_LOAD)
#undef HWSCHED_LOAD
#define HWSCHED_LOAD_OPTIONAL(f)                                               \
  f = reinterpret_cast<decltype(f)>(dlsym(handle, HWSCHED_STR(f)));
    HWSCHED_CU_OPTIONAL_FUNCTIONS(HWSCHED_LOAD_OPTIONAL)
#undef HWSCHED_LOAD_OPTIONAL
    return Error::success();
  }

  std::string describe(CUresult status) const {
    const char *name = nullptr, *text = nullptr;
    if (cuGetErrorName)
      cuGetErrorName(status, &name);
    if (cuGetErrorString)
      cuGetErrorString(status, &text);
    // The toolkit's stub library answers every call, cuGetErrorName
    // included, with CUDA_ERROR_STUB_LIBRARY: name the codes a machine
    // without a working driver gives.
    if (!name && status == CUDA_ERROR_STUB_LIBRARY) {
      name = "CUDA_ERROR_STUB_LIBRARY";
      text = "the toolkit's stub libcuda, not an NVIDIA driver";
    } else if (!name && status == CUDA_ERROR_NO_DEVICE) {
      name = "CUDA_ERROR_NO_DEVICE";
      text = "no CUDA-capable device";
    }
    return (Twine(name ? name : "CUDA error") + " (" +
            (text ? text : Twine(int(status)).str()) + ")")
        .str();
  }

  Error check(CUresult status, StringRef what) const {
    if (status == CUDA_SUCCESS)
      return Error::success();
    return error(what + ": " + describe(status));
  }
};

Error checkBlas(cublasStatus_t status, StringRef what) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return Error::success();
  return error(what + ": " + cublasGetStatusString(status));
}

/// Device buffers of the run, freed on destruction.
struct Buffers {
  const Driver &driver;
  CUdeviceptr a = 0, b = 0, c = 0, bias = 0, reference = 0;
  CUdeviceptr tmapA = 0, tmapB = 0; ///< a CUtensorMap each
  explicit Buffers(const Driver &driver) : driver(driver) {}
  ~Buffers() {
    for (CUdeviceptr p : {a, b, c, bias, reference, tmapA, tmapB})
      if (p)
        driver.cuMemFree(p);
  }
  static uint64_t address(Buffer buffer, void *self) {
    auto *buffers = static_cast<Buffers *>(self);
    switch (buffer) {
    case Buffer::A:
      return buffers->a;
    case Buffer::B:
      return buffers->b;
    case Buffer::C:
      return buffers->c;
    case Buffer::Bias:
      return buffers->bias;
    case Buffer::TmapA:
      return buffers->tmapA;
    case Buffer::TmapB:
      return buffers->tmapB;
    }
    return 0;
  }
};

Error allocate(const Driver &driver, CUdeviceptr &ptr, size_t bytes,
               StringRef name) {
  CUresult status = driver.cuMemAlloc(&ptr, bytes);
  if (status != CUDA_SUCCESS)
    return error("cannot allocate " + Twine(bytes) + " bytes for " + name +
                 ": " + driver.describe(status));
  return Error::success();
}

// GpuRunnerCore computes the encode parameters with cuda.h's enumerator
// values as plain ints (it builds without the toolkit): keep them in step.
static_assert(cu::kDataTypeFloat16 == CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
static_assert(cu::kDataTypeFloat32 == CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
static_assert(cu::kDataTypeBfloat16 == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
static_assert(cu::kInterleaveNone == CU_TENSOR_MAP_INTERLEAVE_NONE);
static_assert(cu::kSwizzleNone == CU_TENSOR_MAP_SWIZZLE_NONE);
static_assert(cu::kSwizzle32B == CU_TENSOR_MAP_SWIZZLE_32B);
static_assert(cu::kSwizzle64B == CU_TENSOR_MAP_SWIZZLE_64B);
static_assert(cu::kSwizzle128B == CU_TENSOR_MAP_SWIZZLE_128B);
static_assert(cu::kL2PromotionNone == CU_TENSOR_MAP_L2_PROMOTION_NONE);
static_assert(cu::kL2Promotion64B == CU_TENSOR_MAP_L2_PROMOTION_L2_64B);
static_assert(cu::kL2Promotion128B == CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
static_assert(cu::kL2Promotion256B == CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
static_assert(cu::kOobFillNone == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
static_assert(sizeof(CUtensorMap) == 128, "the kernel reads 128 bytes");

/// Encodes the map `t` over `global` on the host and copies it into a new
/// 128-byte device buffer `out` (cuMemAlloc's 256-byte alignment covers
/// the 64 bytes TMA needs): the kernel takes that buffer's address, as
/// with MLIR's nvgpu.tma.create.descriptor.
Error encodeTensorMap(const Driver &driver, const TensorMapParams &t,
                      CUdeviceptr global, CUdeviceptr &out) {
  if (!driver.cuTensorMapEncodeTiled)
    return error("the CUDA driver has no cuTensorMapEncodeTiled (TMA needs "
                 "driver >= 525 and sm_90)");
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  cuuint64_t dims[2] = {t.globalDim[0], t.globalDim[1]};
  cuuint64_t strides[1] = {t.globalStrides[0]};
  cuuint32_t box[2] = {t.boxDim[0], t.boxDim[1]};
  cuuint32_t elementStrides[2] = {t.elementStrides[0], t.elementStrides[1]};
  CUresult status = driver.cuTensorMapEncodeTiled(
      &map, CUtensorMapDataType(t.dataType), t.rank,
      reinterpret_cast<void *>(global), dims, strides, box, elementStrides,
      CUtensorMapInterleave(t.interleave), CUtensorMapSwizzle(t.swizzle),
      CUtensorMapL2promotion(t.l2Promotion),
      CUtensorMapFloatOOBfill(t.oobFill));
  if (status != CUDA_SUCCESS)
    return error("cuTensorMapEncodeTiled for " + t.str() + ": " +
                 driver.describe(status));
  std::string name = toString(t.map).str();
  if (Error e = allocate(driver, out, sizeof(map), name))
    return e;
  return driver.check(driver.cuMemcpyHtoD(out, &map, sizeof(map)),
                      "copy " + name);
}

/// Times each of `launches` `reps` times in paired rounds (round r launches
/// every candidate once, each between its own pair of events, so clock and
/// thermal drift fall on all of them alike), after `warmup` untimed rounds.
/// With `flush` set, the L2 is overwritten (`flushBytes` of memset, outside
/// the events) before each timed launch. Returns ms per candidate.
Expected<std::vector<std::vector<double>>>
timePairedRounds(const Driver &driver, CUstream stream, unsigned warmup,
                 unsigned reps, ArrayRef<function_ref<Error()>> launches,
                 CUdeviceptr flush, size_t flushBytes) {
  for (unsigned i = 0; i < warmup; ++i)
    for (function_ref<Error()> launch : launches)
      if (Error e = launch())
        return std::move(e);
  size_t count = launches.size();
  std::vector<CUevent> events(2 * size_t(reps) * count, nullptr);
  scope_exit destroy([&] {
    for (CUevent e : events)
      if (e)
        driver.cuEventDestroy(e);
  });
  for (CUevent &e : events)
    if (Error err = driver.check(driver.cuEventCreate(&e, CU_EVENT_DEFAULT),
                                 "cuEventCreate"))
      return std::move(err);
  for (unsigned r = 0; r < reps; ++r) {
    for (size_t c = 0; c < count; ++c) {
      CUevent start = events[2 * (r * count + c)];
      CUevent stop = events[2 * (r * count + c) + 1];
      if (flush)
        if (Error e = driver.check(
                driver.cuMemsetD32Async(flush, r, flushBytes / 4, stream),
                "L2 flush"))
          return std::move(e);
      if (Error e = driver.check(driver.cuEventRecord(start, stream),
                                 "cuEventRecord"))
        return std::move(e);
      if (Error e = launches[c]())
        return std::move(e);
      if (Error e =
              driver.check(driver.cuEventRecord(stop, stream), "cuEventRecord"))
        return std::move(e);
    }
  }
  if (Error e =
          driver.check(driver.cuStreamSynchronize(stream), "timed launches"))
    return std::move(e);
  std::vector<std::vector<double>> ms(count);
  for (unsigned r = 0; r < reps; ++r)
    for (size_t c = 0; c < count; ++c) {
      float t = 0;
      if (Error e = driver.check(
              driver.cuEventElapsedTime(&t, events[2 * (r * count + c)],
                                        events[2 * (r * count + c) + 1]),
              "cuEventElapsedTime"))
        return std::move(e);
      ms[c].push_back(double(t));
    }
  return ms;
}

} // namespace

Error runOnDevice(const Options &o, StringRef ptx, const PtxEntry &entry,
                  Report &report) {
  Driver driver;
  if (Error e = driver.load())
    return e;
  CUresult status = driver.cuInit(0);
  if (status != CUDA_SUCCESS)
    return error("no CUDA device: cuInit failed: " + driver.describe(status));
  int count = 0;
  status = driver.cuDeviceGetCount(&count);
  if (status != CUDA_SUCCESS || count == 0)
    return error("no CUDA device: the driver reports " +
                 (status == CUDA_SUCCESS ? Twine("none")
                                         : Twine(driver.describe(status))));
  if (o.device >= count)
    return error("no CUDA device: --device " + Twine(o.device) +
                 ", but the driver reports " + Twine(count));
  CUdevice device;
  if (Error e =
          driver.check(driver.cuDeviceGet(&device, o.device), "cuDeviceGet"))
    return e;
  char name[256] = {0};
  driver.cuDeviceGetName(name, sizeof(name) - 1, device);
  int major = 0, minor = 0, optinSmem = 0;
  driver.cuDeviceGetAttribute(
      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  driver.cuDeviceGetAttribute(
      &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  driver.cuDeviceGetAttribute(
      &optinSmem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
      device);
  report.device =
      (Twine(name) + " (sm_" + Twine(major) + Twine(minor) + ")").str();

  CUcontext context;
  if (Error e = driver.check(driver.cuDevicePrimaryCtxRetain(&context, device),
                             "cuDevicePrimaryCtxRetain"))
    return e;
  scope_exit releaseContext([&] { driver.cuDevicePrimaryCtxRelease(device); });
  if (Error e =
          driver.check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return e;

  // JIT the PTX with log buffers, so that a PTX the driver rejects is
  // reported with ptxas' own message.
  std::string ptxText = ptx.str(); // NUL-terminated for the driver
  std::vector<char> errorLog(64 * 1024, 0), infoLog(64 * 1024, 0);
  CUjit_option jitOptions[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *jitValues[] = {
      errorLog.data(), reinterpret_cast<void *>(errorLog.size() - 1),
      infoLog.data(), reinterpret_cast<void *>(infoLog.size() - 1),
      reinterpret_cast<void *>(uintptr_t(1))};
  CUmodule module;
  status = driver.cuModuleLoadDataEx(&module, ptxText.c_str(), 5, jitOptions,
                                     jitValues);
  if (status != CUDA_SUCCESS)
    return error("the driver rejects " + o.ptxPath + " for sm_" + Twine(major) +
                 Twine(minor) + ": " + driver.describe(status) + "\n" +
                 StringRef(errorLog.data()).rtrim());
  scope_exit unload([&] { driver.cuModuleUnload(module); });
  CUfunction function;
  if (Error e = driver.check(
          driver.cuModuleGetFunction(&function, module, entry.name.c_str()),
          "cuModuleGetFunction " + entry.name))
    return e;

  int staticSmem = 0, maxThreads = 0, registers = 0;
  driver.cuFuncGetAttribute(&staticSmem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                            function);
  driver.cuFuncGetAttribute(&maxThreads,
                            CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function);
  driver.cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function);
  report.ptxasArch = ("sm_" + Twine(major) + Twine(minor)).str();
  report.ptxasRegisters = unsigned(registers);
  report.ptxasSmemBytes = uint64_t(staticSmem);
  Dim3 block = report.block;
  if (block.product() > uint64_t(maxThreads))
    return error("kernel " + entry.name + " uses " + Twine(registers) +
                 " registers per thread: at most " + Twine(maxThreads) +
                 " threads per block, but --block is " + block.str());
  if (uint64_t(staticSmem) + o.dynamicSmemBytes > uint64_t(optinSmem))
    return error("kernel " + entry.name + " needs " + Twine(staticSmem) +
                 " bytes of static + " + Twine(o.dynamicSmemBytes) +
                 " of dynamic shared memory; the device allows " +
                 Twine(optinSmem) + " per block");
  // Above the default 48 KiB the kernel must opt in to the larger carve-out.
  if (o.dynamicSmemBytes > 48 * 1024)
    if (Error e = driver.check(
            driver.cuFuncSetAttribute(
                function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                int(o.dynamicSmemBytes)),
            "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
      return e;

  // Inputs, on the host first (the same bytes go to both products).
  size_t aCount = size_t(o.m * o.k), bCount = size_t(o.k * o.n),
         cCount = size_t(o.m * o.n);
  std::vector<float> a = deterministicValues(o.seed, aCount, o.type);
  std::vector<float> b = deterministicValues(o.seed + 1, bCount, o.type);
  std::vector<float> bias =
      deterministicValues(o.seed + 2, size_t(o.n), ElementType::F32);
  std::vector<uint8_t> aBytes = encode(a, o.type), bBytes = encode(b, o.type);

  Buffers buffers(driver);
  bool hasBias =
      o.epilogue == Epilogue::Bias || o.epilogue == Epilogue::BiasRelu;
  if (Error e = allocate(driver, buffers.a, aBytes.size(), "A"))
    return e;
  if (Error e = allocate(driver, buffers.b, bBytes.size(), "B"))
    return e;
  if (Error e = allocate(driver, buffers.c, cCount * 4, "C"))
    return e;
  if (Error e = allocate(driver, buffers.reference, cCount * 4, "reference"))
    return e;
  if (hasBias)
    if (Error e = allocate(driver, buffers.bias, size_t(o.n) * 4, "bias"))
      return e;
  if (Error e = driver.check(
          driver.cuMemcpyHtoD(buffers.a, aBytes.data(), aBytes.size()),
          "copy A"))
    return e;
  if (Error e = driver.check(
          driver.cuMemcpyHtoD(buffers.b, bBytes.data(), bBytes.size()),
          "copy B"))
    return e;
  if (hasBias)
    if (Error e = driver.check(
            driver.cuMemcpyHtoD(buffers.bias, bias.data(), bias.size() * 4),
            "copy bias"))
      return e;
  for (const TensorMapParams &t : report.tensorMaps) {
    if (!driver.cuTensorMapEncodeTiled)
      return error("the CUDA driver has no cuTensorMapEncodeTiled (TMA needs "
                   "driver >= 525 and sm_90)");
    if (major < 9)
      return error("--args " + toString(t.map) +
                   ": tensor maps (TMA) need sm_90 or newer, the device is " +
                   report.device);
    bool isA = t.operand == Buffer::A;
    if (Error e = encodeTensorMap(driver, t, isA ? buffers.a : buffers.b,
                                  isA ? buffers.tmapA : buffers.tmapB))
      return e;
  }
  unsigned cInit = o.cInit == CInit::NaN ? 0x7fc00000u : 0u;
  if (Error e = driver.check(driver.cuMemsetD32(buffers.c, cInit, cCount),
                             "initialize C"))
    return e;

  std::vector<PackedParam> params = packArguments(o);
  std::vector<std::vector<uint8_t>> paramBytes =
      materializeParams(params, &Buffers::address, &buffers);
  std::vector<void *> kernelParams;
  for (std::vector<uint8_t> &p : paramBytes)
    kernelParams.push_back(p.data());

  CUstream stream;
  if (Error e =
          driver.check(driver.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                       "cuStreamCreate"))
    return e;
  scope_exit destroyStream([&] { driver.cuStreamDestroy(stream); });
  Dim3 grid = report.grid;
  auto launchKernel = [&]() -> Error {
    return driver.check(
        driver.cuLaunchKernel(function, grid.x, grid.y, grid.z, block.x,
                              block.y, block.z, unsigned(o.dynamicSmemBytes),
                              stream, kernelParams.data(), nullptr),
        "cuLaunchKernel " + entry.name);
  };

  cublasHandle_t blas;
  if (Error e = checkBlas(cublasCreate(&blas), "cublasCreate"))
    return e;
  scope_exit destroyBlas([&] { cublasDestroy(blas); });
  if (Error e = checkBlas(cublasSetStream(blas, stream), "cublasSetStream"))
    return e;
  // Row-major C (MxN) = A (MxK) x B is column-major C^T = B^T A^T: cuBLAS'
  // "A" is our B, its "B" is our A.
  cudaDataType inType = o.type == ElementType::F16    ? CUDA_R_16F
                        : o.type == ElementType::BF16 ? CUDA_R_16BF
                                                      : CUDA_R_32F;
  cublasComputeType_t compute = o.type == ElementType::TF32
                                    ? CUBLAS_COMPUTE_32F_FAST_TF32
                                    : CUBLAS_COMPUTE_32F;
  float one = 1.0f, zero = 0.0f;
  auto launchBlas = [&]() -> Error {
    return checkBlas(
        cublasGemmEx(blas, o.bTransposed ? CUBLAS_OP_T : CUBLAS_OP_N,
                     CUBLAS_OP_N, int(o.n), int(o.m), int(o.k), &one,
                     reinterpret_cast<const void *>(buffers.b), inType,
                     o.bTransposed ? int(o.k) : int(o.n),
                     reinterpret_cast<const void *>(buffers.a), inType,
                     int(o.k), &zero,
                     reinterpret_cast<void *>(buffers.reference), CUDA_R_32F,
                     int(o.n), compute, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
  };

  // Checked launches first (C still holds its --c-init value).
  if (Error e = launchKernel())
    return e;
  if (Error e = launchBlas())
    return e;
  if (Error e = driver.check(driver.cuStreamSynchronize(stream),
                             "the checked launch of " + entry.name))
    return e;
  std::vector<float> got(cCount), expected(cCount);
  if (Error e = driver.check(
          driver.cuMemcpyDtoH(got.data(), buffers.c, cCount * 4), "copy C"))
    return e;
  if (Error e = driver.check(
          driver.cuMemcpyDtoH(expected.data(), buffers.reference, cCount * 4),
          "copy the reference"))
    return e;
  applyEpilogue(expected, bias, o.m, o.n, o.epilogue);
  report.check = checkResult(got, expected, o.m, o.n, o.k, maxAbs(a), maxAbs(b),
                             o.tolerance.value_or(defaultTolerance(o.type)));

  // Timing in paired rounds: kernel, cuBLAS, kernel, cuBLAS, ...
  CUdeviceptr flush = 0;
  size_t flushBytes = 0;
  scope_exit freeFlush([&] {
    if (flush)
      driver.cuMemFree(flush);
  });
  if (o.flushL2) {
    int l2 = 0;
    driver.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device);
    // Twice the L2, so that no line of the inputs survives the memset.
    flushBytes = 2 * size_t(std::max(l2, 1 << 20));
    if (Error e = allocate(driver, flush, flushBytes, "the L2 flush buffer"))
      return e;
  }
  function_ref<Error()> launches[] = {launchKernel, launchBlas};
  Expected<std::vector<std::vector<double>>> ms = timePairedRounds(
      driver, stream, o.warmup, o.reps, launches, flush, flushBytes);
  if (!ms)
    return ms.takeError();
  std::vector<double> &kernelMs = (*ms)[0], &blasMs = (*ms)[1];
  report.kernelTime = summarize(kernelMs, o.m, o.n, o.k);
  report.cublasTime = summarize(blasMs, o.m, o.n, o.k);
  return Error::success();
}

} // namespace gpurunner
} // namespace hwsched
