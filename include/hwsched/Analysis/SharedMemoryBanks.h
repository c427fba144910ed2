//===- SharedMemoryBanks.h - Bank conflicts of on-chip buffers --*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// How many bank wavefronts a block's warps need for each access to a shared
// buffer, computed from the exact address of every thread.
//
// Shared memory is split into `banks` banks of `bank_width` bytes; a warp's
// request is served in phases of as many lanes as move one line
// (banks x bank_width bytes) together, and a phase takes as many wavefronts
// as the most distinct words any one bank must deliver (lanes reading the
// same word share it). That is the model of the CUDA Programming Guide's
// shared-memory section, with the line and phase sizes derived from the
// spec's figures instead of fixed at 32 x 4 bytes, so a target with other
// banks gets other answers.
//
// The addresses come from ThreadIndexSpace: the indices of every access
// (ldmatrix rows, async-copy destinations, vector and scalar loads and
// stores) are evaluated for every thread of the block, with the lane id as
// the linear thread id modulo the warp size and enclosing loops at their
// first iteration. Upstream's nvgpu-optimize-shared-memory assumes 128-byte
// lines and 128-bit accesses and reports nothing; this analysis gives the
// figures a decision (CostModel/BankConflictPlan.h) and its explanation need.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_SHAREDMEMORYBANKS_H
#define HWSCHED_ANALYSIS_SHAREDMEMORYBANKS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <array>

namespace hwsched {

/// The bank figures of a target (`onchip.banks`, `onchip.bank_width_bytes`,
/// `gpu.warp_size`).
struct BankGeometry {
  int64_t banks = 32;
  int64_t bankWidthBytes = 4;
  int64_t warpSize = 32;
  /// The bytes all banks deliver in one wavefront.
  int64_t lineBytes() const { return banks * bankWidthBytes; }
};

/// One op's access to a buffer, evaluated in every thread of the block.
struct BankAccess {
  mlir::Operation *op = nullptr;
  /// "ldmatrix x4", "async copy", "vector.load", ... for reports.
  std::string kind;
  bool isWrite = false;
  /// The bytes one thread moves at its address (one ldmatrix row: 16).
  int64_t bytesPerThread = 0;
  /// The lanes of a warp that give an address (ldmatrix x1/x2: 8/16).
  int64_t activeLanes = 0;
  /// The element indices of each thread, in linear thread-id order, in the
  /// first iteration of the enclosing loops (the bank pattern).
  llvm::SmallVector<llvm::SmallVector<int64_t, 2>> threadIndices;
  /// The same in their second iteration (where a constant step gives it),
  /// for checks that must hold in every iteration, not for counting.
  llvm::SmallVector<llvm::SmallVector<int64_t, 2>> laterIndices;
};

/// Every access to one on-chip buffer of a block.
struct BufferAccesses {
  mlir::Operation *alloc = nullptr;
  mlir::MemRefType type;
  int64_t elementBytes = 0;
  std::array<int64_t, 3> blockExtents = {1, 1, 1};
  llvm::SmallVector<BankAccess> accesses;
};

/// The accesses to `alloc` (a static, identity-layout memref.alloc inside a
/// gpu.launch of known block size); an error in the user's terms when some
/// use is not one of the supported accesses (ldmatrix, async-copy
/// destination, vector or memref load/store: any view or cast of the buffer
/// counts as unsupported) or its indices are not known per thread.
llvm::Expected<BufferAccesses> collectBankAccesses(mlir::Operation *alloc,
                                                   const BankGeometry &geo);

/// Wavefronts of one access, summed over its phases and averaged over the
/// block's warps, and the ideal (each phase one wavefront per line moved).
struct Wavefronts {
  double actual = 0;
  double ideal = 0;
  Wavefronts &operator+=(const Wavefronts &o) {
    actual += o.actual;
    ideal += o.ideal;
    return *this;
  }
};

/// Maps a thread's element indices to the byte offset the access starts at
/// (the identity layout, or a swizzled one).
using ByteAddressFn = llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)>;

/// The wavefronts `access` needs with the buffer laid out by `address`.
Wavefronts countWavefronts(const BankAccess &access, const BankGeometry &geo,
                           ByteAddressFn address);

/// The row-major byte offset of `indices` in `type` (static shape) with the
/// innermost dimension padded by `padElements`.
int64_t rowMajorByteOffset(mlir::MemRefType type, int64_t elementBytes,
                           llvm::ArrayRef<int64_t> indices,
                           int64_t padElements = 0);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_SHAREDMEMORYBANKS_H
