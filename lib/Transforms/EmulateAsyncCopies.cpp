//===- EmulateAsyncCopies.cpp - Deferred CPU emulation of cp.async --------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "hwsched/Transforms/Passes.h"

namespace hwsched {
#define GEN_PASS_DEF_HWSCHEDEMULATEASYNCCOPIES
#include "hwsched/Transforms/Passes.h.inc"
} // namespace hwsched

using namespace mlir;
using namespace hwsched;

namespace {
struct EmulateAsyncCopiesPass
    : hwsched::impl::HwschedEmulateAsyncCopiesBase<EmulateAsyncCopiesPass> {
  void runOnOperation() override;
};
} // namespace

/// Declares (once) a private runtime function taking and returning nothing
/// but `index` values; func-to-llvm turns them into i64, the C signature.
static func::FuncOp declareRuntime(ModuleOp module, RewriterBase &rewriter,
                                   StringRef name, unsigned numArgs) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  SmallVector<Type> inputs(numArgs, rewriter.getIndexType());
  auto func = func::FuncOp::create(rewriter, module.getLoc(), name,
                                   rewriter.getFunctionType(inputs, {}));
  func.setPrivate();
  return func;
}

/// The address of `memref[indices]` as an index, and the innermost stride
/// (in elements) in `innerStride`.
static Value elementAddress(RewriterBase &rewriter, Location loc, Value memref,
                            ValueRange indices, int64_t elementBytes,
                            Value &innerStride) {
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides())) {
    Value term = arith::MulIOp::create(rewriter, loc, index, stride);
    linear = arith::AddIOp::create(rewriter, loc, linear, term);
  }
  ValueRange strides = metadata.getStrides();
  innerStride = strides.empty()
                    ? arith::ConstantIndexOp::create(rewriter, loc, 1)
                    : strides.back();
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, memref);
  Value bytes = arith::MulIOp::create(
      rewriter, loc, linear,
      arith::ConstantIndexOp::create(rewriter, loc, elementBytes));
  return arith::AddIOp::create(rewriter, loc, base, bytes);
}

/// The nvgpu async-copy ops of `module` (copies, groups, waits), in walk
/// order.
static SmallVector<Operation *> collectAsyncOps(ModuleOp module) {
  SmallVector<Operation *> asyncOps;
  module.walk([&](Operation *op) {
    if (isa<nvgpu::DeviceAsyncCopyOp, nvgpu::DeviceAsyncCreateGroupOp,
            nvgpu::DeviceAsyncWaitOp>(op))
      asyncOps.push_back(op);
  });
  return asyncOps;
}

/// Checks, before anything changes, that every op is in a func.func and
/// every copy moves whole bytes; an error on the first that is not.
static LogicalResult verifyAsyncOps(ArrayRef<Operation *> asyncOps) {
  for (Operation *op : asyncOps) {
    if (!op->getParentOfType<func::FuncOp>()) {
      op->emitOpError() << "is not inside a func.func: "
                           "hwsched-emulate-async-copies only handles "
                           "func.func bodies";
      return failure();
    }
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
      Type elementType = copy.getDst().getType().getElementType();
      if (!elementType.isIntOrFloat() ||
          elementType.getIntOrFloatBitWidth() % 8 != 0) {
        copy.emitOpError() << "element type " << elementType
                           << " is not a whole number of bytes";
        return failure();
      }
    }
  }
  return success();
}

namespace {
/// The runtime functions the emulation calls.
struct EmulationRuntime {
  func::FuncOp copy, commit, wait, drained;
};
} // namespace

/// Declares the runtime functions (in this order, each at the module start).
static EmulationRuntime declareEmulationRuntime(ModuleOp module,
                                                RewriterBase &rewriter) {
  EmulationRuntime runtime;
  runtime.copy = declareRuntime(module, rewriter, "hwsched_async_emu_copy", 7);
  runtime.commit =
      declareRuntime(module, rewriter, "hwsched_async_emu_commit", 0);
  runtime.wait = declareRuntime(module, rewriter, "hwsched_async_emu_wait", 1);
  runtime.drained =
      declareRuntime(module, rewriter, "hwsched_async_emu_check_drained", 0);
  return runtime;
}

/// Calls the copy runtime for `copy`, at the rewriter's insertion point:
/// destination and source addresses and innermost strides, element counts
/// and the element size in bytes.
static void emulateCopy(RewriterBase &rewriter, nvgpu::DeviceAsyncCopyOp copy,
                        func::FuncOp copyFn) {
  Location loc = copy.getLoc();
  int64_t elementBytes =
      copy.getDst().getType().getElementType().getIntOrFloatBitWidth() / 8;
  Value dstStride, srcStride;
  Value dst = elementAddress(rewriter, loc, copy.getDst(), copy.getDstIndices(),
                             elementBytes, dstStride);
  Value src = elementAddress(rewriter, loc, copy.getSrc(), copy.getSrcIndices(),
                             elementBytes, srcStride);
  int64_t count = copy.getDstElements().getSExtValue();
  Value numElements = arith::ConstantIndexOp::create(rewriter, loc, count);
  Value srcElements =
      copy.getSrcElements() ? Value(copy.getSrcElements()) : numElements;
  func::CallOp::create(
      rewriter, loc, copyFn,
      ValueRange{dst, dstStride, src, srcStride, numElements, srcElements,
                 arith::ConstantIndexOp::create(rewriter, loc, elementBytes)});
}

/// Puts a runtime call before each async op (the ops stay, for their
/// tokens); returns the functions that hold them, in first-seen order.
static llvm::SetVector<func::FuncOp>
insertRuntimeCalls(RewriterBase &rewriter, const EmulationRuntime &runtime,
                   ArrayRef<Operation *> asyncOps) {
  llvm::SetVector<func::FuncOp> functions;
  for (Operation *op : asyncOps) {
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    if (auto parent = op->getParentOfType<func::FuncOp>())
      functions.insert(parent);
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
      emulateCopy(rewriter, copy, runtime.copy);
    } else if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op)) {
      func::CallOp::create(rewriter, loc, runtime.commit, ValueRange{});
    } else {
      auto wait = cast<nvgpu::DeviceAsyncWaitOp>(op);
      std::optional<uint32_t> numGroups = wait.getNumGroups();
      int64_t count = numGroups ? static_cast<int64_t>(*numGroups) : -1;
      func::CallOp::create(
          rewriter, loc, runtime.wait,
          ValueRange{arith::ConstantIndexOp::create(rewriter, loc, count)});
    }
  }
  return functions;
}

/// Tokens carry no information here, but the pipelined loops thread them
/// through iter_args. Points every token of `func` at one ub.poison, so
/// each such iter_arg yields its own init and the scf.for folder drops it.
static void replaceTokensByPoison(RewriterBase &rewriter, func::FuncOp func,
                                  Type tokenType) {
  rewriter.setInsertionPointToStart(&func.getBody().front());
  Value poison = ub::PoisonOp::create(rewriter, func.getLoc(), tokenType);
  func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (result != poison && result.getType() == tokenType)
        result.replaceAllUsesWith(poison);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (arg.getType() == tokenType)
            arg.replaceAllUsesWith(poison);
  });
}

/// Drops the token iter_args and results of `func` (scf.for / scf.if
/// canonicalization only), then the token poisons: nothing of token type is
/// left for the LLVM lowering, or an error at a user that still has one.
static LogicalResult dropTokenCarriers(RewriterBase &rewriter,
                                       func::FuncOp func, Type tokenType) {
  MLIRContext *context = func.getContext();
  RewritePatternSet patterns(context);
  scf::ForOp::getCanonicalizationPatterns(patterns, context);
  scf::IfOp::getCanonicalizationPatterns(patterns, context);
  // Only the iter_arg / result folders: no folding, constant CSE or region
  // simplification, so the rest of the IR stays as the transform left it.
  GreedyRewriteConfig config;
  config.enableFolding(false).enableConstantCSE(false);
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  (void)applyPatternsGreedily(func, std::move(patterns), config);
  SmallVector<ub::PoisonOp> poisons;
  func.walk([&](ub::PoisonOp op) {
    if (op.getType() == tokenType)
      poisons.push_back(op);
  });
  for (ub::PoisonOp op : poisons) {
    if (op->use_empty()) {
      rewriter.eraseOp(op);
      continue;
    }
    Operation *user = *op->getUsers().begin();
    user->emitOpError() << "still carries an nvgpu async token after "
                           "hwsched-emulate-async-copies (only scf.for "
                           "iter_args and scf.if results are dropped)";
    return failure();
  }
  return success();
}

/// The threads of a gpu.launch that hwsched-emulate-gpu-launch rewrote end
/// at the terminator of their omp.parallel region: each checks there that
/// its own copies (the runtime keeps them per thread) have all landed.
static void checkDrainedAtThreadEnds(RewriterBase &rewriter, ModuleOp module,
                                     ArrayRef<omp::ParallelOp> teams) {
  if (teams.empty())
    return;
  func::FuncOp check = declareRuntime(
      module, rewriter, "hwsched_async_emu_check_thread_drained", 0);
  for (omp::ParallelOp team : teams) {
    for (Block &block : team.getRegion()) {
      if (block.empty() || !isa<omp::TerminatorOp>(block.back()))
        continue;
      rewriter.setInsertionPoint(&block.back());
      func::CallOp::create(rewriter, team.getLoc(), check, ValueRange{});
    }
  }
}

void EmulateAsyncCopiesPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<Operation *> asyncOps = collectAsyncOps(module);
  if (asyncOps.empty())
    return;
  if (failed(verifyAsyncOps(asyncOps)))
    return signalPassFailure();

  llvm::SetVector<omp::ParallelOp> teams;
  for (Operation *op : asyncOps)
    if (auto team = op->getParentOfType<omp::ParallelOp>())
      teams.insert(team);

  IRRewriter rewriter(module.getContext());
  EmulationRuntime runtime = declareEmulationRuntime(module, rewriter);
  llvm::SetVector<func::FuncOp> functions =
      insertRuntimeCalls(rewriter, runtime, asyncOps);
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(module.getContext());
  for (func::FuncOp func : functions)
    replaceTokensByPoison(rewriter, func, tokenType);
  // All token uses now point at the poisons.
  for (Operation *op : asyncOps)
    rewriter.eraseOp(op);
  for (func::FuncOp func : functions)
    if (failed(dropTokenCarriers(rewriter, func, tokenType)))
      return signalPassFailure();

  // A function that issues copies must not return with any still pending:
  // the hardware would leave them landing after the caller moved on.
  for (func::FuncOp func : functions) {
    func.walk([&](func::ReturnOp ret) {
      rewriter.setInsertionPoint(ret);
      func::CallOp::create(rewriter, ret.getLoc(), runtime.drained,
                           ValueRange{});
    });
  }
  checkDrainedAtThreadEnds(rewriter, module, teams.getArrayRef());
}
