//===- EmulateGpuLaunch.cpp - gpu.launch as OpenMP threads on the CPU -----===//
//
// Part of the hwsched project.
//
// A testing aid for the execution checks: every gpu.launch with constant
// block sizes becomes sequential loops over its blocks, each block one
// omp.parallel team of as many threads as the block has, so that the
// threads of a block really run concurrently and share their workgroup
// buffers: a missing gpu.barrier is a data race the run can show, as on
// the GPU.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

#include "hwsched/Transforms/Passes.h"

#include "RuntimeCheck.h"

namespace hwsched {
#define GEN_PASS_DEF_HWSCHEDEMULATEGPULAUNCH
#include "hwsched/Transforms/Passes.h.inc"
} // namespace hwsched

using namespace mlir;
using namespace hwsched;

namespace {
struct EmulateGpuLaunchPass
    : hwsched::impl::HwschedEmulateGpuLaunchBase<EmulateGpuLaunchPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// x, y, z.
using Dim3 = std::array<Value, 3>;

/// What a block's threads see of the launch in the emulation.
struct BlockContext {
  Dim3 blockIds, gridDims, blockDims;
  /// The team's thread count (the block's size).
  int64_t numThreads = 0;
  unsigned subgroupSize = 0;
  /// Where the runtime declarations and the threads' checks go.
  ModuleOp module;
  RuntimeChecker *checker = nullptr;
};

/// What one thread sees: the block's values and its own ids.
struct ThreadContext {
  const BlockContext *block = nullptr;
  Dim3 threadIds;
  /// x fastest: x + bx * (y + by * z), the OpenMP thread number.
  Value linearId;
};
} // namespace

//===----------------------------------------------------------------------===//
// What can be emulated
//===----------------------------------------------------------------------===//

/// Workgroup (shared) memory: `#gpu.address_space<workgroup>` or NVVM's
/// integer space 3, as nvgpu reads it.
static bool isWorkgroupAlloc(memref::AllocOp alloc) {
  return nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(alloc.getType());
}

/// The ops that the rewrite replaces by values or OpenMP ops.
static bool isEmulatedGpuOp(Operation *op) {
  return isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
             gpu::GlobalIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
             gpu::NumSubgroupsOp, gpu::SubgroupSizeOp, gpu::BarrierOp,
             gpu::TerminatorOp>(op);
}

/// The launch's own configuration: constant block sizes, no async token,
/// no clusters, one block of body. Returns the block sizes.
static FailureOr<std::array<int64_t, 3>> checkLaunchConfig(gpu::LaunchOp op) {
  if (op.getAsyncToken() || !op.getAsyncDependencies().empty())
    return op.emitOpError()
           << "is asynchronous (async dependencies or token): "
              "hwsched-emulate-gpu-launch only runs synchronous launches";
  if (op.hasClusterSize())
    return op.emitOpError() << "has cluster sizes: hwsched-emulate-gpu-launch "
                               "does not emulate thread block clusters";
  if (!op.getBody().hasOneBlock())
    return op.emitOpError() << "has a body of several blocks: "
                               "hwsched-emulate-gpu-launch needs one block";
  std::array<int64_t, 3> sizes;
  gpu::KernelDim3 operands = op.getBlockSizeOperandValues();
  Value values[] = {operands.x, operands.y, operands.z};
  for (unsigned d = 0; d < 3; ++d) {
    std::optional<int64_t> size = getConstantIntValue(values[d]);
    if (!size || *size < 1)
      return op.emitOpError()
             << "block size "
             << "xyz"[d]
             << " is not a positive constant: hwsched-emulate-gpu-launch "
                "needs the thread count of a block when it rewrites it";
    sizes[d] = *size;
  }
  return sizes;
}

/// Refuses ops of the body that the threads cannot run as they stand: gpu
/// and nvgpu ops without an emulation (warp-collective ones in particular,
/// which would need the lanes in lockstep) and workgroup allocations below
/// the top level, which cannot be shared by the block's threads.
static LogicalResult checkBody(gpu::LaunchOp launch) {
  Block *body = &launch.getBody().front();
  WalkResult result =
      launch.getBody().walk([&](Operation *op) {
        if (isa<gpu::LaunchOp>(op)) {
          op->emitOpError() << "is nested in another gpu.launch: "
                               "hwsched-emulate-gpu-launch does not emulate it";
          return WalkResult::interrupt();
        }
        Dialect *dialect = op->getDialect();
        if (isa_and_nonnull<gpu::GPUDialect>(dialect) && !isEmulatedGpuOp(op)) {
          op->emitOpError()
              << "has no CPU emulation in hwsched-emulate-gpu-launch (it "
                 "emulates thread, block, lane and subgroup ids and sizes and "
                 "gpu.barrier)";
          return WalkResult::interrupt();
        }
        if (isa_and_nonnull<nvgpu::NVGPUDialect>(dialect) &&
            !isa<nvgpu::DeviceAsyncCopyOp, nvgpu::DeviceAsyncCreateGroupOp,
                 nvgpu::DeviceAsyncWaitOp>(op)) {
          op->emitOpError() << "has no per-thread CPU emulation (of the nvgpu "
                               "ops, only the async copies, groups and waits "
                               "run: hwsched-emulate-async-copies)";
          return WalkResult::interrupt();
        }
        auto alloc = dyn_cast<memref::AllocOp>(op);
        if (alloc && isWorkgroupAlloc(alloc) && op->getBlock() != body) {
          op->emitOpError()
              << "allocates workgroup memory inside '"
              << op->getParentOp()->getName()
              << "': hwsched-emulate-gpu-launch shares only the workgroup "
                 "allocations at the top level of the launch body";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
  return failure(result.wasInterrupted());
}

/// The launch's dynamic shared memory as one more workgroup allocation: a
/// byte buffer of its dynamic_shared_memory_size at the top of the body,
/// which replaces every gpu.dynamic_shared_memory (they all name the same
/// memory), so that it is shared like the others.
static LogicalResult materializeDynamicSharedMemory(RewriterBase &rewriter,
                                                    gpu::LaunchOp launch) {
  SmallVector<gpu::DynamicSharedMemoryOp> uses;
  launch.getBody().walk(
      [&](gpu::DynamicSharedMemoryOp op) { uses.push_back(op); });
  if (uses.empty())
    return success();
  Value bytes = launch.getDynamicSharedMemorySize();
  if (!bytes)
    return uses.front().emitOpError()
           << "is used in a gpu.launch without dynamic_shared_memory_size: "
              "hwsched-emulate-gpu-launch allocates that many bytes";
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value size =
      arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), bytes);
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  auto buffer = memref::AllocOp::create(
      rewriter, loc, cast<MemRefType>(uses.front().getType()), size);
  for (gpu::DynamicSharedMemoryOp op : uses)
    rewriter.replaceOp(op, buffer.getResult());
  // Freed after the block's threads, with the other shared buffers.
  rewriter.setInsertionPoint(launch.getBody().front().getTerminator());
  memref::DeallocOp::create(rewriter, loc, buffer);
  return success();
}

/// The workgroup allocations at the top level of the launch body, which
/// move out of the threads' region: their sizes must be known before the
/// block starts, and their deallocations must come after all threads.
static FailureOr<SmallVector<memref::AllocOp>>
collectSharedAllocs(gpu::LaunchOp launch) {
  Region &body = launch.getBody();
  SmallVector<memref::AllocOp> shared;
  for (auto alloc : body.front().getOps<memref::AllocOp>()) {
    if (!isWorkgroupAlloc(alloc))
      continue;
    for (Value size : alloc->getOperands()) {
      Operation *def = size.getDefiningOp();
      if (body.isAncestor(size.getParentRegion()) &&
          !(def && def->getBlock() == &body.front() &&
            matchPattern(def, m_Constant())))
        return alloc.emitOpError()
               << "has a size computed in the launch body: "
                  "hwsched-emulate-gpu-launch allocates workgroup memory "
                  "once per block, before its threads start";
    }
    for (Operation *user : alloc->getUsers())
      if (isa<memref::DeallocOp>(user) && user->getBlock() != &body.front())
        return user->emitOpError()
               << "frees workgroup memory below the top level of the "
                  "launch body: hwsched-emulate-gpu-launch frees it once "
                  "per block, after its threads";
    shared.push_back(alloc);
  }
  return shared;
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

/// Declares (once) a private external function of no arguments returning
/// an i32: the OpenMP runtime queries.
static func::FuncOp declareQuery(RewriterBase &rewriter, ModuleOp module,
                                 StringRef name) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  auto func = func::FuncOp::create(
      rewriter, module.getLoc(), name,
      rewriter.getFunctionType({}, {rewriter.getI32Type()}));
  func.setPrivate();
  return func;
}

/// The thread's ids from its OpenMP thread number, at the rewriter's
/// insertion point, after checking that the team has the block's size (an
/// OpenMP runtime may silently start fewer threads than asked for):
/// `expected`, an i32.
static ThreadContext buildThreadIds(RewriterBase &rewriter, Location loc,
                                    const BlockContext &block, Value expected) {
  func::FuncOp threadNum =
      declareQuery(rewriter, block.module, "omp_get_thread_num");
  func::FuncOp numThreads =
      declareQuery(rewriter, block.module, "omp_get_num_threads");
  Value team = func::CallOp::create(rewriter, loc, numThreads, ValueRange{})
                   .getResult(0);
  Value complete = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq, team, expected);
  block.checker->check(
      loc, complete,
      "hwsched-emulate-gpu-launch: the OpenMP runtime started fewer than "
      "the block's " +
          std::to_string(block.numThreads) +
          " threads (set OMP_THREAD_LIMIT high and OMP_DYNAMIC=false)");

  ThreadContext thread;
  thread.block = &block;
  Value number =
      func::CallOp::create(rewriter, loc, threadNum, ValueRange{}).getResult(0);
  thread.linearId = arith::IndexCastOp::create(rewriter, loc,
                                               rewriter.getIndexType(), number);
  // x fastest; a dimension of size 1 is 0 without arithmetic.
  Value rest = thread.linearId;
  Value zero;
  int64_t below = 1;
  for (unsigned d = 0; d < 3; ++d) {
    int64_t size = *getConstantIntValue(block.blockDims[d]);
    if (size == 1) {
      if (!zero)
        zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      thread.threadIds[d] = zero;
      continue;
    }
    below *= size;
    if (below == block.numThreads) {
      thread.threadIds[d] = rest; // the last dimension with threads
      continue;
    }
    thread.threadIds[d] =
        arith::RemUIOp::create(rewriter, loc, rest, block.blockDims[d]);
    rest = arith::DivUIOp::create(rewriter, loc, rest, block.blockDims[d]);
  }
  return thread;
}

/// The value of `values` for the dimension an id or size op names.
static Value pick(const Dim3 &values, gpu::Dimension dim) {
  return values[static_cast<unsigned>(dim)];
}

/// Replaces the gpu ops of the threads' region by their values (thread,
/// block and lane ids and sizes) and gpu.barrier by omp.barrier.
static void replaceGpuOps(RewriterBase &rewriter, Region &region,
                          const ThreadContext &thread) {
  const BlockContext &block = *thread.block;
  SmallVector<Operation *> gpuOps;
  region.walk([&](Operation *op) {
    if (isEmulatedGpuOp(op))
      gpuOps.push_back(op);
  });
  for (Operation *op : gpuOps) {
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    Value value =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](gpu::ThreadIdOp id) {
              return pick(thread.threadIds, id.getDimension());
            })
            .Case([&](gpu::BlockIdOp id) {
              return pick(block.blockIds, id.getDimension());
            })
            .Case([&](gpu::BlockDimOp id) {
              return pick(block.blockDims, id.getDimension());
            })
            .Case([&](gpu::GridDimOp id) {
              return pick(block.gridDims, id.getDimension());
            })
            .Case([&](gpu::GlobalIdOp id) -> Value {
              Value base = arith::MulIOp::create(
                  rewriter, loc, pick(block.blockIds, id.getDimension()),
                  pick(block.blockDims, id.getDimension()));
              return arith::AddIOp::create(
                  rewriter, loc, base,
                  pick(thread.threadIds, id.getDimension()));
            })
            .Case([&](gpu::LaneIdOp) -> Value {
              return arith::RemUIOp::create(rewriter, loc, thread.linearId,
                                            constant(block.subgroupSize));
            })
            .Case([&](gpu::SubgroupIdOp) -> Value {
              return arith::DivUIOp::create(rewriter, loc, thread.linearId,
                                            constant(block.subgroupSize));
            })
            .Case([&](gpu::NumSubgroupsOp) {
              return constant(
                  llvm::divideCeil(block.numThreads, block.subgroupSize));
            })
            .Case([&](gpu::SubgroupSizeOp) {
              return constant(block.subgroupSize);
            })
            .Default([&](Operation *) { return Value(); });
    if (value) {
      rewriter.replaceOp(op, value);
    } else if (isa<gpu::BarrierOp>(op)) {
      rewriter.replaceOpWithNewOp<omp::BarrierOp>(op);
    } else {
      rewriter.replaceOpWithNewOp<omp::TerminatorOp>(op);
    }
  }
}

/// The block's buffers: the workgroup attributions, allocated for the block
/// at the rewriter's insertion point (before its team), with the top-level
/// workgroup allocations of the body moved there; their deallocations, and
/// one for each attribution, after `team`.
static SmallVector<Value>
allocateSharedBuffers(RewriterBase &rewriter, gpu::LaunchOp launch,
                      ArrayRef<memref::AllocOp> shared, omp::ParallelOp team) {
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(team);
  SmallVector<Value> attributions;
  for (BlockArgument arg : launch.getWorkgroupAttributions())
    attributions.push_back(memref::AllocOp::create(
        rewriter, loc, cast<MemRefType>(arg.getType())));
  for (memref::AllocOp alloc : shared) {
    // Constant sizes defined in the body go with the allocation.
    for (Value size : alloc->getOperands())
      if (launch.getBody().isAncestor(size.getParentRegion()))
        size.getDefiningOp()->moveBefore(team);
    alloc->moveBefore(team);
  }
  rewriter.setInsertionPointAfter(team);
  for (Value buffer : attributions)
    memref::DeallocOp::create(rewriter, loc, buffer);
  for (memref::AllocOp alloc : shared)
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->moveBefore(rewriter.getInsertionBlock(),
                         rewriter.getInsertionPoint());
  return attributions;
}

/// One block of `launch`: the team of its threads at the rewriter's
/// insertion point, running the body (moved into it: call once).
static void emulateBlock(RewriterBase &rewriter, gpu::LaunchOp launch,
                         ArrayRef<memref::AllocOp> shared,
                         const BlockContext &block) {
  Location loc = launch.getLoc();
  omp::ParallelOperands clauses;
  clauses.numThreads =
      arith::ConstantIntOp::create(rewriter, loc, block.numThreads, 32);
  auto team = omp::ParallelOp::create(rewriter, loc, clauses);
  SmallVector<Value> workgroup =
      allocateSharedBuffers(rewriter, launch, shared, team);

  Block *entry = rewriter.createBlock(&team.getRegion());
  rewriter.setInsertionPointToStart(entry);
  ThreadContext thread =
      buildThreadIds(rewriter, loc, block, clauses.numThreads);
  SmallVector<Value> args;
  llvm::append_range(args, block.blockIds);
  llvm::append_range(args, thread.threadIds);
  llvm::append_range(args, block.gridDims);
  llvm::append_range(args, block.blockDims);
  llvm::append_range(args, workgroup);
  // Private attributions: one buffer per thread, on its stack.
  for (BlockArgument arg : launch.getPrivateAttributions())
    args.push_back(memref::AllocaOp::create(rewriter, loc,
                                            cast<MemRefType>(arg.getType())));
  rewriter.inlineBlockBefore(&launch.getBody().front(), entry, entry->end(),
                             args);
  replaceGpuOps(rewriter, team.getRegion(), thread);
}

/// Rewrites `launch` (checked) into loops over its blocks, z outermost, each
/// running one team.
static void emulateLaunch(RewriterBase &rewriter, gpu::LaunchOp launch,
                          ArrayRef<memref::AllocOp> shared,
                          std::array<int64_t, 3> blockSizes,
                          unsigned subgroupSize, RuntimeChecker &checker) {
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  BlockContext block;
  block.gridDims = {grid.x, grid.y, grid.z};
  block.blockDims = {sizes.x, sizes.y, sizes.z};
  block.numThreads = blockSizes[0] * blockSizes[1] * blockSizes[2];
  block.subgroupSize = subgroupSize;
  block.module = launch->getParentOfType<ModuleOp>();
  block.checker = &checker;
  scf::buildLoopNest(rewriter, loc, {zero, zero, zero},
                     {grid.z, grid.y, grid.x}, {one, one, one},
                     [&](OpBuilder &b, Location, ValueRange ivs) {
                       rewriter.setInsertionPoint(b.getInsertionBlock(),
                                                  b.getInsertionPoint());
                       block.blockIds = {ivs[2], ivs[1], ivs[0]};
                       emulateBlock(rewriter, launch, shared, block);
                     });
  rewriter.eraseOp(launch);
}

void EmulateGpuLaunchPass::runOnOperation() {
  SmallVector<gpu::LaunchOp> launches;
  getOperation()->walk([&](gpu::LaunchOp launch) {
    // Outermost only: a nested one is refused when its parent is checked.
    if (!launch->getParentOfType<gpu::LaunchOp>())
      launches.push_back(launch);
  });
  if (subgroupSize < 1) {
    getOperation()->emitError()
        << "hwsched-emulate-gpu-launch: subgroup-size must be positive";
    return signalPassFailure();
  }
  IRRewriter rewriter(&getContext());
  RuntimeChecker checker(getOperation(), rewriter, "__hwsched_gpu_launch_msg_");
  for (gpu::LaunchOp launch : launches) {
    FailureOr<std::array<int64_t, 3>> blockSizes = checkLaunchConfig(launch);
    if (failed(blockSizes) ||
        failed(materializeDynamicSharedMemory(rewriter, launch)) ||
        failed(checkBody(launch)))
      return signalPassFailure();
    FailureOr<SmallVector<memref::AllocOp>> shared =
        collectSharedAllocs(launch);
    if (failed(shared))
      return signalPassFailure();
    emulateLaunch(rewriter, launch, *shared, *blockSizes, subgroupSize,
                  checker);
  }
}
