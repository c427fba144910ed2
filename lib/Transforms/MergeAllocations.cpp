//===- MergeAllocations.cpp - Pack on-chip buffers into one ---------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/MergeAllocations.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <cstdint>
#include <numeric>

using namespace mlir;
using namespace hwsched;

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

namespace {
/// The innermost block (inside `scope`) holding both `a` and `b`.
Block *commonBlock(Operation *a, Operation *b, Operation *scope) {
  llvm::SmallPtrSet<Block *, 8> blocks;
  for (Operation *op = a; op && op != scope; op = op->getParentOp())
    blocks.insert(op->getBlock());
  for (Operation *op = b; op && op != scope; op = op->getParentOp())
    if (blocks.contains(op->getBlock()))
      return op->getBlock();
  return nullptr;
}

bool isBarrier(Operation &op) { return isa<gpu::BarrierOp>(op); }

/// Whether `block` holds a barrier strictly between `from` and `to` (either
/// may be null for the block's start / end).
Operation *barrierIn(Block *block, Operation *from, Operation *to) {
  auto it = from ? std::next(from->getIterator()) : block->begin();
  auto end = to ? to->getIterator() : block->end();
  for (; it != end; ++it)
    if (isBarrier(*it))
      return &*it;
  return nullptr;
}

/// Whether some loop strictly inside `scope` encloses `block`: then the
/// block runs repeatedly and bytes reused within it are reused again across
/// the back edge.
bool isInLoop(Block *block, Operation *scope) {
  for (Operation *op = block->getParentOp(); op && op != scope;
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      return true;
  return false;
}

class BarrierPlacer {
public:
  BarrierPlacer(RewriterBase &rewriter, Operation *scope,
                const ThreadUniformity *uniformity,
                AllocationMergeOutcome &outcome)
      : rewriter(rewriter), scope(scope), uniformity(uniformity),
        outcome(outcome) {}

  /// Makes sure every path from `lastUse` (of the old bytes) to `firstUse`
  /// (of the new bytes) crosses a barrier; `wrap` asks for the path through
  /// the back edge of the loop around both instead of the forward one.
  /// Returns the barrier now on the path, or null when no path needs one.
  Operation *require(Operation *lastUse, Operation *firstUse, bool wrap) {
    Block *block = commonBlock(lastUse, firstUse, scope);
    if (!block)
      return insertBefore(firstUse);
    Operation *from = block->findAncestorOpInBlock(*lastUse);
    Operation *to = block->findAncestorOpInBlock(*firstUse);
    if (wrap) {
      if (from == to && isa<LoopLikeOpInterface>(from)) {
        // Both in regions of one loop (scf.while's before and after
        // regions): the back edge runs inside it. Guard the first use.
        if (Operation *b = barrierIn(firstUse->getBlock(), nullptr, firstUse))
          return reuse(b);
        return insertBefore(firstUse);
      }
      if (!isInLoop(block, scope))
        return nullptr;
      // Old bytes used at `from` in one iteration, new bytes at `to` in a
      // later one: a barrier after `from` or before `to` in this block is
      // on every such path.
      if (Operation *b = barrierIn(block, from, nullptr))
        return reuse(b);
      if (Operation *b = barrierIn(block, nullptr, to))
        return reuse(b);
      return insertBefore(to);
    }
    if (from == to) {
      // Different regions of one op. Branches of a non-loop region op never
      // run one after the other; otherwise stay conservative and put the
      // barrier right before the first use, unless its block already has
      // one before it.
      if (!isa<LoopLikeOpInterface>(from) && isa<RegionBranchOpInterface>(from))
        return nullptr;
      if (Operation *b = barrierIn(firstUse->getBlock(), nullptr, firstUse))
        return reuse(b);
      return insertBefore(firstUse);
    }
    if (!from->isBeforeInBlock(to))
      return nullptr;
    if (Operation *b = barrierIn(block, from, to))
      return reuse(b);
    if (oldBuffer)
      if (Operation *b = tailBarrier(from, *oldBuffer))
        return reuse(b);
    return insertBefore(to);
  }

  /// The buffer whose last use the next forward `require` guards (lets it
  /// look for a barrier at the end of a loop body).
  const OnChipBuffer *oldBuffer = nullptr;

private:
  /// A barrier at the top level of the body of `loop` (a loop with one
  /// single-block region) after every use of `old`, all of which are inside
  /// the loop: the last iteration runs it after the last use, and with no
  /// iteration the buffer is not used at all.
  Operation *tailBarrier(Operation *loop, const OnChipBuffer &old) {
    if (!isa<LoopLikeOpInterface>(loop) || loop->getNumRegions() != 1 ||
        !loop->getRegion(0).hasOneBlock())
      return nullptr;
    Block &body = loop->getRegion(0).front();
    // A barrier where threads may diverge is no barrier for all of them.
    if (uniformity && !uniformity->isUniformBlock(&body))
      return nullptr;
    Operation *last = nullptr;
    for (Operation &op : body)
      if (isBarrier(op))
        last = &op;
    if (!last)
      return nullptr;
    for (Operation *use : old.uses) {
      if (!loop->isProperAncestor(use))
        return nullptr;
      Operation *inBody = body.findAncestorOpInBlock(*use);
      if (!inBody || !inBody->isBeforeInBlock(last))
        return nullptr;
    }
    return last;
  }

  Operation *reuse(Operation *barrier) {
    if (!inserted.contains(barrier) && reused.insert(barrier).second)
      ++outcome.reusedBarriers;
    return barrier;
  }
  Operation *insertBefore(Operation *op) {
    rewriter.setInsertionPoint(op);
    Operation *barrier = gpu::BarrierOp::create(rewriter, op->getLoc());
    outcome.insertedBarriers.push_back(barrier);
    inserted.insert(barrier);
    return barrier;
  }

  RewriterBase &rewriter;
  Operation *scope;
  const ThreadUniformity *uniformity;
  AllocationMergeOutcome &outcome;
  llvm::SmallPtrSet<Operation *, 8> reused;
  llvm::SmallPtrSet<Operation *, 8> inserted;
};
} // namespace

/// The program point of `op`, or for an op inserted by the rewrite, that of
/// the first original op after it in its block (INT64_MIN if none).
static int64_t programPoint(const ScopeAllocationLiveness &liveness,
                            Operation *op) {
  for (; op; op = op->getNextNode()) {
    auto it = liveness.spans.find(op);
    if (it != liveness.spans.end())
      return it->second.first;
  }
  return INT64_MIN;
}

//===----------------------------------------------------------------------===//
// Rewrite
//===----------------------------------------------------------------------===//

/// Erases the (now unused) workgroup attributions `indices` of `func`: the
/// block arguments, the count and their attribute dictionaries. GPUFuncOp
/// only offers adding one.
static void eraseWorkgroupAttributions(RewriterBase &rewriter,
                                       gpu::GPUFuncOp func,
                                       ArrayRef<unsigned> indices) {
  llvm::SmallDenseSet<unsigned> erased(indices.begin(), indices.end());
  unsigned first = func.getFirstWorkgroupAttributionIndex();
  unsigned count = func.getNumWorkgroupAttributions();
  rewriter.modifyOpInPlace(func, [&] {
    if (ArrayAttr attrs = func.getWorkgroupAttribAttrsAttr()) {
      SmallVector<Attribute> kept;
      for (auto [i, attr] : llvm::enumerate(attrs))
        if (!erased.contains(i))
          kept.push_back(attr);
      func.setWorkgroupAttribAttrsAttr(rewriter.getArrayAttr(kept));
    }
    llvm::BitVector mask(func.getBody().getNumArguments());
    for (unsigned i : indices)
      mask.set(first + i);
    func.getBody().front().eraseArguments(mask);
    func->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                  rewriter.getI64IntegerAttr(count - erased.size()));
  });
}

namespace {
/// What the steps of applyAllocationMerge share.
struct MergeRewrite {
  RewriterBase &rewriter;
  const ScopeAllocationLiveness &liveness;
  const AllocationMergePlan &plan;
  AllocationMergeOutcome &outcome;

  /// The original buffer in `slot` of the merged one.
  const OnChipBuffer &bufferOf(size_t slot) const {
    return liveness.buffers[plan.merged[slot]];
  }
};

/// The merged slots in the orders the barrier placement visits them, and
/// the byte range each occupies in the merged buffer.
struct SlotOrder {
  /// By first use, and by last use latest first.
  SmallVector<size_t> byStart, byEnd;
  /// [lo, hi) bytes of each slot.
  SmallVector<uint64_t> lo, hi;
};
} // namespace

/// Sorts the slots by start and by end (stably) and computes their byte
/// ranges.
static SlotOrder orderSlots(const MergeRewrite &rw) {
  const AllocationMergePlan &plan = rw.plan;
  SlotOrder order;
  order.byStart.resize(plan.merged.size());
  std::iota(order.byStart.begin(), order.byStart.end(), 0);
  order.byEnd = order.byStart;
  llvm::stable_sort(order.byStart, [&](size_t a, size_t b) {
    return rw.bufferOf(a).start < rw.bufferOf(b).start;
  });
  llvm::stable_sort(order.byEnd, [&](size_t a, size_t b) {
    return rw.bufferOf(a).end > rw.bufferOf(b).end;
  });
  order.lo.resize(plan.merged.size());
  order.hi.resize(plan.merged.size());
  for (size_t slot = 0; slot < plan.merged.size(); ++slot) {
    order.lo[slot] = plan.offsets[slot];
    order.hi[slot] = order.lo[slot] + alignUpTo(rw.bufferOf(slot).bytes,
                                                rw.bufferOf(slot).alignment);
  }
  return order;
}

/// Guards the first use of the buffer in `ySlot` against every earlier
/// buffer whose bytes it reuses (and their next iteration against it).
/// Barriers already guarding y's first use: a barrier in block C right
/// before y's first use also guards every earlier buffer whose last use is
/// before it in C. Visiting the earlier buffers latest-ending first makes one
/// barrier serve most of them.
static void guardSlotStart(const MergeRewrite &rw, BarrierPlacer &placer,
                           const SlotOrder &order, size_t ySlot) {
  Operation *scope = rw.liveness.scope;
  const OnChipBuffer &y = rw.bufferOf(ySlot);
  SmallVector<Operation *, 4> guards;
  // A guard directly in the scope's only block covers every buffer whose
  // lifetime ends before it, with no back edge around: once one exists,
  // the buffers ending earlier need no look.
  int64_t coveredBefore = INT64_MIN;
  auto first = llvm::partition_point(order.byEnd, [&](size_t slot) {
    return rw.bufferOf(slot).end >= y.start;
  });
  for (size_t xSlot : llvm::make_range(first, order.byEnd.end())) {
    const OnChipBuffer &x = rw.bufferOf(xSlot);
    if (x.end < coveredBefore)
      break;
    if (order.hi[xSlot] <= order.lo[ySlot] ||
        order.hi[ySlot] <= order.lo[xSlot])
      continue;
    bool guarded = llvm::any_of(guards, [&](Operation *barrier) {
      Operation *last = barrier->getBlock()->findAncestorOpInBlock(*x.endOp);
      return last && last != barrier && last->isBeforeInBlock(barrier);
    });
    if (!guarded) {
      placer.oldBuffer = &x;
      if (Operation *barrier =
              placer.require(x.endOp, y.startOp, /*wrap=*/false)) {
        guards.push_back(barrier);
        Block *block = barrier->getBlock();
        if (block->getParentOp() == scope && block->getParent()->hasOneBlock())
          coveredBefore =
              std::max(coveredBefore, programPoint(rw.liveness, barrier));
      }
      placer.oldBuffer = nullptr;
    }
    placer.require(y.endOp, x.startOp, /*wrap=*/true);
  }
}

/// Barriers first, while the uses still belong to the original buffers; in
/// program order of the later buffer so inserted barriers get reused.
static void placeMergeBarriers(const MergeRewrite &rw) {
  BarrierPlacer placer(rw.rewriter, rw.liveness.scope,
                       rw.liveness.uniformity.get(), rw.outcome);
  SlotOrder order = orderSlots(rw);
  for (size_t ySlot : order.byStart)
    guardSlotStart(rw, placer, order, ySlot);
}

llvm::Expected<Operation *>
hwsched::findDynamicSharedMemoryLaunch(const ScopeAllocationLiveness &liveness,
                                       const AllocationMergePlan &plan) {
  gpu::LaunchOp launch;
  for (size_t i : plan.merged) {
    const OnChipBuffer &buffer = liveness.buffers[i];
    if (buffer.isAttribution())
      return refuse(liveness.scope,
                    "dynamic_shared_memory: a workgroup attribution of a "
                    "gpu.func is merged; its size is set where the kernel is "
                    "launched, not here (use a gpu.launch)");
    auto owner = buffer.alloc->getParentOfType<gpu::LaunchOp>();
    if (!owner || !isa<memref::AllocOp>(buffer.alloc))
      return refuse(buffer.alloc,
                    "dynamic_shared_memory: the buffer is not a memref.alloc "
                    "inside a gpu.launch (the launch gets the dynamic size)");
    if (launch && owner != launch)
      return refuse(buffer.alloc, "dynamic_shared_memory: the buffers are in "
                                  "two gpu.launch ops");
    launch = owner;
  }
  if (!launch)
    return nullptr;
  bool used = launch.getDynamicSharedMemorySize() != nullptr;
  launch.getBody().walk([&](gpu::DynamicSharedMemoryOp) { used = true; });
  if (used)
    return refuse(launch, "dynamic_shared_memory: the gpu.launch already "
                          "uses dynamic shared memory (its layout is not "
                          "ours to extend)");
  if (plan.mergedBytes > static_cast<uint64_t>(INT32_MAX))
    return refuse(launch,
                  "dynamic_shared_memory: " + std::to_string(plan.mergedBytes) +
                      " bytes do not fit the launch's i32 size");
  return launch.getOperation();
}

/// The launch's gpu.dynamic_shared_memory as the merged buffer, its
/// dynamic_shared_memory_size the merged bytes. The base of dynamic shared
/// memory is 16-byte aligned at least (what cp.async and ldmatrix need);
/// the plan's offsets keep each buffer's own alignment from it.
static Value createDynamicSharedBuffer(const MergeRewrite &rw,
                                       gpu::LaunchOp launch) {
  RewriterBase &rewriter = rw.rewriter;
  const ScopeAllocationLiveness &liveness = rw.liveness;
  auto firstType = cast<MemRefType>(
      liveness.buffers[rw.plan.merged.front()].memref.getType());
  Location loc = liveness.buffers[rw.plan.merged.front()].getLoc();
  rewriter.setInsertionPoint(launch);
  Value bytes = arith::ConstantIntOp::create(
      rewriter, loc, static_cast<int64_t>(rw.plan.mergedBytes), 32);
  rewriter.modifyOpInPlace(launch, [&] {
    launch.getDynamicSharedMemorySizeMutable().assign(bytes);
  });
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  auto type =
      MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                      MemRefLayoutAttrInterface(), firstType.getMemorySpace());
  auto buffer = gpu::DynamicSharedMemoryOp::create(rewriter, loc, type);
  rw.outcome.buffer = buffer;
  return buffer;
}

/// Creates the merged i8 buffer: a new workgroup attribution when some
/// merged buffer is one (memref.alloc has no lowering to GPU shared memory
/// in a gpu.func; attributions do), else an alloca (all were allocas) or an
/// alloc at the start of the buffers' block. Records it in the outcome.
static Value createMergedBuffer(const MergeRewrite &rw, bool allAlloca,
                                bool asAttribution) {
  RewriterBase &rewriter = rw.rewriter;
  const ScopeAllocationLiveness &liveness = rw.liveness;
  const AllocationMergePlan &plan = rw.plan;
  Operation *scope = liveness.scope;
  auto firstType =
      cast<MemRefType>(liveness.buffers[plan.merged.front()].memref.getType());
  auto bufferType = MemRefType::get(
      {static_cast<int64_t>(plan.mergedBytes)}, rewriter.getI8Type(),
      MemRefLayoutAttrInterface(), firstType.getMemorySpace());
  Location loc = liveness.buffers[plan.merged.front()].getLoc();
  IntegerAttr alignment = rewriter.getI64IntegerAttr(plan.mergedAlignment);
  Value buffer;
  if (asAttribution) {
    auto func = cast<gpu::GPUFuncOp>(scope);
    rewriter.modifyOpInPlace(func, [&] {
      buffer = func.addWorkgroupAttribution(bufferType, loc);
      // Honoured by the GPU-to-LLVM lowering of attributions.
      func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                       "llvm.align", alignment);
    });
    rw.outcome.buffer = scope;
    return buffer;
  }
  if (liveness.bufferBlock)
    rewriter.setInsertionPointToStart(liveness.bufferBlock);
  else
    rewriter.setInsertionPoint(scope);
  if (allAlloca)
    buffer = memref::AllocaOp::create(rewriter, loc, bufferType, ValueRange(),
                                      alignment);
  else
    buffer = memref::AllocOp::create(rewriter, loc, bufferType, ValueRange(),
                                     alignment);
  rw.outcome.buffer = buffer.getDefiningOp();
  return buffer;
}

/// The originals were freed: free the merged buffer where the scope ends
/// (its views never leave the scope). Regions with several blocks have no
/// single end; the buffer is then left to the scope's lifetime. An
/// attribution is never freed (nor an alloca).
static void deallocMergedBuffer(const MergeRewrite &rw, Value buffer,
                                bool allAlloca, bool asAttribution) {
  const ScopeAllocationLiveness &liveness = rw.liveness;
  bool anyDealloc = llvm::any_of(rw.plan.merged, [&](size_t i) {
    return !liveness.buffers[i].deallocs.empty();
  });
  if (allAlloca || !anyDealloc || asAttribution)
    return;
  RewriterBase &rewriter = rw.rewriter;
  Location loc = liveness.buffers[rw.plan.merged.front()].getLoc();
  Block *block = liveness.bufferBlock;
  if (!block) {
    rewriter.setInsertionPointAfter(liveness.scope);
    memref::DeallocOp::create(rewriter, loc, buffer);
  } else if (block->getParent()->hasOneBlock() && !block->empty() &&
             block->back().hasTrait<OpTrait::IsTerminator>()) {
    rewriter.setInsertionPoint(&block->back());
    memref::DeallocOp::create(rewriter, loc, buffer);
  }
}

/// Replaces each original buffer by a memref.view of the merged one at its
/// offset (at the allocation, or at the function entry for an attribution),
/// erases the originals' deallocs, then the replaced attributions.
static void replaceOriginalsByViews(const MergeRewrite &rw, Value buffer) {
  RewriterBase &rewriter = rw.rewriter;
  Operation *scope = rw.liveness.scope;
  SmallVector<unsigned> erasedAttributions;
  for (auto [slot, index] : llvm::enumerate(rw.plan.merged)) {
    const OnChipBuffer &original = rw.liveness.buffers[index];
    for (Operation *dealloc : original.deallocs)
      rewriter.eraseOp(dealloc);
    if (original.isAttribution()) {
      Block &entry = scope->getRegion(0).front();
      rewriter.setInsertionPointToStart(&entry);
      Value offset = arith::ConstantIndexOp::create(
          rewriter, original.getLoc(),
          static_cast<int64_t>(rw.plan.offsets[slot]));
      Value view = memref::ViewOp::create(rewriter, original.getLoc(),
                                          original.memref.getType(), buffer,
                                          offset, ValueRange());
      rewriter.replaceAllUsesWith(original.memref, view);
      erasedAttributions.push_back(original.attributionIndex);
      continue;
    }
    Operation *alloc = original.alloc;
    rewriter.setInsertionPoint(alloc);
    Value offset = arith::ConstantIndexOp::create(
        rewriter, alloc->getLoc(), static_cast<int64_t>(rw.plan.offsets[slot]));
    ValueRange sizes = isa<memref::AllocOp>(alloc)
                           ? cast<memref::AllocOp>(alloc).getDynamicSizes()
                           : cast<memref::AllocaOp>(alloc).getDynamicSizes();
    Value view = memref::ViewOp::create(rewriter, alloc->getLoc(),
                                        alloc->getResult(0).getType(), buffer,
                                        offset, sizes);
    rewriter.replaceOp(alloc, view);
  }
  if (!erasedAttributions.empty())
    eraseWorkgroupAttributions(rewriter, cast<gpu::GPUFuncOp>(scope),
                               erasedAttributions);
}

AllocationMergeOutcome hwsched::applyAllocationMerge(
    RewriterBase &rewriter, const ScopeAllocationLiveness &liveness,
    const AllocationMergePlan &plan, bool insertBarriers,
    Operation *dynamicSharedMemoryLaunch) {
  AllocationMergeOutcome outcome;
  if (plan.merged.empty())
    return outcome;
  OpBuilder::InsertionGuard guard(rewriter);
  MergeRewrite rw{rewriter, liveness, plan, outcome};

  if (insertBarriers)
    placeMergeBarriers(rw);

  bool allAlloca = llvm::all_of(plan.merged, [&](size_t i) {
    return isa_and_nonnull<memref::AllocaOp>(liveness.buffers[i].alloc);
  });
  // Workgroup attributions of a gpu.func merge into a new attribution,
  // which the other merged allocations then view as well.
  bool asAttribution = llvm::any_of(plan.merged, [&](size_t i) {
    return liveness.buffers[i].isAttribution();
  });
  Value buffer;
  if (dynamicSharedMemoryLaunch) {
    // Nothing to free: the launch owns its dynamic shared memory.
    buffer = createDynamicSharedBuffer(
        rw, cast<gpu::LaunchOp>(dynamicSharedMemoryLaunch));
  } else {
    buffer = createMergedBuffer(rw, allAlloca, asAttribution);
    deallocMergedBuffer(rw, buffer, allAlloca, asAttribution);
  }
  replaceOriginalsByViews(rw, buffer);
  return outcome;
}
