//===- AllocationLiveness.h - Lifetimes of on-chip buffers ------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Which on-chip allocations of a scope are live where. Program points are the
// pre-order numbers of the ops in the scope; a buffer is live on an inclusive
// interval of them. The interval runs from the first to the last access
// (a read or write of its bytes, or an op whose effects are unknown) through
// the buffer or any alias (views, casts, selects, region yields and
// iter_args, through BufferViewFlowAnalysis); making a view, reading sizes or
// metadata is no access, so views created up front do not lengthen it. It
// is extended over structured control flow:
//   - a use nested in an op that does not contain the allocation (a loop, an
//     scf.if) counts as a use of that whole op, so a buffer used in a loop
//     but allocated outside it is live across the whole loop;
//   - a value yielded back into a loop (iter_args, ping-pong buffers) keeps
//     the buffer live across the whole loop, as does a use after the loop of
//     a buffer allocated inside it;
//   - an async copy (nvgpu.device_async_copy) keeps its buffers live until
//     the nvgpu.device_async_wait that consumes its token;
//   - in a region with several blocks the buffer is live over the whole
//     region (program order says nothing about branches);
//   - on barrier targets, a use where threads may diverge counts as a use of
//     the whole divergent op (see analyzeAllocationLiveness).
// Uses the analysis cannot follow (calls, returns, storing the memref, ops
// without memory-effect information) pin the buffer: it keeps its own
// allocation, and `pinReason` says why.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_ALLOCATIONLIVENESS_H
#define HWSCHED_ANALYSIS_ALLOCATIONLIVENESS_H

#include "hwsched/Analysis/ThreadUniformity.h"

#include "mlir/IR/Operation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <string>

namespace hwsched {

/// One allocation in the on-chip memory space of a scope.
struct OnChipBuffer {
  /// The memref.alloc or memref.alloca; null for a workgroup attribution of
  /// a gpu.func scope.
  mlir::Operation *alloc = nullptr;
  /// The buffer: the allocation's result or the attribution's block
  /// argument.
  mlir::Value memref;
  /// Index among the gpu.func's workgroup attributions (attributions only).
  unsigned attributionIndex = 0;
  bool isAttribution() const { return alloc == nullptr; }
  mlir::Location getLoc() const {
    return alloc ? alloc->getLoc() : memref.getLoc();
  }
  /// Upper bound of the bytes the buffer needs (element storage size times
  /// the element count; dynamic sizes use a proven upper bound).
  uint64_t bytes = 0;
  /// max(element size in bytes, the alloc's `alignment`, the spec minimum).
  uint64_t alignment = 1;
  /// The shape has dynamic sizes whose upper bound was proven.
  bool boundedDynamic = false;
  /// The size has no proven upper bound (`bytes` is meaningless).
  bool unboundedSize = false;
  /// The size in bytes does not fit 62 bits (certainly above any capacity).
  bool sizeOverflow = false;
  /// Inclusive interval of program points where the buffer is live.
  int64_t start = 0;
  int64_t end = 0;
  /// The ops at which the interval starts and ends (ancestors of the first
  /// and last uses in the block where the lifetime is decided).
  mlir::Operation *startOp = nullptr;
  mlir::Operation *endOp = nullptr;
  /// Non-empty when the buffer cannot be merged; says why.
  std::string pinReason;
  /// The ops that access the buffer or an alias, as counted for the
  /// lifetime (a value yielded back into a loop counts as a use by the loop;
  /// the waits of async copies count; making views does not), in program
  /// order.
  llvm::SmallVector<mlir::Operation *> uses;
  /// Deallocations of the buffer (they end no lifetime: erased on merge).
  llvm::SmallVector<mlir::Operation *> deallocs;
  /// Non-empty when the lifetime was widened beyond the uses (a use in code
  /// where threads may diverge, or in a region with several blocks); says
  /// over which op and why.
  std::string widenedReason;
};

/// The on-chip buffers of one scope, in program order.
struct ScopeAllocationLiveness {
  mlir::Operation *scope = nullptr;
  llvm::SmallVector<OnChipBuffer, 0> buffers;
  /// Program point -> op, and op -> (first, last) program point of the op
  /// and everything nested in it.
  llvm::SmallVector<mlir::Operation *> programOrder;
  llvm::DenseMap<mlir::Operation *, std::pair<int64_t, int64_t>> spans;
  /// Allocations in the memory space that belong to nested scopes (an
  /// isolated-from-above op or a gpu.launch below `scope`): left alone.
  unsigned nestedScopeAllocations = 0;
  /// Workgroup attributions of a gpu.launch scope in the memory space: not
  /// merged (a launch attribution carries no alignment for a byte buffer).
  unsigned launchAttributions = 0;
  /// Where a merged buffer must be created to dominate every mergeable
  /// allocation: at the start of `bufferBlock`, or right before `scope`
  /// itself (null `bufferBlock`) when the allocations sit in several regions
  /// of a scope that is not an allocation boundary.
  mlir::Block *bufferBlock = nullptr;
  /// Set when the lifetimes were made barrier-safe (GPU targets): every
  /// lifetime starts and ends at an op all threads of a workgroup reach.
  std::shared_ptr<const ThreadUniformity> uniformity;
};

/// Returns true for ops that delimit a kernel scope: allocations below them
/// belong to them, not to an enclosing scope (isolated-from-above ops and
/// gpu.launch).
bool isAllocationScopeBoundary(mlir::Operation *op);

/// Computes the buffers of `scope` in `memorySpace` (a null attribute means
/// the default memory space) and their lifetimes. `minAlignment` is the
/// spec's on-chip alignment. With `barrierSafe` (targets that order reuse
/// across threads with gpu.barrier), every use is first lifted to its
/// innermost ancestor in a block all threads run alike
/// (Analysis/ThreadUniformity.h): a buffer used where threads may diverge is
/// live over the whole divergent op, so two buffers share bytes only when a
/// barrier point every thread reaches separates them.
ScopeAllocationLiveness analyzeAllocationLiveness(mlir::Operation *scope,
                                                  mlir::Attribute memorySpace,
                                                  uint64_t minAlignment,
                                                  bool barrierSafe = false);

/// "#i memref<...>" for diagnostics: the buffer's index in program order
/// and its type.
std::string describeBuffer(const ScopeAllocationLiveness &liveness,
                           size_t index);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_ALLOCATIONLIVENESS_H
