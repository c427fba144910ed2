//===- LoopDependenceGraph.h - Dependences of an scf.for body ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The dependence graph of one scf.for body, as plain data for the stage
// scheduler: nodes are the body's non-trivial ops (scalar index arithmetic,
// constants and memref views are not scheduled on their own, they follow
// their users), edges are SSA def-use and memory (RAW/WAR/WAW) dependences,
// within one iteration (distance 0) or from one iteration to the next
// (distance 1). Memory dependences are alias aware: every access is traced
// through views to its underlying allocation, and accesses to provably
// different allocations, or to disjoint static boxes of one allocation, do
// not depend on each other.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_LOOPDEPENDENCEGRAPH_H
#define HWSCHED_ANALYSIS_LOOPDEPENDENCEGRAPH_H

#include "hwsched/HwSpec/HwSpec.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace hwsched {

/// What a dependence edge carries.
enum class DepKind { SSA, RAW, WAR, WAW };
llvm::StringRef stringifyDepKind(DepKind kind);

/// A static hyper-rectangle of elements in root-allocation coordinates;
/// `std::nullopt` offsets mean "any element" (unknown or dynamic).
struct AccessBox {
  std::optional<llvm::SmallVector<int64_t>> offsets;
  llvm::SmallVector<int64_t> sizes;
  /// True when exactly the elements of the box are accessed (usable to prove
  /// that a write overwrites data); false when the box over-approximates.
  bool exact = false;
};

/// One underlying allocation touched by the body.
struct LoopBuffer {
  /// The allocation's value: an alloc/alloca result, a function argument or
  /// a memref.get_global result.
  mlir::Value root;
  /// alloc / alloca defining `root`, null otherwise.
  mlir::Operation *allocOp = nullptr;
  /// Static size in bytes, -1 when the shape is dynamic.
  int64_t bytes = -1;
  /// In the spec's on-chip memory space (counted against the capacity).
  bool onChip = false;
  /// Allocated inside the loop body (a fresh buffer per iteration).
  bool loopLocal = false;
  /// Every element read in an iteration was written earlier in the same
  /// iteration (our overwrite check): no data flows between iterations, so
  /// copies of the buffer can rotate across iterations.
  bool overwrittenEachIteration = false;
  /// Multi-buffering is possible: a static, identity-layout alloc/alloca
  /// outside the loop, used only inside it (through subviews), overwritten
  /// each iteration. Otherwise `whyNotRenamable` says why.
  bool renamable = false;
  std::string whyNotRenamable;
  /// Already multi-buffered by the user: every access picks slot
  /// `iteration mod rotatingSlots` (0: not). Its loop-carried dependences are
  /// that many iterations apart.
  int64_t rotatingSlots = 0;
  /// A short printable name ("%alloc_3 (alloc)", "arg #1").
  std::string name;
};

/// One scheduled op of the body.
struct DepNode {
  mlir::Operation *op = nullptr;
  /// Unit from the spec's `pipeline.units` this op occupies.
  std::string unit;
  /// Position in the body (top-level op index), kept by the rewrite.
  unsigned position = 0;
  /// Synchronisation pseudo-op (async group/wait): no issue cost.
  bool isSync = false;
};

/// A dependence from `from` to `to` (node indices); `distance` 1 means `to`
/// in iteration i+1 depends on `from` in iteration i.
struct DepEdge {
  unsigned from = 0, to = 0;
  unsigned distance = 0;
  DepKind kind = DepKind::SSA;
  /// Buffer index for memory edges, -1 for SSA edges.
  int buffer = -1;
  /// When the two accesses reach memory through different roots that may
  /// alias (function arguments without noalias, ...): the other root's
  /// buffer; -1 when both go through `buffer` (or unknown memory).
  int aliasBuffer = -1;
  /// A distance-1 WAR/WAW through a renamable buffer: multi-buffering with
  /// enough copies removes it.
  bool removableByMultiBuffering = false;
  /// A distance-1 RAW whose read is covered by exact writes earlier in the
  /// same iteration (the read's buffer is overwritten each iteration): no
  /// value flows along it, the covering writes kill it. Kept for the
  /// synchronisation planners (an extra ordering is harmless there); the
  /// schedule ignores it, since the covering write's edges (WAW from the old
  /// writer, RAW to the reader) already order the three ops.
  bool killedRead = false;
};

/// The dependence graph of one loop body.
struct LoopDependenceGraph {
  llvm::SmallVector<DepNode> nodes;
  llvm::SmallVector<DepEdge> edges;
  llvm::SmallVector<LoopBuffer> buffers;
  /// Accesses per node: (buffer, isWrite).
  llvm::SmallVector<llvm::SmallVector<std::pair<unsigned, bool>>> accesses;
  llvm::DenseMap<mlir::Operation *, unsigned> nodeOf;
  /// Body ops that follow their users (index arithmetic, views, constants)
  /// and gpu.barrier ops that the sync rule re-creates.
  llvm::SmallVector<mlir::Operation *> followers;
  llvm::SmallVector<mlir::Operation *> barriers;
  /// The body has nvgpu.device_async_copy ops (all at the top level, tokens
  /// unused) but no group and no wait: the rewrite inserts them. The copies'
  /// memory edges carry the copy latency as usual.
  bool needsAsyncGroup = false;
};

/// Which ops count as "on chip" and which units exist.
struct UnitContext {
  HwKind kind = HwKind::Gpu;
  /// The spec's on-chip memory space (null: default space, the CPU).
  mlir::Attribute onChipMemorySpace;
  /// Units named by the spec's pipeline.units.
  std::vector<std::string> units;
  /// Treat existing gpu.barrier ops as re-creatable sync (sync=gpu_barrier).
  bool barriersAreSync = false;
};

/// Returns true when `memorySpace` is the target's on-chip space (integer
/// space 3 also counts as workgroup memory on GPUs).
bool isOnChipMemorySpace(mlir::Attribute memorySpace, const UnitContext &ctx);

/// The unit of `op` under `ctx` (see the op documentation for the rules).
std::string classifyUnit(mlir::Operation *op, const UnitContext &ctx);

/// The static trip count of `forOp`: ceil((ub - lb) / step), 0 when
/// ub <= lb; std::nullopt when a bound or the step is not a constant or the
/// step is not positive.
std::optional<int64_t> staticTripCount(mlir::scf::ForOp forOp);

/// Builds the dependence graph of `forOp`'s body; an unsupported body is a
/// refusal at the op that makes it so ("'func.call' has unknown memory
/// effects").
llvm::Expected<LoopDependenceGraph>
buildLoopDependenceGraph(mlir::scf::ForOp forOp, const UnitContext &ctx);

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_LOOPDEPENDENCEGRAPH_H
