//===- LoopDependenceGraph.cpp - Dependences of an scf.for body -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/LoopDependenceGraph.h"
#include "hwsched/Analysis/MemRefUtils.h"
#include "hwsched/Analysis/ThreadIndexSpace.h"
#include "hwsched/Support/Refusal.h"
#include "hwsched/Support/TimeTrace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/TimeProfiler.h"

using namespace mlir;
using namespace hwsched;

StringRef hwsched::stringifyDepKind(DepKind kind) {
  switch (kind) {
  case DepKind::SSA:
    return "ssa";
  case DepKind::RAW:
    return "raw";
  case DepKind::WAR:
    return "war";
  case DepKind::WAW:
    return "waw";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Unit classification
//===----------------------------------------------------------------------===//

bool hwsched::isOnChipMemorySpace(Attribute space, const UnitContext &ctx) {
  if (auto intSpace = dyn_cast_or_null<IntegerAttr>(space)) {
    // NVVM/AMDGPU number workgroup memory 3; an integer 0 is the default.
    if (ctx.kind == HwKind::Gpu && intSpace.getInt() == 3)
      return true;
    if (intSpace.getInt() == 0)
      space = nullptr;
  }
  if (ctx.kind == HwKind::Cpu && !ctx.onChipMemorySpace)
    return !space;
  return space && space == ctx.onChipMemorySpace;
}

static bool isOnChipValue(Value v, const UnitContext &ctx) {
  auto type = dyn_cast<BaseMemRefType>(v.getType());
  return type && isOnChipMemorySpace(type.getMemorySpace(), ctx);
}

/// nvgpu.device_async_copy operands (dst, dstIndices..., src, srcIndices...):
/// returns {dst position, src position}. Matched by name to avoid a build
/// dependency on the NVGPU dialect.
static std::pair<unsigned, unsigned> asyncCopyPositions(Operation *op) {
  std::pair<unsigned, unsigned> positions{0, 0};
  unsigned seen = 0;
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    if (!isa<BaseMemRefType>(v.getType()))
      continue;
    if (seen++ == 0)
      positions.first = i;
    else
      positions.second = i;
  }
  return positions;
}

/// Source and target of ops that only move data, null when `op` is not one.
static std::pair<Value, Value> getCopyOperands(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return {copy.getSource(), copy.getTarget()};
  if (auto copy = dyn_cast<linalg::CopyOp>(op))
    if (copy.hasPureBufferSemantics())
      return {copy.getDpsInputs()[0], copy.getDpsInits()[0]};
  if (op->getName().getStringRef() == "nvgpu.device_async_copy")
    return {op->getOperand(asyncCopyPositions(op).second),
            op->getOperand(asyncCopyPositions(op).first)};
  return {};
}

/// The memref read by a plain load, null otherwise.
static Value getLoadSource(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef();
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getBase();
  if (auto read = dyn_cast<vector::TransferReadOp>(op))
    return isa<BaseMemRefType>(read.getBase().getType()) ? read.getBase()
                                                         : Value();
  if (op->getName().getStringRef() == "nvgpu.ldmatrix")
    return op->getOperand(0);
  return {};
}

static bool isContraction(Operation *op) {
  if (isa<vector::ContractionOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  if (name == "nvgpu.mma.sync" || name == "nvgpu.mma.sp.sync" ||
      name == "nvgpu.warpgroup.mma")
    return true;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalg::isaContractionOpInterface(linalgOp);
  return false;
}

std::string hwsched::classifyUnit(Operation *op, const UnitContext &ctx) {
  auto pick = [&](StringRef unit) -> std::string {
    if (llvm::is_contained(ctx.units, unit.str()))
      return unit.str();
    if (llvm::is_contained(ctx.units, std::string("vector")))
      return "vector";
    return ctx.units.empty() ? std::string("vector") : ctx.units.front();
  };
  StringRef name = op->getName().getStringRef();
  auto [copySrc, copyDst] = getCopyOperands(op);
  Value loadSrc = getLoadSource(op);
  switch (ctx.kind) {
  case HwKind::Gpu:
    if (name == "nvgpu.device_async_copy" ||
        name == "nvgpu.device_async_create_group")
      return pick("async_copy");
    if (name == "nvgpu.device_async_wait")
      return pick("smem_load");
    if (copySrc && !isOnChipValue(copySrc, ctx) && isOnChipValue(copyDst, ctx))
      return pick("async_copy");
    if ((copySrc && isOnChipValue(copySrc, ctx)) ||
        (loadSrc && isOnChipValue(loadSrc, ctx)))
      return pick("smem_load");
    if (isContraction(op))
      return pick("tensor_core");
    return pick("vector");
  case HwKind::Npu:
    if (copySrc && !isOnChipValue(copySrc, ctx) && isOnChipValue(copyDst, ctx))
      return pick("mte2");
    if (copySrc && isOnChipValue(copySrc, ctx) && !isOnChipValue(copyDst, ctx))
      return pick("mte3");
    if (loadSrc && !isOnChipValue(loadSrc, ctx))
      return pick("mte2");
    if (isContraction(op))
      return pick("cube");
    return pick("vector");
  case HwKind::Cpu:
    if (copySrc || loadSrc)
      return pick("load");
    return pick("vector");
  }
  return pick("vector");
}

//===----------------------------------------------------------------------===//
// Accesses, roots and boxes
//===----------------------------------------------------------------------===//

namespace {
/// One memory access of a node, in root coordinates.
struct Access {
  Value root; // null: unknown memory (conflicts with everything)
  AccessBox box;
  bool isWrite = false;
  /// For a write whose indices depend on the thread ids (in a block of known
  /// size): each thread's box, in root coordinates; `box` is then their
  /// bounding box. Empty otherwise. The union over threads is what the
  /// block writes: the overwrite check and the alias test use it.
  SmallVector<AccessBox, 0> threadBoxes;
  /// Reached through the iteration's slot of a rotating buffer with this
  /// many slots (0: not); `box` is then slot-relative.
  int64_t rotation = 0;
};
} // namespace

/// The full box of a statically shaped memref value, in its own coordinates.
static AccessBox fullBox(Value v) {
  AccessBox box;
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || !type.hasStaticShape())
    return box;
  box.offsets = SmallVector<int64_t>(type.getRank(), 0);
  box.sizes = llvm::to_vector(type.getShape());
  box.exact = true;
  return box;
}

/// The slot count when `subview` picks slot `iteration mod N` of an N-slot
/// buffer (its leading offset, the only dynamic one, with size 1 there):
/// the form multi-buffering leaves. std::nullopt otherwise.
using RotationQuery =
    llvm::function_ref<std::optional<int64_t>(memref::SubViewOp subview)>;

/// Traces `v` through views to its allocation, mapping `box` (in v's
/// coordinates) to the root's coordinates. Unknown mappings drop the offsets.
/// A subview that picks the iteration's slot of a rotating buffer
/// (`rotationOf`) maps to slot-relative coordinates (slot 0) and sets
/// `rotation` to the slot count.
static Value traceToRoot(Value v, AccessBox &box, RotationQuery rotationOf,
                         int64_t &rotation) {
  rotation = 0;
  return getViewRoot(v, [&](ViewLikeOpInterface view) {
    if (auto subview = dyn_cast<memref::SubViewOp>(view.getOperation())) {
      SmallVector<int64_t> offsets =
          llvm::to_vector(subview.getStaticOffsets());
      std::optional<int64_t> slots;
      if (ShapedType::isDynamicShape(offsets) && rotation == 0 &&
          (slots = rotationOf(subview))) {
        offsets[0] = 0;
        rotation = *slots;
      }
      bool staticUnit = !ShapedType::isDynamicShape(offsets) &&
                        !ShapedType::isDynamicShape(subview.getStaticSizes()) &&
                        llvm::all_of(subview.getStaticStrides(),
                                     [](int64_t s) { return s == 1; });
      if (box.offsets && staticUnit) {
        llvm::SmallBitVector dropped = subview.getDroppedDims();
        SmallVector<int64_t> offs, sizes;
        unsigned k = 0;
        for (auto [d, off] : llvm::enumerate(offsets)) {
          if (dropped.test(d)) {
            offs.push_back(off);
            sizes.push_back(1);
            continue;
          }
          offs.push_back(off + (*box.offsets)[k]);
          sizes.push_back(box.sizes[k]);
          ++k;
        }
        box.offsets = offs;
        box.sizes = sizes;
        return;
      }
    } else if (isa<memref::CastOp>(view.getOperation())) {
      // Same elements, same coordinates.
      return;
    }
    // Any other view (or a subview with dynamic or strided parts) maps
    // coordinates in a way the box does not follow.
    box.offsets.reset();
    box.exact = false;
  });
}

static std::optional<SmallVector<int64_t>> constantIndices(ValueRange values) {
  SmallVector<int64_t> result;
  for (Value v : values) {
    APInt cst;
    if (!matchPattern(v, m_ConstantInt(&cst)))
      return std::nullopt;
    result.push_back(cst.getSExtValue());
  }
  return result;
}

/// The elements an op reaches in a memref through explicit indices: a
/// window starting at `indices` whose trailing dimensions have `shape` (the
/// leading ones size 1). `exact` when every element of the window is
/// accessed.
struct IndexedWindow {
  ValueRange indices;
  SmallVector<int64_t> shape;
  bool exact = true;
};

/// The window of `op` in `memref` (own coordinates) when `op` is a known
/// indexed accessor of it: loads, stores, simple vector transfers and the
/// destination of an async copy.
static std::optional<IndexedWindow> indexedWindowOf(Operation *op, Value memref,
                                                    bool isWrite) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return IndexedWindow{load.getIndices(), {}, true};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return IndexedWindow{store.getIndices(), {}, true};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return IndexedWindow{load.getIndices(),
                         llvm::to_vector(load.getVectorType().getShape()),
                         true};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return IndexedWindow{store.getIndices(),
                         llvm::to_vector(store.getVectorType().getShape()),
                         true};
  if (auto xfer = dyn_cast<VectorTransferOpInterface>(op)) {
    bool simple =
        xfer.getPermutationMap().isMinorIdentity() && !xfer.getMask() &&
        llvm::all_of(xfer.getInBoundsValues(), [](bool b) { return b; });
    // Reads of a permuted or masked window are handled by the caller; a
    // permuted write reaches another shape than the vector's (the full
    // buffer then stands for it). A masked or out-of-bounds write stays
    // within the window, an inexact one.
    if ((!simple && !isWrite) || !xfer.getPermutationMap().isMinorIdentity())
      return std::nullopt;
    return IndexedWindow{xfer.getIndices(),
                         llvm::to_vector(xfer.getVectorType().getShape()),
                         simple};
  }
  if (op->getName().getStringRef() == "nvgpu.device_async_copy" &&
      memref == op->getOperand(asyncCopyPositions(op).first)) {
    unsigned rank = cast<MemRefType>(memref.getType()).getRank();
    auto elems = op->getAttrOfType<IntegerAttr>("dstElements");
    return IndexedWindow{
        op->getOperands().slice(asyncCopyPositions(op).first + 1, rank),
        {elems ? elems.getInt() : 1},
        static_cast<bool>(elems)};
  }
  return std::nullopt;
}

/// The box of `window` when its first element is at `first`.
static AccessBox windowBox(const IndexedWindow &window,
                           ArrayRef<int64_t> first) {
  AccessBox box;
  box.offsets = llvm::to_vector(first);
  box.sizes = SmallVector<int64_t>(first.size(), 1);
  for (auto [i, s] : llvm::enumerate(llvm::reverse(window.shape)))
    if (i < box.sizes.size())
      box.sizes[box.sizes.size() - 1 - i] = s;
  box.exact = window.exact;
  return box;
}

/// The box `op` accesses in `memref` (own coordinates) when `op` is a known
/// accessor; otherwise the full box, exact only for ops known to touch every
/// element (copies, linalg operands).
static AccessBox accessBoxOf(Operation *op, Value memref, bool isWrite) {
  if (isa<VectorTransferOpInterface>(op) && !isWrite &&
      !indexedWindowOf(op, memref, isWrite))
    return AccessBox(); // reads of a permuted/masked window: any element
  if (std::optional<IndexedWindow> window =
          indexedWindowOf(op, memref, isWrite)) {
    auto cst = constantIndices(window->indices);
    return cst ? windowBox(*window, *cst) : AccessBox();
  }
  if (op->getName().getStringRef() == "nvgpu.device_async_copy")
    return AccessBox(); // source window: over-approximate
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    AccessBox box = fullBox(memref);
    // An output is entirely written when its indexing map is a projected
    // permutation (every element is visited); anything else over-approximates.
    if (isWrite) {
      box.exact = false;
      for (OpOperand &init : linalgOp.getDpsInitsMutable())
        if (init.get() == memref &&
            linalgOp.getMatchingIndexingMap(&init).isProjectedPermutation())
          box.exact = true;
    }
    return box;
  }
  if (isa<memref::CopyOp>(op))
    return fullBox(memref);
  AccessBox box = fullBox(memref);
  box.exact = false;
  return box;
}

/// The box of each thread of a block of `threads` when `op` writes `memref`
/// through indices that are functions of the thread ids (ThreadIndexSpace.h):
/// one box per thread, in `memref`'s coordinates. Empty when some thread's
/// indices are not known.
static SmallVector<AccessBox, 0>
threadBoxesOf(Operation *op, Value memref,
              ArrayRef<std::array<int64_t, 3>> threads,
              const std::array<int64_t, 3> &extents) {
  std::optional<IndexedWindow> window =
      indexedWindowOf(op, memref, /*isWrite=*/true);
  if (!window || !dependsOnThreadId(window->indices))
    return {};
  SmallVector<AccessBox, 0> boxes;
  for (const std::array<int64_t, 3> &tid : threads) {
    std::optional<SmallVector<int64_t>> first =
        evaluateInThread(window->indices, tid, extents);
    if (!first)
      return {};
    boxes.push_back(windowBox(*window, *first));
  }
  return boxes;
}

static bool boxesIntersect(const AccessBox &a, const AccessBox &b) {
  if (!a.offsets || !b.offsets || a.offsets->size() != b.offsets->size())
    return true;
  for (size_t d = 0; d < a.offsets->size(); ++d) {
    int64_t lo = std::max((*a.offsets)[d], (*b.offsets)[d]);
    int64_t hi =
        std::min((*a.offsets)[d] + a.sizes[d], (*b.offsets)[d] + b.sizes[d]);
    if (lo >= hi)
      return false;
  }
  return true;
}

/// True when the union of `writes` covers every element of `read` (all in
/// root coordinates of a buffer whose full box is `whole`). Exact through
/// coordinate compression; gives up (false) on very fragmented unions.
static bool isCovered(AccessBox read, ArrayRef<AccessBox> writes,
                      const AccessBox &whole) {
  if (!read.offsets)
    read = whole;
  if (!read.offsets)
    return false;
  size_t rank = read.offsets->size();
  SmallVector<SmallVector<int64_t>> cuts(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t lo = (*read.offsets)[d], hi = lo + read.sizes[d];
    cuts[d] = {lo, hi};
    for (const AccessBox &w : writes) {
      if (!w.offsets || w.offsets->size() != rank)
        continue;
      for (int64_t c : {(*w.offsets)[d], (*w.offsets)[d] + w.sizes[d]})
        if (c > lo && c < hi)
          cuts[d].push_back(c);
    }
    llvm::sort(cuts[d]);
    cuts[d].erase(std::unique(cuts[d].begin(), cuts[d].end()), cuts[d].end());
  }
  int64_t cells = 1;
  for (auto &c : cuts) {
    cells *= static_cast<int64_t>(c.size() - 1);
    if (cells > 1 << 16)
      return false;
  }
  SmallVector<size_t> idx(rank, 0);
  for (int64_t cell = 0; cell < cells; ++cell) {
    // Decode the cell index.
    int64_t rest = cell;
    for (size_t d = rank; d-- > 0;) {
      idx[d] = rest % (cuts[d].size() - 1);
      rest /= (cuts[d].size() - 1);
    }
    bool covered = llvm::any_of(writes, [&](const AccessBox &w) {
      if (!w.offsets || w.offsets->size() != rank || !w.exact)
        return false;
      for (size_t d = 0; d < rank; ++d) {
        int64_t lo = cuts[d][idx[d]], hi = cuts[d][idx[d] + 1];
        if (lo < (*w.offsets)[d] || hi > (*w.offsets)[d] + w.sizes[d])
          return false;
      }
      return true;
    });
    if (!covered)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Graph construction
//===----------------------------------------------------------------------===//

/// Ops that are not scheduled on their own: pure scalar index/integer
/// arithmetic, constants and memref views follow their users.
static bool isFollower(Operation *op) {
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return false;
  if (op->hasTrait<OpTrait::ConstantLike>())
    return true;
  if (op->getNumResults() == 0)
    return false;
  return llvm::all_of(op->getResultTypes(), [](Type t) {
    return t.isIndex() || t.isSignlessInteger() || isa<BaseMemRefType>(t);
  });
}

namespace {
class GraphBuilder {
public:
  GraphBuilder(scf::ForOp forOp, const UnitContext &ctx)
      : forOp(forOp), ctx(ctx) {}

  FailureOr<LoopDependenceGraph> build();

  /// Why build() failed: "'op.name' " + `why`, at `culprit`.
  Refusal refusal() const {
    return Refusal(
        culprit,
        "'" + (culprit ? culprit->getName().getStringRef() : StringRef("op")) +
            "' " + why);
  }

private:
  LogicalResult collectAccesses(Operation *op, SmallVector<Access> &out);
  void addThreadBoxes(Operation *op, Value memref, bool nested, Access &access);
  std::optional<int64_t> rotatingSlots(memref::SubViewOp subview);
  auto rotationQuery() {
    return [this](memref::SubViewOp subview) { return rotatingSlots(subview); };
  }
  void settleRotations();
  int bufferIndex(Value root);
  bool mayAlias(const Access &a, const Access &b) const;
  /// The buffer of `b` when `a` and `b` go through different roots.
  int aliasBufferOf(const Access &a, const Access &b) {
    return a.root && b.root && a.root != b.root ? bufferIndex(b.root) : -1;
  }
  void addSSAEdges(unsigned to);
  void traceProducers(Value v, unsigned distance, unsigned to,
                      llvm::DenseSet<Value> &seen);
  void addEdge(DepEdge e);
  void checkRenamable(LoopBuffer &buffer, unsigned index);
  LogicalResult refuseTensors();
  LogicalResult checkYields();
  LogicalResult checkAsyncCopyCompletion();
  LogicalResult collectNodes();
  void analyzeBuffers();
  bool isKilledRead(const Access &read);
  void addSelfEdges(unsigned a);
  void addPairEdges(unsigned a, unsigned b);
  void addMemoryEdges();

  scf::ForOp forOp;
  const UnitContext &ctx;
  /// The block's thread extents and ids when the loop runs in a GPU block of
  /// known size (per-thread access boxes, ThreadIndexSpace.h).
  std::optional<std::array<int64_t, 3>> blockExtents;
  SmallVector<std::array<int64_t, 3>> threads;
  std::string why;
  Operation *culprit = nullptr;
  LoopDependenceGraph g;
  SmallVector<SmallVector<Access>> nodeAccesses;
  llvm::DenseMap<Value, unsigned> bufferOfRoot;
  /// (from, to, distance, kind, buffer) of the edges added so far, with
  /// their index: memory dependences make thousands of edges on a large
  /// body, so a hash map. The buffer is part of the key: multi-buffering
  /// and the synchronisation planners treat each buffer's edge on its own.
  llvm::DenseMap<std::tuple<unsigned, unsigned, unsigned, int, int>, unsigned>
      edgeSet;
};
} // namespace

int GraphBuilder::bufferIndex(Value root) {
  if (!root)
    return -1;
  auto it = bufferOfRoot.find(root);
  if (it != bufferOfRoot.end())
    return it->second;
  LoopBuffer buffer;
  buffer.root = root;
  buffer.bytes = getStaticSizeInBytes(root).value_or(-1);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    os << "arg #" << arg.getArgNumber();
  } else {
    Operation *def = root.getDefiningOp();
    if (isa<memref::AllocOp, memref::AllocaOp>(def)) {
      buffer.allocOp = def;
      buffer.onChip = isOnChipValue(root, ctx);
      buffer.loopLocal = forOp->isProperAncestor(def);
    }
    os << def->getName().getStringRef();
    if (auto global = dyn_cast<memref::GetGlobalOp>(def))
      os << " @" << global.getName();
    os << " at " << def->getLoc();
  }
  buffer.name = text;
  g.buffers.push_back(buffer);
  bufferOfRoot[root] = g.buffers.size() - 1;
  return g.buffers.size() - 1;
}

/// Sets `access`'s per-thread boxes (root coordinates) and their bounding
/// box when `op` writes `memref` at indices known in every thread.
void GraphBuilder::addThreadBoxes(Operation *op, Value memref, bool nested,
                                  Access &access) {
  SmallVector<AccessBox, 0> boxes =
      threadBoxesOf(op, memref, threads, *blockExtents);
  if (boxes.empty())
    return;
  AccessBox bounds = boxes.front();
  for (AccessBox &box : boxes) {
    if (nested)
      box.exact = false; // conditionally executed
    int64_t rotation = 0;
    if (traceToRoot(memref, box, rotationQuery(), rotation) != access.root ||
        rotation != access.rotation || !box.offsets ||
        box.offsets->size() != bounds.offsets->size())
      return;
  }
  bounds = boxes.front();
  for (const AccessBox &box : boxes)
    for (size_t d = 0; d < box.offsets->size(); ++d) {
      int64_t lo = std::min((*bounds.offsets)[d], (*box.offsets)[d]);
      int64_t hi = std::max((*bounds.offsets)[d] + bounds.sizes[d],
                            (*box.offsets)[d] + box.sizes[d]);
      (*bounds.offsets)[d] = lo;
      bounds.sizes[d] = hi - lo;
    }
  bounds.exact = false;
  access.box = bounds;
  access.threadBoxes = std::move(boxes);
}

/// Multi-buffering (ours, upstream's transform.memref.multibuffer, or by
/// hand) picks a buffer's slot with a subview at offset
/// ((iv - lb) / step) mod N on its leading dimension of N slots. We check the
/// offset's value on 2N iterations rather than match its form: any
/// expression of the induction variable alone that rotates through the
/// slots in iteration order qualifies.
std::optional<int64_t> GraphBuilder::rotatingSlots(memref::SubViewOp subview) {
  auto sourceType = subview.getSourceType();
  ArrayRef<int64_t> staticOffsets = subview.getStaticOffsets();
  if (sourceType.getRank() == 0 || sourceType.isDynamicDim(0) ||
      !ShapedType::isDynamic(staticOffsets[0]) ||
      ShapedType::isDynamicShape(staticOffsets.drop_front()) ||
      subview.getStaticSizes()[0] != 1)
    return std::nullopt;
  std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  int64_t slots = sourceType.getDimSize(0);
  Value offset = subview.getOffsets().front();
  if (!lb || !step || *step <= 0 || slots < 2 || slots > 64 ||
      dependsOnThreadId(offset))
    return std::nullopt;
  Value iv = forOp.getInductionVar();
  for (int64_t i = 0; i < 2 * slots; ++i) {
    std::optional<SmallVector<int64_t>> value =
        evaluateInThread(offset, {0, 0, 0}, {1, 1, 1}, {{iv, *lb + i * *step}});
    if (!value || (*value)[0] != i % slots)
      return std::nullopt;
  }
  return slots;
}

/// A rotating buffer's slot-relative boxes only compare with each other: when
/// some access of the buffer does not go through the iteration's slot, every
/// access of it is taken as reaching any element, in any iteration.
void GraphBuilder::settleRotations() {
  llvm::DenseMap<Value, int64_t> slotsOf;
  for (SmallVector<Access> &accesses : nodeAccesses)
    for (Access &a : accesses) {
      if (!a.root)
        continue;
      auto [it, inserted] = slotsOf.try_emplace(a.root, a.rotation);
      if (!inserted && it->second != a.rotation)
        it->second = -1;
    }
  for (SmallVector<Access> &accesses : nodeAccesses)
    for (Access &a : accesses) {
      if (!a.root || slotsOf.lookup(a.root) >= 0)
        continue;
      a.rotation = 0;
      a.box.offsets.reset();
      a.box.exact = false;
      a.threadBoxes.clear();
    }
  for (auto [root, slots] : slotsOf)
    if (slots > 0)
      g.buffers[bufferIndex(root)].rotatingSlots = slots;
}

LogicalResult GraphBuilder::collectAccesses(Operation *top,
                                            SmallVector<Access> &out) {
  auto add = [&](Operation *op, Value v, bool isWrite, bool nested) {
    Access access;
    access.isWrite = isWrite;
    if (!v || !isa<BaseMemRefType>(v.getType())) {
      out.push_back(access); // unknown memory
      return;
    }
    access.box = accessBoxOf(op, v, isWrite);
    if (nested)
      access.box.exact = false; // conditionally executed
    access.root = traceToRoot(v, access.box, rotationQuery(), access.rotation);
    if (isWrite && !access.box.offsets && blockExtents)
      addThreadBoxes(op, v, nested, access);
    out.push_back(access);
  };
  WalkResult result = top->walk<WalkOrder::PreOrder>([&](Operation *op) {
    bool nested = op != top;
    StringRef name = op->getName().getStringRef();
    if (name == "nvgpu.device_async_copy") {
      auto [dst, src] = asyncCopyPositions(op);
      add(op, op->getOperand(src), /*isWrite=*/false, nested);
      add(op, op->getOperand(dst), /*isWrite=*/true, nested);
      return WalkResult::advance();
    }
    if (name == "nvgpu.device_async_create_group")
      return WalkResult::advance();
    if (name == "nvgpu.ldmatrix") {
      // Declares its read without naming the memref (no value in the
      // effect): a warp-collective read somewhere in its source buffer.
      add(op, op->getOperand(0), /*isWrite=*/false, nested);
      return WalkResult::advance();
    }
    if (name == "nvgpu.device_async_wait") {
      // Completing the async copies is, for ordering, a write of every
      // buffer they target: readers must stay after the wait.
      forOp.getBody()->walk([&](Operation *copy) {
        if (copy->getName().getStringRef() == "nvgpu.device_async_copy") {
          add(op, copy->getOperand(asyncCopyPositions(copy).first),
              /*isWrite=*/true, /*nested=*/true);
        }
      });
      return WalkResult::advance();
    }
    if (isa<gpu::BarrierOp>(op)) {
      // A barrier kept in place orders every memory access.
      add(op, Value(), /*isWrite=*/true, nested);
      return WalkResult::advance();
    }
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface && op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance(); // nested ops say what they touch
    if (!iface) {
      why = "has unknown memory effects";
      culprit = op;
      return WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (auto &effect : effects) {
      bool isWrite = !isa<MemoryEffects::Read>(effect.getEffect());
      Value v = effect.getValue();
      if (!v && isa<SideEffects::AutomaticAllocationScopeResource>(
                    effect.getResource()))
        continue;
      add(op, v, isWrite, nested);
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

bool GraphBuilder::mayAlias(const Access &a, const Access &b) const {
  if (!a.root || !b.root)
    return true;
  if (a.root == b.root) {
    if (a.threadBoxes.empty() || b.threadBoxes.empty())
      return boxesIntersect(a.box, b.box);
    // Both block-wide: they meet when some thread's box of one meets some
    // thread's box of the other (the same thread's included: two async
    // copies in flight to one place lose their order).
    if (!boxesIntersect(a.box, b.box))
      return false;
    return llvm::any_of(a.threadBoxes, [&](const AccessBox &x) {
      return llvm::any_of(b.threadBoxes, [&](const AccessBox &y) {
        return boxesIntersect(x, y);
      });
    });
  }
  auto isDistinctAllocation = [](Value root) {
    Operation *def = root.getDefiningOp();
    return def && isa<memref::AllocOp, memref::AllocaOp>(def);
  };
  if (isDistinctAllocation(a.root) || isDistinctAllocation(b.root))
    return false;
  auto global = [](Value root) -> std::optional<StringRef> {
    if (auto g = root.getDefiningOp<memref::GetGlobalOp>())
      return g.getName();
    return std::nullopt;
  };
  if (global(a.root) && global(b.root))
    return *global(a.root) == *global(b.root);
  // Function arguments may alias each other unless one is noalias (as in
  // LLVM: memory reached through a noalias argument is reached through no
  // other argument).
  auto noalias = [](Value root) {
    auto arg = dyn_cast<BlockArgument>(root);
    if (!arg)
      return false;
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    return func && arg.getOwner()->isEntryBlock() &&
           (func.getArgAttr(arg.getArgNumber(), "llvm.noalias") ||
            func.getArgAttr(arg.getArgNumber(), "bufferization.noalias"));
  };
  return !(noalias(a.root) || noalias(b.root));
}

void GraphBuilder::addEdge(DepEdge e) {
  auto [it, inserted] = edgeSet.try_emplace(
      {e.from, e.to, e.distance, static_cast<int>(e.kind), e.buffer},
      static_cast<unsigned>(g.edges.size()));
  if (inserted) {
    g.edges.push_back(e);
    return;
  }
  // The same dependence through another pair of accesses (aliasing roots
  // of one buffer, unknown memory): the edge binds unless every pair lets
  // it go.
  DepEdge &old = g.edges[it->second];
  old.removableByMultiBuffering =
      old.removableByMultiBuffering && e.removableByMultiBuffering;
  old.killedRead = old.killedRead && e.killedRead;
}

void GraphBuilder::traceProducers(Value v, unsigned distance, unsigned to,
                                  llvm::DenseSet<Value> &seen) {
  if (!seen.insert(v).second)
    return;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != forOp.getBody() || arg.getArgNumber() == 0)
      return;
    if (distance >= 1)
      return; // pass-through chains: handled by the caller's checks
    Value yielded =
        forOp.getBody()->getTerminator()->getOperand(arg.getArgNumber() - 1);
    traceProducers(yielded, distance + 1, to, seen);
    return;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return;
  Operation *top = forOp.getBody()->findAncestorOpInBlock(*def);
  if (!top)
    return; // defined outside the loop
  auto it = g.nodeOf.find(top);
  if (it != g.nodeOf.end()) {
    DepEdge e;
    e.from = it->second;
    e.to = to;
    e.distance = distance;
    e.kind = DepKind::SSA;
    if (!(e.from == to && distance == 0))
      addEdge(e);
    return;
  }
  for (Value operand : top->getOperands())
    traceProducers(operand, distance, to, seen);
}

void GraphBuilder::addSSAEdges(unsigned to) {
  Operation *op = g.nodes[to].op;
  llvm::DenseSet<Value> seen;
  for (Value operand : op->getOperands())
    traceProducers(operand, 0, to, seen);
  op->walk([&](Operation *nested) {
    if (nested == op)
      return;
    for (Value operand : nested->getOperands())
      if (!op->isAncestor(operand.getParentBlock()->getParentOp()))
        traceProducers(operand, 0, to, seen);
  });
}

void GraphBuilder::checkRenamable(LoopBuffer &buffer, unsigned index) {
  auto fail = [&](StringRef reason) {
    buffer.renamable = false;
    buffer.whyNotRenamable = reason.str();
  };
  if (!buffer.allocOp)
    return fail("not a local allocation");
  if (buffer.loopLocal)
    return fail("allocated inside the loop");
  if (buffer.rotatingSlots)
    return fail("already rotated over its " +
                std::to_string(buffer.rotatingSlots) +
                " slots by the iteration");
  auto type = cast<MemRefType>(buffer.root.getType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return fail("dynamic shape or non-identity layout");
  Operation *alloc = buffer.allocOp;
  if (!alloc->getParentRegion()->isAncestor(forOp->getParentRegion()) ||
      (alloc->getBlock() == forOp->getBlock() &&
       !alloc->isBeforeInBlock(forOp)))
    return fail("allocation does not dominate the loop");
  // Every use must be in this loop (the multi-buffered slice is per
  // iteration), directly or through subviews; other views would need a type
  // change we do not propagate.
  SmallVector<Value> worklist{buffer.root};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<memref::DeallocOp>(user) && v == buffer.root &&
          !forOp->isAncestor(user))
        continue;
      if (!forOp->isProperAncestor(user))
        return fail("used outside the loop");
      if (v == buffer.root &&
          user->getParentOfType<LoopLikeOpInterface>() != forOp.getOperation())
        return fail("used inside a nested loop");
      if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
        worklist.push_back(subview.getResult());
        continue;
      }
      if (isa<ViewLikeOpInterface>(user))
        return fail("used through a non-subview view");
    }
  }
  if (!buffer.overwrittenEachIteration)
    return fail("read before being overwritten in an iteration (data flows "
                "between iterations)");
  buffer.renamable = true;
  (void)index;
}

/// The advice appended to every refusal of a loop that computes on tensors.
static constexpr const char *kBufferizeFirst =
    ": schedule_stages pipelines loops over buffers; bufferize first "
    "(one-shot-bufferize), then schedule the loop";

/// `type` printed as in the IR, for refusal texts.
static std::string describeTensor(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Pipelining here is about memory (multi-buffered allocations, on-chip
/// capacity, dependences through buffers). A loop on tensors has none of
/// that yet, and its expansion would carry tensors through iter_args that
/// one-shot-bufferize cannot keep in place ("Yield operand #1 is not
/// equivalent to the corresponding iter bbArg"): refuse it, naming the
/// tensor, so that the user bufferizes first.
LogicalResult GraphBuilder::refuseTensors() {
  Block *body = forOp.getBody();
  // The first op computing on tensors, outermost first; an scf.forall on
  // tensors is named as such (its tensor.parallel_insert_slice would
  // otherwise read as an op of unknown memory effects).
  Operation *tensorOp = nullptr, *tensorForall = nullptr;
  body->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!llvm::any_of(op->getResultTypes(),
                      [](Type t) { return isa<TensorType>(t); }))
      return WalkResult::advance();
    if (!tensorOp)
      tensorOp = op;
    if (isa<scf::ForallOp>(op)) {
      tensorForall = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (tensorForall) {
    why = "is an scf.forall on tensors in the loop body (results " +
          describeTensor(tensorForall->getResultTypes().front()) + ")" +
          kBufferizeFirst;
    culprit = tensorForall;
    return failure();
  }
  for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs()))
    if (isa<TensorType>(arg.getType())) {
      why = "carries a tensor (iter_arg #" + std::to_string(i) + ", " +
            describeTensor(arg.getType()) + ")" + kBufferizeFirst;
      culprit = forOp;
      return failure();
    }
  if (tensorOp) {
    Type type = *llvm::find_if(tensorOp->getResultTypes(),
                               [](Type t) { return isa<TensorType>(t); });
    why = "computes on tensors (a " + describeTensor(type) + " result)" +
          kBufferizeFirst;
    culprit = tensorOp;
    return failure();
  }
  return success();
}

/// Yield operands must be produced inside the loop, or pass an iter_arg
/// through unchanged; swaps and loop-invariant yields are recurrences the
/// pipeliner cannot express.
LogicalResult GraphBuilder::checkYields() {
  Block *body = forOp.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (auto [i, operand] : llvm::enumerate(yield.getOperands())) {
    auto arg = dyn_cast<BlockArgument>(operand);
    if (arg && arg.getOwner() == body) {
      if (arg.getArgNumber() == i + 1)
        continue;
      why = "yields another iteration argument (a distance-2 recurrence)";
      culprit = yield;
      return failure();
    }
    if (!forOp->isAncestor(operand.getParentBlock()->getParentOp())) {
      why = "yields a value defined outside the loop";
      culprit = yield;
      return failure();
    }
  }
  return success();
}

/// Async copies complete only at a device_async_wait. A body with copies
/// but neither a group nor a wait gets both from the rewrite (placed and
/// counted from the schedule, recorded in `g.needsAsyncGroup`); anything
/// else without a wait is refused: we do not guess the intent of a partial
/// group structure.
LogicalResult GraphBuilder::checkAsyncCopyCompletion() {
  Block *body = forOp.getBody();
  Operation *asyncCopy = nullptr, *nestedCopy = nullptr, *usedToken = nullptr;
  bool hasWait = false, hasGroup = false;
  body->walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (name == "nvgpu.device_async_copy") {
      if (!asyncCopy)
        asyncCopy = op;
      if (op->getBlock() != body && !nestedCopy)
        nestedCopy = op;
      if (!op->use_empty() && !usedToken)
        usedToken = op;
    }
    hasWait |= name == "nvgpu.device_async_wait";
    hasGroup |= name == "nvgpu.device_async_create_group";
  });
  if (asyncCopy && !hasWait) {
    if (hasGroup || nestedCopy || usedToken) {
      why = "is not completed by an nvgpu.device_async_wait in the loop body";
      if (nestedCopy)
        why += " and is nested in a region (no group can be inserted for it)";
      else if (usedToken)
        why += " and its token is used (no group can be inserted for it)";
      culprit = nestedCopy ? nestedCopy : usedToken ? usedToken : asyncCopy;
      return failure();
    }
    g.needsAsyncGroup = true;
  }
  return success();
}

/// Sorts the body's ops into sync barriers, followers and scheduled nodes
/// (each with its unit and its memory accesses), in body order.
LogicalResult GraphBuilder::collectNodes() {
  unsigned position = 0;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    ++position;
    if (isa<gpu::BarrierOp>(&op) && ctx.barriersAreSync) {
      g.barriers.push_back(&op);
      continue;
    }
    if (isFollower(&op)) {
      g.followers.push_back(&op);
      continue;
    }
    DepNode node;
    node.op = &op;
    node.position = position;
    StringRef name = op.getName().getStringRef();
    node.isSync = name == "nvgpu.device_async_create_group" ||
                  name == "nvgpu.device_async_wait" || isa<gpu::BarrierOp>(&op);
    node.unit = classifyUnit(&op, ctx);
    SmallVector<Access> accesses;
    if (failed(collectAccesses(&op, accesses)))
      return failure();
    g.nodeOf[&op] = g.nodes.size();
    g.nodes.push_back(node);
    nodeAccesses.push_back(std::move(accesses));
  }
  return success();
}

/// Buffers and the overwrite check: walks the nodes in body order (which
/// numbers the buffers) and checks that every read is covered by exact
/// writes earlier in the iteration; then decides which buffers can be
/// renamed (multi-buffered).
void GraphBuilder::analyzeBuffers() {
  g.accesses.resize(g.nodes.size());
  llvm::DenseMap<unsigned, SmallVector<AccessBox>> covering;
  llvm::DenseMap<unsigned, bool> clean;
  for (auto [n, accesses] : llvm::enumerate(nodeAccesses)) {
    for (Access &a : accesses) {
      int b = bufferIndex(a.root);
      if (b >= 0)
        g.accesses[n].push_back({static_cast<unsigned>(b), a.isWrite});
    }
    for (Access &a : accesses) {
      int b = bufferIndex(a.root);
      if (b < 0 || a.isWrite)
        continue;
      clean.try_emplace(b, true);
      if (!isCovered(a.box, covering[b], fullBox(a.root)))
        clean[b] = false;
    }
    for (Access &a : accesses) {
      int b = bufferIndex(a.root);
      if (b >= 0 && a.isWrite && a.box.exact && a.box.offsets)
        covering[b].push_back(a.box);
      // A block-wide write covers what the union of its threads' boxes
      // covers: the readers are ordered after every thread's write by the
      // barrier the synchronisation rule keeps between them.
      if (b >= 0 && a.isWrite)
        for (const AccessBox &box : a.threadBoxes)
          if (box.exact)
            covering[b].push_back(box);
      if (b >= 0 && a.isWrite)
        clean.try_emplace(b, true);
    }
  }
  for (auto [b, buffer] : llvm::enumerate(g.buffers)) {
    buffer.overwrittenEachIteration = clean.lookup(b);
    checkRenamable(buffer, b);
  }
}

/// The kind of a memory dependence from an access that writes or not to a
/// later one that writes or not (at least one of them writes).
static DepKind memoryDepKind(bool firstWrites, bool secondWrites) {
  if (firstWrites && secondWrites)
    return DepKind::WAW;
  return firstWrites ? DepKind::RAW : DepKind::WAR;
}

/// A read whose buffer is overwritten each iteration is covered by exact
/// writes earlier in its iteration (all in root coordinates, so whatever
/// the previous iteration wrote there, through this root or an aliasing
/// one, is overwritten before the read): it never sees a loop-carried value.
bool GraphBuilder::isKilledRead(const Access &read) {
  int b = read.root ? bufferIndex(read.root) : -1;
  return !read.isWrite && b >= 0 && g.buffers[b].overwrittenEachIteration;
}

/// How many iterations apart two accesses meet again: the next iteration,
/// or, through the slots of a rotating buffer, when the slot comes round.
static unsigned carriedDistance(const Access &x, const Access &y) {
  if (x.root && x.root == y.root && x.rotation > 0 && x.rotation == y.rotation)
    return static_cast<unsigned>(x.rotation);
  return 1;
}

/// An op that writes what it (or its next instance) touches depends on
/// itself across iterations (e.g. a matmul accumulating in memory).
void GraphBuilder::addSelfEdges(unsigned a) {
  for (const Access &x : nodeAccesses[a]) {
    if (!x.isWrite)
      continue;
    for (const Access &y : nodeAccesses[a]) {
      if (!mayAlias(x, y))
        continue;
      int buffer = x.root ? bufferIndex(x.root) : bufferIndex(y.root);
      if (buffer >= 0 && g.buffers[buffer].loopLocal)
        continue;
      DepEdge self;
      self.from = self.to = a;
      self.distance = carriedDistance(x, y);
      self.kind = y.isWrite ? DepKind::WAW : DepKind::RAW;
      self.buffer = buffer;
      self.aliasBuffer = aliasBufferOf(x, y);
      self.removableByMultiBuffering =
          buffer >= 0 && g.buffers[buffer].renamable && x.root == y.root;
      self.killedRead = self.kind == DepKind::RAW && isKilledRead(y);
      addEdge(self);
    }
  }
}

/// The memory edges between node `a` and a later node `b`: `a` to `b` in
/// one iteration, and `b` to `a` of the next iteration unless the buffer is
/// allocated inside the loop.
void GraphBuilder::addPairEdges(unsigned a, unsigned b) {
  for (const Access &x : nodeAccesses[a]) {
    for (const Access &y : nodeAccesses[b]) {
      if (!x.isWrite && !y.isWrite)
        continue;
      if (!mayAlias(x, y))
        continue;
      int buffer = x.root ? bufferIndex(x.root) : bufferIndex(y.root);
      DepEdge e;
      e.from = a;
      e.to = b;
      e.kind = memoryDepKind(x.isWrite, y.isWrite);
      e.buffer = buffer;
      e.aliasBuffer = aliasBufferOf(x, y);
      addEdge(e);
      // b in iteration i, a in iteration i+1: only when data or storage
      // can be shared between iterations.
      bool local = x.root && x.root == y.root && buffer >= 0 &&
                   g.buffers[buffer].loopLocal;
      if (local)
        continue;
      DepEdge c;
      c.from = b;
      c.to = a;
      c.distance = carriedDistance(x, y);
      c.kind = memoryDepKind(y.isWrite, x.isWrite);
      c.buffer = buffer;
      c.aliasBuffer = aliasBufferOf(x, y);
      // The read of a loop-carried RAW may be killed by writes earlier
      // in its own iteration; on a renamable buffer it then links two
      // different copies, like a WAR/WAW.
      c.killedRead = c.kind == DepKind::RAW && isKilledRead(x);
      c.removableByMultiBuffering = x.root && x.root == y.root && buffer >= 0 &&
                                    g.buffers[buffer].renamable &&
                                    (c.kind != DepKind::RAW || c.killedRead);
      addEdge(c);
    }
  }
}

/// Memory edges: each node with itself, then with every later node, in
/// node order (pairs where neither node writes have none).
void GraphBuilder::addMemoryEdges() {
  SmallVector<bool> writes;
  for (const SmallVector<Access> &accesses : nodeAccesses)
    writes.push_back(llvm::any_of(
        accesses, [](const Access &access) { return access.isWrite; }));
  for (unsigned a = 0; a < g.nodes.size(); ++a) {
    addSelfEdges(a);
    for (unsigned b = a + 1; b < g.nodes.size(); ++b) {
      if (!writes[a] && !writes[b])
        continue;
      addPairEdges(a, b);
    }
  }
}

FailureOr<LoopDependenceGraph> GraphBuilder::build() {
  if (ctx.kind == HwKind::Gpu)
    blockExtents = getKnownBlockExtents(forOp);
  if (blockExtents)
    threads = enumerateThreads(*blockExtents);
  if (failed(refuseTensors()) || failed(checkYields()) ||
      failed(checkAsyncCopyCompletion()) || failed(collectNodes()))
    return failure();
  settleRotations();
  analyzeBuffers();
  // SSA edges (through followers and iter_args).
  for (unsigned n = 0; n < g.nodes.size(); ++n)
    addSSAEdges(n);
  addMemoryEdges();
  return std::move(g);
}

std::optional<int64_t> hwsched::staticTripCount(scf::ForOp forOp) {
  std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(forOp.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  if (*ub <= *lb)
    return 0;
  return llvm::divideCeil(*ub - *lb, *step);
}

llvm::Expected<LoopDependenceGraph>
hwsched::buildLoopDependenceGraph(scf::ForOp forOp, const UnitContext &ctx) {
  llvm::TimeTraceScope trace("hwsched::buildLoopDependenceGraph",
                             [&] { return timeTraceDetail(forOp); });
  GraphBuilder builder(forOp, ctx);
  FailureOr<LoopDependenceGraph> graph = builder.build();
  if (failed(graph))
    return refuse(builder.refusal());
  return std::move(*graph);
}
