//===- CopyLegality.h - When a buffer copy can be removed -------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Facts about buffer copies (`memref.copy`, `linalg.copy`, copy-like
// `linalg.generic`), with no rewriting. For each copy `s -> t` the analysis
// decides whether one of two rewrites preserves the program's meaning:
//
//   forward:  def s; copy s -> t; use t   =>  def s; use s
//   backward: def s; copy s -> t          =>  def t   (s had no later use)
//
// and, when neither does, why not. The answer is plain data that the rewrite
// (hwsched/Transforms/CopyElimination.h), remarks, tests and benchmarks share.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_ANALYSIS_COPYLEGALITY_H
#define HWSCHED_ANALYSIS_COPYLEGALITY_H

#include "hwsched/HwSpec/SpecAttributes.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hwsched {

/// A copy of the whole buffer `source` into the whole buffer `target`.
struct CopyCandidate {
  mlir::Operation *op = nullptr;
  mlir::Value source;
  mlir::Value target;
};

/// Recognizes `memref.copy`, `linalg.copy` and `linalg.generic` ops on
/// buffers whose maps are identities, whose loops are all parallel and whose
/// body yields its input unchanged. Anything else (including tensor forms) is
/// not a copy.
std::optional<CopyCandidate> matchCopy(mlir::Operation *op);

/// Which rewrite removes a copy.
enum class CopyRule { Keep, Forward, Backward };

/// The name used in remarks: "forward", "backward" or "kept".
llvm::StringRef stringifyCopyRule(CopyRule rule);

/// Why a rewrite is not legal; used to group reasons in reports.
enum class CopyBlocker {
  None,
  /// The buffer that would disappear is not a local allocation, escapes or
  /// is aliased by a view.
  NotLocal,
  /// A write to the buffer that must stay unchanged.
  InterveningWrite,
  /// A read of the target before the copy would have written it (backward).
  InterveningRead,
  /// A memory access that alias analysis cannot separate from the buffer.
  UnresolvedAlias,
  /// The source is still used after the copy (backward).
  UsedAfterCopy,
  /// An op whose memory effects are unknown.
  UnknownEffects,
  /// A use in a region that cannot be ordered after (or before) the copy.
  OtherRegion,
  /// A value carried from one loop iteration to the next.
  LoopCarried,
  /// The copy changes memory space (e.g. global -> workgroup staging).
  MemorySpace,
  /// The copy changes layout and a consumer needs the target's layout.
  Layout,
  /// Shapes or element counts the analysis cannot prove equal.
  Shape,
};

/// The name of a blocker as printed in remarks.
llvm::StringRef stringifyCopyBlocker(CopyBlocker blocker);

/// The verdict for one rewrite direction.
struct RuleVerdict {
  bool legal = false;
  CopyBlocker blocker = CopyBlocker::None;
  /// Human-readable reason (empty when legal).
  std::string reason;
  /// The op that blocks the rewrite, when there is one.
  mlir::Operation *blockingOp = nullptr;
};

/// Everything the rewrite needs to apply one legal rule.
struct CopyLegality {
  CopyCandidate copy;
  /// The rule to apply (forward is preferred), or Keep.
  CopyRule rule = CopyRule::Keep;
  RuleVerdict forward;
  RuleVerdict backward;
  /// Forward: the uses of the target's allocation that are redirected to the
  /// source. Backward: the uses of the source's allocation that are redirected
  /// to the target.
  llvm::SmallVector<mlir::OpOperand *> redirectedUses;
  /// `memref.subview` ops of the buffer that disappears (forward: the
  /// target's read-only views; backward: the source's views), to be rebuilt
  /// with the same offsets, sizes and strides on the other buffer.
  llvm::SmallVector<mlir::Operation *> rebasedViews;
  /// Forward: the target's allocation. Backward: the source's allocation.
  /// It is erased with its deallocations once the copy is gone.
  mlir::Operation *deadAlloc = nullptr;
  /// Backward: pure ops and allocations (e.g. the `memref.alloc` and
  /// `memref.subview` defining the target) that
  /// must move before `hoistBefore` so the target is defined where the
  /// producer writes it; in dependence order.
  llvm::SmallVector<mlir::Operation *> hoisted;
  mlir::Operation *hoistBefore = nullptr;
  /// Forward across memory spaces: the redirected uses and rebuilt views read
  /// a `memref.memory_space_cast` of the source into the target's space.
  bool castSourceToTargetSpace = false;
  /// Static size of the copied buffer in bytes, if known.
  std::optional<int64_t> bytes;
};

/// Policy of the analysis.
struct CopyLegalityOptions {
  /// Memory-space changes that a consumer does not need: for a copy whose
  /// (source space, target space) matches a pair, the consumer reads the
  /// source's space directly at no loss, so the forward rewrite may redirect
  /// the target's reads to a `memref.memory_space_cast` of the source. Taken
  /// from the target's `onchip.direct_read_spaces`. Empty by default, so every
  /// memory-space change is treated as a deliberate staging copy.
  llvm::SmallVector<MemorySpacePair> directReadSpaces;
};

/// The copy ops nested in `scope`, in pre-order.
llvm::SmallVector<mlir::Operation *> collectCopies(mlir::Operation *scope);

class CopyAnalyzer;

/// The analysis state of one scope (alias analysis, view flow, dominance,
/// SSA names for reasons). Valid until the IR of the scope changes.
class CopyLegalityAnalysis {
public:
  CopyLegalityAnalysis(mlir::Operation *scope,
                       const CopyLegalityOptions &options);
  ~CopyLegalityAnalysis();
  /// The verdict for one copy op (std::nullopt if `op` is not a copy).
  std::optional<CopyLegality> analyze(mlir::Operation *op);

private:
  std::unique_ptr<CopyAnalyzer> impl;
};

/// Analyzes every copy nested in `scope` (in pre-order), one CopyLegality per
/// copy. The analysis reads alias facts (mlir::AliasAnalysis and
/// BufferViewFlowAnalysis) and the MemoryEffectOpInterface of every op
/// between the copy and the uses it reasons about.
std::vector<CopyLegality>
analyzeCopies(mlir::Operation *scope, const CopyLegalityOptions &options = {});

} // namespace hwsched

#endif // HWSCHED_ANALYSIS_COPYLEGALITY_H
