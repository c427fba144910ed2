//===- CopyLegality.cpp - When a buffer copy can be removed ---------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Both rewrites move reads or writes from one buffer to another, so both come
// down to two questions: does anything between the points that now share a
// buffer touch it, and do we see every access to the buffer that disappears?
// The first is answered by the memory effects of every op in between,
// filtered through mlir::AliasAnalysis; the second by requiring that buffer to
// be a local allocation whose every use is a direct read or write, or a
// subview used that way (rebuilt on the other buffer); BufferViewFlowAnalysis
// finds any other view or region-carried alias that would make it escape.
// Ordering across regions is reduced to "the use sits in the copy's block,
// before/after it": with structured control flow, no other op runs between two
// ops of one block than the ops between them.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/CopyLegality.h"
#include "hwsched/Analysis/MemRefUtils.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace hwsched;

//===----------------------------------------------------------------------===//
// Names and small helpers
//===----------------------------------------------------------------------===//

StringRef hwsched::stringifyCopyRule(CopyRule rule) {
  switch (rule) {
  case CopyRule::Keep:
    return "kept";
  case CopyRule::Forward:
    return "forward";
  case CopyRule::Backward:
    return "backward";
  }
  return "kept";
}

StringRef hwsched::stringifyCopyBlocker(CopyBlocker blocker) {
  switch (blocker) {
  case CopyBlocker::None:
    return "none";
  case CopyBlocker::NotLocal:
    return "escaping or aliased buffer";
  case CopyBlocker::InterveningWrite:
    return "intervening write";
  case CopyBlocker::InterveningRead:
    return "intervening read";
  case CopyBlocker::UnresolvedAlias:
    return "alias not ruled out";
  case CopyBlocker::UsedAfterCopy:
    return "source used after the copy";
  case CopyBlocker::UnknownEffects:
    return "unknown memory effects";
  case CopyBlocker::OtherRegion:
    return "use in another region";
  case CopyBlocker::LoopCarried:
    return "loop-carried value";
  case CopyBlocker::MemorySpace:
    return "memory-space change";
  case CopyBlocker::Layout:
    return "layout change";
  case CopyBlocker::Shape:
    return "shape not provably equal";
  }
  return "none";
}

/// Prints a value as the user sees it in the IR (`%alloc`, `%arg0`), with
/// the SSA names of the analyzed scope (`names`, computed once per analysis:
/// printing a value on its own renumbers its whole function, which made
/// reasons cost O(function size) each).
static std::string describe(Value value, AsmState &names) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.printAsOperand(os, names);
  return text;
}

static std::string describe(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// `'op.name'` for remarks.
static std::string describe(Operation *op) {
  return ("'" + op->getName().getStringRef() + "'").str();
}

static RuleVerdict blocked(CopyBlocker blocker, const Twine &reason,
                           Operation *op = nullptr) {
  RuleVerdict verdict;
  verdict.blocker = blocker;
  verdict.reason = reason.str();
  verdict.blockingOp = op;
  return verdict;
}

static RuleVerdict legal() {
  RuleVerdict verdict;
  verdict.legal = true;
  return verdict;
}

/// The allocation that defines `value` directly, if any.
static Operation *getLocalAlloc(Value value) {
  Operation *def = value.getDefiningOp();
  if (def && isa<memref::AllocOp, memref::AllocaOp>(def))
    return def;
  return nullptr;
}

/// How one op uses one buffer operand directly.
struct DirectAccess {
  bool known = false;
  bool reads = false;
  bool writes = false;
  bool frees = false;
};

static DirectAccess getDirectAccess(Operation *op, Value buffer) {
  DirectAccess access;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return access;
  access.known = true;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffectsOnValue(buffer, effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    if (isa<MemoryEffects::Read>(effect.getEffect()))
      access.reads = true;
    else if (isa<MemoryEffects::Write>(effect.getEffect()))
      access.writes = true;
    else if (isa<MemoryEffects::Free>(effect.getEffect()))
      access.frees = true;
  }
  return access;
}

/// Ops whose buffer operand may take any layout (their verifiers relate only
/// ranks and element types), so a redirected operand may change layout.
static bool acceptsAnyLayout(OpOperand &use) {
  Operation *owner = use.getOwner();
  if (isa<memref::LoadOp, memref::StoreOp, memref::CopyOp,
          vector::TransferReadOp, vector::TransferWriteOp>(owner))
    return true;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(owner))
    return linalgOp.hasPureBufferSemantics();
  return false;
}

/// How remarks name a memory space.
static std::string spaceName(Attribute space) {
  if (!space)
    return "the default memory space";
  std::string text;
  llvm::raw_string_ostream os(text);
  space.print(os);
  return text;
}

/// `type` moved to memory space `space` (what memref.memory_space_cast
/// produces).
static MemRefType withMemorySpace(MemRefType type, Attribute space) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout(), space);
}

/// Whether the two buffers live in the same memory space.
static bool sameSpace(MemRefType a, MemRefType b) {
  return a.getMemorySpace() == b.getMemorySpace();
}

/// True when `op` writes every element of `buffer` before reading any of it,
/// so the buffer's earlier contents cannot matter.
static bool overwritesFully(Operation *op, Value buffer) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget() == buffer && copy.getSource() != buffer;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      !linalgOp.isAllParallelLoops())
    return false;
  bool found = false;
  for (OpOperand &operand : op->getOpOperands()) {
    if (operand.get() != buffer)
      continue;
    if (!linalgOp.isDpsInit(&operand) ||
        linalgOp.payloadUsesValueFromOperand(&operand) ||
        !linalgOp.getMatchingIndexingMap(&operand).isPermutation())
      return false;
    found = true;
  }
  // With parallel loops and a permutation map, the iteration domain is the
  // buffer's shape, so every element is written.
  return found;
}

/// Whether `value` is a function argument declared `llvm.noalias` or
/// `bufferization.noalias` (nothing else the function sees reaches its
/// memory). mlir::AliasAnalysis does not read these attributes.
static bool isNoAliasArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto function = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!function)
    return false;
  unsigned index = arg.getArgNumber();
  return function.getArgAttr(index, "llvm.noalias") ||
         function.getArgAttr(index, "bufferization.noalias");
}

//===----------------------------------------------------------------------===//
// matchCopy
//===----------------------------------------------------------------------===//

std::optional<CopyCandidate> hwsched::matchCopy(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    // Unranked copies carry no shape or layout to reason about.
    if (!isa<MemRefType>(copy.getSource().getType()) ||
        !isa<MemRefType>(copy.getTarget().getType()))
      return std::nullopt;
    return CopyCandidate{op, copy.getSource(), copy.getTarget()};
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.getNumDpsInputs() != 1 || linalgOp.getNumDpsInits() != 1)
    return std::nullopt;
  Value source = linalgOp.getDpsInputOperand(0)->get();
  Value target = linalgOp.getDpsInitOperand(0)->get();
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  auto targetType = dyn_cast<MemRefType>(target.getType());
  if (!sourceType || !targetType ||
      sourceType.getElementType() != targetType.getElementType())
    return std::nullopt;
  if (isa<linalg::CopyOp>(op))
    return CopyCandidate{op, source, target};
  if (!isa<linalg::GenericOp>(op) || !linalgOp.isAllParallelLoops() ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return std::nullopt;
  Block *body = linalgOp.getBlock();
  if (!llvm::hasSingleElement(*body))
    return std::nullopt;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1 ||
      yield.getOperand(0) != body->getArgument(0))
    return std::nullopt;
  return CopyCandidate{op, source, target};
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

namespace hwsched {

/// Shared state of one analysis run over a scope.
class CopyAnalyzer {
public:
  CopyAnalyzer(Operation *scope, const CopyLegalityOptions &options)
      : scope(scope), options(options), aliases(scope), views(scope),
        dominance(scope) {
    Operation *root =
        scope->hasTrait<OpTrait::IsIsolatedFromAbove>()
            ? scope
            : scope->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
    names = std::make_unique<AsmState>(root ? root : scope,
                                       OpPrintingFlags().useLocalScope());
  }

  CopyLegality analyze(const CopyCandidate &copy) { return analyzeImpl(copy); }

private:
  CopyLegality analyzeImpl(const CopyCandidate &copy);

  /// The reasons' printers, values with the scope's SSA names.
  std::string describe(Value value) const { return ::describe(value, *names); }
  static std::string describe(Type type) { return ::describe(type); }
  static std::string describe(Operation *op) { return ::describe(op); }

private:
  RuleVerdict checkCommon(const CopyCandidate &copy);
  /// Whether the target declares that a consumer of `target`'s space reads
  /// `source`'s space at no loss.
  bool readsSourceSpaceDirectly(MemRefType source, MemRefType target) const {
    return llvm::any_of(
        options.directReadSpaces, [&](const MemorySpacePair &pair) {
          return pair.matches(source.getMemorySpace(), target.getMemorySpace());
        });
  }
  RuleVerdict checkForward(const CopyCandidate &copy, CopyLegality &result);
  RuleVerdict checkBackward(const CopyCandidate &copy, CopyLegality &result);

  /// The uses of the buffer a rewrite removes (the target forward, the
  /// source backward), sorted by what the rewrite does with them.
  struct BufferUses {
    /// Direct uses, redirected to the other buffer.
    SmallVector<OpOperand *> direct;
    /// Subviews, rebuilt on the other buffer, and their results.
    SmallVector<Operation *> rebased;
    llvm::SmallPtrSet<Value, 4> rebasedValues;
    /// The op of the copy's block holding the last read (forward) or the
    /// first use (backward); null when there is none.
    Operation *bound = nullptr;
  };

  /// Forward: checks one read of `buffer` (the target or one of its
  /// subviews) by `owner`, which must come after the copy in its block;
  /// extends `uses.bound` to it. A blocked verdict otherwise.
  std::optional<RuleVerdict> checkForwardRead(const CopyCandidate &copy,
                                              bool loopBetween,
                                              Operation *owner, Value buffer,
                                              BufferUses &uses);
  /// Forward: a subview of the target is rebuilt on the source, so it must
  /// keep the rank, come after the source and only be read.
  std::optional<RuleVerdict> checkForwardView(const CopyCandidate &copy,
                                              bool loopBetween,
                                              memref::SubViewOp view,
                                              BufferUses &uses);
  /// Forward: sorts every use of the target (reads after the copy, subviews,
  /// writes checked later); the first use in the way as a blocked verdict.
  std::optional<RuleVerdict> collectForwardUses(const CopyCandidate &copy,
                                                bool loopBetween,
                                                BufferUses &uses);
  /// Backward: checks one use of `buffer` (the source or, with `isView`, a
  /// subview op of it) by its owner, which must come before the copy in its
  /// block; extends `uses.bound` to it. A blocked verdict otherwise.
  std::optional<RuleVerdict> checkBackwardUse(const CopyCandidate &copy,
                                              OpOperand &use, Value buffer,
                                              bool isView, BufferUses &uses);
  /// Backward: sorts every use of the source (direct uses and subviews,
  /// whose own uses are checked too); the first use in the way as a blocked
  /// verdict.
  std::optional<RuleVerdict> collectBackwardUses(const CopyCandidate &copy,
                                                 BufferUses &uses);
  /// Backward: the target must exist where the producer (`first`) writes
  /// it: collects its pure definition chain (typically a memref.subview) to
  /// move up, in block order, or a blocked verdict when it cannot move.
  RuleVerdict collectHoistedTargetDefs(const CopyCandidate &copy,
                                       Operation *first,
                                       SmallVector<Operation *> &hoisted);
  /// Anything else that aliases `buffer` (found by BufferViewFlowAnalysis:
  /// a view of a view, a value carried through a region) could be accessed
  /// out of our sight: a blocked verdict naming it (`role` is "target" or
  /// "source").
  RuleVerdict checkNoHiddenAlias(Value buffer, StringRef role,
                                 const BufferUses &uses);

  /// The first op of `range` (nested ops included) that may write (or, with
  /// `anyAccess`, read) memory aliasing `buffer`, as a blocked verdict.
  RuleVerdict findConflict(ArrayRef<Operation *> range, Value buffer,
                           bool anyAccess, StringRef role);

  /// Whether moving the buffer to `replacement` keeps every use valid.
  /// mlir::AliasAnalysis, refined by `noalias` function arguments.
  AliasResult alias(Value a, Value b);

  /// Whether the views rebuilt on a buffer of type `baseType` keep every use
  /// valid.
  RuleVerdict checkRebasedViews(ArrayRef<Operation *> rebased,
                                MemRefType baseType);

  /// Whether replacing `original` by a value of type `replacementType` in
  /// `uses` keeps every use valid.
  RuleVerdict checkRetype(ArrayRef<OpOperand *> uses, Type replacementType,
                          Value original);

  Operation *scope;
  const CopyLegalityOptions &options;
  AliasAnalysis aliases;
  BufferViewFlowAnalysis views;
  DominanceInfo dominance;
  std::unique_ptr<AsmState> names;
};

} // namespace hwsched

AliasResult CopyAnalyzer::alias(Value a, Value b) {
  Value rootA = getViewRoot(a), rootB = getViewRoot(b);
  if (rootA != rootB && (isNoAliasArgument(rootA) || isNoAliasArgument(rootB)))
    return AliasResult::NoAlias;
  return aliases.alias(a, b);
}

RuleVerdict CopyAnalyzer::findConflict(ArrayRef<Operation *> range,
                                       Value buffer, bool anyAccess,
                                       StringRef role) {
  for (Operation *op : range) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects)
      return blocked(CopyBlocker::UnknownEffects,
                     describe(op) + " has unknown memory effects and may " +
                         (anyAccess ? "access " : "write ") + role,
                     op);
    for (const MemoryEffects::EffectInstance &effect : *effects) {
      if (isa<MemoryEffects::Allocate>(effect.getEffect()))
        continue;
      if (!anyAccess && isa<MemoryEffects::Read>(effect.getEffect()))
        continue;
      if (!isa<SideEffects::DefaultResource>(effect.getResource()))
        continue;
      Value value = effect.getValue();
      StringRef verb =
          isa<MemoryEffects::Read>(effect.getEffect()) ? "reads" : "writes";
      if (isa<MemoryEffects::Free>(effect.getEffect()))
        verb = "frees";
      if (!value)
        return blocked(CopyBlocker::UnknownEffects,
                       describe(op) + " " + verb +
                           " memory it does not name, which may be " + role,
                       op);
      AliasResult alias = this->alias(value, buffer);
      if (alias.isNo())
        continue;
      if (alias.isMust())
        return blocked(verb == "reads" ? CopyBlocker::InterveningRead
                                       : CopyBlocker::InterveningWrite,
                       describe(op) + " " + verb + " " + role + " " +
                           describe(buffer),
                       op);
      return blocked(CopyBlocker::UnresolvedAlias,
                     describe(op) + " " + verb + " " + describe(value) +
                         ", which may alias " + role + " " + describe(buffer),
                     op);
    }
  }
  return legal();
}

RuleVerdict CopyAnalyzer::checkRetype(ArrayRef<OpOperand *> uses,
                                      Type replacementType, Value original) {
  if (replacementType == original.getType())
    return legal();
  for (OpOperand *use : uses)
    if (!acceptsAnyLayout(*use))
      return blocked(CopyBlocker::Layout,
                     "the copy changes the type from " +
                         describe(replacementType) + " to " +
                         describe(original.getType()) + " and " +
                         describe(use->getOwner()) + " needs " +
                         describe(original.getType()),
                     use->getOwner());
  return legal();
}

RuleVerdict CopyAnalyzer::checkRebasedViews(ArrayRef<Operation *> rebased,
                                            MemRefType baseType) {
  for (Operation *op : rebased) {
    auto view = cast<memref::SubViewOp>(op);
    MemRefType rebasedType = memref::SubViewOp::inferResultType(
        baseType, view.getMixedOffsets(), view.getMixedSizes(),
        view.getMixedStrides());
    if (rebasedType == view.getType())
      continue;
    for (OpOperand &use : view.getResult().getUses())
      if (!acceptsAnyLayout(use))
        return blocked(CopyBlocker::Layout,
                       "the view " + describe(view.getResult()) +
                           " would become " + describe(rebasedType) + " and " +
                           describe(use.getOwner()) + " needs " +
                           describe(view.getType()),
                       use.getOwner());
  }
  return legal();
}

RuleVerdict CopyAnalyzer::checkCommon(const CopyCandidate &copy) {
  auto sourceType = cast<MemRefType>(copy.source.getType());
  auto targetType = cast<MemRefType>(copy.target.getType());
  if (!alias(copy.source, copy.target).isNo())
    return blocked(CopyBlocker::UnresolvedAlias,
                   "source " + describe(copy.source) + " and target " +
                       describe(copy.target) + " may overlap");
  if (!sameSpace(sourceType, targetType) &&
      !readsSourceSpaceDirectly(sourceType, targetType))
    return blocked(CopyBlocker::MemorySpace,
                   "the copy changes memory space from " +
                       spaceName(sourceType.getMemorySpace()) + " to " +
                       spaceName(targetType.getMemorySpace()) +
                       ": a staging copy, kept because the target does not "
                       "declare that the consumer reads the source space at "
                       "no loss (no matching pair in "
                       "onchip.direct_read_spaces)");
  // memref.copy requires equal shapes at run time; the linalg forms iterate
  // over their operands' shapes, which must then be provably equal for the
  // copy to cover the whole target.
  if (!isa<memref::CopyOp>(copy.op) &&
      (!sourceType.hasStaticShape() ||
       sourceType.getShape() != targetType.getShape()))
    return blocked(CopyBlocker::Shape,
                   "cannot prove that the copy writes all of " +
                       describe(copy.target) + " (shapes " +
                       describe(sourceType) + " and " + describe(targetType) +
                       ")");
  return legal();
}

/// Ops of `copy`'s block from the one after the copy to `last` (included);
/// none when `last` is null.
static SmallVector<Operation *> opsAfterCopyUntil(Operation *copyOp,
                                                  Operation *last) {
  SmallVector<Operation *> range;
  if (last)
    for (Operation *op = copyOp->getNextNode(); op; op = op->getNextNode()) {
      range.push_back(op);
      if (op == last)
        break;
    }
  return range;
}

RuleVerdict CopyAnalyzer::checkNoHiddenAlias(Value buffer, StringRef role,
                                             const BufferUses &uses) {
  for (Value alias : views.resolve(buffer)) {
    if (alias == buffer || uses.rebasedValues.contains(alias))
      continue;
    Operation *via = alias.getDefiningOp();
    if (!via)
      via = alias.getParentBlock()->getParentOp();
    return blocked(CopyBlocker::NotLocal,
                   role + " " + describe(buffer) + " is aliased by " +
                       describe(alias) + " (through " + describe(via) + ")",
                   via);
  }
  return legal();
}

std::optional<RuleVerdict>
CopyAnalyzer::checkForwardRead(const CopyCandidate &copy, bool loopBetween,
                               Operation *owner, Value buffer,
                               BufferUses &uses) {
  Block *block = copy.op->getBlock();
  Operation *ancestor = block->findAncestorOpInBlock(*owner);
  if (!ancestor)
    return blocked(CopyBlocker::OtherRegion,
                   "target " + describe(buffer) + " is read by " +
                       describe(owner) +
                       " outside the copy's block, which cannot be ordered "
                       "after the copy",
                   owner);
  if (ancestor == copy.op || ancestor->isBeforeInBlock(copy.op)) {
    if (loopBetween)
      return blocked(CopyBlocker::LoopCarried,
                     "target " + describe(buffer) + " is read by " +
                         describe(owner) +
                         " before the copy inside a loop: it sees the copy "
                         "of the previous iteration",
                     owner);
    return blocked(CopyBlocker::OtherRegion,
                   "target " + describe(buffer) + " is read by " +
                       describe(owner) + " before the copy",
                   owner);
  }
  if (!uses.bound || uses.bound->isBeforeInBlock(ancestor))
    uses.bound = ancestor;
  return std::nullopt;
}

std::optional<RuleVerdict>
CopyAnalyzer::checkForwardView(const CopyCandidate &copy, bool loopBetween,
                               memref::SubViewOp view, BufferUses &uses) {
  Value source = copy.source, target = copy.target;
  Operation *owner = view;
  Value viewValue = view.getResult();
  if (view.getType().getRank() != view.getSourceType().getRank())
    return blocked(CopyBlocker::NotLocal,
                   "target " + describe(target) + " has a rank-reducing view " +
                       describe(viewValue),
                   owner);
  if (!dominance.properlyDominates(source, owner))
    return blocked(CopyBlocker::OtherRegion,
                   "the view " + describe(viewValue) + " of the target " +
                       "is defined before the source is available",
                   owner);
  for (OpOperand &viewUse : viewValue.getUses()) {
    Operation *reader = viewUse.getOwner();
    DirectAccess access = getDirectAccess(reader, viewValue);
    if (!access.known || access.writes || access.frees || !access.reads)
      return blocked(CopyBlocker::NotLocal,
                     "the view " + describe(viewValue) + " of target " +
                         describe(target) + " is used by " + describe(reader) +
                         ", which does not only read it",
                     reader);
    if (std::optional<RuleVerdict> v =
            checkForwardRead(copy, loopBetween, reader, viewValue, uses))
      return *v;
  }
  uses.rebased.push_back(owner);
  uses.rebasedValues.insert(viewValue);
  return std::nullopt;
}

std::optional<RuleVerdict>
CopyAnalyzer::collectForwardUses(const CopyCandidate &copy, bool loopBetween,
                                 BufferUses &uses) {
  Value target = copy.target;
  for (OpOperand &use : target.getUses()) {
    Operation *owner = use.getOwner();
    if (owner == copy.op || isa<memref::DeallocOp>(owner))
      continue;
    if (auto view = dyn_cast<memref::SubViewOp>(owner)) {
      if (std::optional<RuleVerdict> v =
              checkForwardView(copy, loopBetween, view, uses))
        return *v;
      continue;
    }
    DirectAccess access = getDirectAccess(owner, target);
    if (!access.known)
      return blocked(CopyBlocker::UnknownEffects,
                     "target " + describe(target) + " is used by " +
                         describe(owner) + ", whose memory effects are unknown",
                     owner);
    if (!access.reads && !access.writes && !access.frees)
      return blocked(CopyBlocker::NotLocal,
                     "target " + describe(target) + " escapes through " +
                         describe(owner),
                     owner);
    if (!access.reads)
      continue; // Writes are checked against the read range below.
    if (std::optional<RuleVerdict> v =
            checkForwardRead(copy, loopBetween, owner, target, uses))
      return *v;
    uses.direct.push_back(&use);
  }
  return std::nullopt;
}

RuleVerdict CopyAnalyzer::checkForward(const CopyCandidate &copy,
                                       CopyLegality &result) {
  Value source = copy.source, target = copy.target;
  Operation *alloc = getLocalAlloc(target);
  if (!alloc || !scope->isProperAncestor(alloc))
    return blocked(CopyBlocker::NotLocal,
                   "target " + describe(target) +
                       " is not an allocation inside the scope; its contents "
                       "may be read elsewhere");
  Region *repetitive = getEnclosingRepetitiveRegion(copy.op);
  bool loopBetween =
      repetitive && !repetitive->isAncestor(alloc->getParentRegion());
  BufferUses uses;
  if (std::optional<RuleVerdict> v =
          collectForwardUses(copy, loopBetween, uses))
    return *v;
  // Anything else that aliases the target could be read out of our sight.
  if (RuleVerdict v = checkNoHiddenAlias(target, "target", uses); !v.legal)
    return v;

  // Between the copy and the last read, neither buffer may change.
  SmallVector<Operation *> range = opsAfterCopyUntil(copy.op, uses.bound);
  if (RuleVerdict v =
          findConflict(range, target, /*anyAccess=*/false, "the target");
      !v.legal)
    return v;
  if (RuleVerdict v =
          findConflict(range, source, /*anyAccess=*/false, "the source");
      !v.legal)
    return v;
  // Across memory spaces the reads see the source cast into the target's
  // space, so only the layout may differ from what they read now.
  auto sourceType = cast<MemRefType>(source.getType());
  auto targetType = cast<MemRefType>(target.getType());
  bool crossesSpace = !sameSpace(sourceType, targetType);
  MemRefType readType =
      crossesSpace ? withMemorySpace(sourceType, targetType.getMemorySpace())
                   : sourceType;
  if (RuleVerdict v = checkRetype(uses.direct, readType, target); !v.legal)
    return v;
  if (RuleVerdict v = checkRebasedViews(uses.rebased, readType); !v.legal)
    return v;
  result.castSourceToTargetSpace = crossesSpace;
  result.redirectedUses = uses.direct;
  result.rebasedViews = uses.rebased;
  result.deadAlloc = alloc;
  return legal();
}

std::optional<RuleVerdict>
CopyAnalyzer::checkBackwardUse(const CopyCandidate &copy, OpOperand &use,
                               Value buffer, bool isView, BufferUses &uses) {
  Operation *owner = use.getOwner();
  if (!isView) {
    DirectAccess access = getDirectAccess(owner, buffer);
    if (!access.known)
      return blocked(CopyBlocker::UnknownEffects,
                     "source " + describe(buffer) + " is used by " +
                         describe(owner) + ", whose memory effects are unknown",
                     owner);
    if (!access.reads && !access.writes)
      return blocked(CopyBlocker::NotLocal,
                     "source " + describe(buffer) + " escapes through " +
                         describe(owner),
                     owner);
  }
  Operation *ancestor = copy.op->getBlock()->findAncestorOpInBlock(*owner);
  if (!ancestor)
    return blocked(CopyBlocker::OtherRegion,
                   "source " + describe(buffer) + " is used by " +
                       describe(owner) +
                       " outside the copy's block, which cannot be ordered "
                       "before the copy",
                   owner);
  if (ancestor == copy.op || copy.op->isBeforeInBlock(ancestor))
    return blocked(CopyBlocker::UsedAfterCopy,
                   "source " + describe(buffer) +
                       " is used after the copy by " + describe(owner),
                   owner);
  if (!uses.bound || ancestor->isBeforeInBlock(uses.bound))
    uses.bound = ancestor;
  return std::nullopt;
}

std::optional<RuleVerdict>
CopyAnalyzer::collectBackwardUses(const CopyCandidate &copy, BufferUses &uses) {
  Value source = copy.source;
  for (OpOperand &use : source.getUses()) {
    Operation *owner = use.getOwner();
    if (owner == copy.op || isa<memref::DeallocOp>(owner))
      continue;
    if (auto view = dyn_cast<memref::SubViewOp>(owner)) {
      if (view.getType().getRank() != view.getSourceType().getRank())
        return blocked(CopyBlocker::NotLocal,
                       "source " + describe(source) +
                           " has a rank-reducing view " +
                           describe(view.getResult()),
                       owner);
      if (std::optional<RuleVerdict> v =
              checkBackwardUse(copy, use, source, true, uses))
        return *v;
      for (OpOperand &viewUse : view.getResult().getUses())
        if (std::optional<RuleVerdict> v =
                checkBackwardUse(copy, viewUse, view.getResult(), false, uses))
          return *v;
      uses.rebased.push_back(owner);
      uses.rebasedValues.insert(view.getResult());
      continue;
    }
    if (std::optional<RuleVerdict> v =
            checkBackwardUse(copy, use, source, false, uses))
      return *v;
    uses.direct.push_back(&use);
  }
  return std::nullopt;
}

RuleVerdict
CopyAnalyzer::collectHoistedTargetDefs(const CopyCandidate &copy,
                                       Operation *first,
                                       SmallVector<Operation *> &hoisted) {
  Value target = copy.target;
  if (!first || dominance.properlyDominates(target, first))
    return legal();
  SmallVector<Value> worklist = {target};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (dominance.properlyDominates(value, first))
      continue;
    Operation *def = value.getDefiningOp();
    // Pure ops and allocations can move up within their block: neither
    // touches memory that exists before it.
    bool movable =
        def && (isPure(def) || isa<memref::AllocOp, memref::AllocaOp>(def));
    if (!movable || def->getBlock() != copy.op->getBlock() ||
        def->getNumRegions() != 0)
      return blocked(CopyBlocker::OtherRegion,
                     "target " + describe(target) + " is not defined where " +
                         describe(first) +
                         " writes the source and cannot be moved there",
                     first);
    if (seen.insert(def).second) {
      hoisted.push_back(def);
      llvm::append_range(worklist, def->getOperands());
    }
  }
  llvm::sort(hoisted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return legal();
}

RuleVerdict CopyAnalyzer::checkBackward(const CopyCandidate &copy,
                                        CopyLegality &result) {
  Value source = copy.source, target = copy.target;
  auto sourceType = cast<MemRefType>(source.getType());
  auto targetType = cast<MemRefType>(target.getType());
  // The spec's pairs say who may read a space, not who may write one: a
  // producer writing the target's space directly is not covered.
  if (!sameSpace(sourceType, targetType))
    return blocked(CopyBlocker::MemorySpace,
                   "the copy changes memory space from " +
                       spaceName(sourceType.getMemorySpace()) + " to " +
                       spaceName(targetType.getMemorySpace()) +
                       "; only the forward rewrite crosses memory spaces "
                       "(the target lets consumers read the source space, "
                       "not producers write the target space)");
  Operation *alloc = getLocalAlloc(source);
  if (!alloc || !scope->isProperAncestor(alloc))
    return blocked(CopyBlocker::NotLocal,
                   "source " + describe(source) +
                       " is not an allocation inside the scope; its producers "
                       "may be elsewhere");
  BufferUses uses;
  if (std::optional<RuleVerdict> v = collectBackwardUses(copy, uses))
    return *v;
  // Anything else that aliases the source (a view of a view, a value carried
  // through a region) could be accessed out of our sight.
  if (RuleVerdict v = checkNoHiddenAlias(source, "source", uses); !v.legal)
    return v;

  // A buffer allocated outside a loop that holds the copy keeps its contents
  // from one iteration to the next; the producer must then overwrite it
  // before anything reads it, or the target would miss the carried values.
  Operation *first = uses.bound;
  Region *repetitive = getEnclosingRepetitiveRegion(copy.op);
  if (first && repetitive &&
      !repetitive->isAncestor(alloc->getParentRegion()) &&
      !overwritesFully(first, source))
    return blocked(CopyBlocker::LoopCarried,
                   "source " + describe(source) +
                       " lives across iterations of " +
                       describe(repetitive->getParentOp()) + " and " +
                       describe(first) + " does not overwrite it fully first",
                   first);

  SmallVector<Operation *> range;
  if (first)
    for (Operation *op = first; op != copy.op; op = op->getNextNode())
      range.push_back(op);

  SmallVector<Operation *> hoisted;
  if (RuleVerdict v = collectHoistedTargetDefs(copy, first, hoisted); !v.legal)
    return v;

  if (RuleVerdict v =
          findConflict(range, target, /*anyAccess=*/true, "the target");
      !v.legal)
    return v;
  if (RuleVerdict v = checkRetype(uses.direct, target.getType(), source);
      !v.legal)
    return v;
  if (RuleVerdict v =
          checkRebasedViews(uses.rebased, cast<MemRefType>(target.getType()));
      !v.legal)
    return v;
  result.redirectedUses = uses.direct;
  result.rebasedViews = uses.rebased;
  result.deadAlloc = alloc;
  result.hoisted = hoisted;
  result.hoistBefore = hoisted.empty() ? nullptr : first;
  return legal();
}

CopyLegality CopyAnalyzer::analyzeImpl(const CopyCandidate &copy) {
  CopyLegality result;
  result.copy = copy;
  result.bytes = getStaticSizeInBytes(copy.target);
  RuleVerdict common = checkCommon(copy);
  if (!common.legal) {
    result.forward = common;
    result.backward = common;
    return result;
  }
  CopyLegality forward = result;
  result.forward = checkForward(copy, forward);
  if (result.forward.legal) {
    forward.forward = result.forward;
    forward.rule = CopyRule::Forward;
    return forward;
  }
  CopyLegality backward = result;
  result.backward = checkBackward(copy, backward);
  if (result.backward.legal) {
    backward.forward = result.forward;
    backward.backward = result.backward;
    backward.rule = CopyRule::Backward;
    return backward;
  }
  return result;
}

SmallVector<Operation *> hwsched::collectCopies(Operation *scope) {
  SmallVector<Operation *> copies;
  scope->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != scope && matchCopy(op))
      copies.push_back(op);
  });
  return copies;
}

CopyLegalityAnalysis::CopyLegalityAnalysis(Operation *scope,
                                           const CopyLegalityOptions &options)
    : impl(std::make_unique<CopyAnalyzer>(scope, options)) {}

CopyLegalityAnalysis::~CopyLegalityAnalysis() = default;

std::optional<CopyLegality> CopyLegalityAnalysis::analyze(Operation *op) {
  std::optional<CopyCandidate> copy = matchCopy(op);
  if (!copy)
    return std::nullopt;
  return impl->analyze(*copy);
}

std::vector<CopyLegality>
hwsched::analyzeCopies(Operation *scope, const CopyLegalityOptions &options) {
  std::vector<CopyLegality> results;
  SmallVector<Operation *> copies = collectCopies(scope);
  if (copies.empty())
    return results;
  CopyLegalityAnalysis analysis(scope, options);
  for (Operation *op : copies)
    results.push_back(*analysis.analyze(op));
  return results;
}
