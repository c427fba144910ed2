//===- DynamicLoopChunks.cpp - Dynamic loops as static chunks -------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/DynamicLoopChunks.h"

#include "hwsched/Analysis/OpFeatures.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace hwsched;

namespace {

using Role = DynamicLoopChunksPlan::Role;

/// Whether `expr` is a sum of loops, loops times positive constants and
/// constants: the indexings whose padded extent follows from the chunks
/// (upstream's padded-shape computation takes these).
bool isSumOfLoops(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  if (binary.getKind() == AffineExprKind::Add)
    return isSumOfLoops(binary.getLHS()) && isSumOfLoops(binary.getRHS());
  if (binary.getKind() != AffineExprKind::Mul)
    return false;
  auto scaled = [](AffineExpr a, AffineExpr b) {
    auto c = dyn_cast<AffineConstantExpr>(b);
    return isa<AffineDimExpr>(a) && c && c.getValue() > 0;
  };
  return scaled(binary.getLHS(), binary.getRHS()) ||
         scaled(binary.getRHS(), binary.getLHS());
}

/// Whether loop `d` occurs in an operand index together with another loop
/// (a convolution's `oh + kh`).
bool isWindowLoop(linalg::LinalgOp op, unsigned d) {
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr result : map.getResults()) {
      if (!result.isFunctionOfDim(d) || isa<AffineDimExpr>(result))
        continue;
      for (unsigned other = 0; other < map.getNumDims(); ++other)
        if (other != d && result.isFunctionOfDim(other))
          return true;
    }
  return false;
}

StringRef roleName(Role role) {
  switch (role) {
  case Role::Parallel:
    return "parallel";
  case Role::Reduction:
    return "reduction";
  case Role::Window:
    return "convolution window";
  }
  llvm_unreachable("unknown loop role");
}

} // namespace

bool hwsched::DynamicLoopChunksPlan::chunksAnything() const {
  return llvm::any_of(loops, [](const Loop &l) { return l.chunk != 0; });
}

void hwsched::DynamicLoopChunksPlan::print(llvm::raw_ostream &os) const {
  if (!chunksAnything()) {
    os << "no dynamic loop: left as it is";
    return;
  }
  os << loops.size() << " loops: ";
  llvm::interleaveComma(llvm::enumerate(loops), os, [&](auto indexed) {
    const Loop &l = indexed.value();
    os << "d" << indexed.index();
    if (l.chunk == 0)
      os << " = " << l.extent;
    else
      os << " dynamic (" << roleName(l.role) << ") in chunks of " << l.chunk;
  });
  bool padsReduction = llvm::any_of(loops, [](const Loop &l) {
    return l.chunk != 0 && l.role != Role::Parallel;
  });
  os << (padsReduction ? "; padded with zeros (the padded products add 0)"
                       : "; padded (the padded part of the result is cut "
                         "off)");
  if (shrunk)
    os << "; parallel chunks halved until each padded operand holds at most "
          "the chunk element limit ("
       << largestOperandElements << " elements now)";
  os << "; the op in the chunk loops: ";
  llvm::interleave(
      loops, os,
      [&](const Loop &l) { os << (l.chunk != 0 ? l.chunk : l.extent); }, " x ");
}

/// Elements of each tensor operand of one chunk that a chunked loop
/// indexes (operands indexed by static loops only are the payload's own
/// size: no chunk changes them), each indexing map evaluated at the last
/// iteration of the chunk (every map is a sum of loops, checked before),
/// plus one per dimension.
static SmallVector<std::pair<OpOperand *, int64_t>>
chunkedOperandElements(const DynamicLoopChunksPlan &plan) {
  SmallVector<int64_t> last;
  for (const DynamicLoopChunksPlan::Loop &l : plan.loops)
    last.push_back((l.chunk != 0 ? l.chunk : l.extent) - 1);
  SmallVector<std::pair<OpOperand *, int64_t>> out;
  linalg::LinalgOp op = plan.op;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    bool chunked = llvm::any_of(llvm::enumerate(plan.loops), [&](auto l) {
      return l.value().chunk != 0 && map.isFunctionOfDim(l.index());
    });
    if (!chunked)
      continue;
    // Saturating: a chunk of several 256-long loops can overflow int64.
    int64_t elements = 1;
    for (int64_t index : map.compose(last))
      elements = elements > std::numeric_limits<int64_t>::max() / (index + 1)
                     ? std::numeric_limits<int64_t>::max()
                     : elements * (index + 1);
    out.push_back({&operand, elements});
  }
  return out;
}

/// Halves the largest parallel chunk that indexes an operand over `limit`
/// elements (the outermost among equals) until no chunked operand is over
/// it, or no parallel chunk that would help is left (a reduction chunk or
/// static extents make it large: the limit is then a note, not a refusal).
static void capChunkVolume(DynamicLoopChunksPlan &plan, int64_t limit) {
  while (true) {
    auto operands = chunkedOperandElements(plan);
    plan.largestOperandElements = 0;
    for (auto [operand, elements] : operands)
      plan.largestOperandElements =
          std::max(plan.largestOperandElements, elements);
    DynamicLoopChunksPlan::Loop *largest = nullptr;
    linalg::LinalgOp op = plan.op;
    for (auto [d, l] : llvm::enumerate(plan.loops)) {
      if (l.role != Role::Parallel || l.chunk <= 1)
        continue;
      // A named copy: C++17 lambdas cannot capture structured bindings
      // (clang-14, which builds the fuzzers, refuses them).
      unsigned dim = d;
      bool helps = llvm::any_of(operands, [&](auto entry) {
        return entry.second > limit &&
               op.getMatchingIndexingMap(entry.first).isFunctionOfDim(dim);
      });
      if (helps && (!largest || l.chunk > largest->chunk))
        largest = &l;
    }
    if (!largest)
      return;
    largest->chunk = std::max<int64_t>(largest->chunk / 2, 1);
    plan.shrunk = true;
  }
}

llvm::Expected<DynamicLoopChunksPlan>
hwsched::planDynamicLoopChunks(Operation *op,
                               const DynamicLoopChunkSizes &sizes) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return refuse(op,
                  "'" + op->getName().getStringRef() + "' is not a Linalg op");
  if (!linalgOp.hasPureTensorSemantics())
    return refuse(op, "the op works on buffers (memref operands); chunks are "
                      "padded into new tensors: write the op on tensors "
                      "(before bufferization)");
  DynamicLoopChunksPlan plan;
  plan.op = linalgOp;
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  bool dynamicReduction = false;
  for (auto [d, range] : llvm::enumerate(ranges)) {
    Role role = iterators[d] == utils::IteratorType::parallel ? Role::Parallel
                : isWindowLoop(linalgOp, d)                   ? Role::Window
                                                              : Role::Reduction;
    int64_t chunk = 0;
    if (ShapedType::isDynamic(range)) {
      chunk = role == Role::Parallel    ? sizes.parallel
              : role == Role::Reduction ? sizes.reduction
                                        : sizes.window;
      dynamicReduction |= role != Role::Parallel;
    }
    plan.loops.push_back({range, role, chunk});
  }
  if (!plan.chunksAnything())
    return plan;

  for (OpOperand &operand : linalgOp->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    if (!llvm::all_of(map.getResults(), isSumOfLoops))
      return refuse(op, "operand #" + Twine(operand.getOperandNumber()) +
                            " is indexed by something other than sums of "
                            "loops (" +
                            Twine(map.getNumResults()) +
                            " results), so the extent of a padded chunk is "
                            "unknown: give the operands static types");
  }
  if (dynamicReduction) {
    if (linalgOp.getNumDpsInputs() != 2 || !isMultiplyAddBody(op))
      return refuse(op, "a reduction loop has a dynamic extent and the body "
                        "is not a multiply-add (C += A * B, casts allowed), "
                        "so zero padding would change the result: give the "
                        "reduced operands a static type");
  }
  capChunkVolume(plan, sizes.maxChunkElements);
  return plan;
}

FailureOr<linalg::LinalgOp>
hwsched::rewriteToDynamicLoopChunks(RewriterBase &rewriter,
                                    const DynamicLoopChunksPlan &plan) {
  linalg::LinalgOp op = plan.op;
  if (!plan.chunksAnything())
    return op;
  OpBuilder::InsertionGuard guard(rewriter);
  SmallVector<OpFoldResult> chunks;
  for (const DynamicLoopChunksPlan::Loop &loop : plan.loops)
    chunks.push_back(rewriter.getIndexAttr(loop.chunk));

  // 1. The chunk loops (a tile size of 0 leaves a static loop whole).
  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(chunks);
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), tiling);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  // Marked so that a schedule can tell these host loops from its own: the
  // Linalg ops they hold besides the chunk (the pads, layout copies) are
  // host-side work, not tiles of a schedule.
  SmallVector<int64_t> chunked;
  for (const DynamicLoopChunksPlan::Loop &loop : plan.loops)
    if (loop.chunk != 0)
      chunked.push_back(loop.chunk);
  for (auto [loop, size] : llvm::zip(tiled->loops, chunked))
    loop->setAttr(kChunkLoopAttr, rewriter.getI64IntegerAttr(size));
  auto chunk = cast<TilingInterface>(tiled->tiledOps.back());

  // 2. The chunk padded to static extents (zeros: see the header).
  SmallVector<Attribute> zeros;
  for (Value operand : chunk->getOperands())
    zeros.push_back(rewriter.getZeroAttr(getElementTypeOrSelf(operand)));
  linalg::PadTilingInterfaceOptions padding;
  padding.setPaddingValues(zeros).setPaddingSizes(chunks).setPadToMultipleOf(
      false);
  rewriter.setInsertionPointAfter(chunk);
  FailureOr<linalg::PadTilingInterfaceResult> padded =
      linalg::rewriteAsPaddedOp(rewriter, chunk, padding);
  if (failed(padded))
    return failure();
  rewriter.replaceOp(chunk, padded->replacements);

  // 3. Each pad as a fill of the chunk and an insert of the slice: a
  //    tensor.pad producer would be fused into the schedule's tiles (and
  //    re-padded per tile, with a branch for empty slices); a padded chunk
  //    built once per chunk iteration is host-side work the schedule reads.
  //    (Upstream's DecomposePadOpPattern does this as a pattern; rewritten
  //    here directly, the transform rewriter keeps tracking the ops.)
  //    Upstream may hand back an operand that was already padded: a pad
  //    with low padding or a non-constant value is left as it is (a high,
  //    constant one is the same as its fill and insert either way).
  for (tensor::PadOp pad : padded->padOps) {
    if (!pad.getConstantPaddingValue() ||
        !llvm::all_of(pad.getMixedLowPad(), isZeroInteger))
      continue;
    Location loc = pad.getLoc();
    rewriter.setInsertionPoint(pad);
    auto type = cast<RankedTensorType>(pad.getResultType());
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    Value fill = linalg::FillOp::create(rewriter, loc,
                                        pad.getConstantPaddingValue(), empty)
                     .getResult(0);
    Value source = pad.getSource();
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> zeros(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        pad, source, fill, zeros, tensor::getMixedSizes(rewriter, loc, source),
        ones);
  }
  return cast<linalg::LinalgOp>(padded->paddedOp.getOperation());
}
