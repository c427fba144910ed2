//===- AllocationLiveness.cpp - Lifetimes of on-chip buffers --------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/AllocationLiveness.h"
#include "hwsched/Analysis/MemRefUtils.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstdint>

using namespace mlir;
using namespace hwsched;

std::string hwsched::describeBuffer(const ScopeAllocationLiveness &liveness,
                                    size_t index) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "#" << index << " " << liveness.buffers[index].memref.getType();
  return text;
}

bool hwsched::isAllocationScopeBoundary(Operation *op) {
  return op->hasTrait<OpTrait::IsIsolatedFromAbove>() || isa<gpu::LaunchOp>(op);
}

namespace {
/// Numbers ops in pre-order and records the span of each op's subtree.
class ProgramOrder {
public:
  explicit ProgramOrder(ScopeAllocationLiveness &result) : result(result) {}

  void number(Operation *op) {
    int64_t first = static_cast<int64_t>(result.programOrder.size());
    result.programOrder.push_back(op);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          number(&nested);
    int64_t last = static_cast<int64_t>(result.programOrder.size()) - 1;
    result.spans[op] = {first, last};
  }

private:
  ScopeAllocationLiveness &result;
};

/// Accumulates the interval of one buffer.
struct IntervalBuilder {
  /// `alloc` is null for a workgroup attribution of the scope (defined at
  /// the entry of the scope's body).
  IntervalBuilder(const ScopeAllocationLiveness &live, Operation *alloc)
      : live(live), alloc(alloc) {
    for (Operation *op = alloc; op && op != live.scope; op = op->getParentOp())
      allocRegions.insert(op->getParentRegion());
    if (!alloc)
      allocRegions.insert(&live.scope->getRegion(0));
  }

  void cover(Operation *op) {
    if (live.uniformity) {
      // A barrier must be reachable by every thread right before the start
      // and after the end: the lifetime ends at ops in uniform blocks.
      Operation *anchor = live.uniformity->getUniformAncestor(op, live.scope);
      if (anchor != op && widenedReason.empty())
        widenedReason = divergenceNote(anchor);
      op = anchor;
    }
    auto [first, last] = live.spans.lookup(op);
    if (first < start) {
      start = first;
      startOp = op;
    }
    if (last > end) {
      end = last;
      endOp = op;
    }
  }

  /// A use at `user`: the lifetime is decided in the innermost region that
  /// holds both the allocation and the use. The use counts as its ancestor
  /// op there (a whole loop or scf.if); when the allocation itself is nested
  /// deeper (its value left a loop or a branch), the op around the
  /// allocation is covered entirely as well. In a region with several
  /// blocks, program order says nothing about branches (a back edge can
  /// reach an earlier block), so the buffer stays live over the whole
  /// region.
  void addUse(Operation *user) {
    Operation *useAncestor = user;
    while (useAncestor->getParentOp() != live.scope &&
           !allocRegions.contains(useAncestor->getParentRegion()))
      useAncestor = useAncestor->getParentOp();
    Region *region = useAncestor->getParentRegion();
    if (!allocRegions.contains(region) && alloc) {
      // Different regions of the scope itself: cover both ends and all in
      // between.
      Operation *allocTop = alloc;
      while (allocTop->getParentOp() != live.scope)
        allocTop = allocTop->getParentOp();
      cover(allocTop);
      cover(useAncestor);
      return;
    }
    if (alloc) {
      Operation *allocAncestor = region->findAncestorOpInRegion(*alloc);
      if (allocAncestor && allocAncestor != alloc)
        cover(allocAncestor);
    }
    cover(useAncestor);
    if (!region->hasOneBlock()) {
      if (widenedReason.empty())
        widenedReason = "used in a region with several blocks of '" +
                        region->getParentOp()->getName().getStringRef().str() +
                        "': live over the whole region (no reuse inside "
                        "unstructured control flow)";
      for (Block &b : *region)
        if (!b.empty()) {
          cover(&b.front());
          cover(&b.back());
        }
    }
  }

  /// Why a use nested in `anchor` makes the buffer live over all of it.
  std::string divergenceNote(Operation *anchor) const {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "live over all of '" << anchor->getName() << "' at "
       << anchor->getLoc() << ": ";
    std::string reason = live.uniformity->getDivergenceReason(anchor);
    if (anchor == live.scope &&
        !live.uniformity->isUniformBlock(anchor->getBlock()))
      os << "the scope may run in only some threads";
    else if (!reason.empty())
      os << reason;
    else
      os << "threads may diverge inside it";
    os << ", so no barrier inside it is safe";
    return text;
  }

  const ScopeAllocationLiveness &live;
  Operation *alloc;
  llvm::SmallPtrSet<Region *, 8> allocRegions;
  int64_t start = INT64_MAX, end = INT64_MIN;
  Operation *startOp = nullptr, *endOp = nullptr;
  std::string widenedReason;
};

/// The op that stands for a use by `user` in the lifetime: a value yielded
/// back into a loop is live across all iterations, so the use is the loop.
Operation *lifetimeUser(Operation *user, Operation *scope) {
  if (user->hasTrait<OpTrait::IsTerminator>()) {
    Operation *parent = user->getParentOp();
    if (parent && parent != scope && isa<LoopLikeOpInterface>(parent))
      return parent;
  }
  return user;
}

bool isAsyncCopy(Operation *op) {
  return op->getName().getStringRef() == "nvgpu.device_async_copy";
}

/// Every op that consumes the token of an async copy, directly or through
/// nvgpu.device_async_create_group and loop-carried values. Returns false
/// when no nvgpu.device_async_wait is reached.
bool collectAsyncCompletion(Operation *copy, Operation *scope,
                            SmallVectorImpl<Operation *> &users) {
  SmallVector<Value> worklist(copy->getResults());
  llvm::SmallPtrSet<Value, 8> seen;
  bool waited = false;
  while (!worklist.empty()) {
    Value token = worklist.pop_back_val();
    if (!seen.insert(token).second)
      continue;
    for (OpOperand &use : token.getUses()) {
      Operation *user = use.getOwner();
      users.push_back(lifetimeUser(user, scope));
      StringRef name = user->getName().getStringRef();
      if (name == "nvgpu.device_async_wait") {
        // With `numGroups` = N > 0 the wait lets the N most recent groups
        // run on, which may include this copy: it completes at some later
        // wait we cannot match, so only the end of the scope is safe.
        auto groups = user->getAttrOfType<IntegerAttr>("numGroups");
        if (groups && groups.getInt() != 0) {
          Operation *top = copy;
          while (top->getParentOp() != scope)
            top = top->getParentOp();
          users.push_back(&top->getParentRegion()->back().back());
        }
        waited = true;
      } else if (name == "nvgpu.device_async_create_group") {
        worklist.append(user->result_begin(), user->result_end());
      } else if (user->hasTrait<OpTrait::IsTerminator>() &&
                 user->getParentOp() != scope) {
        // A token carried by a loop or yielded out of a region: its waits
        // are on the parent's results or on the region's arguments.
        Operation *parent = user->getParentOp();
        worklist.append(parent->result_begin(), parent->result_end());
        for (Region &region : parent->getRegions())
          if (!region.empty())
            worklist.append(region.front().args_begin(),
                            region.front().args_end());
      } else if (auto loop = dyn_cast<LoopLikeOpInterface>(user)) {
        for (Region *region : loop.getLoopRegions())
          if (!region->empty())
            worklist.append(region->front().args_begin(),
                            region->front().args_end());
        worklist.append(user->result_begin(), user->result_end());
      }
    }
  }
  return waited;
}

/// Why a use of a buffer value by `user` escapes the analysis ("" if not).
std::string escapeReason(OpOperand &use, Operation *scope) {
  Operation *user = use.getOwner();
  if (isa<CallOpInterface>(user))
    return "passed to call '" + user->getName().getStringRef().str() + "'";
  if (user->hasTrait<OpTrait::IsTerminator>()) {
    Operation *parent = user->getParentOp();
    if (parent == scope || !isa<RegionBranchOpInterface>(parent))
      return "escapes through '" + user->getName().getStringRef().str() + "'";
    return "";
  }
  if (auto store = dyn_cast<memref::StoreOp>(user))
    if (use.getOperandNumber() == 0)
      return "stored to memory by 'memref.store'";
  if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
    return "its address is taken by '" + user->getName().getStringRef().str() +
           "'";
  if (isa<MemoryEffectOpInterface>(user) ||
      user->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
      isa<ViewLikeOpInterface, RegionBranchOpInterface>(user))
    return "";
  return "used by '" + user->getName().getStringRef().str() +
         "', which has no memory-effect information";
}

/// Whether `use` may read or write the bytes of the buffer it names. Making
/// a view or a cast of it, reading its sizes or metadata, or selecting it
/// touches no byte: the accesses through the result (an alias the caller
/// follows as well) are what count, so views created up front do not
/// lengthen the lifetime. Ops with regions or terminators (loops carrying
/// the buffer, yields), and ops whose effects are unknown or on no
/// particular value, count as accesses.
bool isAccess(OpOperand &use) {
  Operation *user = use.getOwner();
  if (user->getNumRegions() != 0 || user->hasTrait<OpTrait::IsTerminator>())
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(user);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    if (isa<MemoryEffects::Allocate>(e.getEffect()))
      return false;
    Value value = e.getValue();
    return !value || value == use.get();
  });
}

/// Size and alignment of a buffer of `type` (allocated by `alloc`, or a
/// workgroup attribution of `context` with alignment `alignAttr`); sets
/// `pinReason` when unknown.
void computeSize(Operation *alloc, Operation *context, IntegerAttr alignAttr,
                 MemRefType type, uint64_t minAlignment, OnChipBuffer &buffer) {
  std::optional<uint64_t> storageBytes = getElementStorageBytes(
      type.getElementType(), DataLayout::closest(alloc ? alloc : context));
  if (!storageBytes) {
    buffer.pinReason = "element type has no known storage size";
    buffer.unboundedSize = true;
    return;
  }
  uint64_t elementBytes = std::max<uint64_t>(*storageBytes, 1);
  uint64_t alignment = std::max(elementBytes, minAlignment);
  if (alloc)
    alignAttr = alloc->getAttrOfType<IntegerAttr>("alignment");
  if (alignAttr)
    alignment = std::max<uint64_t>(alignment, alignAttr.getInt());
  buffer.alignment = std::max<uint64_t>(alignment, 1);

  uint64_t count = 1;
  ValueRange dynamicSizes;
  if (auto allocOp = dyn_cast_if_present<memref::AllocOp>(alloc))
    dynamicSizes = allocOp.getDynamicSizes();
  else if (auto allocaOp = dyn_cast_if_present<memref::AllocaOp>(alloc))
    dynamicSizes = allocaOp.getDynamicSizes();
  unsigned nextDynamic = 0;
  for (int64_t dim : type.getShape()) {
    if (!ShapedType::isDynamic(dim)) {
      if (__builtin_mul_overflow(count, static_cast<uint64_t>(dim), &count)) {
        buffer.unboundedSize = buffer.sizeOverflow = true;
        buffer.pinReason = "size overflows 64 bits";
        return;
      }
      continue;
    }
    Value size = dynamicSizes[nextDynamic++];
    FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(size),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(bound) || *bound < 0) {
      buffer.unboundedSize = true;
      buffer.pinReason = "dynamic size without a proven upper bound";
      return;
    }
    buffer.boundedDynamic = true;
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(*bound), &count)) {
      buffer.unboundedSize = buffer.sizeOverflow = true;
      buffer.pinReason = "size overflows 64 bits";
      return;
    }
  }
  if (__builtin_mul_overflow(count, elementBytes, &buffer.bytes) ||
      buffer.bytes > (uint64_t(1) << 62)) {
    buffer.unboundedSize = buffer.sizeOverflow = true;
    buffer.pinReason = "size overflows 64 bits";
  }
}
} // namespace

/// Workgroup attributions of a gpu.func scope in `memorySpace`: defined at
/// its entry, so first in program order.
static void collectAttributions(ScopeAllocationLiveness &result,
                                Attribute memorySpace, uint64_t minAlignment) {
  Operation *scope = result.scope;
  auto func = dyn_cast<gpu::GPUFuncOp>(scope);
  if (!func)
    return;
  for (auto [i, arg] : llvm::enumerate(func.getWorkgroupAttributions())) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || type.getMemorySpace() != memorySpace)
      continue;
    OnChipBuffer buffer;
    buffer.memref = arg;
    buffer.attributionIndex = i;
    computeSize(nullptr, scope,
                dyn_cast_or_null<IntegerAttr>(
                    func.getWorkgroupAttributionAttr(i, "llvm.align")),
                type, minAlignment, buffer);
    if (buffer.pinReason.empty() && !type.getLayout().isIdentity())
      buffer.pinReason = "non-identity layout";
    result.buffers.push_back(std::move(buffer));
  }
}

/// Allocations in `memorySpace` of this scope, in program order; those of a
/// nested allocation scope are only counted.
static void collectAllocations(ScopeAllocationLiveness &result,
                               Attribute memorySpace, uint64_t minAlignment) {
  Operation *scope = result.scope;
  for (Operation *op : result.programOrder) {
    if (!isa<memref::AllocOp, memref::AllocaOp>(op))
      continue;
    auto type = cast<MemRefType>(op->getResult(0).getType());
    if (type.getMemorySpace() != memorySpace)
      continue;
    bool nested = false;
    for (Operation *parent = op->getParentOp(); parent && parent != scope;
         parent = parent->getParentOp())
      nested |= isAllocationScopeBoundary(parent);
    if (nested) {
      ++result.nestedScopeAllocations;
      continue;
    }
    OnChipBuffer buffer;
    buffer.alloc = op;
    buffer.memref = op->getResult(0);
    computeSize(op, scope, nullptr, type, minAlignment, buffer);
    if (buffer.pinReason.empty() && !type.getLayout().isIdentity())
      buffer.pinReason = "non-identity layout";
    result.buffers.push_back(std::move(buffer));
  }
}

/// The merged buffer must dominate every allocation it replaces: the entry
/// block of the scope region holding them, or, when they are spread over
/// several regions, a point before the scope (only possible when the scope
/// is not an allocation boundary; otherwise the other regions' buffers keep
/// their allocations, pinned).
static void chooseBufferBlock(ScopeAllocationLiveness &result) {
  Operation *scope = result.scope;
  auto regionOf = [&](const OnChipBuffer &buffer) {
    if (!buffer.alloc)
      return &scope->getRegion(0);
    Operation *op = buffer.alloc;
    while (op->getParentOp() != scope)
      op = op->getParentOp();
    return op->getParentRegion();
  };
  Region *home = regionOf(result.buffers.front());
  bool oneRegion = llvm::all_of(result.buffers, [&](const OnChipBuffer &b) {
    return regionOf(b) == home;
  });
  if (oneRegion || isAllocationScopeBoundary(scope)) {
    result.bufferBlock = &home->front();
    for (OnChipBuffer &buffer : result.buffers)
      if (regionOf(buffer) != home && buffer.pinReason.empty())
        buffer.pinReason = "in another region of the scope than its first "
                           "allocation";
  }
}

/// The aliases of `root` (itself included), sorted by program order so the
/// reported reason is stable.
static SmallVector<Value>
aliasesInProgramOrder(const ScopeAllocationLiveness &result,
                      BufferViewFlowAnalysis &aliases, Value root) {
  SmallVector<Value> values = llvm::to_vector(aliases.resolve(root));
  auto position = [&](Value v) {
    if (auto res = dyn_cast<OpResult>(v))
      return std::make_tuple(result.spans.lookup(res.getOwner()).first, 1u,
                             res.getResultNumber());
    auto arg = cast<BlockArgument>(v);
    Block *block = arg.getOwner();
    unsigned blockIndex = 0;
    for (Block &b : *block->getParent()) {
      if (&b == block)
        break;
      ++blockIndex;
    }
    return std::make_tuple(result.spans.lookup(block->getParentOp()).first,
                           block->getParent()->getRegionNumber() * 1024 +
                               blockIndex,
                           arg.getArgNumber());
  };
  llvm::stable_sort(
      values, [&](Value a, Value b) { return position(a) < position(b); });
  return values;
}

/// Records one use of `buffer` (through `use`): a dealloc, or an access
/// that extends the lifetime (an async copy up to its completion); pins the
/// buffer when the use escapes the analysis.
static void recordBufferUse(Operation *scope, OnChipBuffer &buffer,
                            IntervalBuilder &interval, OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<memref::DeallocOp>(user)) {
    buffer.deallocs.push_back(user);
    return;
  }
  std::string reason = escapeReason(use, scope);
  if (!reason.empty() && buffer.pinReason.empty())
    buffer.pinReason = reason;
  if (!isAccess(use))
    return;
  buffer.uses.push_back(lifetimeUser(user, scope));
  interval.addUse(buffer.uses.back());
  if (isAsyncCopy(user)) {
    SmallVector<Operation *> completion;
    if (!collectAsyncCompletion(user, scope, completion) &&
        buffer.pinReason.empty())
      buffer.pinReason = "async copy without a matching "
                         "'nvgpu.device_async_wait'";
    for (Operation *op : completion) {
      buffer.uses.push_back(op);
      interval.addUse(op);
    }
  }
}

/// The uses and the live interval of `buffer`, through all its aliases in
/// the scope; a buffer without uses lives at its allocation (or the scope's
/// first op for an attribution).
static void computeBufferLifetime(const ScopeAllocationLiveness &result,
                                  BufferViewFlowAnalysis &aliases,
                                  OnChipBuffer &buffer) {
  Operation *scope = result.scope;
  IntervalBuilder interval(result, buffer.alloc);
  for (Value value : aliasesInProgramOrder(result, aliases, buffer.memref)) {
    for (OpOperand &use : value.getUses()) {
      if (!scope->isProperAncestor(use.getOwner()))
        continue;
      recordBufferUse(scope, buffer, interval, use);
    }
  }
  llvm::sort(buffer.uses, [&](Operation *a, Operation *b) {
    return result.spans.lookup(a).first < result.spans.lookup(b).first;
  });
  buffer.uses.erase(llvm::unique(buffer.uses), buffer.uses.end());
  if (interval.startOp == nullptr)
    interval.cover(buffer.alloc ? buffer.alloc
                                : &scope->getRegion(0).front().front());
  buffer.start = interval.start;
  buffer.end = interval.end;
  buffer.startOp = interval.startOp;
  buffer.endOp = interval.endOp;
  buffer.widenedReason = std::move(interval.widenedReason);
}

ScopeAllocationLiveness
hwsched::analyzeAllocationLiveness(Operation *scope, Attribute memorySpace,
                                   uint64_t minAlignment, bool barrierSafe) {
  ScopeAllocationLiveness result;
  result.scope = scope;
  if (barrierSafe)
    result.uniformity = std::make_shared<const ThreadUniformity>(scope);
  ProgramOrder(result).number(scope);

  collectAttributions(result, memorySpace, minAlignment);
  if (auto launch = dyn_cast<gpu::LaunchOp>(scope))
    for (BlockArgument arg : launch.getWorkgroupAttributions())
      if (auto type = dyn_cast<MemRefType>(arg.getType()))
        if (type.getMemorySpace() == memorySpace)
          ++result.launchAttributions;
  collectAllocations(result, memorySpace, minAlignment);
  if (result.buffers.empty())
    return result;

  chooseBufferBlock(result);
  BufferViewFlowAnalysis aliases(scope);
  for (OnChipBuffer &buffer : result.buffers)
    computeBufferLifetime(result, aliases, buffer);
  return result;
}
