//===- EpilogueIntoStores.cpp - Apply an epilogue where results are stored ===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The legality argument, in the order the plan checks it:
//  - The epilogue computes each element of its destination from the same
//    element of the producer's result R (identity map) and from elements of
//    its other inputs that the producer does not write. So its value at an
//    element can be computed as soon as R's final value there is known.
//  - The producer writes R only through stores and never reads it, so each
//    store writes a value of R that no later op in the producer depends on,
//    and the last store to an element (in the producer's own order) writes
//    its final value. Replacing each store's target by the destination, with
//    the epilogue applied, leaves the destination holding the epilogue of
//    the final values, in the same order of writes.
//  - Nothing between the producer and the epilogue touches memory, so the
//    epilogue read exactly what the producer left.
//  - The producer does not touch the destination, so storing into it
//    earlier is invisible to the producer.
// R itself keeps its stores unless it is a temporary nobody reads again.
// Distinct function arguments are taken not to alias, as bufferization
// takes them.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/EpilogueIntoStores.h"
#include "hwsched/Analysis/MemRefUtils.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <vector>

using namespace mlir;
using namespace hwsched;

static std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

/// The memref a store writes, or null for an op that is not one of the
/// stores the rewrite takes.
static Value storedBuffer(Operation *op) {
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getBase();
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    return write.getBase();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  return {};
}

/// The shape the epilogue runs on at `store` (empty for a scalar store).
static ArrayRef<int64_t> storedShape(Operation *store) {
  if (auto s = dyn_cast<vector::StoreOp>(store))
    return s.getVectorType().getShape();
  if (auto w = dyn_cast<vector::TransferWriteOp>(store))
    return w.getVectorType().getShape();
  return {};
}

/// The reason `store` cannot carry the epilogue, or success.
static llvm::Error checkStore(Operation *store, int64_t rank) {
  if (auto vectorType = dyn_cast<VectorType>(store->getOperand(0).getType());
      vectorType && vectorType.getRank() == 0)
    return refuse(store, "a 0-d vector is stored into the epilogue's input; "
                         "store a scalar (memref.store) or a 1-d vector");
  if (auto write = dyn_cast<vector::TransferWriteOp>(store)) {
    if (write.getMask())
      return refuse(store, "a masked vector.transfer_write writes the "
                           "epilogue's input; unmask it (or store whole "
                           "vectors) to apply the epilogue there");
    if (!write.getPermutationMap().isMinorIdentity())
      return refuse(store, "a vector.transfer_write with a permutation map "
                           "that is not a minor identity writes the "
                           "epilogue's input");
    if (write.getVectorType().isScalable())
      return refuse(store, "a scalable vector is stored into the epilogue's "
                           "input");
  }
  if (auto s = dyn_cast<vector::StoreOp>(store))
    if (s.getVectorType().isScalable())
      return refuse(store, "a scalable vector is stored into the epilogue's "
                           "input");
  if (static_cast<int64_t>(storedShape(store).size()) > rank)
    return refuse(store, "the stored vector has more dimensions than the "
                         "epilogue's input");
  return llvm::Error::success();
}

/// Whether `op` may write `value` (a memref): by its declared memory
/// effects, or, for an op that declares none, whenever it takes the value.
static bool mayWrite(Operation *op, Value value) {
  if (isa<ViewLikeOpInterface>(op))
    return false;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return true;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffectsOnValue(value, effects);
  return llvm::any_of(effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect());
  });
}

/// The epilogue's own checks: the body and the maps.
/// The epilogue's form, on tensors or buffers: what epilogue_into_stores
/// can apply at stores whatever the producer.
static llvm::Error checkEpilogueForm(linalg::LinalgOp epilogue) {
  if (epilogue.getNumDpsInits() != 1)
    return refuse(epilogue, "the epilogue has " +
                                std::to_string(epilogue.getNumDpsInits()) +
                                " outputs (expected one)");
  if (epilogue.getNumParallelLoops() != epilogue.getNumLoops())
    return refuse(epilogue, "the epilogue has a reduction loop; only an "
                            "elementwise epilogue (all loops parallel) is "
                            "applied at the producer's stores");
  OpOperand *init = epilogue.getDpsInitOperand(0);
  if (!epilogue.getMatchingIndexingMap(init).isIdentity())
    return refuse(epilogue, "the epilogue's output indexing map is not the "
                            "identity");
  // The stores carry vectors of scalars, and the other inputs are read as
  // such: a buffer of vectors (or of any other element) has no vector of
  // its elements.
  for (OpOperand &operand : epilogue->getOpOperands())
    if (!getElementTypeOrSelf(operand.get().getType()).isIntOrIndexOrFloat())
      return refuse(epilogue,
                    "operand " + std::to_string(operand.getOperandNumber()) +
                        " of the epilogue has elements that are not "
                        "integers, indices or floats; the epilogue is "
                        "applied to vectors of those elements");
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    if (!isa<ShapedType>(input->get().getType()))
      return refuse(epilogue, "input " +
                                  std::to_string(input->getOperandNumber()) +
                                  " of the epilogue is a scalar; pass it as a "
                                  "memref or a constant in the body");
    if (!epilogue.getMatchingIndexingMap(input).isProjectedPermutation(
            /*allowZeroInResults=*/true))
      return refuse(epilogue,
                    "input " + std::to_string(input->getOperandNumber()) +
                        " of the epilogue is read through an indexing map "
                        "that is not a projected permutation");
  }
  for (Operation &op : epilogue.getBlock()->without_terminator()) {
    if (isa<linalg::IndexOp>(op))
      continue;
    bool scalar = llvm::all_of(op.getResultTypes(),
                               [](Type t) { return t.isIntOrIndexOrFloat(); });
    bool elementwise = OpTrait::hasElementwiseMappableTraits(&op) ||
                       matchPattern(&op, m_Constant());
    if (!elementwise || op.getNumRegions() != 0 || !scalar)
      return refuse(&op, opName(&op) + " in the epilogue's body is not an "
                                       "elementwise operation on scalars "
                                       "(arith, math), which is what is "
                                       "applied to stored vectors");
  }
  return llvm::Error::success();
}

/// The epilogue's own checks: on buffers, and its form.
static llvm::Error checkEpilogue(linalg::GenericOp epilogue) {
  if (!epilogue.hasPureBufferSemantics())
    return refuse(epilogue, "the epilogue is not on buffers; bufferize "
                            "first (the stores it is fused into are "
                            "memory writes)");
  return checkEpilogueForm(epilogue);
}

llvm::Error hwsched::checkEpilogueForStores(linalg::LinalgOp epilogue,
                                            Operation *producer) {
  if (llvm::Error form = checkEpilogueForm(epilogue))
    return form;
  OpOperand *result = nullptr;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get().getDefiningOp() == producer) {
      if (result)
        return refuse(epilogue, "the epilogue reads the producer's result "
                                "twice; pass it once");
      result = input;
    }
  if (!result)
    return refuse(epilogue, "the epilogue does not read a result of " +
                                opName(producer) + " as an input");
  if (!epilogue.getMatchingIndexingMap(result).isIdentity())
    return refuse(epilogue,
                  "the epilogue reads the producer's result (input " +
                      std::to_string(result->getOperandNumber()) +
                      ") through an indexing map that is not the identity");
  OpOperand *init = epilogue.getDpsInitOperand(0);
  if (epilogue.payloadUsesValueFromOperand(init))
    return refuse(epilogue, "the epilogue reads its destination's current "
                            "contents as well as the producer's result");
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == init->get())
      return refuse(epilogue, "input " +
                                  std::to_string(input->getOperandNumber()) +
                                  " of the epilogue is its destination; at the "
                                  "producer's stores it would read values the "
                                  "epilogue has already written");
  return llvm::Error::success();
}

/// Every op that uses `buffer` through chains of views (memref.subview,
/// memref.cast, memref.expand_shape...), with the value it uses. Every view
/// is followed: an access through any alias of the buffer is an access of
/// the buffer.
static void collectUsers(Value buffer,
                         SmallVectorImpl<std::pair<Operation *, Value>> &out) {
  for (Operation *user : buffer.getUsers()) {
    // (An op out of the IR, such as a call inlineEpilogueCall set aside,
    // still holds its operands.)
    if (!user->getBlock())
      continue;
    out.push_back({user, buffer});
    if (auto view = dyn_cast<ViewLikeOpInterface>(user))
      if (view.getViewSource() == buffer)
        for (Value result : user->getResults())
          collectUsers(result, out);
  }
}

/// The ancestor of `op` in `block`, or null.
static Operation *ancestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

llvm::Expected<EpilogueStoresPlan>
hwsched::planEpilogueIntoStores(linalg::GenericOp epilogue) {
  if (llvm::Error refused = checkEpilogue(epilogue))
    return std::move(refused);
  Block *block = epilogue->getBlock();
  OpOperand *init = epilogue.getDpsInitOperand(0);

  // The candidates for the producer's result: inputs with the identity map
  // and, when the body reads it, the output (the epilogue runs in place).
  SmallVector<OpOperand *> candidates;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (epilogue.getMatchingIndexingMap(input).isIdentity())
      candidates.push_back(input);
  if (epilogue.payloadUsesValueFromOperand(init))
    candidates.push_back(init);

  // The producer: the nearest op before the epilogue, in its block, that
  // holds a use of a candidate's buffer.
  EpilogueStoresPlan plan;
  plan.epilogue = epilogue;
  for (Operation *prev = epilogue->getPrevNode(); prev && !plan.producer;
       prev = prev->getPrevNode()) {
    for (OpOperand *candidate : candidates) {
      SmallVector<std::pair<Operation *, Value>> users;
      collectUsers(candidate->get(), users);
      if (llvm::any_of(users, [&](auto &u) {
            return prev->isAncestor(u.first) &&
                   !isa<ViewLikeOpInterface>(u.first);
          })) {
        plan.producer = prev;
        plan.resultOperand = candidate;
        break;
      }
    }
  }
  if (!plan.producer)
    return refuse(epilogue,
                  "no op before the epilogue (in its block) writes one of "
                  "its inputs read through the identity map; the epilogue "
                  "is applied at the stores of the op that computes that "
                  "input");
  plan.resultBuffer = plan.resultOperand->get();
  plan.inPlace = plan.resultOperand == init;
  if (!plan.inPlace && epilogue.payloadUsesValueFromOperand(init))
    return refuse(epilogue, "the epilogue reads its destination's current "
                            "contents as well as the producer's result; at "
                            "the producer's stores those contents are not "
                            "known to be final");
  Operation *producer = plan.producer;
  if (plan.resultBuffer.getDefiningOp<ViewLikeOpInterface>())
    return refuse(epilogue,
                  "the epilogue reads the producer's result through a view "
                  "(" +
                      opName(plan.resultBuffer.getDefiningOp()) +
                      "); apply it to the whole buffer the producer writes");
  auto resultType = cast<MemRefType>(plan.resultBuffer.getType());
  int64_t rank = resultType.getRank();

  // Every use of the result buffer, by where it is.
  Operation *definer = plan.resultBuffer.getDefiningOp();
  // Only a buffer allocated here: the stores need not cover it, and an
  // element they miss is undefined in a fresh allocation (so is the
  // epilogue of it), while in an argument or another op's buffer it would
  // keep its old value instead of the epilogue's.
  if (!isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(definer))
    return refuse(
        Refusal(epilogue,
                "the producer's result (operand " +
                    std::to_string(plan.resultOperand->getOperandNumber()) +
                    " of the epilogue) is not allocated in this "
                    "function, so the producer's stores may not "
                    "cover it and the elements they miss would "
                    "keep their old values; give the result a "
                    "buffer of its own (a tensor.empty before "
                    "bufferization)")
            .note(producer->getLoc(), "the producer"));
  plan.keepResultStores = false;
  SmallVector<std::pair<Operation *, Value>> users;
  collectUsers(plan.resultBuffer, users);
  for (auto [user, used] : users) {
    if (user == epilogue.getOperation() || isa<ViewLikeOpInterface>(user))
      continue;
    if (producer->isAncestor(user)) {
      if (storedBuffer(user) != used) {
        return refuse(Refusal(user, opName(user) +
                                        " in the producer reads or passes on "
                                        "the epilogue's input; the epilogue "
                                        "is applied only where final values "
                                        "are stored, in a producer that "
                                        "only stores them")
                          .note(producer->getLoc(), "the producer"));
      }
      if (llvm::Error refused = checkStore(user, rank))
        return std::move(refused);
      // The view chain from the store to the buffer: unit strides, no
      // rank reduction, so the stored vector's elements are consecutive
      // elements of the buffer's innermost dimensions.
      for (Value v = used; v != plan.resultBuffer;) {
        auto subview = v.getDefiningOp<memref::SubViewOp>();
        if (!subview)
          return refuse(Refusal(user, "the producer stores the epilogue's "
                                      "input through " +
                                          opName(v.getDefiningOp()) +
                                          "; only memref.subview views "
                                          "of it are followed")
                            .note(producer->getLoc(), "the producer"));
        if (!subview.getDroppedDims().none() ||
            llvm::any_of(subview.getStaticStrides(),
                         [](int64_t s) { return s != 1; }))
          return refuse(Refusal(user, "the producer stores the epilogue's "
                                      "input through a strided or "
                                      "rank-reducing subview")
                            .note(subview.getLoc(), "the subview"));
        v = subview.getSource();
      }
      plan.stores.push_back(user);
      continue;
    }
    if (isa<memref::DeallocOp>(user))
      continue;
    Operation *anchor = ancestorIn(block, user);
    if (anchor && epilogue->isBeforeInBlock(anchor)) {
      // Read again after the epilogue: its stores must stay.
      plan.keepResultStores = !plan.inPlace;
      continue;
    }
    if (anchor == definer)
      continue;
    return refuse(Refusal(user, opName(user) +
                                    " uses the epilogue's input outside the "
                                    "producer, before the epilogue; the "
                                    "producer's stores must be the only "
                                    "writes the epilogue reads")
                      .note(producer->getLoc(), "the producer"));
  }
  // In program order (use lists are not): a read made for one store then
  // serves the later stores of the same elements.
  {
    llvm::SmallPtrSet<Operation *, 16> found(plan.stores.begin(),
                                             plan.stores.end());
    plan.stores.clear();
    producer->walk([&](Operation *op) {
      if (found.contains(op))
        plan.stores.push_back(op);
    });
  }
  if (plan.stores.empty())
    return refuse(Refusal(epilogue, "the producer " + opName(producer) +
                                        " writes the epilogue's input "
                                        "through no vector.store, "
                                        "vector.transfer_write or "
                                        "memref.store")
                      .note(producer->getLoc(), "the producer"));

  // Between the producer and the epilogue: nothing that touches memory.
  DominanceInfo dominance(epilogue->getParentOp());
  for (Operation *op = producer->getNextNode(); op != epilogue.getOperation();
       op = op->getNextNode()) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      bool used = llvm::any_of(op->getUsers(), [&](Operation *u) {
        return epilogue->isAncestor(u);
      });
      if (!used)
        continue;
      if (!llvm::all_of(op->getOperands(), [&](Value v) {
            return dominance.properlyDominates(v, producer);
          }))
        return refuse(Refusal(op, "the epilogue's buffer is allocated "
                                  "after the producer with sizes computed "
                                  "after it; allocate it before the "
                                  "producer")
                          .note(producer->getLoc(), "the producer"));
      plan.allocsToHoist.push_back(op);
      continue;
    }
    if (!isMemoryEffectFree(op))
      return refuse(Refusal(op, opName(op) + " between the producer and the "
                                             "epilogue may touch memory; the "
                                             "epilogue can move into the "
                                             "producer's stores only across "
                                             "ops that do not")
                        .note(producer->getLoc(), "the producer"));
  }

  // The epilogue's other operands: available at the producer, not written
  // by it (inputs), not touched by it (the destination).
  auto available = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return dominance.properlyDominates(v, producer) ||
           llvm::is_contained(plan.allocsToHoist, def);
  };
  for (OpOperand &operand : epilogue->getOpOperands()) {
    if (&operand == plan.resultOperand)
      continue;
    Value value = operand.get();
    // Another operand aliasing the result (a memref.cast of it, say) would
    // be read or written at a store while the producer is still writing
    // the result, or after its stores are gone.
    if (getViewRoot(value) == plan.resultBuffer)
      return refuse(
          Refusal(epilogue, "operand " +
                                std::to_string(operand.getOperandNumber()) +
                                " of the epilogue is the producer's result "
                                "or a view of it; pass it once")
              .note(producer->getLoc(), "the producer"));
    if (!available(value))
      return refuse(
          Refusal(epilogue, "operand " +
                                std::to_string(operand.getOperandNumber()) +
                                " of the epilogue is defined after "
                                "the producer; define it before")
              .note(producer->getLoc(), "the producer"));
    bool isInit = &operand == init;
    // The destination read as an input too: at a store it would read what
    // the epilogue's earlier stores wrote there, not the old contents.
    if (!isInit && getViewRoot(value) == getViewRoot(init->get()))
      return refuse(
          Refusal(epilogue, "input " +
                                std::to_string(operand.getOperandNumber()) +
                                " of the epilogue is its destination or a "
                                "view of it; at the producer's stores it "
                                "would read values the epilogue has already "
                                "written")
              .note(producer->getLoc(), "the producer"));
    WalkResult walk = producer->walk([&](Operation *op) {
      for (Value used : op->getOperands()) {
        if (!isa<MemRefType>(used.getType()) ||
            getViewRoot(used) != getViewRoot(value))
          continue;
        if (isInit || mayWrite(op, used))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return refuse(
          Refusal(epilogue,
                  std::string(
                      isInit ? "the producer also uses the "
                               "epilogue's destination"
                             : "the producer may write "
                               "input " +
                                   std::to_string(operand.getOperandNumber()) +
                                   " of the epilogue") +
                      "; storing the epilogue's values while it "
                      "runs would change what it sees")
              .note(producer->getLoc(), "the producer"));
  }
  // Values the body captures: available at every store (constants are
  // re-created there).
  for (Operation &op : epilogue.getBody()->without_terminator())
    for (Value v : op.getOperands())
      if (!epilogue->isAncestor(v.getParentBlock()->getParentOp()) &&
          !matchPattern(v, m_Constant()) && !available(v))
        return refuse(&op, "the epilogue's body uses a value defined after "
                           "the producer; define it before the producer");
  return plan;
}

void EpilogueStoresPlan::print(llvm::raw_ostream &os) const {
  llvm::StringMap<unsigned> kinds;
  for (Operation *store : stores)
    ++kinds[store->getName().getStringRef()];
  os << "epilogue into stores: the elementwise epilogue is applied at "
     << stores.size() << " store(s) of " << opName(producer) << " (";
  llvm::interleaveComma(kinds, os, [&](const auto &kind) {
    os << kind.getValue() << " x " << kind.getKey();
  });
  os << ") of its operand " << resultOperand->getOperandNumber() << " ("
     << resultBuffer.getType() << ")";
  if (inPlace)
    os << "; in place: those stores write the epilogue's values";
  else if (keepResultStores)
    os << "; that buffer keeps its stores (it is "
       << (isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
               resultBuffer.getDefiningOp())
               ? "read after the epilogue"
               : "not a temporary of this function")
       << ")";
  else
    os << "; that temporary is no longer written nor allocated";
  unsigned others = epilogue->getNumOperands() - 2 + (inPlace ? 1 : 0);
  os << "; " << others
     << " other input(s) read at each store through their indexing maps";
}

/// `scalar` as a value of `shape` (itself when the shape is empty) at the
/// rewriter's insertion point. A constant is made again there (a splat for
/// a vector), so that it dominates the store whatever its own position.
static Value broadcastTo(RewriterBase &rewriter, Location loc, Value scalar,
                         ArrayRef<int64_t> shape) {
  Attribute value;
  if (matchPattern(scalar, m_Constant(&value))) {
    auto typed = dyn_cast<TypedAttr>(value);
    if (!shape.empty() && typed && typed.getType() == scalar.getType()) {
      auto type = VectorType::get(shape, scalar.getType());
      return arith::ConstantOp::create(rewriter, loc, type,
                                       SplatElementsAttr::get(type, typed));
    }
    // Any other constant (ub.poison...) is made again here and then
    // broadcast: the original is in the epilogue's body (erased with it)
    // or after the producer.
    scalar = rewriter.clone(*scalar.getDefiningOp())->getResult(0);
  }
  if (shape.empty())
    return scalar;
  return vector::BroadcastOp::create(
      rewriter, loc, VectorType::get(shape, scalar.getType()), scalar);
}

/// The values of loop `dim` at the element(s) `at` covering `shape` (the
/// trailing loop dimensions): the index itself, broadcast, for a loop
/// outside the vector; for a loop along vector dimension v, the index plus
/// 0, 1, ... along v.
static Value loopIndex(RewriterBase &rewriter, Location loc, int64_t dim,
                       ValueRange at, ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  int64_t v = dim - (static_cast<int64_t>(at.size()) - rank);
  Value base = broadcastTo(rewriter, loc, at[dim], shape);
  if (v < 0)
    return base;
  Value step = vector::StepOp::create(
      rewriter, loc, VectorType::get({shape[v]}, rewriter.getIndexType()));
  // The steps along v, broadcast over the other dimensions: broadcast
  // along leading dimensions, then v moved into place.
  SmallVector<int64_t> leading;
  SmallVector<int64_t> permutation;
  for (int64_t d = 0; d < rank; ++d)
    if (d != v)
      leading.push_back(shape[d]);
  leading.push_back(shape[v]);
  Value iota = step;
  if (rank > 1) {
    iota = vector::BroadcastOp::create(
        rewriter, loc, VectorType::get(leading, rewriter.getIndexType()), step);
    for (int64_t d = 0, other = 0; d < rank; ++d)
      permutation.push_back(d == v ? rank - 1 : other++);
    if (v != rank - 1)
      iota = vector::TransposeOp::create(rewriter, loc, iota, permutation);
  }
  return arith::AddIOp::create(rewriter, loc, base, iota);
}

/// `indices` of `view` (a unit-stride subview chain over `buffer`) as
/// indices of `buffer`.
static SmallVector<Value> indicesIn(RewriterBase &rewriter, Location loc,
                                    Value view, ValueRange indices,
                                    Value buffer) {
  SmallVector<Value> result(indices.begin(), indices.end());
  while (view != buffer) {
    auto subview = view.getDefiningOp<memref::SubViewOp>();
    for (auto [i, offset] : llvm::enumerate(subview.getMixedOffsets())) {
      if (isConstantIntValue(offset, 0))
        continue;
      Value o = getValueOrCreateConstantIndexOp(rewriter, loc, offset);
      result[i] = arith::AddIOp::create(rewriter, loc, o, result[i]);
    }
    view = subview.getSource();
  }
  return result;
}

/// Reads of the epilogue's inputs already made, by input, shape, index
/// values and bounds.
using ReadCache = std::map<std::vector<const void *>, Value>;

static Value readAt(RewriterBase &rewriter, Location loc, Value source,
                    AffineMap map, ArrayRef<Value> indices,
                    ArrayRef<int64_t> shape, ArrayRef<bool> inBounds);

/// Input `input` of the epilogue at the element(s) `at` (buffer indices)
/// covering `shape` (the trailing loop dimensions).
static Value readInput(RewriterBase &rewriter, Location loc,
                       linalg::GenericOp epilogue, OpOperand *input,
                       ValueRange at, ArrayRef<int64_t> shape,
                       ArrayRef<bool> inBounds, ReadCache &cache) {
  AffineMap map = epilogue.getMatchingIndexingMap(input);
  // The same elements read for an earlier store, when that read dominates
  // this one: a bias per column is read once per column a thread stores,
  // not once per store (the producer does not write the input, and the
  // epilogue's stores go to its destination, which is another buffer).
  std::vector<const void *> key = {input};
  for (int64_t size : shape)
    key.push_back(reinterpret_cast<const void *>(size));
  for (AffineExpr expr : map.getResults())
    key.push_back(
        isa<AffineDimExpr>(expr)
            ? at[cast<AffineDimExpr>(expr).getPosition()].getAsOpaquePointer()
            : nullptr);
  for (bool b : inBounds)
    key.push_back(reinterpret_cast<const void *>(static_cast<intptr_t>(b)));
  auto cached = cache.find(key);
  if (cached != cache.end()) {
    // (Position in the block, not DominanceInfo: the ops made since it
    // was built are not in its cache.)
    Operation *read = cached->second.getDefiningOp();
    Operation *here =
        read->getBlock()->findAncestorOpInBlock(*rewriter.getInsertionPoint());
    if (here && read->isBeforeInBlock(here))
      return cached->second;
  }
  Value zeroIndex;
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(at[dim.getPosition()]);
      continue;
    }
    if (!zeroIndex)
      zeroIndex = arith::ConstantIndexOp::create(rewriter, loc, 0);
    indices.push_back(zeroIndex);
  }
  Value read =
      readAt(rewriter, loc, input->get(), map, indices, shape, inBounds);
  cache[key] = read;
  return read;
}

/// `source` (read through `map`) at `indices`, as a value of `shape`.
static Value readAt(RewriterBase &rewriter, Location loc, Value source,
                    AffineMap map, ArrayRef<Value> indices,
                    ArrayRef<int64_t> shape, ArrayRef<bool> inBounds) {
  Type element = cast<MemRefType>(source.getType()).getElementType();
  if (shape.empty())
    return memref::LoadOp::create(rewriter, loc, source, indices);
  int64_t loops = map.getNumDims();
  int64_t rank = shape.size();
  SmallVector<AffineExpr> permutation;
  SmallVector<bool> bounds;
  for (int64_t v = 0; v < rank; ++v) {
    int64_t loop = loops - rank + v;
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(loop, rewriter.getContext()));
    if (position) {
      permutation.push_back(getAffineDimExpr(*position, rewriter.getContext()));
      bounds.push_back(inBounds[v]);
    } else {
      permutation.push_back(getAffineConstantExpr(0, rewriter.getContext()));
      bounds.push_back(true);
    }
  }
  auto permutationMap = AffineMap::get(map.getNumResults(), 0, permutation,
                                       rewriter.getContext());
  Value padding = arith::ConstantOp::create(rewriter, loc, element,
                                            rewriter.getZeroAttr(element));
  return vector::TransferReadOp::create(
      rewriter, loc, VectorType::get(shape, element), source, indices, padding,
      permutationMap, ArrayRef<bool>(bounds));
}

/// The epilogue's body on `value` (what `store` writes) and its other
/// inputs at the same elements; stores the outcome into the destination
/// and, unless the plan keeps them, erases `store`.
static void rewriteStore(RewriterBase &rewriter, const EpilogueStoresPlan &plan,
                         Operation *store, ReadCache &cache) {
  linalg::GenericOp epilogue = plan.epilogue;
  Location loc = store->getLoc();
  rewriter.setInsertionPoint(store);
  Value view = storedBuffer(store);
  SmallVector<Value> storeIndices;
  Value value;
  SmallVector<bool> inBounds;
  if (auto s = dyn_cast<vector::StoreOp>(store)) {
    storeIndices = llvm::to_vector(s.getIndices());
    value = s.getValueToStore();
  } else if (auto w = dyn_cast<vector::TransferWriteOp>(store)) {
    storeIndices = llvm::to_vector(w.getIndices());
    value = w.getVector();
    // (Not llvm::to_vector: on a range of bools its braced initialisation
    // picks the initializer_list constructor, two elements from the two
    // iterators.)
    inBounds = w.getInBoundsValues();
  } else {
    auto m = cast<memref::StoreOp>(store);
    storeIndices = llvm::to_vector(m.getIndices());
    value = m.getValueToStore();
  }
  ArrayRef<int64_t> shape = storedShape(store);
  if (inBounds.empty())
    inBounds.assign(shape.size(), true);
  SmallVector<Value> at =
      indicesIn(rewriter, loc, view, storeIndices, plan.resultBuffer);

  Block *body = epilogue.getBody();
  IRMapping mapping;
  mapping.map(body->getArgument(plan.resultOperand->getOperandNumber()), value);
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input != plan.resultOperand)
      mapping.map(body->getArgument(input->getOperandNumber()),
                  readInput(rewriter, loc, epilogue, input, at, shape, inBounds,
                            cache));
  for (Operation &op : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      mapping.map(index.getResult(),
                  loopIndex(rewriter, loc, index.getDim(), at, shape));
      continue;
    }
    if (matchPattern(&op, m_Constant())) {
      mapping.map(op.getResult(0),
                  broadcastTo(rewriter, loc, op.getResult(0), shape));
      continue;
    }
    for (Value operand : op.getOperands())
      if (!mapping.contains(operand))
        mapping.map(operand, broadcastTo(rewriter, loc, operand, shape));
    Operation *clone = rewriter.clone(op, mapping);
    if (!shape.empty())
      for (Value result : clone->getResults())
        result.setType(VectorType::get(shape, result.getType()));
  }
  Value yielded = body->getTerminator()->getOperand(0);
  Value outcome = mapping.contains(yielded)
                      ? mapping.lookup(yielded)
                      : broadcastTo(rewriter, loc, yielded, shape);

  // The same store (its kind, in_bounds, nontemporal hint) into the
  // destination: the stored value is operand 0 and the buffer operand 1 of
  // all three kinds, the indices follow (no mask: checkStore refused it).
  // An alignment was the result buffer's, not the destination's.
  Value destination = epilogue.getDpsInitOperand(0)->get();
  Operation *write = rewriter.clone(*store);
  rewriter.modifyOpInPlace(write, [&] {
    write->setOperand(0, outcome);
    write->setOperand(1, destination);
    for (auto [i, index] : llvm::enumerate(at))
      write->setOperand(2 + i, index);
    write->removeAttr("alignment");
  });
  if (!plan.keepResultStores)
    rewriter.eraseOp(store);
}

/// Erases `value`'s views that nothing uses any more, then `value`'s
/// deallocations and definition when only they are left.
static void eraseDeadBuffer(RewriterBase &rewriter, Value value) {
  for (Operation *user : llvm::make_early_inc_range(value.getUsers()))
    if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      eraseDeadBuffer(rewriter, subview.getResult());
      if (subview->use_empty())
        rewriter.eraseOp(subview);
    }
  Operation *definer = value.getDefiningOp();
  if (!isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(definer))
    return;
  if (!llvm::all_of(value.getUsers(),
                    [](Operation *u) { return isa<memref::DeallocOp>(u); }))
    return;
  for (Operation *user : llvm::make_early_inc_range(value.getUsers()))
    rewriter.eraseOp(user);
  rewriter.eraseOp(definer);
}

void hwsched::applyEpilogueIntoStores(RewriterBase &rewriter,
                                      const EpilogueStoresPlan &plan) {
  for (Operation *alloc : plan.allocsToHoist)
    rewriter.moveOpBefore(alloc, plan.producer);
  ReadCache cache;
  for (Operation *store : plan.stores)
    rewriteStore(rewriter, plan, store, cache);
  rewriter.eraseOp(plan.epilogue);
  if (!plan.keepResultStores && !plan.inPlace)
    eraseDeadBuffer(rewriter, plan.resultBuffer);
}

//===----------------------------------------------------------------------===//
// Epilogues kept in a function of their own
//===----------------------------------------------------------------------===//

namespace {
/// An epilogue kept in a function of its own until the stores exist
/// (whole-function rewrites of the producer's function, vectorization
/// above all, would otherwise rewrite it too), brought back to its call
/// site by inlineEpilogueCall: the generic, and what undoes or completes
/// the inlining.
struct InlinedEpilogue {
  linalg::GenericOp epilogue;
  /// The call, out of its block until commit or undo.
  func::CallOp call;
  func::FuncOp callee;
  /// The ops cloned before the call (constants, the generic).
  SmallVector<Operation *> clones;
  /// The uses of the call's results, now of the values the callee returns.
  SmallVector<std::pair<OpOperand *, unsigned>> callUses;
};
} // namespace

/// Inlines `call` when its callee's body is constants, one
/// `linalg.generic` and a `func.return` of its arguments, or refuses
/// without changing anything.
static llvm::Expected<InlinedEpilogue>
inlineEpilogueCall(RewriterBase &rewriter, func::CallOp call) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || callee.isExternal())
    return refuse(call, "the call's callee is not a function with a body");
  Block &body = callee.getBody().front();
  if (!callee.getBody().hasOneBlock())
    return refuse(call, "the callee @" + callee.getName().str() +
                            " has several blocks; an epilogue function holds "
                            "one linalg.generic");
  linalg::GenericOp generic;
  for (Operation &op : body.without_terminator()) {
    if (auto g = dyn_cast<linalg::GenericOp>(op); g && !generic) {
      generic = g;
      continue;
    }
    if (!matchPattern(&op, m_Constant()))
      return refuse(Refusal(call, "the callee @" + callee.getName().str() +
                                      " holds " + opName(&op) +
                                      "; an epilogue function holds "
                                      "constants and one linalg.generic")
                        .note(op.getLoc(), "that op"));
  }
  if (!generic)
    return refuse(call, "the callee @" + callee.getName().str() +
                            " holds no linalg.generic");
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (Value v : ret.getOperands())
    if (!isa<BlockArgument>(v))
      return refuse(call, "the callee @" + callee.getName().str() +
                              " returns a value it computes; an epilogue "
                              "function returns its arguments (buffers)");

  InlinedEpilogue inlined;
  inlined.call = call;
  inlined.callee = callee;
  IRMapping mapping;
  mapping.map(body.getArguments(), call.getOperands());
  rewriter.setInsertionPoint(call);
  for (Operation &op : body.without_terminator()) {
    Operation *clone = rewriter.clone(op, mapping);
    inlined.clones.push_back(clone);
    if (auto g = dyn_cast<linalg::GenericOp>(clone))
      inlined.epilogue = g;
  }
  for (OpResult result : call->getResults()) {
    for (OpOperand &use : llvm::make_early_inc_range(result.getUses()))
      inlined.callUses.push_back({&use, result.getResultNumber()});
    Value replacement =
        mapping.lookup(ret.getOperand(result.getResultNumber()));
    rewriter.replaceAllUsesWith(result, replacement);
  }
  call->remove();
  return inlined;
}

/// Puts the call back as it was and erases the clones.
static void undoInlinedEpilogue(RewriterBase &rewriter,
                                InlinedEpilogue &inlined) {
  Operation *first = inlined.clones.front();
  first->getBlock()->getOperations().insert(Block::iterator(first),
                                            inlined.call.getOperation());
  for (auto [use, result] : inlined.callUses)
    rewriter.modifyOpInPlace(use->getOwner(), [&, use = use, result = result] {
      use->set(inlined.call->getResult(result));
    });
  for (Operation *clone : llvm::reverse(inlined.clones))
    rewriter.eraseOp(clone);
}

/// Erases the call, and the callee when nothing else refers to it.
static void commitInlinedEpilogue(RewriterBase &rewriter,
                                  InlinedEpilogue &inlined) {
  // The callee is looked up again (from the inlined copy, which is in the
  // IR): when the handle holds several calls of one function, the commit
  // of an earlier one has erased it already (the later calls were set
  // aside, so they were not counted as its uses).
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      inlined.clones.front(), inlined.call.getCalleeAttr());
  inlined.call->erase();
  inlined.callee = callee;
  if (!callee)
    return;
  // Only a private function: a public one may have callers elsewhere.
  Operation *module = SymbolTable::getNearestSymbolTable(callee);
  if (module && callee.isPrivate() &&
      SymbolTable::symbolKnownUseEmpty(callee, module))
    rewriter.eraseOp(callee);
}

llvm::Expected<SmallVector<EpilogueStoresPlan>>
hwsched::planEpiloguesIntoStores(RewriterBase &rewriter,
                                 ArrayRef<Operation *> payloads) {
  SmallVector<InlinedEpilogue> inlined;
  SmallVector<EpilogueStoresPlan> plans;
  for (Operation *payload : payloads) {
    llvm::Expected<EpilogueStoresPlan> plan =
        [&]() -> llvm::Expected<EpilogueStoresPlan> {
      if (auto call = dyn_cast<func::CallOp>(payload)) {
        llvm::Expected<InlinedEpilogue> in = inlineEpilogueCall(rewriter, call);
        if (!in)
          return in.takeError();
        inlined.push_back(std::move(*in));
        return planEpilogueIntoStores(inlined.back().epilogue);
      }
      if (auto generic = dyn_cast<linalg::GenericOp>(payload))
        return planEpilogueIntoStores(generic);
      return refuse(payload, opName(payload) + " is neither a linalg.generic "
                                               "nor a call of a function "
                                               "holding one");
    }();
    if (plan) {
      plans.push_back(std::move(*plan));
      continue;
    }
    // The refusal may name an op of an inlined copy, which the undo
    // erases: it names the call, put back, instead.
    Refusal refusal = takeRefusal(plan.takeError());
    for (InlinedEpilogue &i : inlined)
      if (refusal.culprit && llvm::any_of(i.clones, [&](Operation *clone) {
            return clone->isAncestor(refusal.culprit);
          }))
        refusal.culprit = i.call;
    for (InlinedEpilogue &i : llvm::reverse(inlined))
      undoInlinedEpilogue(rewriter, i);
    return refuse(std::move(refusal));
  }
  for (InlinedEpilogue &i : inlined)
    commitInlinedEpilogue(rewriter, i);
  return plans;
}
