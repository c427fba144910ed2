//===- ContractionNormalForm.cpp - Any contraction as one (batch) matmul --===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Why our own rewrite: upstream's im2col (transform.structured.
// convert_conv2d_to_img2col) takes three named 2-D layouts only, and
// collapse/pack utilities take projected-permutation operands. Frontends emit
// convolutions as linalg.generic (batchless, grouped, depthwise, strided) and
// contractions with several M, N or K loops (mmt4d); one classification of the
// loops by the operands they index covers them all.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/ContractionNormalForm.h"

#include "hwsched/Analysis/OpFeatures.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace hwsched;

namespace {

/// The loops of a layout as the results of a map over the op's loops.
bool indexesExactly(AffineMap map, ArrayRef<unsigned> layout) {
  if (map.getNumResults() != layout.size())
    return false;
  for (auto [expr, loop] : llvm::zip(map.getResults(), layout)) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != loop)
      return false;
  }
  return true;
}

void printLoops(llvm::raw_ostream &os, ArrayRef<unsigned> loops) {
  os << "[";
  llvm::interleaveComma(loops, os, [&](unsigned d) { os << "d" << d; });
  os << "]";
}

/// `map` (over the op's loops) re-indexed over the loops of `layout` (loop
/// layout[i] becomes d_i). Only loops of `layout` may occur in `map`.
AffineMap reindex(AffineMap map, ArrayRef<unsigned> layout) {
  MLIRContext *ctx = map.getContext();
  SmallVector<AffineExpr> replacements(map.getNumDims(),
                                       getAffineConstantExpr(0, ctx));
  for (auto [i, loop] : llvm::enumerate(layout))
    replacements[loop] = getAffineDimExpr(i, ctx);
  return map.replaceDimsAndSymbols(replacements, {}, layout.size(), 0);
}

/// A tensor with loops `layout` (extents from `ranges`), read from `source`
/// through its indexing `map`: a gather (im2col for a convolution's image).
Value copyToLayout(RewriterBase &rewriter, Location loc, Value source,
                   AffineMap map, ArrayRef<unsigned> layout,
                   ArrayRef<int64_t> ranges) {
  SmallVector<int64_t> shape;
  for (unsigned loop : layout)
    shape.push_back(ranges[loop]);
  Type element = getElementTypeOrSelf(source.getType());
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, element);
  SmallVector<AffineMap> maps = {
      reindex(map, layout),
      AffineMap::getMultiDimIdentityMap(layout.size(), map.getContext())};
  SmallVector<utils::IteratorType> iterators(layout.size(),
                                             utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      rewriter, loc, empty.getType(), ValueRange{source}, ValueRange{empty},
      maps, iterators, [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, args.front());
      });
  return copy.getResult(0);
}

/// One index list per non-empty group of `groups`, over the tensor's dims
/// (0 .. total - 1).
SmallVector<ReassociationIndices>
groupReassociation(ArrayRef<SmallVector<unsigned>> groups) {
  SmallVector<ReassociationIndices> reassociation;
  int64_t next = 0;
  for (const SmallVector<unsigned> &group : groups) {
    if (group.empty())
      continue;
    ReassociationIndices indices;
    for (size_t i = 0; i < group.size(); ++i)
      indices.push_back(next++);
    reassociation.push_back(indices);
  }
  return reassociation;
}

/// Between one dim per non-empty group and one dim per group (an empty group
/// is a unit dim): each unit dim joins the non-empty group before it (a
/// leading one the group after it).
SmallVector<ReassociationIndices>
unitReassociation(ArrayRef<SmallVector<unsigned>> groups) {
  SmallVector<ReassociationIndices> reassociation;
  ReassociationIndices leading;
  for (auto [i, group] : llvm::enumerate(groups)) {
    int64_t dim = i;
    if (group.empty()) {
      if (reassociation.empty())
        leading.push_back(dim);
      else
        reassociation.back().push_back(dim);
      continue;
    }
    ReassociationIndices indices(leading);
    leading.clear();
    indices.push_back(dim);
    reassociation.push_back(indices);
  }
  return reassociation;
}

bool hasEmptyGroup(ArrayRef<SmallVector<unsigned>> groups) {
  return llvm::any_of(groups, [](const auto &g) { return g.empty(); });
}

/// Collapses a tensor whose dims are the concatenated `groups` to one dim per
/// group (a unit dim for an empty group: a depthwise convolution has no N).
Value collapseGroups(RewriterBase &rewriter, Location loc, Value value,
                     ArrayRef<SmallVector<unsigned>> groups) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<ReassociationIndices> reassociation = groupReassociation(groups);
  if (reassociation.size() != static_cast<size_t>(type.getRank()))
    value = tensor::CollapseShapeOp::create(rewriter, loc, value, reassociation)
                .getResult();
  if (!hasEmptyGroup(groups))
    return value;
  auto collapsed = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  int64_t source = 0;
  for (const SmallVector<unsigned> &group : groups)
    shape.push_back(group.empty() ? 1 : collapsed.getDimSize(source++));
  auto expandedType = RankedTensorType::get(shape, collapsed.getElementType());
  return tensor::ExpandShapeOp::create(rewriter, loc, expandedType, value,
                                       unitReassociation(groups))
      .getResult();
}

/// The inverse of collapseGroups: `value` (one dim per group) back to the
/// concatenated groups' extents `shape`.
Value expandGroups(RewriterBase &rewriter, Location loc, Value value,
                   ArrayRef<SmallVector<unsigned>> groups,
                   ArrayRef<int64_t> shape) {
  if (hasEmptyGroup(groups))
    value = tensor::CollapseShapeOp::create(rewriter, loc, value,
                                            unitReassociation(groups))
                .getResult();
  auto current = cast<RankedTensorType>(value.getType());
  if (static_cast<size_t>(current.getRank()) == shape.size())
    return value;
  auto expandedType = RankedTensorType::get(shape, current.getElementType());
  return tensor::ExpandShapeOp::create(rewriter, loc, expandedType, value,
                                       groupReassociation(groups))
      .getResult();
}

SmallVector<unsigned> concat(ArrayRef<unsigned> a, ArrayRef<unsigned> b,
                             ArrayRef<unsigned> c) {
  SmallVector<unsigned> out(a);
  out.append(b.begin(), b.end());
  out.append(c.begin(), c.end());
  return out;
}

} // namespace

int64_t
hwsched::ContractionNormalFormPlan::extent(ArrayRef<unsigned> group) const {
  SmallVector<int64_t> ranges = linalg::LinalgOp(op).getStaticLoopRanges();
  int64_t product = 1;
  for (unsigned loop : group)
    product *= ranges[loop];
  return product;
}

void hwsched::ContractionNormalFormPlan::print(llvm::raw_ostream &os) const {
  linalg::LinalgOp linalgOp = op;
  os << linalgOp.getNumLoops() << " loops -> batch ";
  printLoops(os, batch);
  os << ", M ";
  printLoops(os, m);
  os << ", N ";
  printLoops(os, n);
  os << ", K ";
  printLoops(os, k);
  auto how = [&](bool copied, StringRef what) {
    os << what << (copied ? " copied" : " as it is");
  };
  os << "; ";
  how(copyA, "A");
  if (copyA &&
      llvm::any_of(linalgOp.getIndexingMapsArray()[0].getResults(),
                   [](AffineExpr e) { return !isa<AffineDimExpr>(e); }))
    os << " (im2col gather)";
  os << ", ";
  how(copyB, "B");
  os << ", ";
  how(copyC, "C");
  os << ": a ";
  if (!batch.empty())
    os << "batch-" << extent(batch) << " ";
  os << "contraction " << extent(m) << " x " << extent(n) << " x " << extent(k);
}

llvm::Expected<ContractionNormalFormPlan>
hwsched::planContractionNormalForm(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return refuse(op,
                  "'" + op->getName().getStringRef() + "' is not a Linalg op");
  if (!linalgOp.hasPureTensorSemantics())
    return refuse(op, "the op works on buffers (memref operands); the "
                      "rewrite copies operands into new tensors: write the "
                      "op on tensors (before bufferization)");
  if (linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1)
    return refuse(op, "expected two inputs (A, B) and one output (C); "
                      "quantized ops take transform.hwsched."
                      "decompose_quantized first");
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  for (auto [i, range] : llvm::enumerate(ranges))
    if (ShapedType::isDynamic(range))
      return refuse(op, "loop d" + Twine(i) +
                            " has a dynamic extent; the rewrite needs static "
                            "extents: give the operands static types");
  if (!isMultiplyAddBody(op))
    return refuse(op, "the body is not a multiply-add (C += A * B, casts "
                      "allowed)");
  SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
  if (!maps[2].isProjectedPermutation(/*allowZeroInResults=*/false))
    return refuse(op, "C is not indexed by loops alone (" +
                          Twine(maps[2].getNumResults()) +
                          " results of a map that is not a projected "
                          "permutation)");
  ContractionNormalFormPlan plan;
  plan.op = linalgOp;
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  for (unsigned d = 0; d < linalgOp.getNumLoops(); ++d) {
    bool inA = maps[0].isFunctionOfDim(d), inB = maps[1].isFunctionOfDim(d),
         inC = maps[2].isFunctionOfDim(d);
    bool parallel = iterators[d] == utils::IteratorType::parallel;
    if (inC != parallel)
      return refuse(op, "loop d" + Twine(d) +
                            (parallel ? " is parallel but does not index C"
                                      : " is a reduction but indexes C"));
    if (inC && inA && inB)
      plan.batch.push_back(d);
    else if (inC && inA)
      plan.m.push_back(d);
    else if (inC && inB)
      plan.n.push_back(d);
    else if (!inC && inA && inB)
      plan.k.push_back(d);
    else
      return refuse(op, "loop d" + Twine(d) +
                            " indexes only one operand (a broadcast or a "
                            "sum over one operand), which is not a "
                            "contraction loop");
  }
  if (plan.k.empty())
    return refuse(op, "no reduction loop indexes both A and B");
  if (plan.m.empty() && plan.n.empty())
    return refuse(op, "neither an M nor an N loop (a dot product); the "
                      "matmul schedules need M or N");
  plan.copyA = !indexesExactly(maps[0], concat(plan.batch, plan.m, plan.k));
  plan.copyB = !indexesExactly(maps[1], concat(plan.batch, plan.k, plan.n));
  plan.copyC = !indexesExactly(maps[2], concat(plan.batch, plan.m, plan.n));
  return plan;
}

linalg::LinalgOp
hwsched::rewriteToContractionNormalForm(RewriterBase &rewriter,
                                        const ContractionNormalFormPlan &plan) {
  linalg::LinalgOp op = plan.op;
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<unsigned> layoutA = concat(plan.batch, plan.m, plan.k);
  SmallVector<unsigned> layoutB = concat(plan.batch, plan.k, plan.n);
  SmallVector<unsigned> layoutC = concat(plan.batch, plan.m, plan.n);

  Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1];
  Value c = op.getDpsInits()[0];
  if (plan.copyA)
    a = copyToLayout(rewriter, loc, a, maps[0], layoutA, ranges);
  if (plan.copyB)
    b = copyToLayout(rewriter, loc, b, maps[1], layoutB, ranges);
  if (plan.copyC)
    c = copyToLayout(rewriter, loc, c, maps[2], layoutC, ranges);

  bool hasBatch = !plan.batch.empty();
  auto groups = [&](ArrayRef<unsigned> x, ArrayRef<unsigned> y) {
    SmallVector<SmallVector<unsigned>> out;
    if (hasBatch)
      out.push_back(SmallVector<unsigned>(plan.batch));
    out.push_back(SmallVector<unsigned>(x));
    out.push_back(SmallVector<unsigned>(y));
    return out;
  };
  SmallVector<SmallVector<unsigned>> groupsA = groups(plan.m, plan.k);
  SmallVector<SmallVector<unsigned>> groupsB = groups(plan.k, plan.n);
  SmallVector<SmallVector<unsigned>> groupsC = groups(plan.m, plan.n);
  a = collapseGroups(rewriter, loc, a, groupsA);
  b = collapseGroups(rewriter, loc, b, groupsB);
  Value cCollapsed = collapseGroups(rewriter, loc, c, groupsC);

  // The contraction: loops (batch,) m, n, k.
  unsigned rank = hasBatch ? 4 : 3;
  unsigned bm = hasBatch ? 1 : 0;
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> lead;
  if (hasBatch)
    lead.push_back(dim(0));
  auto mapOf = [&](AffineExpr x, AffineExpr y) {
    SmallVector<AffineExpr> results(lead);
    results.push_back(x);
    results.push_back(y);
    return AffineMap::get(rank, 0, results, ctx);
  };
  SmallVector<AffineMap> newMaps = {mapOf(dim(bm), dim(bm + 2)),
                                    mapOf(dim(bm + 2), dim(bm + 1)),
                                    mapOf(dim(bm), dim(bm + 1))};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  Block *body = op.getBlock();
  auto contraction = linalg::GenericOp::create(
      rewriter, loc, cCollapsed.getType(), ValueRange{a, b},
      ValueRange{cCollapsed}, newMaps, iterators,
      [&](OpBuilder &builder, Location l, ValueRange args) {
        IRMapping mapping;
        mapping.map(body->getArguments(), args);
        for (Operation &inner : body->getOperations())
          builder.clone(inner, mapping);
      });

  // Back to C's layout.
  SmallVector<int64_t> shapeC;
  for (unsigned loop : layoutC)
    shapeC.push_back(ranges[loop]);
  Value result =
      expandGroups(rewriter, loc, contraction.getResult(0), groupsC, shapeC);
  if (plan.copyC) {
    // C's own map over the loops of layoutC is a permutation: write the
    // grouped result into C's layout.
    Value init = op.getDpsInits()[0];
    auto initType = cast<RankedTensorType>(init.getType());
    Value empty = tensor::EmptyOp::create(rewriter, loc, initType.getShape(),
                                          initType.getElementType());
    SmallVector<AffineMap> backMaps = {
        AffineMap::getMultiDimIdentityMap(layoutC.size(), ctx),
        reindex(maps[2], layoutC)};
    SmallVector<utils::IteratorType> parallel(layoutC.size(),
                                              utils::IteratorType::parallel);
    result = linalg::GenericOp::create(
                 rewriter, loc, initType, ValueRange{result}, ValueRange{empty},
                 backMaps, parallel,
                 [](OpBuilder &builder, Location l, ValueRange args) {
                   linalg::YieldOp::create(builder, l, args.front());
                 })
                 .getResult(0);
  }
  rewriter.replaceOp(op, result);
  return cast<linalg::LinalgOp>(contraction.getOperation());
}
