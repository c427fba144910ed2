//===- WarpgroupMatmul.cpp - A matmul as a Hopper wgmma + TMA kernel ------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The kernel, per block of blockM x blockN of C (grid: N / blockN columns of
// blocks by M / blockM rows, or in raster groups of tile rows):
//
//   thread 0: init the mbarriers; prefetch both TMA descriptors
//   prologue (thread 0): for s < S - 1: expect_tx(full[s]);
//     TMA A[rows, K step s] and B[K step s, cols] into ring slot s
//   for kk < K / 64 (each warpgroup: its blockM / W rows):
//     wait full[kk % S] (parity: the step's round, kk / S, modulo 2)
//     acc = wgmma(A slot, B slot, acc) (commit; wait until <= 1 group is
//       in flight, so step kk - 1's MMAs are done)
//     [W > 1: block barrier, so every warpgroup is past step kk - 1]
//     thread 0: expect_tx + TMA for step kk + S - 1 into slot (kk - 1) % S
//   wait for all MMAs; each warpgroup stores its accumulator into C
//
// The slot refilled at step kk is the one step kk - 1 read: the MMA wait of
// step kk (one group left in flight) is what makes the refill safe, and it
// keeps one step of MMAs overlapping the next step's wait. With a producer
// warp (after the warpgroups), no consumer thread loads: each warpgroup's
// first thread arrives on empty[(kk - 1) % S] after that wait, and the
// producer's first thread waits for that release before it refills a slot
// from the second round on.
//
// Why not upstream's building blocks only: no upstream transform op reaches
// nvgpu.warpgroup.mma or nvgpu.tma.async.load from Linalg (the TMA rewrite
// of a block copy, `rewrite_copy_as_tma`, fails on block tiles whose
// descriptor is built in the kernel); the nvgpu ops themselves, their
// lowering and the wgmma descriptor arithmetic are upstream's, used as is.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/WarpgroupMatmul.h"

#include "hwsched/Analysis/MemRefUtils.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hwsched;

namespace {
/// B is loaded in column chunks of one swizzle span (64 f16): the widest box
/// whose rows fit the 128-byte swizzle.
constexpr int64_t kBChunkColumns = 64;
} // namespace

void WarpgroupMatmulPlan::print(llvm::raw_ostream &os) const {
  os << llvm::formatv(
      "wgmma + TMA matmul {0}x{1}x{2} {3}: block {4}x{5}, K step {6} ({7} "
      "steps), {8} stage(s), {9} warpgroup(s) of {10}x{5} ({11} accumulator "
      "registers per thread, ~{22} in all){21}, {12} threads; shared memory "
      "per stage {13} B (A) + {14} B (B), {15} B dynamic of {16} B ({17}); "
      "grid {18}x{19}{20}",
      problem.m, problem.n, problem.k, inputType, tiles.blockM, tiles.blockN,
      blockK(), kSteps(), tiles.numStages, tiles.warpgroups, tiles.warpgroupM(),
      warpgroupAccumulatorRegisters(tiles), tiles.threads(), aStageBytes(),
      bStageBytes(), dynamicSharedBytes(), sharedLimitBytes, computeCapability,
      problem.n / tiles.blockN, problem.m / tiles.blockM,
      tiles.rasterGroup > 1
          ? llvm::formatv(", blocks walk groups of {0} tile rows",
                          tiles.rasterGroup)
                .str()
          : std::string(),
      tiles.producerWarp ? ", a producer warp issuing the loads" : "",
      warpgroupRegisters(tiles));
  if (choice) {
    os << "\n";
    choice->print(os);
  }
}

/// Whether `value` is a buffer no other value can alias unless it is a
/// view of it: a fresh allocation.
static bool isFreshAllocation(Value value) {
  return value.getDefiningOp<memref::AllocOp>() ||
         value.getDefiningOp<memref::AllocaOp>();
}

/// Whether `op` provably leaves the buffer `outputRoot` (a view root)
/// unchanged: each write it declares is on another buffer, and of the two
/// one is a fresh allocation. (Bufferization orders a tensor-level fill
/// before the ops that compute A or B; those write their own buffers.)
static bool leavesBufferUnchanged(Operation *op, Value outputRoot) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &effect : instances) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
      continue;
    Value written = effect.getValue();
    if (!written)
      return false;
    Value root = getViewRoot(written);
    if (root == outputRoot ||
        (!isFreshAllocation(root) && !isFreshAllocation(outputRoot)))
      return false;
  }
  return true;
}

/// The linalg.fill of `output` with zero that `matmul` accumulates onto:
/// looked for among the ops before it in its block, across ops that leave
/// `output`'s buffer unchanged.
static linalg::FillOp findZeroFill(Operation *matmul, Value output) {
  Value outputRoot = getViewRoot(output);
  for (Operation *prev = matmul->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(prev);
    if (fill && fill.getOutputs().front() == output)
      return matchPattern(fill.getInputs().front(), m_AnyZeroFloat()) ? fill
                                                                      : nullptr;
    if (!leavesBufferUnchanged(prev, outputRoot))
      return nullptr;
  }
  return nullptr;
}

/// A refusal unless operand `name` (of type `typeText`) has elements of
/// type `want`.
static llvm::Error checkElementType(Operation *op, StringRef name,
                                    StringRef typeText, Type actual,
                                    Type want) {
  if (actual == want)
    return llvm::Error::success();
  std::string wantText;
  llvm::raw_string_ostream(wantText) << want;
  return refuse(op, llvm::formatv("operand {0} ({1}) has element type other "
                                  "than {2}",
                                  name, typeText, wantText));
}

/// A refusal unless `type` is a static, row-major memref in global memory
/// of `elementType`.
static llvm::Error checkOperand(Operation *op, StringRef name, Type type,
                                Type elementType) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return refuse(op, llvm::formatv("operand {0} is not a memref (bufferize "
                                    "first: the kernel reads buffers)",
                                    name));
  std::string typeText;
  llvm::raw_string_ostream(typeText) << memref;
  if (!memref.hasStaticShape())
    return refuse(op, llvm::formatv("operand {0} ({1}) has a dynamic shape: "
                                    "the TMA boxes and the grid are static",
                                    name, typeText));
  if (!memref.getLayout().isIdentity())
    return refuse(
        op,
        llvm::formatv("operand {0} ({1}) is not a row-major memref with "
                      "the identity layout: TMA reads contiguous rows (with "
                      "one-shot bufferization, use "
                      "function_boundary_type_conversion = "
                      "identity-layout-map)",
                      name, typeText));
  if (Attribute space = memref.getMemorySpace()) {
    auto integer = dyn_cast<IntegerAttr>(space);
    auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space);
    if (!(integer && integer.getInt() == 0) &&
        !(gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Global))
      return refuse(op, llvm::formatv("operand {0} ({1}) is not in global "
                                      "memory",
                                      name, typeText));
  }
  return checkElementType(op, name, typeText, memref.getElementType(),
                          elementType);
}

/// The checks both forms share: a linalg.matmul with the default maps,
/// outside any kernel, f16 or bf16 inputs. Fills the plan's op and types.
static llvm::Error readMatmulOp(Operation *op, WarpgroupMatmulPlan &plan) {
  auto matmul = dyn_cast<linalg::MatmulOp>(op);
  if (!matmul)
    return refuse(op, llvm::formatv("expects a linalg.matmul, got '{0}' "
                                    "(normalize contractions first, e.g. with "
                                    "transform.hwsched.normalize_contractions)",
                                    op->getName().getStringRef()));
  if (matmul.getIndexingMapsArray() !=
      linalg::MatmulOp::getDefaultIndexingMaps(op->getContext()))
    return refuse(op, "the matmul transposes or broadcasts an operand "
                      "(indexing_maps): the kernel reads A as M x K and B as "
                      "K x N, both row-major");
  if (op->getParentOfType<gpu::LaunchOp>())
    return refuse(op, "the matmul is already inside a gpu.launch: the "
                      "rewrite builds the kernel and its launch from a "
                      "host-side matmul");
  Type input = getElementTypeOrSelf(matmul.getInputs()[0].getType());
  if (!input.isF16() && !input.isBF16())
    return refuse(op, "the inputs are not f16 or bf16: this kernel's wgmma "
                      "reads 16-bit inputs (tf32 and 8-bit wgmma forms are "
                      "not built yet)");
  plan.matmul = matmul;
  plan.inputType = input;
  plan.problem.inputBytes = input.getIntOrFloatBitWidth() / 8;
  return llvm::Error::success();
}

/// The problem's extents from the static shapes of A (M x K) and B (K x N).
static void readExtents(WarpgroupMatmulPlan &plan) {
  auto a = cast<ShapedType>(plan.matmul.getDpsInputs()[0].getType());
  auto b = cast<ShapedType>(plan.matmul.getDpsInputs()[1].getType());
  plan.problem.m = a.getDimSize(0);
  plan.problem.k = a.getDimSize(1);
  plan.problem.n = b.getDimSize(1);
}

constexpr llvm::StringLiteral kNoZeroFill =
    "the kernel's accumulators start at zero and it writes C = A x B "
    "(C += A x B onto other values of C is not built yet)";

/// The op as a row-major f16/bf16 x f16/bf16 -> f32 linalg.matmul on
/// buffers, outside any kernel.
static llvm::Error readMatmul(Operation *op, WarpgroupMatmulPlan &plan) {
  if (llvm::Error err = readMatmulOp(op, plan))
    return err;
  if (!plan.matmul.hasPureBufferSemantics())
    return refuse(op, "the matmul is on tensors: bufferize first "
                      "(transform.bufferization.one_shot_bufferize)");
  Value a = plan.matmul.getDpsInputs()[0], b = plan.matmul.getDpsInputs()[1];
  Value c = plan.matmul.getDpsInits()[0];
  Builder builder(op->getContext());
  if (llvm::Error err = checkOperand(op, "A", a.getType(), plan.inputType))
    return err;
  if (llvm::Error err = checkOperand(op, "B", b.getType(), plan.inputType))
    return err;
  if (llvm::Error err =
          checkOperand(op, "C", c.getType(), builder.getF32Type()))
    return err;
  readExtents(plan);
  plan.zeroFill = findZeroFill(op, c);
  if (!plan.zeroFill)
    return refuse(op, llvm::formatv("C is not zero-filled by a linalg.fill "
                                    "before the matmul: {0}",
                                    kNoZeroFill));
  return llvm::Error::success();
}

/// A refusal unless `value`, an operand of the matmul on tensors, is a
/// static tensor of `elementType` that bufferizes to a whole row-major
/// buffer (not a slice of a larger one).
static llvm::Error checkTensorOperand(Operation *op, StringRef name,
                                      Value value, Type elementType) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  std::string typeText;
  llvm::raw_string_ostream(typeText) << value.getType();
  if (!tensor || !tensor.hasStaticShape())
    return refuse(op, llvm::formatv("operand {0} ({1}) has a dynamic shape: "
                                    "the TMA boxes and the grid are static",
                                    name, typeText));
  if (llvm::Error err = checkElementType(op, name, typeText,
                                         tensor.getElementType(), elementType))
    return err;
  // A slice bufferizes to a strided view; TMA reads whole row-major
  // matrices (the tensor maps have the operand's row length as stride).
  if (value.getDefiningOp<tensor::ExtractSliceOp>())
    return refuse(op, llvm::formatv("operand {0} ({1}) is a slice of a "
                                    "larger tensor (tensor.extract_slice): "
                                    "bufferized it is a strided view, and the "
                                    "kernel's TMA reads whole row-major "
                                    "matrices",
                                    name, typeText));
  return llvm::Error::success();
}

/// Rounds the problem up to whole tiles of the smallest block (64 rows or
/// columns) and K step, keeping the original in `plan.unpadded`: zeros in
/// the padded rows and columns of A and B add nothing to C, and the padded
/// rows and columns of C are cut off, so the kernel computes the same C.
static void padToWholeTiles(WarpgroupMatmulPlan &plan) {
  constexpr int64_t kSmallestBlock = 64;
  WarpgroupProblem &p = plan.problem;
  int64_t step = p.blockK();
  if (p.m % kSmallestBlock == 0 && p.n % kSmallestBlock == 0 && p.k % step == 0)
    return;
  plan.unpadded = p;
  p.m = llvm::alignTo(p.m, kSmallestBlock);
  p.n = llvm::alignTo(p.n, kSmallestBlock);
  p.k = llvm::alignTo(p.k, step);
}

/// The op in its tensor form, as the checks of readMatmul will find it
/// once one-shot bufferization (identity layouts at function boundaries)
/// has run: static whole tensors, C's init a linalg.fill of zero.
static llvm::Error readTensorMatmul(Operation *op, WarpgroupMatmulPlan &plan) {
  if (llvm::Error err = readMatmulOp(op, plan))
    return err;
  Value a = plan.matmul.getDpsInputs()[0], b = plan.matmul.getDpsInputs()[1];
  Value c = plan.matmul.getDpsInits()[0];
  Builder builder(op->getContext());
  if (llvm::Error err = checkTensorOperand(op, "A", a, plan.inputType))
    return err;
  if (llvm::Error err = checkTensorOperand(op, "B", b, plan.inputType))
    return err;
  if (llvm::Error err = checkTensorOperand(op, "C", c, builder.getF32Type()))
    return err;
  readExtents(plan);
  // A result inserted into a larger tensor is computed in place there
  // (empty-tensor elimination, then one-shot bufferization): C would be a
  // strided view of it.
  for (Operation *user : op->getResult(0).getUsers())
    if (isa<tensor::InsertSliceOp, tensor::ParallelInsertSliceOp>(user))
      return refuse(op, llvm::formatv("the result is inserted into a larger "
                                      "tensor ('{0}'): bufferized, C is a "
                                      "strided view of it, and the kernel "
                                      "stores whole row-major rows of C",
                                      user->getName().getStringRef()));
  auto fill = c.getDefiningOp<linalg::FillOp>();
  if (!fill || !matchPattern(fill.getInputs().front(), m_AnyZeroFloat()))
    return refuse(op, llvm::formatv("C's init is not a linalg.fill of zero: "
                                    "{0}",
                                    kNoZeroFill));
  plan.zeroFill = fill;
  padToWholeTiles(plan);
  return llvm::Error::success();
}

/// The tiles: the request's where complete (checked), else the cost model's
/// best among those agreeing with what the request fixes.
static llvm::Error decideTiles(const WarpgroupTileRequest &request,
                               const WarpgroupLimits &limits,
                               WarpgroupMatmulPlan &plan) {
  plan.sharedLimitBytes = limits.sharedBytesPerBlock;
  plan.computeCapability = limits.computeCapability;
  if (request.complete()) {
    plan.tiles.blockM = *request.blockM;
    plan.tiles.blockN = *request.blockN;
    plan.tiles.numStages = *request.numStages;
    plan.tiles.warpgroups = *request.warpgroups;
    plan.tiles.rasterGroup = *request.rasterGroup;
    plan.tiles.producerWarp = *request.producerWarp != 0;
    return checkWarpgroupTiles(plan.problem, plan.tiles, limits);
  }
  llvm::Expected<WarpgroupTileChoice> choice =
      chooseWarpgroupTiles(plan.problem, limits, request);
  if (!choice)
    return choice.takeError();
  plan.tiles = choice->ranked.front().tiles;
  plan.choice = std::move(*choice);
  return llvm::Error::success();
}

llvm::Expected<WarpgroupMatmulPlan>
hwsched::planWarpgroupMatmul(Operation *op, const HwSpec &spec,
                             const WarpgroupTileRequest &request) {
  llvm::Expected<WarpgroupLimits> limits = readWarpgroupLimits(spec);
  if (!limits)
    return withCulprit(limits.takeError(), op);
  WarpgroupMatmulPlan plan;
  if (llvm::Error err = readMatmul(op, plan))
    return std::move(err);
  if (llvm::Error err = decideTiles(request, *limits, plan))
    return withCulprit(std::move(err), op);
  return plan;
}

llvm::Expected<WarpgroupMatmulPlan>
hwsched::routeWarpgroupMatmul(Operation *op, const HwSpec &spec) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return planWarpgroupMatmul(op, spec, WarpgroupTileRequest());
  llvm::Expected<WarpgroupLimits> limits = readWarpgroupLimits(spec);
  if (!limits)
    return withCulprit(limits.takeError(), op);
  WarpgroupMatmulPlan plan;
  if (llvm::Error err = readTensorMatmul(op, plan))
    return std::move(err);
  if (llvm::Error err = decideTiles(WarpgroupTileRequest(), *limits, plan))
    return withCulprit(std::move(err), op);
  return plan;
}

namespace {
/// Builds the kernel of one plan; one object so the types and the values
/// every step uses are named once.
class KernelBuilder {
public:
  KernelBuilder(RewriterBase &rewriter, const WarpgroupMatmulPlan &plan)
      : b(rewriter), plan(plan), loc(plan.matmul->getLoc()),
        ctx(rewriter.getContext()) {
    workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    aTileType = sharedTile(plan.tiles.blockM, plan.blockK());
    bChunkType = sharedTile(plan.blockK(), kBChunkColumns);
    bTileType = sharedTile(plan.blockK(), plan.tiles.blockN);
    aWarpgroupType = sharedTile(plan.tiles.warpgroupM(), plan.blockK());
    aMapType = tensorMap(aTileType);
    bMapType = tensorMap(bChunkType);
    barriersType =
        nvgpu::MBarrierGroupType::get(ctx, workgroup, plan.tiles.numStages);
    accumulatorType = nvgpu::WarpgroupAccumulatorType::get(
        ctx, VectorType::get({plan.tiles.warpgroupM(), plan.tiles.blockN},
                             b.getF32Type()));
  }

  gpu::LaunchOp build();

private:
  MemRefType sharedTile(int64_t rows, int64_t columns) {
    return MemRefType::get({rows, columns}, plan.inputType,
                           MemRefLayoutAttrInterface(), workgroup);
  }
  nvgpu::TensorMapDescriptorType tensorMap(MemRefType box) {
    return nvgpu::TensorMapDescriptorType::get(
        ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  }
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value view(Value offset, MemRefType type) {
    return memref::ViewOp::create(b, loc, type, ring, add(ringStart, offset),
                                  ValueRange{});
  }
  Value descriptor(Value memref, Value map);
  void issueLoads(Value slot, Value kStep, Value predicate);
  std::pair<Value, Value> blockTile(gpu::LaunchOp launch);
  Value parity(Value round);
  Value buildMmaLoop(Value tid, Value isLeader);
  void buildProducer(Value tid);
  void buildKernelBody(gpu::LaunchOp launch);

  RewriterBase &b;
  const WarpgroupMatmulPlan &plan;
  Location loc;
  MLIRContext *ctx;
  Attribute workgroup;
  MemRefType aTileType, bChunkType, bTileType, aWarpgroupType;
  nvgpu::TensorMapDescriptorType aMapType, bMapType;
  nvgpu::MBarrierGroupType barriersType;
  nvgpu::WarpgroupAccumulatorType accumulatorType;
  // Values of the kernel body.
  Value aMap, bMap, ring, ringStart, full, empty, row0, col0;
};
} // namespace

Value KernelBuilder::descriptor(Value memref, Value map) {
  auto type = nvgpu::WarpgroupMatrixDescriptorType::get(
      ctx,
      MemRefType::get(cast<MemRefType>(memref.getType()).getShape(),
                      plan.inputType, MemRefLayoutAttrInterface(), workgroup));
  return nvgpu::WarpgroupGenerateDescriptorOp::create(b, loc, type, memref,
                                                      map);
}

/// Thread 0 (`predicate`; the producer warp's first thread when `predicate`
/// is null, already inside its branch) announces the stage's bytes on its
/// mbarrier and starts the TMA loads of K step `kStep` into ring slot `slot`.
void KernelBuilder::issueLoads(Value slot, Value kStep, Value predicate) {
  int64_t txBytes = plan.aStageBytes() + plan.bStageBytes();
  nvgpu::MBarrierArriveExpectTxOp::create(b, loc, full, index(txBytes), slot,
                                          predicate);
  Value kCoord = mul(kStep, index(plan.blockK()));
  Value aOffset = mul(slot, index(plan.aStageBytes()));
  // TMA coordinates go innermost first: (column, row).
  nvgpu::TmaAsyncLoadOp::create(b, loc, view(aOffset, aTileType), full, aMap,
                                ValueRange{kCoord, row0}, slot,
                                /*multicastMask=*/Value(), predicate);
  Value bBase = add(index(plan.tiles.numStages * plan.aStageBytes()),
                    mul(slot, index(plan.bStageBytes())));
  int64_t chunkBytes = plan.blockK() * kBChunkColumns * plan.problem.inputBytes;
  for (int64_t chunk = 0; chunk < plan.tiles.blockN / kBChunkColumns; ++chunk) {
    Value offset = add(bBase, index(chunk * chunkBytes));
    Value column = add(col0, index(chunk * kBChunkColumns));
    nvgpu::TmaAsyncLoadOp::create(b, loc, view(offset, bChunkType), full, bMap,
                                  ValueRange{column, kCoord}, slot,
                                  /*multicastMask=*/Value(), predicate);
  }
}

/// The (row, column) tile of C of this block. Without grouping, block (x, y)
/// takes tile (y, x): consecutive blocks walk a row of tiles, all sharing
/// its A rows but together reading all of B. With a raster group of G, the
/// blocks are numbered along rows and walk G tile rows column by column, so
/// that a wave of blocks reads G row panels of A and a few column panels of
/// B, which stay in L2.
std::pair<Value, Value> KernelBuilder::blockTile(gpu::LaunchOp launch) {
  Value bx = launch.getBlockIds().x, by = launch.getBlockIds().y;
  int64_t rows = plan.problem.m / plan.tiles.blockM,
          columns = plan.problem.n / plan.tiles.blockN;
  int64_t group = std::min(plan.tiles.rasterGroup, rows);
  if (group <= 1)
    return {by, bx};
  Value linear = add(mul(by, index(columns)), bx);
  Value perGroup = index(group * columns);
  Value firstRow =
      mul(arith::DivUIOp::create(b, loc, linear, perGroup), index(group));
  // The last group may be shorter.
  Value groupRows = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, index(rows), firstRow),
      index(group));
  Value inGroup = arith::RemUIOp::create(b, loc, linear, perGroup);
  Value row = add(firstRow, arith::RemUIOp::create(b, loc, inGroup, groupRows));
  Value column = arith::DivUIOp::create(b, loc, inGroup, groupRows);
  return {row, column};
}

/// The parity of the `round`-th completion (from 0) of an mbarrier, as the
/// i1 that try_wait.parity takes.
Value KernelBuilder::parity(Value round) {
  return arith::TruncIOp::create(
      b, loc, b.getI1Type(),
      arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(),
          arith::RemUIOp::create(b, loc, round, index(2))));
}

/// The MMA loop of the consumer warpgroups, K step by K step; returns the
/// final accumulator. Without a producer warp thread 0 refills the slot of
/// the previous step (after a block barrier when several warpgroups read
/// it); with one, each warpgroup's first thread arrives on the slot's
/// `empty` mbarrier instead.
Value KernelBuilder::buildMmaLoop(Value tid, Value isLeader) {
  Value zero = index(0), one = index(1), stages = index(plan.tiles.numStages);
  Value warpgroup =
      arith::DivUIOp::create(b, loc, tid, index(kThreadsPerWarpgroup));
  Value warpgroupRow = mul(warpgroup, index(plan.tiles.warpgroupM()));
  Value accumulator =
      nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accumulatorType);
  auto loop = scf::ForOp::create(b, loc, zero, index(plan.kSteps()), one,
                                 ValueRange{accumulator});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value kStep = loop.getInductionVar();
  Value acc = loop.getRegionIterArgs()[0];
  Value slot = arith::RemUIOp::create(b, loc, kStep, stages);
  // Step kk is the (kk / S)-th fill of its slot. The suspend-time hint of
  // try_wait is upstream's examples'.
  nvgpu::MBarrierTryWaitParityOp::create(
      b, loc, full, parity(arith::DivUIOp::create(b, loc, kStep, stages)),
      index(10000000), slot);
  Value aTile = view(mul(slot, index(plan.aStageBytes())), aTileType);
  Value aRows = aTile;
  if (plan.tiles.warpgroups > 1)
    aRows = memref::SubViewOp::create(
        b, loc, aTile, ArrayRef<OpFoldResult>{warpgroupRow, b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(plan.tiles.warpgroupM()),
                               b.getIndexAttr(plan.blockK())},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  Value bTile = view(add(index(plan.tiles.numStages * plan.aStageBytes()),
                         mul(slot, index(plan.bStageBytes()))),
                     bTileType);
  // waitGroup 1: after it, step kk - 1's MMAs are done in this warpgroup.
  Value next = nvgpu::WarpgroupMmaOp::create(
      b, loc, accumulatorType, descriptor(aRows, aMap), descriptor(bTile, bMap),
      /*waitGroup=*/b.getI64IntegerAttr(1),
      /*transposeA=*/UnitAttr(), /*transposeB=*/b.getUnitAttr(), acc);
  Value previous = arith::RemUIOp::create(
      b, loc, add(kStep, index(plan.tiles.numStages - 1)), stages);
  if (plan.tiles.producerWarp) {
    // Release step kk - 1's slot: one arrival per warpgroup.
    Value first = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, loc, tid, index(kThreadsPerWarpgroup)), zero);
    Value notFirstStep =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, kStep, zero);
    auto release = scf::IfOp::create(
        b, loc, arith::AndIOp::create(b, loc, first, notFirstStep));
    b.setInsertionPointToStart(&release.getThenRegion().front());
    nvgpu::MBarrierArriveOp::create(b, loc, empty, previous);
    b.setInsertionPointAfter(release);
  } else {
    // The other warpgroups may still read step kk - 1's slot.
    if (plan.tiles.warpgroups > 1)
      gpu::BarrierOp::create(b, loc);
    Value nextStep = add(kStep, index(plan.tiles.numStages - 1));
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          nextStep, index(plan.kSteps()));
    issueLoads(previous, nextStep,
               arith::AndIOp::create(b, loc, isLeader, inRange));
  }
  scf::YieldOp::create(b, loc, ValueRange{next});
  b.setInsertionPointAfter(loop);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  // nvgpu.warpgroup.mma.store places a thread's rows by its warp index in
  // the block (tid / 32, not modulo the warpgroup: row 16 * warp + ...) and
  // takes a destination of the accumulator's shape. So warpgroup w's view
  // starts w * (warpgroupM - 64) rows below the block's first, and its
  // stores land 64 * w rows further, on its own rows w * warpgroupM ...:
  // past the view's declared rows for w > 0 (within C's buffer and the
  // block's tile; the lowering computes addresses from the view's offset
  // and strides only). Checked on a GPU against cuBLAS
  // (bench/gpu-runner/README.md).
  Value cRow = add(row0, mul(warpgroup, index(plan.tiles.warpgroupM() - 64)));
  Value c = linalg::LinalgOp(plan.matmul).getDpsInits()[0];
  Value cTile = memref::SubViewOp::create(
      b, loc, c, ArrayRef<OpFoldResult>{cRow, col0},
      ArrayRef<OpFoldResult>{b.getIndexAttr(plan.tiles.warpgroupM()),
                             b.getIndexAttr(plan.tiles.blockN)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  nvgpu::WarpgroupMmaStoreOp::create(b, loc, loop.getResult(0), cTile);
  return loop.getResult(0);
}

/// The producer warp (the last warp of the block; the consumer warpgroups
/// are warps 0 .. 4W-1, as wgmma needs): its first thread fills the ring
/// step by step, waiting for a slot's `empty` mbarrier (both warpgroups
/// done with the step that used it) from the second round on.
void KernelBuilder::buildProducer(Value tid) {
  Value zero = index(0), one = index(1), stages = index(plan.tiles.numStages);
  Value lane0 = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, tid,
      index(kThreadsPerWarpgroup * plan.tiles.warpgroups));
  auto leader = scf::IfOp::create(b, loc, lane0);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&leader.getThenRegion().front());
  auto loop = scf::ForOp::create(b, loc, zero, index(plan.kSteps()), one);
  b.setInsertionPointToStart(loop.getBody());
  Value kStep = loop.getInductionVar();
  Value slot = arith::RemUIOp::create(b, loc, kStep, stages);
  Value round = arith::DivUIOp::create(b, loc, kStep, stages);
  auto refill = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, kStep, stages));
  b.setInsertionPointToStart(&refill.getThenRegion().front());
  // The (round - 1)-th release of the slot.
  nvgpu::MBarrierTryWaitParityOp::create(
      b, loc, empty, parity(arith::SubIOp::create(b, loc, round, one)),
      index(10000000), slot);
  b.setInsertionPointAfter(refill);
  issueLoads(slot, kStep, Value());
}

void KernelBuilder::buildKernelBody(gpu::LaunchOp launch) {
  Value zero = index(0), one = index(1);
  Value tid = launch.getThreadIds().x;
  Value isLeader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
  auto [blockRow, blockColumn] = blockTile(launch);
  row0 = mul(blockRow, index(plan.tiles.blockM));
  col0 = mul(blockColumn, index(plan.tiles.blockN));

  // The ring starts at the first 1024-byte boundary of the dynamic shared
  // memory (its base is only 16-byte aligned).
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                   MemRefLayoutAttrInterface(), workgroup);
  ring = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, ring);
  Value atom = index(kWgmmaSwizzleAtomBytes);
  Value misalignment = arith::RemUIOp::create(b, loc, base, atom);
  ringStart = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, atom, misalignment), atom);

  full = nvgpu::MBarrierCreateOp::create(b, loc, barriersType);
  if (plan.tiles.producerWarp)
    empty = nvgpu::MBarrierCreateOp::create(b, loc, barriersType);
  for (int64_t s = 0; s < plan.tiles.numStages; ++s) {
    nvgpu::MBarrierInitOp::create(b, loc, full, one, index(s), isLeader);
    if (plan.tiles.producerWarp)
      nvgpu::MBarrierInitOp::create(b, loc, empty, index(plan.tiles.warpgroups),
                                    index(s), isLeader);
  }
  gpu::BarrierOp::create(b, loc);
  nvgpu::TmaPrefetchOp::create(b, loc, aMap, isLeader);
  nvgpu::TmaPrefetchOp::create(b, loc, bMap, isLeader);

  if (!plan.tiles.producerWarp) {
    // Prologue: the first numStages - 1 K steps.
    auto prologue =
        scf::ForOp::create(b, loc, zero, index(plan.tiles.numStages - 1), one);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(prologue.getBody());
      Value s = prologue.getInductionVar();
      issueLoads(s, s, isLeader);
    }
    buildMmaLoop(tid, isLeader);
  } else {
    Value isConsumer = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, tid,
        index(kThreadsPerWarpgroup * plan.tiles.warpgroups));
    auto roles = scf::IfOp::create(b, loc, isConsumer, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&roles.getThenRegion().front());
      buildMmaLoop(tid, Value());
      b.setInsertionPointToStart(&roles.getElseRegion().front());
      buildProducer(tid);
    }
  }
  gpu::TerminatorOp::create(b, loc);
}

gpu::LaunchOp KernelBuilder::build() {
  b.setInsertionPoint(plan.matmul);
  Value a = linalg::LinalgOp(plan.matmul).getDpsInputs()[0];
  Value bOperand = linalg::LinalgOp(plan.matmul).getDpsInputs()[1];
  auto unranked = [&](Value memref) -> Value {
    return memref::CastOp::create(
        b, loc, UnrankedMemRefType::get(plan.inputType, Attribute()), memref);
  };
  // Host side: one tensor map per operand (box: the A tile, a B chunk).
  aMap = nvgpu::TmaCreateDescriptorOp::create(
      b, loc, aMapType, unranked(a),
      ValueRange{index(plan.tiles.blockM), index(plan.blockK())});
  bMap = nvgpu::TmaCreateDescriptorOp::create(
      b, loc, bMapType, unranked(bOperand),
      ValueRange{index(plan.blockK()), index(kBChunkColumns)});
  Value smemBytes = arith::ConstantOp::create(
      b, loc, b.getI32IntegerAttr(plan.dynamicSharedBytes()));
  auto launch = gpu::LaunchOp::create(
      b, loc, index(plan.problem.n / plan.tiles.blockN),
      index(plan.problem.m / plan.tiles.blockM), index(1),
      index(plan.tiles.threads()), index(1), index(1), smemBytes);
  b.setInsertionPointToStart(&launch.getBody().front());
  buildKernelBody(launch);
  return launch;
}

FailureOr<gpu::LaunchOp>
hwsched::rewriteAsWarpgroupMatmul(RewriterBase &rewriter,
                                  const WarpgroupMatmulPlan &plan) {
  OpBuilder::InsertionGuard guard(rewriter);
  gpu::LaunchOp launch = KernelBuilder(rewriter, plan).build();
  rewriter.eraseOp(plan.matmul);
  rewriter.eraseOp(plan.zeroFill);
  return launch;
}
