//===- SharedMemoryBanks.cpp - Bank conflicts of on-chip buffers ----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/SharedMemoryBanks.h"

#include "hwsched/Analysis/ThreadIndexSpace.h"
#include "hwsched/Support/PrintToString.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace hwsched;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {
/// What one use of the buffer reads or writes, before evaluation.
struct UseShape {
  std::string kind;
  bool isWrite = false;
  int64_t bytesPerThread = 0;
  int64_t activeLanes = 0;
  ValueRange indices;
};
} // namespace

/// The access `user` makes to `buffer`, or an error naming the op.
static llvm::Expected<UseShape> classifyUse(Operation *user, Value buffer,
                                            int64_t elementBytes,
                                            const BankGeometry &geo) {
  UseShape use;
  use.activeLanes = geo.warpSize;
  if (auto ld = dyn_cast<nvgpu::LdMatrixOp>(user)) {
    // Each lane gives the address of one 16-byte matrix row; x1/x2/x4
    // read 8/16/32 rows (PTX ISA, ldmatrix).
    use.kind = llvm::formatv("ldmatrix x{0}", ld.getNumTiles());
    use.bytesPerThread = 16;
    use.activeLanes = std::min<int64_t>(geo.warpSize, 8 * ld.getNumTiles());
    use.indices = ld.getIndices();
    return use;
  }
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(user)) {
    if (copy.getDst() != buffer)
      return error("it is the source of an async copy (only async-copy "
                   "destinations are modelled)");
    use.kind = "async copy";
    use.isWrite = true;
    use.bytesPerThread = copy.getDstElements().getZExtValue() * elementBytes;
    use.indices = copy.getDstIndices();
    return use;
  }
  auto vectorBytes = [&](VectorType t) -> llvm::Expected<int64_t> {
    // A vector of several rows reaches several lines at once: a model of
    // its phases would be a guess.
    if (t.getRank() > 1)
      return error(llvm::formatv("it is read or written as {0} (only "
                                 "zero- and one-dimensional vectors are "
                                 "modelled)",
                                 printToString(t))
                       .str());
    return t.getNumElements() * elementBytes;
  };
  if (auto load = dyn_cast<vector::LoadOp>(user)) {
    llvm::Expected<int64_t> bytes = vectorBytes(load.getVectorType());
    if (!bytes)
      return bytes.takeError();
    use = {"vector.load", false, *bytes, geo.warpSize, load.getIndices()};
    return use;
  }
  if (auto store = dyn_cast<vector::StoreOp>(user)) {
    llvm::Expected<int64_t> bytes = vectorBytes(store.getVectorType());
    if (!bytes)
      return bytes.takeError();
    use = {"vector.store", true, *bytes, geo.warpSize, store.getIndices()};
    return use;
  }
  if (auto load = dyn_cast<memref::LoadOp>(user)) {
    use = {"memref.load", false, elementBytes, geo.warpSize, load.getIndices()};
    return use;
  }
  if (auto store = dyn_cast<memref::StoreOp>(user)) {
    if (store.getMemRef() != buffer)
      return error("the buffer is stored as a value");
    use = {"memref.store", true, elementBytes, geo.warpSize,
           store.getIndices()};
    return use;
  }
  return error(
      llvm::formatv(
          "'{0}' uses it (only ldmatrix, async-copy destinations and "
          "memref/vector loads and stores are modelled; a view or cast hides "
          "the accesses behind it)",
          user->getName())
          .str());
}

/// Induction variables of the scf.for loops between `op` and `launch`, each
/// at its first iteration (a constant lower bound): the bank pattern of a
/// tile copy or read repeats from one K step to the next. With
/// `secondIteration`, each at its second one where the step is a constant.
static SmallVector<std::pair<Value, int64_t>>
loopStarts(Operation *op, Operation *launch, bool secondIteration = false) {
  SmallVector<std::pair<Value, int64_t>> starts;
  for (Operation *p = op->getParentOp(); p && p != launch;
       p = p->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(p);
    if (!loop)
      continue;
    APInt lb, step;
    if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)))
      continue;
    int64_t iv = lb.getSExtValue();
    if (secondIteration && matchPattern(loop.getStep(), m_ConstantInt(&step)))
      iv += step.getSExtValue();
    starts.push_back({loop.getInductionVar(), iv});
  }
  return starts;
}

llvm::Expected<BufferAccesses>
hwsched::collectBankAccesses(Operation *alloc, const BankGeometry &geo) {
  if (!isa<memref::AllocOp, memref::AllocaOp>(alloc) ||
      alloc->getNumResults() != 1)
    return error("it is not a memref.alloc or memref.alloca");
  BufferAccesses result;
  result.alloc = alloc;
  result.type = cast<MemRefType>(alloc->getResult(0).getType());
  if (!result.type.hasStaticShape() || !result.type.getLayout().isIdentity())
    return error("its shape is not static or its layout is not the identity");
  if (!result.type.getElementType().isIntOrFloat())
    return error(llvm::formatv("its elements are {0} (integer and float "
                               "elements are modelled)",
                               printToString(result.type.getElementType()))
                     .str());
  unsigned bits = result.type.getElementTypeBitWidth();
  if (bits % 8 != 0 || bits == 0)
    return error(llvm::formatv("its elements are {0} bits (whole bytes are "
                               "modelled)",
                               bits)
                     .str());
  result.elementBytes = bits / 8;
  if (geo.banks <= 0 || geo.bankWidthBytes <= 0 || geo.warpSize <= 0)
    return error("the target's banks, bank width and warp size must be "
                 "positive");

  Operation *launch = alloc->getParentOfType<gpu::LaunchOp>();
  std::optional<std::array<int64_t, 3>> extents =
      getKnownBlockExtents(launch ? launch : alloc);
  if (!launch || !extents)
    return error("it is not in a gpu.launch with constant block sizes, so "
                 "the threads' addresses are unknown");
  result.blockExtents = *extents;

  // The lane id is the linear thread id modulo the warp size: a leaf of the
  // evaluation, set per thread.
  SmallVector<Value> laneIds;
  launch->walk([&](gpu::LaneIdOp lane) { laneIds.push_back(lane); });

  Value buffer = alloc->getResult(0);
  SmallVector<std::array<int64_t, 3>> threads = enumerateThreads(*extents);
  // In program order, so that reports list the accesses as the code has
  // them.
  SmallVector<Operation *> users;
  if (llvm::any_of(buffer.getUsers(),
                   [&](Operation *user) { return !launch->isAncestor(user); }))
    return error("it is used outside its gpu.launch");
  launch->walk([&](Operation *op) {
    if (llvm::is_contained(op->getOperands(), buffer))
      users.push_back(op);
  });
  for (Operation *user : users) {
    if (isa<memref::DeallocOp>(user))
      continue;
    llvm::Expected<UseShape> use =
        classifyUse(user, buffer, result.elementBytes, geo);
    if (!use)
      return use.takeError();
    BankAccess access;
    access.op = user;
    access.kind = use->kind;
    access.isWrite = use->isWrite;
    access.bytesPerThread = use->bytesPerThread;
    access.activeLanes = use->activeLanes;
    // The first iteration of the enclosing loops gives the bank pattern;
    // the second one is evaluated too where it can be, so that a decision
    // that depends on where an access starts (inside one chunk or not) is
    // checked on more than one K step.
    for (bool second : {false, true}) {
      SmallVector<std::pair<Value, int64_t>> leaves =
          loopStarts(user, launch, second);
      size_t fixedLeaves = leaves.size();
      for (Value lane : laneIds)
        leaves.push_back({lane, 0});
      for (const std::array<int64_t, 3> &tid : threads) {
        int64_t linear =
            tid[0] + (*extents)[0] * (tid[1] + (*extents)[1] * tid[2]);
        for (size_t i = fixedLeaves; i < leaves.size(); ++i)
          leaves[i].second = linear % geo.warpSize;
        std::optional<SmallVector<int64_t>> idx =
            evaluateInThread(use->indices, tid, *extents, leaves);
        if (!idx)
          return error(
              llvm::formatv(
                  "the indices of its {0} are not known per thread (they "
                  "depend "
                  "on more than the thread ids, constants and loop starts)",
                  use->kind)
                  .str());
        (second ? access.laterIndices : access.threadIndices)
            .emplace_back(idx->begin(), idx->end());
      }
    }
    result.accesses.push_back(std::move(access));
  }
  return result;
}

int64_t hwsched::rowMajorByteOffset(MemRefType type, int64_t elementBytes,
                                    ArrayRef<int64_t> indices,
                                    int64_t padElements) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t offset = 0;
  for (size_t d = 0; d < indices.size(); ++d) {
    int64_t extent = shape[d];
    if (d + 1 == shape.size())
      extent += padElements;
    offset = offset * extent + indices[d];
  }
  return offset * elementBytes;
}

Wavefronts hwsched::countWavefronts(const BankAccess &access,
                                    const BankGeometry &geo,
                                    ByteAddressFn address) {
  const int64_t line = geo.lineBytes();
  // As many lanes as move one line share a phase; a wider access spans
  // several lines in one lane and is served lane by lane.
  const int64_t lanesPerPhase = std::clamp<int64_t>(
      line / std::max<int64_t>(1, access.bytesPerThread), 1, geo.warpSize);
  const int64_t threads = access.threadIndices.size();
  const int64_t warps = (threads + geo.warpSize - 1) / geo.warpSize;
  Wavefronts total;
  llvm::DenseMap<int64_t, llvm::SmallDenseSet<int64_t, 4>> words;
  for (int64_t w = 0; w < warps; ++w) {
    int64_t first = w * geo.warpSize;
    int64_t lanes =
        std::min({access.activeLanes, geo.warpSize, threads - first});
    for (int64_t p = 0; p < lanes; p += lanesPerPhase) {
      words.clear();
      int64_t inPhase = std::min(lanesPerPhase, lanes - p);
      for (int64_t l = p; l < p + inPhase; ++l) {
        int64_t addr = address(access.threadIndices[first + l]);
        int64_t firstWord = addr / geo.bankWidthBytes;
        int64_t lastWord =
            (addr + access.bytesPerThread - 1) / geo.bankWidthBytes;
        for (int64_t word = firstWord; word <= lastWord; ++word)
          words[word % geo.banks].insert(word);
      }
      size_t most = 1;
      for (auto &entry : words)
        most = std::max<size_t>(most, entry.second.size());
      total.actual += static_cast<double>(most);
      total.ideal += static_cast<double>(std::max<int64_t>(
          1, (inPhase * access.bytesPerThread + line - 1) / line));
    }
  }
  if (warps > 0) {
    total.actual /= static_cast<double>(warps);
    total.ideal /= static_cast<double>(warps);
  }
  return total;
}
