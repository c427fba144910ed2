//===- hwsched-gpu-run.cpp - Launch, check and time a GPU kernel ----------===//
//
// hwsched-gpu-run KERNEL.ptx --m M --n N --k K --grid X,Y,Z [options]
// (README.md beside this file). Without --dry-run it needs an NVIDIA driver
// and GPU; --dry-run checks the PTX and the argument ABI on any machine.
//
//===----------------------------------------------------------------------===//

#include "GpuRunnerCore.h"
#include "GpuRunnerDevice.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace llvm;
using namespace hwsched::gpurunner;

// In the sanitized build (HWSCHED_ENABLE_SANITIZERS) the CUDA driver maps
// device memory into the address range ASan reserves as its shadow gap;
// with the gap protected every allocation fails. ASAN_OPTIONS still
// overrides this default.
#if defined(__SANITIZE_ADDRESS__)
#define HWSCHED_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HWSCHED_ASAN 1
#endif
#endif
#ifdef HWSCHED_ASAN
extern "C" const char *__asan_default_options() {
  return "protect_shadow_gap=0";
}
#endif

static int fail(const Twine &message, int status = kCannotRunExit) {
  errs() << "hwsched-gpu-run: error: " << message << "\n";
  return status;
}

/// Assembles the PTX with ptxas for `arch` and records its figures for the
/// kernel. Returns the ptxas error text as an Error.
static Error assembleWithPtxas(const Options &options, StringRef ptxas,
                               StringRef arch, Report &report) {
  SmallString<128> cubin, log;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("hwsched-gpu-run", "cubin", cubin))
    return createStringError(ec, "cannot create a temporary file");
  FileRemover removeCubin(cubin);
  if (std::error_code ec =
          sys::fs::createTemporaryFile("hwsched-gpu-run", "log", log))
    return createStringError(ec, "cannot create a temporary file");
  FileRemover removeLog(log);
  std::string archFlag = ("-arch=" + arch).str();
  SmallVector<StringRef> argv = {ptxas,           archFlag, "-v",
                                 options.ptxPath, "-o",     cubin};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string execError;
  int rc = sys::ExecuteAndWait(ptxas, argv, std::nullopt, redirects, 0, 0,
                               &execError);
  auto output = MemoryBuffer::getFile(log);
  StringRef text = output ? (*output)->getBuffer() : StringRef();
  if (rc != 0)
    return createStringError(inconvertibleErrorCode(),
                             "ptxas -arch=%s rejects %s%s%s\n%s",
                             arch.str().c_str(), options.ptxPath.c_str(),
                             execError.empty() ? "" : ": ", execError.c_str(),
                             text.rtrim().str().c_str());
  Expected<PtxasFigures> figures = parsePtxasOutput(text, report.kernel);
  if (!figures)
    return figures.takeError();
  report.ptxasArch = arch.str();
  report.ptxasRegisters = figures->registers;
  report.ptxasSmemBytes = figures->smemBytes;
  report.ptxasSpillBytes = figures->spillBytes;
  return Error::success();
}

static void printReport(const Report &r, raw_ostream &os) {
  const Options &o = r.options;
  os << "kernel " << r.kernel << " from " << o.ptxPath << "\n";
  os << "problem: M " << o.m << " N " << o.n << " K " << o.k << ", "
     << toString(o.type) << " inputs, f32 accumulation and result, B "
     << (o.bTransposed ? "NxK" : "KxN") << ", epilogue " << toString(o.epilogue)
     << "\n";
  os << "launch: grid " << r.grid.str() << " block " << r.block.str()
     << " dynamic smem " << o.dynamicSmemBytes << " bytes\n";
  os << "arguments (" << describeArgs(o.args) << ", "
     << (o.abi == MemrefAbi::Descriptor ? "memref descriptors"
                                        : "bare pointers")
     << "): " << r.params.size() << " parameters\n";
  for (auto [i, p] : llvm::enumerate(r.params)) {
    os << "  param " << i << ": " << p.label << " = ";
    if (p.isPointer)
      os << "&" << toString(p.buffer);
    else if (p.isFloat) {
      float f;
      uint32_t bits = uint32_t(p.immediate);
      std::memcpy(&f, &bits, 4);
      os << f;
    } else
      os << (p.bytes == 4 ? int64_t(int32_t(uint32_t(p.immediate)))
                          : int64_t(p.immediate));
    os << " (" << p.bytes * 8 << "-bit)\n";
  }
  if (!r.tensorMaps.empty()) {
    os << "tensor maps (cuTensorMapEncodeTiled, dims and box innermost "
          "first):\n";
    for (const TensorMapParams &t : r.tensorMaps)
      os << "  " << t.str() << "\n";
  }
  if (!r.ptxasArch.empty() && r.ptxasRegisters) {
    os << (r.device.empty() ? "ptxas " : "driver JIT ") << r.ptxasArch
       << ": registers " << *r.ptxasRegisters << ", static smem "
       << r.ptxasSmemBytes.value_or(0) << " bytes";
    if (r.ptxasSpillBytes)
      os << ", spill bytes " << *r.ptxasSpillBytes;
    os << "\n";
  }
  if (!r.device.empty())
    os << "device: " << r.device << "\n";
  if (r.check) {
    os << "check vs cuBLAS (tolerance "
       << format("%g", o.tolerance.value_or(defaultTolerance(o.type)))
       << " x sqrt(K) x max|A| x max|B|): ";
    r.check->print(os);
  }
  if (r.kernelTime) {
    os << "kernel: ";
    r.kernelTime->print(os);
    os << "\n";
  }
  if (r.cublasTime) {
    os << "cuBLAS: ";
    r.cublasTime->print(os);
    os << "\n";
  }
  if (r.kernelTime && r.cublasTime && r.kernelTime->medianMs > 0)
    os << format("speed vs cuBLAS (median): %.3fx\n",
                 r.cublasTime->medianMs / r.kernelTime->medianMs);
}

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  Expected<Options> parsed = parseOptions(args);
  if (!parsed)
    return fail(toString(parsed.takeError()));
  Options options = std::move(*parsed);
  if (options.help) {
    outs() << usage();
    return 0;
  }
  auto file = MemoryBuffer::getFile(options.ptxPath, /*IsText=*/true);
  if (!file)
    return fail("cannot read " + options.ptxPath + ": " +
                file.getError().message());
  StringRef ptx = (*file)->getBuffer();
  Expected<PtxModule> module = parsePtx(ptx);
  if (!module)
    return fail(options.ptxPath + ": " + toString(module.takeError()));
  Expected<const PtxEntry *> entry = selectEntry(*module, options.kernelName);
  if (!entry)
    return fail(toString(entry.takeError()));
  Expected<Dim3> block = resolveBlock(options, **entry);
  if (!block)
    return fail(toString(block.takeError()));

  Report report;
  report.options = options;
  report.kernel = (*entry)->name;
  report.grid = *options.grid;
  report.block = *block;
  report.params = packArguments(options);
  // parseOptions has checked the maps already; this cannot fail.
  Expected<std::vector<TensorMapParams>> maps = tensorMapParams(options);
  if (!maps)
    return fail(toString(maps.takeError()));
  report.tensorMaps = std::move(*maps);
  if (Error e = checkSignature(**entry, report.params, options))
    return fail(toString(std::move(e)));

  int status = 0;
  if (options.dryRun) {
    std::string ptxas = options.ptxasPath;
    if (ptxas.empty()) {
      if (ErrorOr<std::string> found = sys::findProgramByName("ptxas"))
        ptxas = *found;
      else if (sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
        ptxas = "/usr/local/cuda/bin/ptxas";
    }
    std::string arch = options.arch.empty() ? module->target : options.arch;
    if (ptxas.empty())
      errs() << "hwsched-gpu-run: note: ptxas not found: the PTX was not "
                "assembled (--ptxas PATH)\n";
    else if (ptxas != "none") {
      if (arch.empty())
        return fail("the PTX has no .target: give --arch sm_XX");
      if (Error e = assembleWithPtxas(options, ptxas, arch, report))
        return fail(toString(std::move(e)));
    }
    // Without ptxas the static part is unknown: the dynamic part alone.
    if (Error e = checkSharedMemory(arch, report.ptxasSmemBytes.value_or(0),
                                    options.dynamicSmemBytes))
      return fail(report.kernel + ": " + toString(std::move(e)));
    outs() << "dry run: signature of " << report.kernel << " matches the "
           << (options.abi == MemrefAbi::Descriptor ? "memref-descriptor"
                                                    : "bare-pointer")
           << " ABI\n";
  } else {
    if (Error e = runOnDevice(options, ptx, **entry, report))
      return fail(toString(std::move(e)));
    if (!report.check->passed)
      status = 1;
  }
  printReport(report, outs());
  if (!options.jsonPath.empty()) {
    std::error_code ec;
    raw_fd_ostream json(options.jsonPath, ec);
    if (ec)
      return fail("cannot write " + options.jsonPath + ": " + ec.message());
    json << formatv("{0:2}", toJson(report)) << "\n";
  }
  return status;
}
