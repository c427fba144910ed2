//===- BankConflictPlan.cpp - Swizzles against bank conflicts -------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/BankConflictPlan.h"

#include "hwsched/Support/PrintToString.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hwsched;

/// Figures differing by less than this are equal: the averages over warps
/// are exact multiples of 1 / warps.
static constexpr double kEpsilon = 1e-9;

static Wavefronts totalWavefronts(const BufferAccesses &buffer,
                                  const BankGeometry &geo,
                                  ByteAddressFn address) {
  Wavefronts total;
  for (const BankAccess &access : buffer.accesses)
    total += countWavefronts(access, geo, address);
  return total;
}

BufferSwizzlePlan hwsched::unchangedBuffer(Operation *alloc,
                                           llvm::StringRef reason) {
  BufferSwizzlePlan plan;
  plan.alloc = alloc;
  if (alloc && alloc->getNumResults() == 1)
    plan.type = dyn_cast<MemRefType>(alloc->getResult(0).getType());
  plan.unchangedReason = reason.str();
  return plan;
}

/// Why `buffer` cannot take an XOR swizzle of `chunkElements`-element chunks
/// (empty when it can).
static std::string swizzleBlocker(const BufferAccesses &buffer,
                                  int64_t chunkElements) {
  ArrayRef<int64_t> shape = buffer.type.getShape();
  if (shape.size() < 2)
    return llvm::formatv("it has {0} dimension(s): no rows to swizzle by",
                         shape.size());
  // Chunks of a power of two of elements, so that an XOR of chunk indices
  // is an XOR of column bits and stays within a power-of-two row.
  if (!llvm::isPowerOf2_64(buffer.elementBytes) ||
      !llvm::isPowerOf2_64(chunkElements))
    return llvm::formatv("its {0}-byte elements do not make power-of-two "
                         "chunks",
                         buffer.elementBytes);
  int64_t rowElements = shape.back();
  int64_t chunkBytes = chunkElements * buffer.elementBytes;
  if (rowElements % chunkElements != 0 ||
      !llvm::isPowerOf2_64(rowElements / chunkElements))
    return llvm::formatv("its rows of {0} bytes are not a power of two of "
                         "{1}-byte chunks (an XOR could leave the row)",
                         rowElements * buffer.elementBytes, chunkBytes);
  for (const BankAccess &access : buffer.accesses) {
    int64_t elements = access.bytesPerThread / buffer.elementBytes;
    for (const auto *indices : {&access.threadIndices, &access.laterIndices})
      for (const auto &idx : *indices)
        if (idx.back() % chunkElements + elements > chunkElements)
          return llvm::formatv("a thread's {0} crosses a {1}-byte chunk",
                               access.kind, chunkBytes);
  }
  return "";
}

BufferSwizzlePlan hwsched::planBufferSwizzle(const BufferAccesses &buffer,
                                             const BankGeometry &geo) {
  BufferSwizzlePlan plan;
  plan.alloc = buffer.alloc;
  plan.type = buffer.type;
  MemRefType type = buffer.type;
  int64_t eb = buffer.elementBytes;
  auto identity = [&](ArrayRef<int64_t> idx) {
    return rowMajorByteOffset(type, eb, idx);
  };

  // The chunk is the widest access, at least one bank word, so that an
  // access moves with its chunk as a whole.
  int64_t widest = geo.bankWidthBytes;
  for (const BankAccess &access : buffer.accesses)
    widest = std::max(widest, access.bytesPerThread);
  int64_t chunkBytes = static_cast<int64_t>(llvm::PowerOf2Ceil(widest));
  int64_t chunkElements = std::max<int64_t>(1, chunkBytes / eb);

  // Per access kind, before and after; filled once the layout is known.
  auto figure = [&](ByteAddressFn after) {
    for (const BankAccess &access : buffer.accesses) {
      auto *it = llvm::find_if(plan.figures, [&](const AccessFigure &f) {
        return f.kind == access.kind;
      });
      if (it == plan.figures.end()) {
        plan.figures.push_back({access.kind, 0, {}, {}});
        it = std::prev(plan.figures.end());
      }
      ++it->ops;
      it->before += countWavefronts(access, geo, identity);
      it->after += countWavefronts(access, geo, after);
    }
  };

  plan.before = totalWavefronts(buffer, geo, identity);
  plan.after = plan.before;
  std::string blocker = swizzleBlocker(buffer, chunkElements);
  if (!blocker.empty()) {
    plan.unchangedReason = blocker;
    figure(identity);
    return plan;
  }

  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = shape[shape.size() - 2];
  int64_t chunkShift = llvm::Log2_64(chunkElements);
  int64_t rowShift = llvm::Log2_64(shape.back());
  int64_t maxShift = llvm::Log2_64_Ceil(std::max<int64_t>(rows, 1));
  // The XOR moves units of one chunk or of a power of two of chunks: a
  // wider unit leaves the low chunk bits alone. Rows that many lines wide
  // need it when the lanes of a phase read two neighbouring chunks of
  // several rows, as the tf32 kernel's B loads do (8 columns, 4 rows of
  // 512 bytes): (row & 3) on 16-byte chunks pairs them up again (2-way),
  // (row & 3) on 32-byte units gives each row its own two banks' worth.
  for (int64_t unitShift = chunkShift; unitShift < rowShift; ++unitShift) {
    for (int64_t bits = 1; bits <= rowShift - unitShift; ++bits) {
      for (int64_t shift = 0; shift <= maxShift; ++shift) {
        XorSwizzle candidate{unitShift, shift, bits};
        auto swizzled = [&](ArrayRef<int64_t> idx) {
          SmallVector<int64_t, 4> s(idx.begin(), idx.end());
          s.back() = candidate.apply(s[s.size() - 2], s.back());
          return rowMajorByteOffset(type, eb, s);
        };
        Wavefronts w = totalWavefronts(buffer, geo, swizzled);
        // Strictly fewer: the identity, then the chunk-sized unit, fewer
        // bits and smaller shifts (the order of the loops), win ties.
        if (w.actual < plan.after.actual - kEpsilon) {
          plan.after = w;
          plan.swizzle = candidate;
        }
      }
    }
  }

  int64_t rowsOfBuffer = type.getNumElements() / shape.back();
  plan.padBytes = rowsOfBuffer * chunkElements * eb;
  plan.padded = totalWavefronts(buffer, geo, [&](ArrayRef<int64_t> idx) {
    return rowMajorByteOffset(type, eb, idx, chunkElements);
  });

  if (plan.swizzle) {
    XorSwizzle pick = *plan.swizzle;
    figure([&](ArrayRef<int64_t> idx) {
      SmallVector<int64_t, 4> s(idx.begin(), idx.end());
      s.back() = pick.apply(s[s.size() - 2], s.back());
      return rowMajorByteOffset(type, eb, s);
    });
  } else {
    figure(identity);
  }
  return plan;
}

static void printWavefronts(llvm::raw_ostream &os, const Wavefronts &w) {
  os << llvm::formatv("{0:F1}/{1:F1}", w.actual, w.ideal);
}

void BufferSwizzlePlan::print(llvm::raw_ostream &os) const {
  os << (type ? printToString(type) : std::string("buffer")) << ": ";
  if (!unchangedReason.empty() && figures.empty()) {
    os << "not analysed, layout kept: " << unchangedReason;
    return;
  }
  if (swizzle) {
    int64_t chunkBytes =
        swizzle->chunkElements() * (type.getElementTypeBitWidth() / 8);
    os << llvm::formatv("XOR swizzle, {0}-byte chunk ^= (row >> {1}) & {2}",
                        chunkBytes, swizzle->shift, swizzle->mask());
  } else if (!unchangedReason.empty()) {
    os << "layout kept (no swizzle possible: " << unchangedReason << ")";
  } else if (before.actual <= before.ideal + kEpsilon) {
    os << "layout kept (no bank conflicts)";
  } else {
    os << "layout kept (no swizzle has fewer wavefronts)";
  }
  os << "; wavefronts per warp (actual/ideal) ";
  printWavefronts(os, before);
  os << " -> ";
  printWavefronts(os, after);
  os << " (";
  llvm::interleaveComma(figures, os, [&](const AccessFigure &f) {
    os << f.ops << " x " << f.kind << " ";
    printWavefronts(os, f.before);
    os << " -> ";
    printWavefronts(os, f.after);
  });
  os << ")";
  if (padded) {
    os << "; padding rows instead: ";
    printWavefronts(os, *padded);
    os << " at +" << padBytes << " bytes";
  }
}

void BankConflictPlan::print(llvm::raw_ostream &os) const {
  os << llvm::formatv("{0} banks x {1} bytes ({2}-byte lines), warps of {3}",
                      geometry.banks, geometry.bankWidthBytes,
                      geometry.lineBytes(), geometry.warpSize);
  for (const BufferSwizzlePlan &buffer : buffers) {
    os << "\n  ";
    buffer.print(os);
  }
}
