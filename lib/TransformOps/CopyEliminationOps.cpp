//===- CopyEliminationOps.cpp - transform.smem.eliminate_redundant_copies -===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The op resolves the target of every scope first (so a bad spec leaves the
// payload untouched), then calls the rewrite (hwsched/Transforms/
// CopyElimination.h) and reports what the analysis decided. The target says
// which memory space is on-chip (for the bytes in the report) and, through
// `onchip.direct_read_spaces`, which memory-space changes its consumers do not
// need (only those staging copies may go).
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/TransformOps/OpApplication.h"
#include "hwsched/Transforms/CopyElimination.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

/// Remarks for one scope: every removed copy with its rule, every kept copy
/// with the reasons of both rules, and a summary with the on-chip bytes.
static void explain(Operation *scope, const ResolvedTarget &target,
                    const CopyEliminationResult &result,
                    const AllocBytes &before, const AllocBytes &after) {
  for (const RemovedCopy &removed : result.removed) {
    InFlightDiagnostic remark = emitRemark(removed.loc)
                                << "removed " << removed.opName << " ("
                                << stringifyCopyRule(removed.rule)
                                << "): " << removed.detail;
    if (removed.bytes)
      remark << "; " << *removed.bytes << " bytes not moved";
  }
  for (const CopyLegality &kept : result.kept) {
    InFlightDiagnostic remark = kept.copy.op->emitRemark() << "kept copy: ";
    if (kept.forward.reason == kept.backward.reason) {
      remark << stringifyCopyBlocker(kept.forward.blocker) << ": "
             << kept.forward.reason;
      continue;
    }
    remark << "forward blocked (" << stringifyCopyBlocker(kept.forward.blocker)
           << "): " << kept.forward.reason << "; backward blocked ("
           << stringifyCopyBlocker(kept.backward.blocker)
           << "): " << kept.backward.reason;
  }
  unsigned forward = llvm::count_if(result.removed, [](const RemovedCopy &r) {
    return r.rule == CopyRule::Forward;
  });
  InFlightDiagnostic summary =
      scope->emitRemark() << "removed " << result.removed.size() << " of "
                          << result.copiesBefore << " copies (" << forward
                          << " forward, " << result.removed.size() - forward
                          << " backward), erased " << result.erasedAllocs.size()
                          << " allocations; ";
  if (!target.onChipMemorySpace) {
    summary << "target '" << target.spec.getName()
            << "' has no on-chip memory space";
    return;
  }
  summary << "on-chip (" << target.onChipMemorySpace << ") allocations on '"
          << target.spec.getName() << "': " << before.bytes << " -> "
          << after.bytes << " bytes (" << before.bytes - after.bytes
          << " saved)";
  if (after.dynamicCount)
    summary << ", " << after.dynamicCount << " dynamic-size not counted";
}

DiagnosedSilenceableFailure hwsched::EliminateRedundantCopiesOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  OpApplication app(*this, results);
  DiagnosedSilenceableFailure read = app.readInputs(state);
  if (!read.succeeded())
    return read;
  // Check every scope before changing any.
  SmallVector<std::pair<Operation *, ResolvedTarget>> scopes;
  if (DiagnosedSilenceableFailure resolved =
          app.resolveScopes(llvm::to_vector(state.getPayloadOps(getScope())),
                            {"target", "explain"}, scopes);
      !resolved.succeeded())
    return resolved;

  for (auto &[scope, target] : scopes) {
    CopyLegalityOptions options;
    options.directReadSpaces.assign(target.directReadSpaces.begin(),
                                    target.directReadSpaces.end());
    AllocBytes before = countAllocBytes(scope, target.onChipMemorySpace);
    CopyEliminationResult result =
        eliminateRedundantCopies(rewriter, scope, options);
    AllocBytes after = countAllocBytes(scope, target.onChipMemorySpace);
    // Scopes without copies (declarations, helpers) have nothing to report.
    if (getExplain() && result.copiesBefore > 0)
      explain(scope, target, result, before, after);
  }
  return DiagnosedSilenceableFailure::success();
}

void hwsched::EliminateRedundantCopiesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getScopeMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  modifiesPayload(effects);
}
