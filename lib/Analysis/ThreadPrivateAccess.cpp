//===- ThreadPrivateAccess.cpp - Accesses no other thread touches ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/ThreadPrivateAccess.h"
#include "hwsched/Analysis/ThreadIndexSpace.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

using namespace mlir;
using namespace hwsched;

/// The memref and indices of a scalar load or store; std::nullopt otherwise.
static std::optional<std::pair<Value, ValueRange>> scalarAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return std::make_pair(load.getMemRef(), load.getIndices());
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return std::make_pair(store.getMemRef(), store.getIndices());
  return std::nullopt;
}

/// The thread dimension `v` is injective in: a thread id, or one plus or
/// minus a uniform value.
static std::optional<unsigned>
injectiveThreadDim(Value v, const ThreadUniformity &uniformity) {
  for (unsigned depth = 0; depth < 8; ++depth) {
    if (std::optional<unsigned> dim = getThreadIdDimension(v))
      return dim;
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto add = dyn_cast<arith::AddIOp>(def)) {
      if (uniformity.isUniform(add.getRhs()))
        v = add.getLhs();
      else if (uniformity.isUniform(add.getLhs()))
        v = add.getRhs();
      else
        return std::nullopt;
      continue;
    }
    if (auto sub = dyn_cast<arith::SubIOp>(def)) {
      if (uniformity.isUniform(sub.getRhs()))
        v = sub.getLhs();
      else if (uniformity.isUniform(sub.getLhs()))
        v = sub.getRhs();
      else
        return std::nullopt;
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// Whether the block extent along `dim` is known to be 1 at `op`.
static bool extentIsOne(Operation *op, unsigned dim) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (auto launch = dyn_cast<gpu::LaunchOp>(p)) {
      Value size = dim == 0   ? launch.getBlockSizeX()
                   : dim == 1 ? launch.getBlockSizeY()
                              : launch.getBlockSizeZ();
      APInt c;
      return matchPattern(size, m_ConstantInt(&c)) && c.isOne();
    }
    if (auto func = dyn_cast<gpu::GPUFuncOp>(p)) {
      std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize();
      return known && known->size() > dim && (*known)[dim] == 1;
    }
    if (isa<FunctionOpInterface>(p)) {
      auto known = p->getAttrOfType<DenseI32ArrayAttr>("gpu.known_block_size");
      return known && known.size() > static_cast<int64_t>(dim) &&
             known[dim] == 1;
    }
  }
  return false;
}

bool hwsched::accessesStayInOneThread(Operation *a, Operation *b,
                                      Operation *scope,
                                      const ThreadUniformity &uniformity) {
  std::optional<std::pair<Value, ValueRange>> accA = scalarAccess(a);
  std::optional<std::pair<Value, ValueRange>> accB = scalarAccess(b);
  if (!accA || !accB || accA->first != accB->first ||
      accA->second.size() != accB->second.size())
    return false;
  bool covered[3] = {false, false, false};
  for (auto [x, y] : llvm::zip(accA->second, accB->second)) {
    if (x != y)
      continue;
    // Loop-invariant: the same value in both ops whatever iteration each
    // runs for once the loop is pipelined.
    if (scope->isAncestor(x.getParentRegion()->getParentOp()))
      continue;
    if (std::optional<unsigned> dim = injectiveThreadDim(x, uniformity))
      covered[*dim] = true;
  }
  for (unsigned dim = 0; dim < 3; ++dim)
    if (!covered[dim] && !extentIsOne(a, dim))
      return false;
  return true;
}
