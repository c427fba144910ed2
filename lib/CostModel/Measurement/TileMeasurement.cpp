//===- TileMeasurement.cpp - Compile and time tile candidates -------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Why in-process (mlir::ExecutionEngine) rather than mlir-runner: no binary
// to find, no text round trip of timings, and the JIT runs in the calling
// thread so thread CPU time measures exactly the kernel (the build machines
// are shared; wall time would measure the other jobs).
//
// Why a private MLIRContext: the transform interpreter that runs this op is
// itself a pass on the caller's context; the candidate modules need their
// own pass manager and transform interpreter runs, and the LLVM dialect
// types they create should not outlive the measurement.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/TileMeasurement.h"

#include "hwsched/CostModel/TileConfig.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <cmath>
#include <ctime>

// kCpuMeasureScript: transform-scripts/cpu-measure.mlir, as text (generated
// at configure time: the op needs no file at run time).
#include "CpuMeasureScript.inc"

using namespace mlir;
using namespace hwsched;

/// Thread CPU time a sample should last at least, so that small kernels are
/// timed over many calls rather than at the clock's resolution.
static constexpr double kMinSampleNs = 20e6;
/// Upper bound on calls per sample (tiny kernels).
static constexpr int64_t kMaxCallsPerSample = 1 << 20;

/// The lowering after the transform script: the passes of the project's one
/// CPU lowering (utils/hwsched_tools/lowering.py, which bench/tileconfig's
/// sweep runs) that these kernels need: no math or OpenMP ops occur in a
/// measured register kernel. (C++ cannot import the Python list; a change
/// there that matters for the kernels must be made here too.)
static constexpr llvm::StringLiteral kLowering =
    "convert-vector-to-scf,convert-linalg-to-loops,lower-affine,"
    "convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    "finalize-memref-to-llvm,convert-vector-to-llvm,convert-func-to-llvm,"
    "convert-arith-to-llvm,convert-cf-to-llvm,convert-index-to-llvm,"
    "convert-ub-to-llvm,reconcile-unrealized-casts";

static double threadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static bool isFillable(Type type) {
  return isa<FloatType, IntegerType, IndexType>(type);
}

llvm::Error hwsched::checkTileConfigsMeasurable(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return refuse(op, "measurement needs a Linalg op on tensors (it runs a "
                      "standalone copy of the op)");
  for (Value v : op->getOperands()) {
    Type t = v.getType();
    if (auto tensor = dyn_cast<RankedTensorType>(t)) {
      if (!tensor.hasStaticShape())
        return refuse(op, "measurement needs static shapes (operand type " +
                              llvm::formatv("{0}", t).str() + " is dynamic)");
      t = tensor.getElementType();
    }
    if (!isFillable(t))
      return refuse(op, "measurement cannot create inputs of type " +
                            llvm::formatv("{0}", v.getType()).str());
  }
  return llvm::Error::success();
}

/// Text of a constant of `type` ("1.0 : f32", "0 : i8").
static std::string constantText(Type type, bool zero) {
  std::string t = llvm::formatv("{0}", type).str();
  if (isa<FloatType>(type))
    return (zero ? "0.0 : " : "1.0 : ") + t;
  return (zero ? "0 : " : "1 : ") + t;
}

/// The standalone module: @kernel takes one buffer (or scalar) per distinct
/// operand of the op, wraps the buffers as tensors, runs the copied op and
/// writes its results into the init buffers; @init fills global buffers
/// once and @bench(%calls) calls @kernel on them %calls times (each call
/// accumulates into the same outputs, like repeated calls of a real kernel).
static void buildStandaloneModule(Operation *op, std::string &text) {
  // The kernel is built next to the payload (a clone needs the op's own
  // context), in a detached module that is printed and dropped; only the
  // func and bufferization dialects may get loaded into the caller's context.
  MLIRContext *ctx = op->getContext();
  ctx->getOrLoadDialect<func::FuncDialect>();
  ctx->getOrLoadDialect<bufferization::BufferizationDialect>();
  Location loc = op->getLoc();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());

  auto dps = cast<DestinationStyleOpInterface>(op);
  llvm::SetVector<Value> values;
  for (Value v : op->getOperands())
    values.insert(v);
  SmallVector<Type> argTypes;
  for (Value v : values) {
    if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
      argTypes.push_back(
          MemRefType::get(tensor.getShape(), tensor.getElementType()));
    else
      argTypes.push_back(v.getType());
  }
  auto kernel =
      func::FuncOp::create(b, loc, "kernel", b.getFunctionType(argTypes, {}));
  Block *entry = kernel.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  llvm::DenseSet<Value> inits;
  for (OpOperand &init : dps.getDpsInitsMutable())
    inits.insert(init.get());
  for (auto [i, v] : llvm::enumerate(values)) {
    Value arg = entry->getArgument(i);
    if (isa<RankedTensorType>(v.getType()))
      arg = bufferization::ToTensorOp::create(b, loc, v.getType(), arg,
                                              /*restrict=*/true,
                                              /*writable=*/inits.contains(v));
    mapping.map(v, arg);
  }
  Operation *copy = b.clone(*op, mapping);
  for (OpResult result : copy->getResults()) {
    OpOperand *tied =
        cast<DestinationStyleOpInterface>(copy).getTiedOpOperand(result);
    // The copy has the original's operand order: the tied init is the
    // original operand at the same position.
    Value init = op->getOperand(tied->getOperandNumber());
    unsigned argIndex =
        llvm::find(values.getArrayRef(), init) - values.getArrayRef().begin();
    bufferization::MaterializeInDestinationOp::create(
        b, loc, TypeRange{}, result, entry->getArgument(argIndex),
        /*restrict=*/true, /*writable=*/true);
  }
  func::ReturnOp::create(b, loc);

  llvm::raw_string_ostream os(text);
  module->getBody()->front().print(os);
  os << "\n";

  // The buffers are globals (static storage: large operands would overflow
  // the stack) filled once by @init, outside the timed calls: inputs 1,
  // outputs 0. @bench only calls the kernel.
  std::string globals, init, bench, callArgs, callTypes;
  llvm::raw_string_ostream g(globals), in(init), be(bench);
  for (auto [i, v] : llvm::enumerate(values)) {
    std::string name = "%v" + std::to_string(i);
    std::string global = "@hwsched_buffer" + std::to_string(i);
    Type argType = argTypes[i];
    std::string typeText = llvm::formatv("{0}", argType).str();
    bool zero = inits.contains(v);
    if (auto memref = dyn_cast<MemRefType>(argType)) {
      g << "memref.global \"private\" " << global << " : " << typeText
        << " = uninitialized {alignment = 64 : i64}\n";
      std::string getGlobal = "  " + name + " = memref.get_global " + global +
                              " : " + typeText + "\n";
      in << getGlobal << "  " << name << "_c = arith.constant "
         << constantText(memref.getElementType(), zero) << "\n"
         << "  linalg.fill ins(" << name << "_c : " << memref.getElementType()
         << ") outs(" << name << " : " << typeText << ")\n";
      be << getGlobal;
    } else {
      be << "  " << name << " = arith.constant " << constantText(argType, zero)
         << "\n";
    }
    callArgs += (i ? ", " : "") + name;
    callTypes += (i ? ", " : "") + typeText;
  }
  os << globals << "func.func @init() {\n"
     << init << "  return\n}\n"
     << "func.func @bench(%calls: index) {\n"
     << bench
     << "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
     << "  scf.for %i = %c0 to %calls step %c1 {\n"
     << "    func.call @kernel(" << callArgs << ") : (" << callTypes
     << ") -> ()\n  }\n  return\n}\n";
}

/// `transform.structured.tile_using_for` of `src` by `sizes` into `dst`
/// (skipped when every size is 0).
static void appendTiling(llvm::raw_ostream &os, llvm::StringRef src,
                         llvm::StringRef dst, llvm::ArrayRef<int64_t> sizes) {
  int64_t loops = llvm::count_if(sizes, [](int64_t s) { return s != 0; });
  if (loops == 0) {
    os << "    %" << dst << " = transform.merge_handles %" << src
       << " : !transform.any_op\n";
    return;
  }
  os << "    %" << dst << ", %" << dst << "_loops:" << loops
     << " = transform.structured.tile_using_for %" << src << " tile_sizes [";
  llvm::interleaveComma(sizes, os);
  os << "] : (!transform.any_op) -> (!transform.any_op";
  for (int64_t i = 0; i < loops; ++i)
    os << ", !transform.any_op";
  os << ")\n";
}

/// The schedule for one configuration: cache tile, K tile, register tile, K
/// step 1 (the configuration), then the shipped @hwsched_cpu_measure_lower of
/// transform-scripts/cpu-measure.mlir (vectorize the register kernel, hoist
/// the accumulators, bufferize, lower contractions to FMAs), the schedule
/// bench/tileconfig/cpu_sweep.py compiles too.
static std::string scheduleText(const MeasuredTileConfig &config,
                                llvm::ArrayRef<int64_t> kStep) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << R"(module attributes {transform.with_named_sequence} {
  transform.named_sequence private @hwsched_cpu_measure_lower(!transform.any_op {transform.consumed})
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %kf = transform.structured.match ops{["func.func"]} attributes{sym_name = "kernel"} in %root : (!transform.any_op) -> !transform.any_op
    %op = transform.structured.match interface{LinalgOp} in %kf : (!transform.any_op) -> !transform.any_op
)";
  appendTiling(os, "op", "l1", config.tileSizes);
  appendTiling(os, "l1", "l2", config.reductionTileSizes);
  appendTiling(os, "l2", "l3", config.registerTileSizes);
  appendTiling(os, "l3", "l4", kStep);
  os << R"(    transform.include @hwsched_cpu_measure_lower failures(propagate) (%root) : (!transform.any_op) -> ()
    transform.yield
  }
}
)";
  return text;
}

namespace {
/// One measurement's context with the first error diagnostic it reported,
/// and the result its failures are recorded in.
struct MeasureSession {
  MLIRContext &ctx;
  const std::string &diagnostics;
  TileMeasurementResult &result;

  /// Records a failure at `stage`, completed by the first error diagnostic.
  void fail(llvm::StringRef stage) {
    result.error =
        (stage + (diagnostics.empty() ? "" : ": " + diagnostics)).str();
  }
};
} // namespace

/// Parses `moduleText`, applies the schedule of `config` (with the shipped
/// lowering library linked in) and lowers it to the LLVM dialect; null
/// (with the failure recorded) when a step fails.
static OwningOpRef<ModuleOp> scheduleAndLower(MeasureSession &s,
                                              llvm::StringRef moduleText,
                                              const MeasuredTileConfig &config,
                                              llvm::ArrayRef<int64_t> kStep) {
  MLIRContext &ctx = s.ctx;
  OwningOpRef<ModuleOp> payload =
      parseSourceString<ModuleOp>(moduleText, ParserConfig(&ctx));
  if (!payload) {
    s.fail("the standalone module does not parse");
    return nullptr;
  }
  OwningOpRef<ModuleOp> script = parseSourceString<ModuleOp>(
      scheduleText(config, kStep), ParserConfig(&ctx));
  OwningOpRef<ModuleOp> library =
      parseSourceString<ModuleOp>(kCpuMeasureScript, ParserConfig(&ctx));
  if (!script || !library) {
    s.fail("the schedule does not parse (the tool does not register the "
           "upstream transform extensions it uses)");
    return nullptr;
  }
  Operation *entry = nullptr;
  script->walk([&](transform::NamedSequenceOp seq) {
    if (seq.getSymName() == "__transform_main")
      entry = seq;
  });
  // The library is linked into the script, resolving the declaration.
  if (failed(transform::applyTransformNamedSequence(
          payload.get(), entry, *library, transform::TransformOptions()))) {
    s.fail("the schedule failed");
    return nullptr;
  }
  PassManager pm(&ctx);
  std::string pipelineError;
  llvm::raw_string_ostream pipelineOs(pipelineError);
  if (failed(parsePassPipeline(kLowering, pm, pipelineOs))) {
    s.result.error = "the lowering passes are not registered: " + pipelineError;
    return nullptr;
  }
  if (failed(pm.run(*payload))) {
    s.fail("lowering to LLVM failed");
    return nullptr;
  }
  return payload;
}

/// JIT-compiles the lowered `payload` for the host at -O3; null (with the
/// failure recorded) when there is no host target or compilation fails.
static std::unique_ptr<ExecutionEngine>
compileForHost(ModuleOp payload, TileMeasurementResult &result) {
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder) {
    result.error = "no host target: " + llvm::toString(tmBuilder.takeError());
    return nullptr;
  }
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm) {
    result.error = "no host target machine: " + llvm::toString(tm.takeError());
    return nullptr;
  }
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(3, 0, tm->get());
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(payload, options, std::move(*tm));
  if (!engine) {
    result.error =
        "JIT compilation failed: " + llvm::toString(engine.takeError());
    return nullptr;
  }
  return std::move(*engine);
}

/// Times @bench of the compiled module (after @init): a warm-up call
/// (caches), a calibration call, then `samples` samples of as many calls as
/// make a sample last kMinSampleNs; the median time per call.
static void timeBench(ExecutionEngine &engine, int64_t samples,
                      TileMeasurementResult &result) {
  // Look the entry up before timing anything: the lookup materializes
  // (compiles) the module, which must not count as a call.
  auto bench = engine.lookupPacked("bench");
  if (!bench) {
    result.error = "no @bench in the JIT: " + llvm::toString(bench.takeError());
    return;
  }
  auto run = [&](int64_t calls) {
    void *args[] = {&calls};
    double start = threadCpuNs();
    (*bench)(args);
    return threadCpuNs() - start;
  };
  auto init = engine.lookupPacked("init");
  if (!init) {
    result.error = "no @init in the JIT: " + llvm::toString(init.takeError());
    return;
  }
  void *noArgs[] = {nullptr};
  (*init)(noArgs);
  run(1);
  double one = run(1);
  int64_t calls = std::clamp<int64_t>(
      static_cast<int64_t>(std::ceil(kMinSampleNs / std::max(one, 1.0))), 1,
      kMaxCallsPerSample);
  std::vector<double> perCall;
  for (int64_t s = 0; s < samples; ++s)
    perCall.push_back(run(calls) / calls);
  std::sort(perCall.begin(), perCall.end());
  size_t n = perCall.size();
  result.medianNs =
      n % 2 ? perCall[n / 2] : 0.5 * (perCall[n / 2 - 1] + perCall[n / 2]);
  result.callsPerSample = calls;
  result.samples = samples;
}

/// Compiles `moduleText` tiled with `config` and times @bench.
static void measureOne(const DialectRegistry &registry,
                       llvm::StringRef moduleText,
                       const MeasuredTileConfig &config,
                       llvm::ArrayRef<int64_t> kStep, int64_t samples,
                       TileMeasurementResult &result) {
  MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
  registerBuiltinDialectTranslation(ctx);
  registerLLVMDialectTranslation(ctx);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && diagnostics.empty())
      diagnostics = diag.str();
    return success();
  });
  MeasureSession session{ctx, diagnostics, result};
  OwningOpRef<ModuleOp> payload =
      scheduleAndLower(session, moduleText, config, kStep);
  if (!payload)
    return;
  std::unique_ptr<ExecutionEngine> engine = compileForHost(*payload, result);
  if (!engine)
    return;
  timeBench(*engine, samples, result);
}

llvm::Expected<std::vector<TileMeasurementResult>>
hwsched::measureTileConfigs(Operation *op,
                            llvm::ArrayRef<MeasuredTileConfig> configs,
                            int64_t samples) {
  if (llvm::Error err = checkTileConfigsMeasurable(op))
    return std::move(err);
  std::string moduleText;
  buildStandaloneModule(op, moduleText);
  static bool nativeTargetReady = !llvm::InitializeNativeTarget() &&
                                  !llvm::InitializeNativeTargetAsmPrinter();
  if (!nativeTargetReady)
    return refuse(op, "the host target is not available to the JIT");
  // The register kernel steps every reduction loop by 1 (the register
  // estimate assumes it), as the CPU scripts do.
  auto linalgOp = cast<linalg::LinalgOp>(op);
  SmallVector<int64_t> kStep;
  for (utils::IteratorType it : linalgOp.getIteratorTypesArray())
    kStep.push_back(it == utils::IteratorType::reduction ? 1 : 0);
  const DialectRegistry &registry = op->getContext()->getDialectRegistry();
  std::vector<TileMeasurementResult> results(configs.size());
  for (auto [config, result] : llvm::zip(configs, results))
    measureOne(registry, moduleText, config, kStep, samples, result);
  return results;
}

static std::string formatList(llvm::ArrayRef<int64_t> values) {
  std::string text = "[";
  for (auto [i, v] : llvm::enumerate(values))
    text += (i ? ", " : "") + std::to_string(v);
  return text + "]";
}

bool hwsched::refineTileSelectionByMeasurement(Operation *op,
                                               const TileProblem &problem,
                                               TileSelection &selection,
                                               int64_t topK, int64_t samples,
                                               std::string &report) {
  size_t count =
      std::min<size_t>(std::max<int64_t>(topK, 1), selection.ranked.size());
  std::vector<MeasuredTileConfig> configs;
  for (size_t i = 0; i < count; ++i) {
    TileSelection lists;
    expandToLoops(problem, selection.ranked[i], lists);
    configs.push_back(
        {lists.tileSizes, lists.reductionTileSizes, lists.threadTileSizes});
  }
  llvm::Expected<std::vector<TileMeasurementResult>> measured =
      measureTileConfigs(op, configs, samples);
  if (!measured) {
    report = "select_tile_config: measurement impossible (" +
             takeRefusalMessage(measured.takeError()) +
             "): kept the model's pick";
    return false;
  }
  std::vector<TileMeasurementResult> &results = *measured;
  int best = -1;
  std::string lines;
  for (size_t i = 0; i < count; ++i) {
    const TileMeasurementResult &r = results[i];
    lines += llvm::formatv("; #{0} tile_sizes {1}, reduction_tile_sizes {2}, "
                           "thread_tile_sizes {3}: ",
                           i + 1, formatList(configs[i].tileSizes),
                           formatList(configs[i].reductionTileSizes),
                           formatList(configs[i].registerTileSizes))
                 .str();
    if (r.medianNs < 0) {
      lines += "failed (" + r.error + ")";
      continue;
    }
    lines += llvm::formatv("measured {0:F4} ms (model {1:F4} ms, {2} calls "
                           "per sample)",
                           r.medianNs * 1e-6, selection.ranked[i].timeNs * 1e-6,
                           r.callsPerSample)
                 .str();
    selection.ranked[i].measuredNs = r.medianNs;
    if (best < 0 || r.medianNs < results[best].medianNs)
      best = static_cast<int>(i);
  }
  if (best < 0) {
    report = "select_tile_config: measurement impossible (every candidate "
             "failed" +
             lines + "): kept the model's pick";
    return false;
  }
  TileCandidate winner = selection.ranked[best];
  expandToLoops(problem, winner, selection);
  report = llvm::formatv("select_tile_config measured {0} candidates on the "
                         "host CPU (median of {1} samples of thread CPU "
                         "time){2}; kept #{3}",
                         count, samples, lines, best + 1)
               .str();
  selection.why = llvm::formatv("measured fastest of the model's top {0}: "
                                "candidate #{1} at {2:F4} ms",
                                count, best + 1, winner.measuredNs * 1e-6)
                      .str() +
                  " (model: " + selection.why + ")";
  return true;
}
