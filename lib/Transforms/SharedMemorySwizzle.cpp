//===- SharedMemorySwizzle.cpp - Rewrite a buffer's layout ----------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Transforms/SharedMemorySwizzle.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hwsched;

/// The index operands of `op`'s access to the buffer: the kinds
/// collectBankAccesses accepts.
static MutableOperandRange accessIndices(Operation *op) {
  if (auto ld = dyn_cast<nvgpu::LdMatrixOp>(op))
    return ld.getIndicesMutable();
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
    return copy.getDstIndicesMutable();
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return load.getIndicesMutable();
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getIndicesMutable();
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getIndicesMutable();
  return cast<memref::StoreOp>(op).getIndicesMutable();
}

void hwsched::applyXorSwizzle(RewriterBase &rewriter,
                              const BufferAccesses &buffer,
                              const XorSwizzle &swizzle) {
  int64_t mask = swizzle.mask();
  int64_t chunkShift = swizzle.chunkShift;
  // The constants once, after the allocation (which dominates every access).
  Location allocLoc = buffer.alloc->getLoc();
  rewriter.setInsertionPointAfter(buffer.alloc);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, allocLoc, v);
  };
  Value shiftValue = swizzle.shift > 0 ? constant(swizzle.shift) : Value();
  Value maskValue = constant(mask);
  Value chunkShiftValue = chunkShift > 0 ? constant(chunkShift) : Value();
  for (const BankAccess &access : buffer.accesses) {
    Operation *op = access.op;
    MutableOperandRange indices = accessIndices(op);
    unsigned rank = indices.size();
    Value row = indices[rank - 2].get();
    Value col = indices[rank - 1].get();
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    // Shift first, then mask: the bits of the row that pick the chunk.
    Value bits = row;
    if (shiftValue)
      bits = arith::ShRUIOp::create(rewriter, loc, bits, shiftValue);
    bits = arith::AndIOp::create(rewriter, loc, bits, maskValue);
    if (chunkShiftValue)
      bits = arith::ShLIOp::create(rewriter, loc, bits, chunkShiftValue);
    Value swizzled = arith::XOrIOp::create(rewriter, loc, col, bits);
    rewriter.modifyOpInPlace(op, [&] { indices[rank - 1].assign(swizzled); });
  }
}
