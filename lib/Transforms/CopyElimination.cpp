//===- CopyElimination.cpp - Remove redundant buffer copies ---------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/CopyElimination.h"
#include "hwsched/Analysis/MemRefUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace hwsched;

static std::string describe(Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.printAsOperand(os, OpPrintingFlags().useLocalScope());
  return text;
}

/// True when the only memory `op` changes is `buffer` and nothing uses its
/// results: once `buffer` is dead, `op` is dead too.
static bool onlyWritesBuffer(Operation *op, Value buffer) {
  if (!op->use_empty())
    return false;
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return false;
  bool writes = false;
  for (const MemoryEffects::EffectInstance &effect : *effects) {
    if (isa<MemoryEffects::Read>(effect.getEffect()))
      continue;
    if (!isa<MemoryEffects::Write>(effect.getEffect()) ||
        effect.getValue() != buffer)
      return false;
    writes = true;
  }
  return writes;
}

/// Erases `alloc` when only deallocations and ops that merely write it are
/// left; those go too.
static void eraseIfDead(RewriterBase &rewriter, Operation *alloc,
                        CopyEliminationResult &result,
                        llvm::DenseSet<Operation *> &erased) {
  Value buffer = alloc->getResult(0);
  llvm::SetVector<Operation *> users;
  for (Operation *user : buffer.getUsers()) {
    if (!isa<memref::DeallocOp>(user) && !onlyWritesBuffer(user, buffer))
      return;
    users.insert(user);
  }
  std::string name = describe(buffer);
  for (Operation *user : users) {
    if (std::optional<CopyCandidate> copy = matchCopy(user))
      result.removed.push_back(
          {user->getLoc(), user->getName().getStringRef().str(),
           CopyRule::Forward,
           "its target " + name + " is never read; " + name + " erased",
           getStaticSizeInBytes(copy->target)});
    erased.insert(user);
    rewriter.eraseOp(user);
  }
  auto type = cast<MemRefType>(buffer.getType());
  result.erasedAllocs.push_back(
      {alloc->getLoc(), type.getMemorySpace(), getStaticSizeInBytes(buffer)});
  rewriter.eraseOp(alloc);
}

static void applyRule(RewriterBase &rewriter, const CopyLegality &legality,
                      CopyEliminationResult &result,
                      llvm::DenseSet<Operation *> &erased) {
  const CopyCandidate &copy = legality.copy;
  bool forward = legality.rule == CopyRule::Forward;
  Value from = forward ? copy.target : copy.source;
  Value to = forward ? copy.source : copy.target;
  std::string fromName = describe(from), toName = describe(to);
  std::string detail;
  if (forward && legality.redirectedUses.empty() &&
      legality.rebasedViews.empty())
    detail = "its target " + fromName + " is never read";
  else if (forward)
    detail = std::to_string(legality.redirectedUses.size()) + " read(s) of " +
             fromName + " now read " + toName;
  else
    detail = std::to_string(legality.redirectedUses.size()) +
             " access(es) of " + fromName + " now go to " + toName;

  if (legality.castSourceToTargetSpace &&
      (!legality.redirectedUses.empty() || !legality.rebasedViews.empty())) {
    // The reads keep their memory space: they see the source through a cast,
    // placed where the source is defined so it dominates every redirected
    // use and rebuilt view.
    if (Operation *def = to.getDefiningOp())
      rewriter.setInsertionPointAfter(def);
    else
      rewriter.setInsertionPointToStart(to.getParentBlock());
    auto sourceType = cast<MemRefType>(to.getType());
    auto castType =
        MemRefType::get(sourceType.getShape(), sourceType.getElementType(),
                        sourceType.getLayout(),
                        cast<MemRefType>(from.getType()).getMemorySpace());
    to = memref::MemorySpaceCastOp::create(rewriter, copy.op->getLoc(),
                                           castType, to);
    std::string space = "the default memory space";
    if (Attribute attr = castType.getMemorySpace()) {
      space.clear();
      llvm::raw_string_ostream os(space);
      attr.print(os);
    }
    detail += " through memref.memory_space_cast to " + space;
  }
  if (!legality.rebasedViews.empty())
    detail += ", " + std::to_string(legality.rebasedViews.size()) +
              " view(s) rebuilt on it";
  for (Operation *op : legality.hoisted)
    rewriter.moveOpBefore(op, legality.hoistBefore);
  for (OpOperand *use : legality.redirectedUses)
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(to); });
  for (Operation *op : legality.rebasedViews) {
    auto view = cast<memref::SubViewOp>(op);
    rewriter.setInsertionPoint(view);
    auto rebased = memref::SubViewOp::create(
        rewriter, view.getLoc(), to, view.getMixedOffsets(),
        view.getMixedSizes(), view.getMixedStrides());
    rewriter.replaceAllUsesWith(view.getResult(), rebased.getResult());
    erased.insert(view);
    rewriter.eraseOp(view);
  }

  result.removed.push_back({copy.op->getLoc(),
                            copy.op->getName().getStringRef().str(),
                            legality.rule, detail, legality.bytes});
  erased.insert(copy.op);
  rewriter.eraseOp(copy.op);
  size_t before = result.erasedAllocs.size();
  eraseIfDead(rewriter, legality.deadAlloc, result, erased);
  if (result.erasedAllocs.size() > before)
    result.removed.back().detail += "; " + fromName + " erased";
}

CopyEliminationResult
hwsched::eliminateRedundantCopies(RewriterBase &rewriter, Operation *scope,
                                  const CopyLegalityOptions &options) {
  CopyEliminationResult result;
  scope->walk([&](Operation *op) {
    if (op != scope && matchCopy(op))
      ++result.copiesBefore;
  });
  // Each rewrite changes uses and erases ops, so the analysis state is
  // rebuilt after it; a pass over all copies continues with the next copy
  // (re-matched: its operands may have been redirected). A rewrite can make
  // an earlier copy removable (chains), so passes repeat until one changes
  // nothing.
  llvm::DenseSet<Operation *> erased;
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> copies = collectCopies(scope);
    auto analysis = std::make_unique<CopyLegalityAnalysis>(scope, options);
    for (Operation *op : copies) {
      if (erased.contains(op))
        continue;
      std::optional<CopyLegality> legality = analysis->analyze(op);
      if (!legality || legality->rule == CopyRule::Keep)
        continue;
      applyRule(rewriter, *legality, result, erased);
      changed = true;
      analysis = std::make_unique<CopyLegalityAnalysis>(scope, options);
    }
  }
  result.kept = analyzeCopies(scope, options);
  return result;
}

AllocBytes hwsched::countAllocBytes(Operation *scope, Attribute memorySpace) {
  AllocBytes total;
  scope->walk([&](Operation *op) {
    if (!isa<memref::AllocOp, memref::AllocaOp>(op))
      return;
    auto type = cast<MemRefType>(op->getResult(0).getType());
    if (type.getMemorySpace() != memorySpace)
      return;
    ++total.count;
    if (std::optional<int64_t> bytes = getStaticSizeInBytes(op->getResult(0)))
      total.bytes += *bytes;
    else
      ++total.dynamicCount;
  });
  return total;
}
