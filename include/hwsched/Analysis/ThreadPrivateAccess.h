//===- ThreadPrivateAccess.h - Accesses no other thread touches -*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Whether two accesses to one workgroup buffer can only meet inside one
// thread, so that a dependence between them needs program order (kept by
// any schedule that respects the dependence) but no gpu.barrier.
//
// The rule (conservative; anything else answers "may cross threads"):
//   - both ops are memref.load / memref.store on the same memref value (no
//     views: an offset view would shift the elements);
//   - for every thread dimension whose extent may exceed 1 there is an index
//     position where both ops use the same index value, that value is
//     defined outside `scope` (so it is the same in every iteration of the
//     pipelined loop) and is an injective function of that thread id:
//     the id itself (gpu.thread_id, or a thread-id argument of gpu.launch),
//     or such a value plus or minus a value that ThreadUniformity proves
//     equal in all threads.
//   Then two different threads differ in some thread id, hence in the index
//   at that position: they never access the same element, whatever the
//   other indices are.
// A dimension's extent is known to be 1 from constant gpu.launch block sizes,
// gpu.func `known_block_size`, or `gpu.known_block_size` on the enclosing
// function.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_THREADPRIVATEACCESS_H
#define HWSCHED_ANALYSIS_THREADPRIVATEACCESS_H

#include "hwsched/Analysis/ThreadUniformity.h"

namespace hwsched {

/// True when every element `a` and `b` both access is accessed by a single
/// thread (see the file comment); `scope` is the loop whose iterations the
/// accesses may come from.
bool accessesStayInOneThread(mlir::Operation *a, mlir::Operation *b,
                             mlir::Operation *scope,
                             const ThreadUniformity &uniformity);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_THREADPRIVATEACCESS_H
