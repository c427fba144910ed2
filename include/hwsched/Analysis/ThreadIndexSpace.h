//===- ThreadIndexSpace.h - Index values of each thread -----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The indices a block's threads use, one thread at a time. GPU code reaches
// shared memory through indices computed from the thread ids (affine.apply,
// arith), so each thread touches its own part of a tile. To reason about the
// whole block (do the threads' writes together cover the tile? are they
// disjoint?) we evaluate those indices for every thread id of a block of
// known size. Only values that are functions of the thread ids and
// constants are evaluated: anything that also depends on a block id, a loop
// induction variable or memory is "not known per thread" (std::nullopt).
//
// MLIR has no such evaluator: affine::ValueBoundsConstraintSet bounds a
// value over all threads at once, which proves neither coverage nor
// disjointness (that needs the exact index of each thread).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_THREADINDEXSPACE_H
#define HWSCHED_ANALYSIS_THREADINDEXSPACE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>

namespace hwsched {

/// More threads than any GPU block holds: no per-thread evaluation.
inline constexpr int64_t kMaxThreadsPerBlock = 1024;

/// The block's thread extents (x, y, z) at `op`, when all three are known
/// constants: a gpu.launch with constant block sizes, a gpu.func with
/// `known_block_size`, or a function with `gpu.known_block_size`; std::nullopt
/// otherwise or above kMaxThreadsPerBlock threads.
std::optional<std::array<int64_t, 3>> getKnownBlockExtents(mlir::Operation *op);

/// The thread dimension (0, 1, 2) `v` is the id of: a gpu.thread_id, or a
/// thread-id argument of a gpu.launch body.
std::optional<unsigned> getThreadIdDimension(mlir::Value v);

/// The thread id of every thread of a block of `extents`, x fastest.
llvm::SmallVector<std::array<int64_t, 3>>
enumerateThreads(const std::array<int64_t, 3> &extents);

/// Evaluates `indices` in the thread with ids `tid` (x, y, z) of a block of
/// `extents`; std::nullopt when an index is not a function of the thread ids
/// and constants (see the file comment), or the arithmetic is undefined
/// (division by zero, overflow).
std::optional<llvm::SmallVector<int64_t>>
evaluateInThread(mlir::ValueRange indices, const std::array<int64_t, 3> &tid,
                 const std::array<int64_t, 3> &extents);

/// The same with the values of some other leaves given (e.g. a loop's
/// induction variable): `leaves` are looked up before anything else.
std::optional<llvm::SmallVector<int64_t>>
evaluateInThread(mlir::ValueRange indices, const std::array<int64_t, 3> &tid,
                 const std::array<int64_t, 3> &extents,
                 llvm::ArrayRef<std::pair<mlir::Value, int64_t>> leaves);

/// Whether some index of `indices` depends on a thread id (evaluation gives
/// different values in different threads is possible).
bool dependsOnThreadId(mlir::ValueRange indices);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_THREADINDEXSPACE_H
