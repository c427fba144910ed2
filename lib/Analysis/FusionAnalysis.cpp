//===- FusionAnalysis.cpp - IR facts about producer/consumer fusion -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/FusionAnalysis.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace hwsched;

namespace {
/// A value carrying (a tile of) the producer's result and how it got there.
struct Reach {
  Value value;
  SmallVector<int64_t> workerSplitDims;
  bool throughLoops = false;
};
} // namespace

/// Result dims a parallel_insert_slice writes only part of: the forall splits
/// them across its workers.
static SmallVector<int64_t> getSplitDims(tensor::ParallelInsertSliceOp insert) {
  SmallVector<int64_t> dims;
  ArrayRef<int64_t> destShape = insert.getDestType().getShape();
  for (auto [dim, size] : llvm::enumerate(insert.getMixedSizes())) {
    std::optional<int64_t> cst = getConstantIntValue(size);
    if (!cst || ShapedType::isDynamic(destShape[dim]) || *cst != destShape[dim])
      dims.push_back(dim);
  }
  return dims;
}

/// Calls `fn` for every structured use of `reach.value`, following the value
/// out of the tiling loops that build the full result from tiles.
static void
traceUses(const Reach &reach, Operation *producer,
          llvm::function_ref<void(Operation *, OpOperand &, const Reach &)> fn,
          unsigned depth = 0) {
  if (depth > 16)
    return;
  for (OpOperand &use : reach.value.getUses()) {
    Operation *user = use.getOwner();
    if (auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(user)) {
      if (use.get() != insert.getSource())
        continue;
      auto forall = insert->getParentOfType<scf::ForallOp>();
      auto arg = dyn_cast<BlockArgument>(insert.getDest());
      if (!forall || !arg || arg.getOwner()->getParentOp() != forall)
        continue;
      Reach next;
      next.value = forall->getResult(arg.getArgNumber() - forall.getRank());
      next.workerSplitDims = reach.workerSplitDims;
      for (int64_t dim : getSplitDims(insert))
        if (!llvm::is_contained(next.workerSplitDims, dim))
          next.workerSplitDims.push_back(dim);
      next.throughLoops = true;
      traceUses(next, producer, fn, depth + 1);
      continue;
    }
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(user)) {
      if (use.get() != insert.getSource())
        continue;
      Reach next = reach;
      next.value = insert.getResult();
      traceUses(next, producer, fn, depth + 1);
      continue;
    }
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      auto loop = dyn_cast<scf::ForOp>(yield->getParentOp());
      if (!loop)
        continue;
      Reach next = reach;
      next.value = loop->getResult(use.getOperandNumber());
      next.throughLoops = true;
      traceUses(next, producer, fn, depth + 1);
      continue;
    }
    // A use inside a structured op's body (tensor.extract of a captured
    // value: a gather) makes that op a consumer.
    Operation *consumer = user;
    while (consumer && !isStructuredOp(consumer))
      consumer = consumer->getParentOp();
    if (!consumer || consumer == producer || consumer->isAncestor(producer))
      continue;
    fn(consumer, use, reach);
  }
}

/// The top-level op (function) whose walk gives program order.
static Operation *getOrderRoot(Operation *op) {
  Operation *root = op;
  while (root->getParentOp() && !root->hasTrait<OpTrait::IsIsolatedFromAbove>())
    root = root->getParentOp();
  return root;
}

SmallVector<Operation *> hwsched::collectConsumers(Operation *producer) {
  llvm::SmallPtrSet<Operation *, 8> found;
  for (OpResult result : producer->getResults()) {
    Reach reach;
    reach.value = result;
    traceUses(reach, producer,
              [&](Operation *consumer, OpOperand &, const Reach &) {
                found.insert(consumer);
              });
  }
  SmallVector<Operation *> ordered;
  if (found.empty())
    return ordered;
  getOrderRoot(producer)->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (found.contains(op))
      ordered.push_back(op);
  });
  return ordered;
}

/// Index in `features.operands` of the operand with `number`.
static std::optional<unsigned> findOperandIndex(const OpFeatures &features,
                                                unsigned number) {
  for (auto [i, operand] : llvm::enumerate(features.operands))
    if (operand.number == number)
      return i;
  return std::nullopt;
}

/// Whether `value` is available at `point`: it dominates it, or every op
/// defining it (transitively, up to values that dominate `point`) is free of
/// memory effects, in `point`'s block after it, and does not depend on
/// `point` itself, so the definitions can be moved before `point` (what
/// mlir::moveValueDefinitions does) without changing the program. Otherwise
/// `blocker` says why not.
static bool isAvailableAt(Value value, Operation *point,
                          DominanceInfo &dominance,
                          llvm::SmallPtrSetImpl<Operation *> &visited,
                          std::string &blocker) {
  if (dominance.properlyDominates(value, point))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def) {
    blocker = "it is a block argument of a region the fusion point is not in";
    return false;
  }
  if (!visited.insert(def).second)
    return true;
  if (def == point || point->isAncestor(def)) {
    blocker = "it is computed from the producer";
    return false;
  }
  if (def->getBlock() != point->getBlock()) {
    blocker = "'" + def->getName().getStringRef().str() +
              "' is in another block than the fusion point";
    return false;
  }
  if (!isMemoryEffectFree(def)) {
    blocker = "'" + def->getName().getStringRef().str() +
              "' has memory effects, so it cannot be moved before the "
              "producer";
    return false;
  }
  // The definition's operands, and the values its regions capture, must be
  // available too.
  bool ok = true;
  def->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      if (nested != def &&
          def->isAncestor(operand.getParentBlock()->getParentOp()))
        continue;
      if (!isAvailableAt(operand, point, dominance, visited, blocker)) {
        ok = false;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return ok;
}

namespace {
/// Where the consumer reads the producer's value: the value that reaches it
/// and the consumer operand that describes the pair.
struct FusedUse {
  Reach reach;
  /// Index in the consumer's operand features of the operand read (or, for
  /// a gather, of the consumer's first init).
  unsigned index = 0;
  /// The value is read from the consumer's body, not through an operand.
  bool gathered = false;
};
} // namespace

/// Finds the first use (over results in order) through which `consumer`
/// reads a result of `producer`, and records that result in `facts`.
static std::optional<FusedUse>
findFusedUse(Operation *producer, Operation *consumer, FusionPairFacts &facts) {
  std::optional<Reach> found;
  OpOperand *foundUse = nullptr;
  for (OpResult result : producer->getResults()) {
    Reach reach;
    reach.value = result;
    traceUses(reach, producer,
              [&](Operation *user, OpOperand &use, const Reach &r) {
                if (user == consumer && !found) {
                  found = r;
                  foundUse = &use;
                  facts.producerResult = result.getResultNumber();
                }
              });
  }
  if (!found)
    return std::nullopt;
  // A gather reads the value from the body, not through an operand: describe
  // the pair through the consumer's result.
  bool gathered = foundUse->getOwner() != consumer;
  std::optional<unsigned> index;
  if (!gathered)
    index = findOperandIndex(facts.consumer, foundUse->getOperandNumber());
  else if (const OperandFeatures *init = facts.consumer.getInit())
    index = findOperandIndex(facts.consumer, init->number);
  if (!index)
    return std::nullopt;
  return FusedUse{*found, *index, gathered};
}

/// Which result dims the consumer reduces over, and whether it walks the
/// value in another dim order than it writes its result. Returns whether
/// some dim of the value is indexed by more than a loop (a window).
static bool analyzeConsumerOrder(const FusedUse &use, FusionPairFacts &facts) {
  const OpFeatures &cons = facts.consumer;
  const OperandFeatures &fused = cons.operands[use.index];
  bool window = false;
  for (auto [dim, loop] : llvm::enumerate(fused.loopDims)) {
    if (loop < 0) {
      window = true;
      continue;
    }
    if (cons.isReductionLoop[loop])
      facts.consumerReducedDims.push_back(dim);
  }
  facts.consumerReduces = !facts.consumerReducedDims.empty();
  if (const OperandFeatures *init = cons.getInit()) {
    SmallVector<int64_t> readOrder, writeOrder;
    for (int64_t loop : fused.loopDims)
      if (loop >= 0 && llvm::is_contained(init->loopDims, loop))
        readOrder.push_back(loop);
    for (int64_t loop : init->loopDims)
      if (loop >= 0 && llvm::is_contained(fused.loopDims, loop))
        writeOrder.push_back(loop);
    facts.layoutChange = readOrder != writeOrder ||
                         cons.opClass == OpClass::LayoutChange ||
                         init->pattern == AccessPattern::Transposed ||
                         init->pattern == AccessPattern::Strided;
  }
  facts.gather =
      use.gathered || llvm::is_contained(cons.gatheredValues, use.reach.value);
  return window;
}

/// Back-to-back GEMM: the consumer contracts over the producer's N.
/// Parallel loops of the consumer that do not index the value: fusing
/// re-reads the value along them. Tiling for fusion splits the outer loops
/// first, so only absent loops outside the innermost loop that indexes the
/// value recompute the producer once per tile (a row broadcast p[d1] over
/// rows d0); an absent loop inside it stays within one tile (p[d0] over
/// columns d1).
static void analyzeRecompute(const FusedUse &use, bool window,
                             FusionPairFacts &facts) {
  const OpFeatures &prod = facts.producer;
  const OpFeatures &cons = facts.consumer;
  const OperandFeatures &fused = cons.operands[use.index];
  int64_t absentParallel = 1, recompute = 1;
  int64_t innermostIndexed = -1;
  for (int64_t loop : fused.loopDims)
    innermostIndexed = std::max(innermostIndexed, loop);
  for (unsigned loop = 0; loop < cons.loopRanges.size(); ++loop) {
    if (cons.isReductionLoop[loop] ||
        llvm::is_contained(fused.loopDims, (int64_t)loop))
      continue;
    absentParallel *= cons.loopRanges[loop];
    if ((int64_t)loop < innermostIndexed)
      recompute *= cons.loopRanges[loop];
  }
  if (prod.isCubeLike() && cons.opClass == OpClass::Contraction &&
      facts.consumerReduces) {
    facts.backToBackGemm = true;
    int64_t dim = facts.consumerReducedDims.back();
    auto shaped = dyn_cast<ShapedType>(use.reach.value.getType());
    facts.gemm1NFull = shaped && !shaped.isDynamicDim(dim)
                           ? shaped.getDimSize(dim)
                           : fused.shape[dim];
    const OperandFeatures *prodInit = prod.getInit(facts.producerResult);
    facts.gemm1NTile = prodInit && dim < (int64_t)prodInit->shape.size()
                           ? prodInit->shape[dim]
                           : facts.gemm1NFull;
    facts.gemm2N = absentParallel;
  } else if (!window) {
    facts.recomputeFactor = recompute;
  }
}

/// Availability: consumer fusion moves the consumer to the producer (into
/// the producer's tiling loops): its other operands must be available
/// there. Where a side-effect-free op that defines one is printed (a
/// frontend creates the consumer's tensor.empty right before the consumer,
/// after the producer) does not matter: such definitions can be moved
/// before the fusion point, so only operands that cannot be moved (memory
/// effects, or computed from the producer) make the pair illegal.
static void checkOperandAvailability(Operation *producer, Operation *consumer,
                                     Value fusedValue, FusionPairFacts &facts) {
  Operation *fusionPoint = producer;
  while (fusionPoint->getParentOp() &&
         fusionPoint->getBlock() != consumer->getBlock() &&
         !fusionPoint->getParentOp()->hasTrait<OpTrait::IsIsolatedFromAbove>())
    fusionPoint = fusionPoint->getParentOp();
  if (fusionPoint->getBlock() != consumer->getBlock())
    fusionPoint = producer;
  DominanceInfo dominance(getOrderRoot(producer));
  for (OpOperand &operand : consumer->getOpOperands()) {
    if (operand.get() == fusedValue ||
        operand.get().getDefiningOp() == producer)
      continue;
    std::string blocker;
    llvm::SmallPtrSet<Operation *, 8> visited;
    if (!isAvailableAt(operand.get(), fusionPoint, dominance, visited,
                       blocker)) {
      facts.operandsDominate = false;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "operand #" << operand.getOperandNumber();
      if (Operation *def = operand.get().getDefiningOp())
        os << " (defined by " << def->getName() << ")";
      os << " does not dominate the fusion point and cannot be moved before "
            "it: "
         << blocker;
      facts.nonDominatingOperand = text;
      break;
    }
  }
}

/// The fused pair as a kernel group: the consumer reads the value from the
/// producer, not from memory.
static void buildFusedGroup(Operation *producer, const FusedUse &use,
                            FusionPairFacts &facts) {
  const OpFeatures &prod = facts.producer;
  const OpFeatures &cons = facts.consumer;
  facts.group.ops = {facts.producer, facts.consumer};
  facts.group.operandProducer.resize(2);
  facts.group.operandProducer[0].assign(prod.operands.size(), -1);
  facts.group.operandProducer[1].assign(cons.operands.size(), -1);
  if (!use.gathered)
    facts.group.operandProducer[1][use.index] = 0;
  facts.group.operandResult = facts.group.operandProducer;
  facts.group.operandResult[1][use.index] = facts.producerResult;
  // Other results of a multi-result producer read by the consumer are
  // produced in the fused kernel as well.
  for (auto [k, operand] : llvm::enumerate(cons.operands)) {
    auto result = dyn_cast_or_null<OpResult>(operand.value);
    if (result && result.getOwner() == producer) {
      facts.group.operandProducer[1][k] = 0;
      facts.group.operandResult[1][k] = result.getResultNumber();
    }
  }
  facts.group.threadTiled = false;
  facts.group.dynamicShape = prod.dynamicShape || cons.dynamicShape;
  facts.group.dynamicUnbounded = prod.dynamicUnbounded || cons.dynamicUnbounded;
}

bool hwsched::analyzeFusionPair(Operation *producer, Operation *consumer,
                                FusionPairFacts &facts) {
  facts = FusionPairFacts();
  if (!computeOpFeatures(producer, facts.producer) ||
      !computeOpFeatures(consumer, facts.consumer))
    return false;

  std::optional<FusedUse> use = findFusedUse(producer, consumer, facts);
  if (!use)
    return false;
  facts.consumerOperand = use->index;
  facts.throughLoops = use->reach.throughLoops;
  facts.workerSplitDims = use->reach.workerSplitDims;
  const OperandFeatures &fused = facts.consumer.operands[use->index];

  if (auto shaped = dyn_cast<ShapedType>(use->reach.value.getType());
      shaped && shaped.hasStaticShape())
    facts.intermediateBytes =
        (shaped.getNumElements() * fused.elementBits + 7) / 8;
  else
    facts.intermediateBytes = fused.bytes;

  bool window = analyzeConsumerOrder(*use, facts);
  analyzeRecompute(*use, window, facts);
  checkOperandAvailability(producer, consumer, use->reach.value, facts);
  buildFusedGroup(producer, *use, facts);
  return true;
}

/// The op of `group` that produces (a tile of) `value`, following slices and
/// scf.for results / iter_args; -1 when `value` comes from outside.
static int findGroupProducer(Value value,
                             const llvm::DenseMap<Operation *, int> &index,
                             unsigned &resultNumber) {
  for (unsigned step = 0; step < 16 && value; ++step) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return -1;
      value = loop.getInitArgs()[arg.getArgNumber() - 1];
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (auto it = index.find(def); it != index.end()) {
      resultNumber = cast<OpResult>(value).getResultNumber();
      return it->second;
    }
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def))
      value = slice.getSource();
    else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def))
      value = insert.getSource();
    else if (auto loop = dyn_cast<scf::ForOp>(def))
      value = loop.getYieldedValues()[cast<OpResult>(value).getResultNumber()];
    else
      return -1;
  }
  return -1;
}

bool hwsched::collectKernelGroup(Operation *op, KernelGroup &group) {
  group = KernelGroup();
  OpFeatures features;
  if (!computeOpFeatures(op, features))
    return false;
  Operation *scope = nullptr;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      break;
    if (isa<scf::ForallOp>(parent)) {
      scope = parent;
      break;
    }
    if (isa<scf::ForOp>(parent))
      scope = parent;
  }
  SmallVector<Operation *> members;
  if (!scope) {
    members.push_back(op);
  } else {
    scope->walk<WalkOrder::PreOrder>([&](Operation *nested) {
      if (nested != scope && isStructuredOp(nested) &&
          !isa<scf::ForOp, scf::ForallOp>(nested))
        members.push_back(nested);
    });
  }
  llvm::DenseMap<Operation *, int> index;
  for (Operation *member : members) {
    OpFeatures memberFeatures;
    if (!computeOpFeatures(member, memberFeatures))
      continue;
    index[member] = group.ops.size();
    group.ops.push_back(std::move(memberFeatures));
  }
  group.threadTiled = !group.ops.empty();
  for (const OpFeatures &member : group.ops) {
    group.threadTiled &= member.threadTiled;
    group.dynamicShape |= member.dynamicShape;
    group.dynamicUnbounded |= member.dynamicUnbounded;
    SmallVector<int> producers, results;
    for (const OperandFeatures &operand : member.operands) {
      unsigned result = 0;
      // A non-Linalg op describes its results as its outputs: they are
      // its own, not produced by another op of the group.
      int producer =
          operand.isScalar || operand.value.getDefiningOp() == member.op
              ? -1
              : findGroupProducer(operand.value, index, result);
      producers.push_back(producer);
      results.push_back(result);
    }
    group.operandProducer.push_back(std::move(producers));
    group.operandResult.push_back(std::move(results));
  }
  return true;
}
