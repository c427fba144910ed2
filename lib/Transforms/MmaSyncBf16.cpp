//===- MmaSyncBf16.cpp - bf16 inputs on the mma.sync path -----------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The first of the two steps of the tensor-core kernel that MLIR 22 does
// not take bf16 through: the warp-level vector-to-nvgpu conversion (its
// fragment table, nvgpu::getMmaSyncRegisterType, lists f16 but not bf16,
// though everything else in it goes by element width). The second, the
// nvgpu.mma.sync lowering to NVVM, is in MmaSyncToNvvm.cpp.
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
