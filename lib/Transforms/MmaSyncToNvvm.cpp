//===- MmaSyncToNvvm.cpp - mma.sync lowerings MLIR 22 lacks ---------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Both patterns emit the nvvm.mma.sync that convert-nvgpu-to-nvvm would,
// with the A and B registers made differently (see the header); the
// accumulators and the result keep the nvgpu fragment types, so the
// surrounding IR lowers as before (convert-vector-to-llvm for the extracts
// and bitcasts).
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/MmaSyncToNvvm.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

/// Replaces `op` (f32 accumulators, vector<2x2xf32>) by an nvvm.mma.sync of
/// shape `shape` on the 32-bit A and B registers `a` and `b` of PTX type
/// `type`: the four accumulators passed as scalars, the result struct
/// reassembled into the fragment type.
static void replaceByNvvmMma(PatternRewriter &rewriter, nvgpu::MmaSyncOp op,
                             ArrayRef<Value> a, ArrayRef<Value> b,
                             std::array<int64_t, 3> shape,
                             NVVM::MMATypes type) {
  Location loc = op.getLoc();
  auto cType = cast<VectorType>(op.getMatrixC().getType());
  SmallVector<Value> c;
  for (int64_t row = 0; row < 2; ++row)
    for (int64_t col = 0; col < 2; ++col)
      c.push_back(vector::ExtractOp::create(rewriter, loc, op.getMatrixC(),
                                            ArrayRef<int64_t>{row, col}));
  Type f32 = rewriter.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                                     SmallVector<Type>(4, f32));
  auto mma = NVVM::MmaOp::create(
      rewriter, loc, resultType, a, b, c,
      /*shape=*/
      {static_cast<int>(shape[0]), static_cast<int>(shape[1]),
       static_cast<int>(shape[2])},
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{type, type},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> sums;
  for (int64_t i = 0; i < 4; ++i)
    sums.push_back(LLVM::ExtractValueOp::create(rewriter, loc, mma, i));
  rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, cType, sums);
}

/// Whether `op` has the fragment shapes of an `mmaShape` mma.sync with A
/// (`aRows` x `aCols`), B (2 x `aCols`) and f32 C vector<2x2xf32>.
static bool hasFragments(nvgpu::MmaSyncOp op, ArrayRef<int64_t> mmaShape,
                         int64_t aCols) {
  auto aType = cast<VectorType>(op.getMatrixA().getType());
  auto bType = cast<VectorType>(op.getMatrixB().getType());
  auto cType = cast<VectorType>(op.getMatrixC().getType());
  return ArrayRef<int64_t>(op.getMmaShapeAsArray()) == mmaShape &&
         aType.getShape() == ArrayRef<int64_t>{4, aCols} &&
         bType.getShape() == ArrayRef<int64_t>{2, aCols} &&
         cType.getShape() == ArrayRef<int64_t>{2, 2} &&
         cType.getElementType().isF32();
}

namespace {
/// One bf16 m16n8k16 mma.sync. The nvgpu fragments are one row per 32-bit
/// register (A vector<4x2xbf16>, B vector<2x2xbf16>); NVVM takes bf16
/// registers as i32 (two elements packed, the first in the low half, as
/// vector.bitcast lays them out).
struct MmaSyncBf16ToNvvm : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    auto aType = cast<VectorType>(op.getMatrixA().getType());
    auto bType = cast<VectorType>(op.getMatrixB().getType());
    if (!aType.getElementType().isBF16() || !bType.getElementType().isBF16())
      return rewriter.notifyMatchFailure(op, "not bf16 inputs");
    if (!hasFragments(op, {16, 8, 16}, 2))
      return rewriter.notifyMatchFailure(
          op, "bf16 mma.sync is lowered for m16n8k16 with f32 accumulators");
    Location loc = op.getLoc();
    auto packedType = VectorType::get({1}, rewriter.getI32Type());
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
    replaceByNvvmMma(rewriter, op, a, b, {16, 8, 16}, NVVM::MMATypes::bf16);
    return success();
  }
};

/// One tf32 m16n8k8 mma.sync. The nvgpu fragments hold one f32 per 32-bit
/// register (A vector<4x1xf32>, B vector<2x1xf32>); NVVM takes tf32
/// registers as i32, which nvvm.convert.float.to.tf32 produces, rounded.
struct MmaSyncTf32ToNvvm : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    auto aType = cast<VectorType>(op.getMatrixA().getType());
    auto bType = cast<VectorType>(op.getMatrixB().getType());
    if (!op.getTf32Enabled() || !aType.getElementType().isF32() ||
        !bType.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "not a tf32 mma.sync");
    if (!hasFragments(op, {16, 8, 8}, 1))
      return rewriter.notifyMatchFailure(
          op, "tf32 mma.sync is lowered for m16n8k8 with f32 accumulators");
    Location loc = op.getLoc();
    auto rounded = [&](Value fragment, int64_t rows) {
      SmallVector<Value> regs;
      for (int64_t row = 0; row < rows; ++row) {
        Value x = vector::ExtractOp::create(rewriter, loc, fragment,
                                            ArrayRef<int64_t>{row, 0});
        regs.push_back(NVVM::ConvertFloatToTF32Op::create(
            rewriter, loc, rewriter.getI32Type(), x, NVVM::FPRoundingMode::RNA,
            NVVM::SaturationMode::NONE,
            /*relu=*/false));
      }
      return regs;
    };
    SmallVector<Value> a = rounded(op.getMatrixA(), 4);
    SmallVector<Value> b = rounded(op.getMatrixB(), 2);
    replaceByNvvmMma(rewriter, op, a, b, {16, 8, 8}, NVVM::MMATypes::tf32);
    return success();
  }
};
} // namespace

void hwsched::populateMmaSyncBf16ToNvvmPatterns(RewritePatternSet &patterns) {
  patterns.add<MmaSyncBf16ToNvvm>(patterns.getContext());
}

void hwsched::populateMmaSyncTf32ToNvvmPatterns(RewritePatternSet &patterns) {
  patterns.add<MmaSyncTf32ToNvvm>(patterns.getContext());
}
