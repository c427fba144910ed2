//===- ThreadUniformity.h - Which code all threads of a block run -*- C++
//-*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// A conservative divergence analysis for GPU kernels: which values are the
// same in every thread of a workgroup, and which blocks every thread runs
// the same number of times, in the same order. A gpu.barrier is only safe in
// such a block: one placed where threads may diverge deadlocks (or is
// undefined) when some threads skip it.
//
// The rule, proven over the kernel (the nearest isolated-from-above op or
// gpu.launch around the code asked about):
//   uniform values
//     - constants (any ConstantLike op);
//     - gpu.block_id, gpu.block_dim, gpu.grid_dim, gpu.cluster_id,
//       gpu.cluster_dim, gpu.cluster_block_id, gpu.cluster_dim_blocks,
//       gpu.num_subgroups, gpu.subgroup_size; the gpu.launch body arguments
//       except the thread ids;
//     - the entry-block arguments of a function kernel (gpu.func/func.func
//       parameters: assumed to be passed the same by every thread, as the
//       arguments of a kernel launch are) and values defined outside the
//       kernel;
//     - results of region-free, memory-effect-free ops of the arith, index,
//       math and affine dialects whose operands are all uniform;
//     - scf.for/affine.for induction variables with uniform bounds and step,
//       loop-carried values whose initial and yielded values are uniform
//       (fixpoint), results of scf.if/scf.index_switch/scf.while/
//       scf.execute_region whose selector and yielded values are uniform.
//   Everything else (thread, lane and subgroup ids, loads, calls, shuffles,
//   unknown ops) may differ between threads.
//   uniform blocks
//     - the entry block of the kernel's regions;
//     - the single block (or entry block) of a region of an op in a uniform
//       block that runs it uniformly: scf.for/affine.for with uniform bounds
//       and step, scf.if/affine.if/scf.index_switch with a uniform selector,
//       scf.while whose scf.condition operand is uniform, scf.execute_region
//       and memref.alloca_scope. Any other region (scf.forall, scf.parallel,
//       linalg bodies, non-entry blocks of multi-block regions) may diverge.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_THREADUNIFORMITY_H
#define HWSCHED_ANALYSIS_THREADUNIFORMITY_H

#include "mlir/IR/Operation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace hwsched {

/// Uniformity facts for one kernel; see the file comment for the rule.
class ThreadUniformity {
public:
  /// Analyses the kernel around `op` (`op` itself when it is an
  /// isolated-from-above op or a gpu.launch).
  explicit ThreadUniformity(mlir::Operation *op);

  /// The op whose body is analysed.
  mlir::Operation *getKernel() const { return kernel; }

  /// Whether `value` is provably the same in all threads that compute it.
  bool isUniform(mlir::Value value) const;

  /// Whether every thread of the workgroup runs `block` equally often and
  /// in the same order relative to the other uniform blocks (a barrier in
  /// it is reached by all threads).
  bool isUniformBlock(mlir::Block *block) const;

  /// The innermost ancestor of `op` (or `op` itself) that sits in a uniform
  /// block, but never above `stopAt` (returned when reached).
  mlir::Operation *getUniformAncestor(mlir::Operation *op,
                                      mlir::Operation *stopAt) const;

  /// Why threads may diverge inside the regions of `op` ("" if they do not,
  /// or if `op` is not in a uniform block itself).
  std::string getDivergenceReason(mlir::Operation *op) const;

private:
  /// Whether `op` runs its regions the same way in all threads (given it is
  /// reached by all of them); sets `reason` when not.
  bool runsRegionsUniformly(mlir::Operation *op, std::string *reason) const;
  void propagate();

  mlir::Operation *kernel = nullptr;
  llvm::DenseSet<mlir::Value> divergent;
  mutable llvm::DenseMap<mlir::Block *, bool> blockCache;
};

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_THREADUNIFORMITY_H
