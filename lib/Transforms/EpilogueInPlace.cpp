//===- EpilogueInPlace.cpp - Run an elementwise epilogue in place ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// One-shot bufferization gives every tensor value that is not provably the
// same buffer as a destination its own allocation. In
//   %f = fill(empty) ; %mm = matmul outs(%f) ; %r = generic ins(%mm) outs(%d)
// the matmul result is such a value: a whole temporary (or, once tiled, a
// block-sized one) between the matmul and the epilogue. Writing the chain as
//   %f = fill(%d) ; %mm = matmul outs(%f) ; %r = generic outs(%mm)
// computes the same values with one destination all along, which
// bufferization keeps in place (the epilogue reads and writes each element
// at the same index).
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/EpilogueInPlace.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;
using namespace hwsched;

/// The init operand of the producer chain that starts at `value` and whose
/// current contents nobody reads (a tensor.empty, or the init of an op whose
/// body ignores it), or null.
static OpOperand *findChainStart(Value value) {
  while (auto result = dyn_cast<OpResult>(value)) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
    if (!dps || !dps.hasPureTensorSemantics())
      return nullptr;
    OpOperand *init = dps.getTiedOpOperand(result);
    if (!init)
      return nullptr;
    if (init->get().getDefiningOp<tensor::EmptyOp>())
      return init;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(result.getOwner()))
      if (!linalgOp.payloadUsesValueFromOperand(init))
        return init;
    value = init->get();
  }
  return nullptr;
}

/// The chain start to redirect, or a refusal at the epilogue.
static llvm::Expected<OpOperand *> checkEpilogue(linalg::GenericOp epilogue,
                                                 unsigned inputIndex) {
  if (!epilogue.hasPureTensorSemantics())
    return refuse(epilogue, "the epilogue is not on tensors");
  if (epilogue.getNumDpsInits() != 1)
    return refuse(epilogue, "the epilogue has " +
                                std::to_string(epilogue.getNumDpsInits()) +
                                " outputs (expected one)");
  if (epilogue.getNumParallelLoops() != epilogue.getNumLoops())
    return refuse(epilogue,
                  "the epilogue has a reduction loop (expected all parallel)");
  if (inputIndex >= epilogue.getNumDpsInputs())
    return refuse(epilogue,
                  "input " + std::to_string(inputIndex) + " does not exist (" +
                      std::to_string(epilogue.getNumDpsInputs()) + " inputs)");
  OpOperand *out = epilogue.getDpsInitOperand(0);
  OpOperand *in = epilogue.getDpsInputOperand(inputIndex);
  if (epilogue.payloadUsesValueFromOperand(out))
    return refuse(epilogue,
                  "the epilogue's body reads its output's current value");
  if (in->get().getType() != out->get().getType() ||
      epilogue.getMatchingIndexingMap(in) !=
          epilogue.getMatchingIndexingMap(out))
    return refuse(epilogue,
                  "input " + std::to_string(inputIndex) +
                      " differs from the output in type or indexing map");
  OpOperand *start = findChainStart(in->get());
  if (!start)
    return refuse(
        epilogue,
        "input " + std::to_string(inputIndex) +
            " is not produced by a chain of destination-style ops that "
            "starts from a tensor.empty or from an init it does not read");
  Value destination = out->get();
  if (start->get().getType() != destination.getType())
    return refuse(epilogue,
                  "the producer chain's destination type differs from the "
                  "epilogue's");
  // A tensor.empty destination can move up to the chain's start when its
  // sizes are known there.
  DominanceInfo dominance(epilogue->getParentOp());
  Operation *anchor = start->getOwner();
  auto movableEmpty = [&] {
    auto empty = destination.getDefiningOp<tensor::EmptyOp>();
    return empty && llvm::all_of(empty->getOperands(), [&](Value size) {
             return dominance.properlyDominates(size, anchor);
           });
  };
  if (!dominance.properlyDominates(destination, anchor) && !movableEmpty())
    return refuse(
        epilogue,
        "the epilogue's destination is defined after the producer chain "
        "starts");
  return start;
}

llvm::Error hwsched::checkEpilogueInPlace(linalg::GenericOp epilogue,
                                          unsigned inputIndex) {
  return checkEpilogue(epilogue, inputIndex).takeError();
}

llvm::Expected<linalg::GenericOp>
hwsched::writeEpilogueInPlace(RewriterBase &rewriter,
                              linalg::GenericOp epilogue, unsigned inputIndex) {
  llvm::Expected<OpOperand *> checked = checkEpilogue(epilogue, inputIndex);
  if (!checked)
    return checked.takeError();
  OpOperand *start = *checked;
  OpOperand *out = epilogue.getDpsInitOperand(0);
  OpOperand *in = epilogue.getDpsInputOperand(inputIndex);
  Value destination = out->get();

  if (Operation *def = destination.getDefiningOp())
    if (!DominanceInfo(epilogue->getParentOp())
             .properlyDominates(destination, start->getOwner()))
      rewriter.moveOpBefore(def, start->getOwner());
  // The chain computes into the epilogue's destination...
  rewriter.modifyOpInPlace(start->getOwner(), [&] { start->set(destination); });
  // ... and the epilogue updates the chain's result in place: the input
  // becomes the output, its block argument the output's.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input != in) {
      inputs.push_back(input->get());
      maps.push_back(epilogue.getMatchingIndexingMap(input));
    }
  maps.push_back(epilogue.getMatchingIndexingMap(out));
  rewriter.setInsertionPoint(epilogue);
  auto inPlace = linalg::GenericOp::create(
      rewriter, epilogue.getLoc(), epilogue->getResultTypes(), inputs,
      ValueRange{in->get()}, maps, epilogue.getIteratorTypesArray());
  // Keep discardable attributes (marks a script may match on).
  for (NamedAttribute attr : epilogue->getDiscardableAttrs())
    inPlace->setDiscardableAttr(attr.getName(), attr.getValue());
  rewriter.inlineRegionBefore(epilogue.getRegion(), inPlace.getRegion(),
                              inPlace.getRegion().end());
  Block &body = inPlace.getRegion().front();
  BlockArgument inArg = body.getArgument(inputIndex);
  BlockArgument outArg = body.getArgument(body.getNumArguments() - 1);
  rewriter.replaceAllUsesWith(inArg, outArg);
  body.eraseArgument(inputIndex);
  rewriter.replaceOp(epilogue, inPlace->getResults());
  return inPlace;
}
