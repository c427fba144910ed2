//===- GpuRunnerCore.h - CPU-side parts of hwsched-gpu-run ------*- C++ -*-===//
//
// Everything of the GPU benchmark runner that needs no CUDA: command-line
// parsing, the PTX .entry signature reader, the kernel argument packing
// (MLIR's memref-descriptor calling convention), deterministic host inputs,
// the host epilogue, the tolerance check, timing statistics and the JSON
// report. Plain C++ and LLVM Support, unit-tested on any machine
// (unittests/GpuRunner); the CUDA driver / cuBLAS half is GpuRunnerCuda.cpp.
// This is a benchmark tool: no hwsched library links it.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_BENCH_GPURUNNER_GPURUNNERCORE_H
#define HWSCHED_BENCH_GPURUNNER_GPURUNNERCORE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hwsched {
namespace gpurunner {

/// Input element type of A and B. C (and the bias) are always f32: the
/// kernels we time accumulate in f32 and store f32. TF32 stores f32 and
/// lets both the kernel and cuBLAS multiply in tf32
/// (CUBLAS_COMPUTE_32F_FAST_TF32).
enum class ElementType { F16, BF16, F32, TF32 };

llvm::StringRef toString(ElementType type);
/// Bytes of one stored element of A or B.
unsigned storageBytes(ElementType type);

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  uint64_t product() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3 &o) const {
    return x == o.x && y == o.y && z == o.z;
  }
  std::string str() const;
};

/// What one kernel argument (as the MLIR function saw it) is bound to.
enum class ArgKind {
  A,     ///< memref<MxK> row-major
  B,     ///< memref<KxN> row-major, or <NxK> with --b-layout nk
  C,     ///< memref<MxN> f32 row-major, the result
  Bias,  ///< memref<N> f32, the epilogue's bias (broadcast along M)
  I32,   ///< an i32 scalar with a fixed value
  I64,   ///< an i64 / index scalar with a fixed value
  F32,   ///< an f32 scalar with a fixed value
  TmapA, ///< the device address of a CUtensorMap over A (one .u64)
  TmapB, ///< the device address of a CUtensorMap over B (one .u64)
};

struct ArgSpec {
  ArgKind kind = ArgKind::A;
  int64_t intValue = 0;
  float floatValue = 0.0f;
};

/// How a memref argument is passed: MLIR's default descriptor expansion
/// (allocated ptr, aligned ptr, offset, sizes[rank], strides[rank]) or the
/// bare-pointer convention (`use-bare-ptr-memref-call-conv`).
enum class MemrefAbi { Descriptor, BarePointer };

/// The elementwise epilogue the kernel fuses after the matmul; the runner
/// applies the same on the host to cuBLAS' product before comparing.
enum class Epilogue { None, Bias, BiasRelu, Relu };
llvm::StringRef toString(Epilogue epilogue);

/// Initial content of C before the checked launch: NaN catches elements the
/// kernel never writes; zero is for kernels that accumulate (C += A x B).
enum class CInit { NaN, Zero };

/// A TMA box: elements copied per cp.async.bulk.tensor, innermost (the
/// contiguous dimension) first, as cuTensorMapEncodeTiled takes them.
struct TmaBox {
  unsigned inner = 0, outer = 0;
  bool operator==(const TmaBox &o) const {
    return inner == o.inner && outer == o.outer;
  }
};

struct Options {
  std::string ptxPath;
  std::string kernelName; ///< empty: the PTX's only .entry
  int64_t m = 0, n = 0, k = 0;
  ElementType type = ElementType::F32;
  std::optional<Dim3> grid;
  std::optional<Dim3> block; ///< unset: .reqntid, else .maxntid
  uint64_t dynamicSmemBytes = 0;
  unsigned warmup = 5;
  unsigned reps = 20;
  bool flushL2 = false;      ///< overwrite L2 before each timed launch
  std::vector<ArgSpec> args; ///< default A, B, C
  MemrefAbi abi = MemrefAbi::Descriptor;
  Epilogue epilogue = Epilogue::None;
  bool bTransposed = false; ///< B stored N x K (linalg.matmul_transpose_b)
  CInit cInit = CInit::NaN;
  // Tensor maps (--args tmapA / tmapB).
  std::optional<TmaBox> tmaBoxA, tmaBoxB;
  unsigned tmaSwizzleBytes = 128;     ///< 0 (none), 32, 64 or 128
  unsigned tmaL2PromotionBytes = 256; ///< 0 (none), 64, 128 or 256
  std::optional<double> tolerance;    ///< overrides defaultTolerance(type)
  uint64_t seed = 1;
  int device = 0;
  std::string jsonPath;
  bool dryRun = false;
  std::string ptxasPath; ///< dry run: empty = search, "none" = skip
  std::string arch;      ///< dry run: empty = the PTX's .target
  bool help = false;
};

/// The usage text (--help).
std::string usage();

/// Parses the arguments after the program name.
llvm::Expected<Options> parseOptions(llvm::ArrayRef<std::string> args);

/// Parses "X[,Y[,Z]]" (missing components are 1).
llvm::Expected<Dim3> parseDim3(llvm::StringRef text);

/// Parses "INNER,OUTER" (the argument of --tma-box-a/b; `flag` names it in
/// errors).
llvm::Expected<TmaBox> parseTmaBox(llvm::StringRef flag, llvm::StringRef text);

/// Parses the --args list, e.g. "A,B,bias,C", "A,B,C,i64=4" or
/// "tmapA,tmapB,C".
llvm::Expected<std::vector<ArgSpec>> parseArgList(llvm::StringRef text);

//===----------------------------------------------------------------------===//
// PTX signatures
//===----------------------------------------------------------------------===//

struct PtxParam {
  std::string type; ///< "u64", "b32", "f32", ... (without the dot)
  std::string name;
  uint64_t arrayBytes = 0; ///< ".param .align A .b8 name[N]": N, else 0
  unsigned bytes() const;  ///< size of the parameter in bytes
};

struct PtxEntry {
  std::string name;
  std::vector<PtxParam> params;
  std::optional<Dim3> reqntid;
  std::optional<Dim3> maxntid;
};

struct PtxModule {
  std::string target; ///< first word of ".target", e.g. "sm_80"
  std::string version;
  std::vector<PtxEntry> entries;
};

/// Reads the .target and every .entry signature (name, parameters,
/// .reqntid/.maxntid) of a PTX module; comments are ignored.
llvm::Expected<PtxModule> parsePtx(llvm::StringRef ptx);

/// The entry named `name`, or the only one when `name` is empty.
llvm::Expected<const PtxEntry *> selectEntry(const PtxModule &module,
                                             llvm::StringRef name);

/// The block size to launch with: --block if given (checked against
/// .reqntid and .maxntid), else .reqntid, else .maxntid.
llvm::Expected<Dim3> resolveBlock(const Options &options,
                                  const PtxEntry &entry);

/// The most shared memory (static + dynamic) one block may use on `arch`
/// after opting in (CUDA programming guide, compute capability table:
/// sm_70 96 KiB, sm_75 64 KiB, sm_80/87 163 KiB, sm_86/89/12x 99 KiB,
/// sm_90/10x 227 KiB); unset for an architecture not in the table.
std::optional<uint64_t> sharedMemoryOptinLimit(llvm::StringRef arch);

/// Checks static + dynamic shared memory against the limit of `arch`.
llvm::Error checkSharedMemory(llvm::StringRef arch, uint64_t staticBytes,
                              uint64_t dynamicBytes);

//===----------------------------------------------------------------------===//
// Argument packing
//===----------------------------------------------------------------------===//

/// The buffers the runner allocates. TmapA/TmapB hold the 128-byte
/// CUtensorMap of A/B (only with tmapA/tmapB in --args).
enum class Buffer { A, B, C, Bias, TmapA, TmapB };
llvm::StringRef toString(Buffer buffer);

/// One kernel parameter in launch order: a device address of a buffer (plus
/// nothing else: offsets are in elements and passed separately) or an
/// immediate value.
struct PackedParam {
  std::string label; ///< e.g. "A.aligned", "A.sizes[1]", "i64 #4"
  unsigned bytes = 8;
  bool isPointer = false;
  bool isFloat = false; ///< immediate holds the bits of an f32
  Buffer buffer = Buffer::A;
  uint64_t immediate = 0;
};

/// Expands the argument list into kernel parameters for M, N, K and the ABI:
/// A = memref<MxK> strides [K, 1]; B = memref<KxN> strides [N, 1] (or
/// <NxK> strides [K, 1] transposed); C = memref<MxN> strides [N, 1];
/// bias = memref<N> stride 1; offsets 0.
std::vector<PackedParam> packArguments(const Options &options);

/// Checks that the entry's parameter list is the packed one: same count,
/// same sizes, pointers and integers in 64-bit integer registers, f32
/// scalars as .f32/.b32. The error names the first mismatch.
llvm::Error checkSignature(const PtxEntry &entry,
                           llvm::ArrayRef<PackedParam> params,
                           const Options &options);

//===----------------------------------------------------------------------===//
// TMA tensor maps
//===----------------------------------------------------------------------===//

/// cuda.h's enumerator values (GpuRunnerCuda.cpp static_asserts them), so
/// that the encode parameters are computed and tested without the toolkit.
namespace cu {
constexpr int kDataTypeFloat16 = 6;  // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
constexpr int kDataTypeFloat32 = 7;  // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
constexpr int kDataTypeBfloat16 = 9; // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
constexpr int kInterleaveNone = 0;   // CU_TENSOR_MAP_INTERLEAVE_NONE
constexpr int kSwizzleNone = 0;      // CU_TENSOR_MAP_SWIZZLE_NONE
constexpr int kSwizzle32B = 1;       // CU_TENSOR_MAP_SWIZZLE_32B
constexpr int kSwizzle64B = 2;       // CU_TENSOR_MAP_SWIZZLE_64B
constexpr int kSwizzle128B = 3;      // CU_TENSOR_MAP_SWIZZLE_128B
constexpr int kL2PromotionNone = 0;  // CU_TENSOR_MAP_L2_PROMOTION_NONE
constexpr int kL2Promotion64B = 1;   // CU_TENSOR_MAP_L2_PROMOTION_L2_64B
constexpr int kL2Promotion128B = 2;  // CU_TENSOR_MAP_L2_PROMOTION_L2_128B
constexpr int kL2Promotion256B = 3;  // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
constexpr int kOobFillNone = 0;      // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
} // namespace cu

/// The arguments of one cuTensorMapEncodeTiled call (rank 2), enums as
/// cuda.h's values.
struct TensorMapParams {
  Buffer map = Buffer::TmapA; ///< TmapA or TmapB
  Buffer operand = Buffer::A; ///< the buffer the map describes
  unsigned paramIndex = 0;    ///< its position in the packed parameters
  int dataType = cu::kDataTypeFloat32;
  unsigned elementBytes = 4;
  uint32_t rank = 2;
  uint64_t globalDim[2] = {0, 0};  ///< elements, innermost first
  uint64_t globalStrides[1] = {0}; ///< bytes, of dimension 1
  uint32_t boxDim[2] = {0, 0};
  uint32_t elementStrides[2] = {1, 1};
  int interleave = cu::kInterleaveNone;
  int swizzle = cu::kSwizzleNone;
  unsigned swizzleBytes = 0;
  int l2Promotion = cu::kL2PromotionNone;
  unsigned l2PromotionBytes = 0;
  int oobFill = cu::kOobFillNone;
  /// One line: "tmapA (param 0) over A: FLOAT16, dims {K, M}, ...".
  std::string str() const;
};

/// The encode parameters of the map over `operand` (Buffer::A or B) from
/// the options: A is {K, M} with row stride K bytes x element size, B
/// {N, K} (kn) or {K, N} (nk). Refuses, naming the option, a missing box,
/// box dimensions outside 1..256, an inner box that is not a multiple of 16
/// bytes or exceeds the swizzle span, a row stride that is not a multiple
/// of 16 bytes, and global dimensions above 2^32.
llvm::Expected<TensorMapParams> tensorMapParams(const Options &options,
                                                Buffer operand);

/// One TensorMapParams per tmapA/tmapB in --args, in argument order.
llvm::Expected<std::vector<TensorMapParams>>
tensorMapParams(const Options &options);

/// The bytes of each parameter given the buffers' device addresses, in
/// launch order (what cuLaunchKernel's kernelParams point to).
std::vector<std::vector<uint8_t>>
materializeParams(llvm::ArrayRef<PackedParam> params,
                  uint64_t (*address)(Buffer, void *), void *context);

/// The command-line form of an argument list ("A,B,bias,C").
std::string describeArgs(llvm::ArrayRef<ArgSpec> args);

//===----------------------------------------------------------------------===//
// Host data
//===----------------------------------------------------------------------===//

/// Round to nearest even; NaN stays NaN.
uint16_t floatToHalfBits(float value);
float halfBitsToFloat(uint16_t bits);
uint16_t floatToBf16Bits(float value);
float bf16BitsToFloat(uint16_t bits);
/// Rounds an f32 to tf32 (10 explicit mantissa bits), nearest even.
float roundToTf32(float value);

/// `count` values uniform in [-1, 1) from a fixed generator (splitmix64 of
/// seed and index), rounded to `type` so that the host copy is exactly what
/// the device sees (tf32 inputs stay f32: the hardware rounds them).
std::vector<float> deterministicValues(uint64_t seed, size_t count,
                                       ElementType type);

/// The device bytes of `values` stored as `type` (f16/bf16: 2 bytes each).
std::vector<uint8_t> encode(llvm::ArrayRef<float> values, ElementType type);

/// Applies the epilogue to an MxN row-major product in place.
void applyEpilogue(std::vector<float> &c, llvm::ArrayRef<float> bias, int64_t m,
                   int64_t n, Epilogue epilogue);

/// C = A x B on the host in double (for small self checks and tests only).
std::vector<float> hostMatmul(llvm::ArrayRef<float> a, llvm::ArrayRef<float> b,
                              int64_t m, int64_t n, int64_t k,
                              bool bTransposed);

//===----------------------------------------------------------------------===//
// Result check
//===----------------------------------------------------------------------===//

/// Unit roundoff of the arithmetic the two products may disagree on:
/// f16 2^-11, bf16 2^-8, tf32 2^-11, f32 2^-17 (f32 products are exact in
/// neither; 2^-17 = 128 f32 ulps leaves room for any summation order up to
/// K of about 10^5).
double defaultTolerance(ElementType type);

struct CheckResult {
  bool passed = false;
  double maxAbsError = 0;
  double bound = 0;              ///< tolerance * sqrt(K) * max|A| * max|B|
  double maxNormalizedError = 0; ///< maxAbsError / (sqrt(K) max|A| max|B|)
  uint64_t mismatches = 0;       ///< elements above the bound (NaN included)
  int64_t firstRow = -1, firstCol = -1;
  float firstGot = 0, firstExpected = 0;
  void print(llvm::raw_ostream &os) const;
};

/// Compares the kernel's MxN result with the reference: an element passes
/// when |got - expected| <= tolerance * sqrt(K) * max|A| * max|B|, the
/// scale of the accumulation error of a K-term dot product whose terms are
/// bounded by max|A| max|B| and whose roundings are independent.
CheckResult checkResult(llvm::ArrayRef<float> got,
                        llvm::ArrayRef<float> expected, int64_t m, int64_t n,
                        int64_t k, double maxAbsA, double maxAbsB,
                        double tolerance);

double maxAbs(llvm::ArrayRef<float> values);

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

struct TimingStats {
  unsigned count = 0;
  double minMs = 0, medianMs = 0, meanMs = 0, maxMs = 0;
  double tflopsAtMedian = 0, tflopsAtMin = 0;
  void print(llvm::raw_ostream &os) const;
};

/// Statistics of per-launch times in milliseconds; TFLOP/s count 2 M N K
/// flops per launch (the epilogue is not counted).
TimingStats summarize(llvm::ArrayRef<double> ms, int64_t m, int64_t n,
                      int64_t k);

//===----------------------------------------------------------------------===//
// Report
//===----------------------------------------------------------------------===//

struct Report {
  Options options;
  std::string kernel;
  Dim3 grid, block;
  std::string device; ///< empty in a dry run
  std::vector<PackedParam> params;
  std::vector<TensorMapParams> tensorMaps; ///< one per tmapA/tmapB
  // Dry run: what ptxas said (unset when not run).
  std::optional<unsigned> ptxasRegisters;
  std::optional<uint64_t> ptxasSmemBytes, ptxasSpillBytes;
  std::string ptxasArch;
  // Device run.
  std::optional<CheckResult> check;
  std::optional<TimingStats> kernelTime, cublasTime;
};

llvm::json::Value toJson(const Report &report);

/// Parses `ptxas -v` output for one kernel: registers, static smem and
/// spill store + load bytes.
struct PtxasFigures {
  unsigned registers = 0;
  uint64_t smemBytes = 0, spillBytes = 0;
};
llvm::Expected<PtxasFigures> parsePtxasOutput(llvm::StringRef output,
                                              llvm::StringRef kernel);

} // namespace gpurunner
} // namespace hwsched

#endif // HWSCHED_BENCH_GPURUNNER_GPURUNNERCORE_H
