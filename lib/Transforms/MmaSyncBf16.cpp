//===- MmaSyncBf16.cpp - bf16 inputs on the mma.sync path -----------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The two steps of the tensor-core kernel that MLIR 22 does not take bf16
// through: the warp-level vector-to-nvgpu conversion (its fragment table,
// nvgpu::getMmaSyncRegisterType, lists f16 but not bf16, though everything
// else in it goes by element width) and the nvgpu.mma.sync lowering to NVVM
// (whose PTX type deduction knows no bf16). NVVM's mma.sync takes bf16 from
// sm_80 on, with the same m16n8k16 shape and fragment layout as f16.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/MmaSyncBf16.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

//===----------------------------------------------------------------------===//
// nvgpu.mma.sync (bf16) -> nvvm.mma.sync
//===----------------------------------------------------------------------===//

namespace {
/// One bf16 m16n8k16 mma.sync. The nvgpu fragments are one row per 32-bit
/// register (A vector<4x2xbf16>, B vector<2x2xbf16>, C vector<2x2xf32>);
/// NVVM takes bf16 registers as i32 (two elements packed, the first in the
/// low half, as vector.bitcast lays them out) and the accumulators as four
/// f32, returned as a struct in the same order.
struct MmaSyncBf16ToNvvm : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    auto aType = cast<VectorType>(op.getMatrixA().getType());
    auto bType = cast<VectorType>(op.getMatrixB().getType());
    auto cType = cast<VectorType>(op.getMatrixC().getType());
    if (!aType.getElementType().isBF16() || !bType.getElementType().isBF16())
      return rewriter.notifyMatchFailure(op, "not bf16 inputs");
    if (ArrayRef<int64_t>(op.getMmaShapeAsArray()) !=
            ArrayRef<int64_t>{16, 8, 16} ||
        aType.getShape() != ArrayRef<int64_t>{4, 2} ||
        bType.getShape() != ArrayRef<int64_t>{2, 2} ||
        cType.getShape() != ArrayRef<int64_t>{2, 2} ||
        !cType.getElementType().isF32())
      return rewriter.notifyMatchFailure(
          op, "bf16 mma.sync is lowered for m16n8k16 with f32 accumulators");

    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto packedType = VectorType::get({1}, i32);
    // Each row of a bf16 fragment is one 32-bit register.
    auto packRows = [&](Value fragment, int64_t rows) {
      SmallVector<Value> regs;
      for (int64_t row = 0; row < rows; ++row) {
        Value pair = vector::ExtractOp::create(rewriter, loc, fragment, row);
        Value packed =
            vector::BitCastOp::create(rewriter, loc, packedType, pair);
        regs.push_back(vector::ExtractOp::create(rewriter, loc, packed, 0));
      }
      return regs;
    };
    SmallVector<Value> a = packRows(op.getMatrixA(), 4);
    SmallVector<Value> b = packRows(op.getMatrixB(), 2);
    SmallVector<Value> c;
    for (int64_t row = 0; row < 2; ++row)
      for (int64_t col = 0; col < 2; ++col)
        c.push_back(vector::ExtractOp::create(rewriter, loc, op.getMatrixC(),
                                              ArrayRef<int64_t>{row, col}));

    Type f32 = rewriter.getF32Type();
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(4, f32));
    auto mma = NVVM::MmaOp::create(
        rewriter, loc, resultType, a, b, c, /*shape=*/{16, 8, 16},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> sums;
    for (int64_t i = 0; i < 4; ++i)
      sums.push_back(LLVM::ExtractValueOp::create(rewriter, loc, mma, i));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, cType, sums);
    return success();
  }
};
} // namespace

void hwsched::populateMmaSyncBf16ToNvvmPatterns(RewritePatternSet &patterns) {
  patterns.add<MmaSyncBf16ToNvvm>(patterns.getContext());
}

//===----------------------------------------------------------------------===//
// vector -> nvgpu with bf16 as f16 stand-ins
//===----------------------------------------------------------------------===//

/// Whether `type` is a bf16 value that an op computes on or moves (a
/// scalar or a vector; a memref of bf16 is a place, not a value).
static bool isBf16Value(Type type) {
  return isa<FloatType, VectorType>(type) &&
         getElementTypeOrSelf(type).isBF16();
}

/// Whether `type` mentions f16 anywhere (a vector, memref, function type).
static bool mentionsF16(Type type) {
  return type.walk([](Float16Type) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Ops whose bf16 values mean the same bits as f16 ones: they load, store,
/// move or rearrange elements, or are a contraction's A or B (that the
/// conversion makes an mma.sync and the retyping makes bf16 again).
static bool movesBf16Only(Operation *op) {
  if (auto contract = dyn_cast<vector::ContractionOp>(op))
    return !isBf16Value(contract.getAcc().getType());
  // Returns and yields pass values on (func.return, scf.yield, gpu.yield).
  if (op->hasTrait<OpTrait::ReturnLike>())
    return true;
  return isa<arith::ConstantOp, ub::PoisonOp, vector::TransferReadOp,
             vector::TransferWriteOp, vector::LoadOp, vector::StoreOp,
             vector::ExtractOp, vector::InsertOp, vector::ExtractStridedSliceOp,
             vector::InsertStridedSliceOp, vector::BroadcastOp,
             vector::ShapeCastOp, vector::TransposeOp, memref::LoadOp,
             memref::StoreOp, nvgpu::LdMatrixOp, scf::ForOp, scf::IfOp>(op);
}

/// The types of the values `op` uses and defines (its regions' block
/// arguments included).
static SmallVector<Type> valueTypes(Operation *op) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Region &region : op->getRegions())
    for (Block &block : region)
      llvm::append_range(types, block.getArgumentTypes());
  return types;
}

/// Whether any op under `root` (or `root`) has bf16 values.
static bool hasBf16Values(Operation *root) {
  return root
      ->walk([](Operation *op) {
        return llvm::any_of(valueTypes(op), isBf16Value)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Checks that retyping bf16 as f16 under `root` and back is exact; the
/// error is at the first op that makes it not.
static LogicalResult checkStandIn(Operation *root) {
  // Pre-order: the error is at the first offending op in program order.
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    SmallVector<Type> types = valueTypes(op);
    if (llvm::any_of(types, mentionsF16)) {
      op->emitError() << "bf16 on the nvgpu path: converts bf16 as f16 "
                         "stand-ins, which needs a region without f16 values; "
                         "this op has some";
      return WalkResult::interrupt();
    }
    if (llvm::any_of(types, isBf16Value) && !movesBf16Only(op)) {
      op->emitError() << "bf16 on the nvgpu path: only loads, stores, "
                         "copies and the A and B of vector.contract may "
                         "handle bf16 values (they are converted as f16 "
                         "stand-ins); this op computes on them";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Retypes every `from` under `root` (and in `root`) as `to`, a float type
/// of the same width: types, and constants bit for bit.
static void retypeFloats(Operation *root, FloatType from, FloatType to) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](Type type) -> std::optional<Type> {
    if (type == from)
      return Type(to);
    return std::nullopt;
  });
  replacer.addReplacement(
      [&](FloatAttr attr) -> std::optional<std::pair<Attribute, WalkResult>> {
        if (attr.getType() != from)
          return std::nullopt;
        APFloat value(to.getFloatSemantics(), attr.getValue().bitcastToAPInt());
        return std::make_pair(FloatAttr::get(to, value), WalkResult::skip());
      });
  replacer.addReplacement(
      [&](DenseElementsAttr attr)
          -> std::optional<std::pair<Attribute, WalkResult>> {
        if (attr.getElementType() != from)
          return std::nullopt;
        ShapedType type = attr.getType().clone(to);
        return std::make_pair(
            DenseElementsAttr::getFromRawBuffer(type, attr.getRawData()),
            WalkResult::skip());
      });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

LogicalResult hwsched::convertVectorToNvgpu(RewriterBase &rewriter,
                                            Operation *root) {
  // Without bf16 values this is the upstream conversion, f16 or not.
  bool hasBf16 = hasBf16Values(root);
  if (hasBf16 && failed(checkStandIn(root)))
    return failure();
  MLIRContext *ctx = root->getContext();
  auto bf16 = BFloat16Type::get(ctx);
  auto f16 = Float16Type::get(ctx);
  if (hasBf16)
    retypeFloats(root, bf16, f16);

  RewritePatternSet patterns(ctx);
  populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
  LogicalResult converted = applyPatternsGreedily(root, std::move(patterns));
  if (succeeded(converted))
    converted = convertVectorToNVVMCompatibleMMASync(rewriter, root);
  // Restored even after a failure: no f16 was there before (checked), so
  // every f16 now is a stand-in, and the IR keeps the payload's types.
  if (hasBf16)
    retypeFloats(root, f16, bf16);
  return converted;
}
