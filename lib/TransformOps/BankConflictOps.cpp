//===- BankConflictOps.cpp - transform.smem.avoid_bank_conflicts ----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The op reads the bank geometry from the target of every scope first (a
// spec without it leaves every scope untouched), then per on-chip buffer:
// collect the accesses (Analysis/SharedMemoryBanks.h), decide
// (CostModel/BankConflictPlan.h), rewrite (Transforms/SharedMemorySwizzle.h),
// and report the plan's own text.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/CostModel/BankConflictPlan.h"
#include "hwsched/Support/PrintToString.h"
#include "hwsched/TransformOps/OpApplication.h"
#include "hwsched/Transforms/SharedMemorySwizzle.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

/// The bank figures of `target`, or the spec's refusal naming the missing
/// key (HwSpec::getNumbers).
static llvm::Expected<BankGeometry> readGeometry(const ResolvedTarget &target) {
  llvm::StringRef keys[] = {"onchip.banks", "onchip.bank_width_bytes",
                            "gpu.warp_size"};
  double figures[3];
  if (llvm::Error err = target.spec.getNumbers(
          keys, figures,
          "the bank model of avoid_bank_conflicts (a GPU spec's, or the "
          "three keys set on the op)"))
    return std::move(err);
  BankGeometry geo{static_cast<int64_t>(figures[0]),
                   static_cast<int64_t>(figures[1]),
                   static_cast<int64_t>(figures[2])};
  if (geo.banks <= 0 || geo.bankWidthBytes <= 0 || geo.warpSize <= 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "target '" + target.target +
            "': onchip.banks, onchip.bank_width_bytes and gpu.warp_size "
            "must be positive for the bank model");
  return geo;
}

/// The plan for every on-chip allocation in `scope`; `analysed[i]` holds the
/// accesses of `plan.buffers[i]` when it could be analysed.
static BankConflictPlan
planScope(Operation *scope, const ResolvedTarget &target,
          const BankGeometry &geo,
          SmallVectorImpl<std::optional<BufferAccesses>> &analysed) {
  BankConflictPlan plan;
  plan.geometry = geo;
  scope->walk([&](Operation *op) {
    if (!isa<memref::AllocOp, memref::AllocaOp>(op))
      return;
    auto type = cast<MemRefType>(op->getResult(0).getType());
    if (type.getMemorySpace() != target.onChipMemorySpace)
      return;
    llvm::Expected<BufferAccesses> accesses = collectBankAccesses(op, geo);
    if (!accesses) {
      plan.buffers.push_back(
          unchangedBuffer(op, llvm::toString(accesses.takeError())));
      analysed.push_back(std::nullopt);
      return;
    }
    plan.buffers.push_back(planBufferSwizzle(*accesses, geo));
    analysed.push_back(std::move(*accesses));
  });
  return plan;
}

DiagnosedSilenceableFailure
hwsched::AvoidBankConflictsOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &results,
                                     transform::TransformState &state) {
  OpApplication app(*this, results);
  DiagnosedSilenceableFailure read = app.readInputs(state);
  if (!read.succeeded())
    return read;
  llvm::SmallPtrSet<Operation *, 4> planned;
  // Resolve every scope's target and bank figures before changing any.
  SmallVector<std::pair<Operation *, ResolvedTarget>> resolved;
  if (DiagnosedSilenceableFailure failure =
          app.resolveScopes(llvm::to_vector(state.getPayloadOps(getScope())),
                            {"target", "explain"}, resolved);
      !failure.succeeded())
    return failure;
  SmallVector<std::tuple<Operation *, ResolvedTarget, BankGeometry>, 1> scopes;
  for (auto &[payload, target] : resolved) {
    llvm::Expected<BankGeometry> geo = readGeometry(target);
    if (!geo)
      return app.fail(geo.takeError());
    scopes.emplace_back(payload, std::move(target), *geo);
  }

  for (auto &[scope, target, geo] : scopes) {
    // A scope inside another scope of the handle (a gpu.launch and its
    // function), or the same op twice, is planned once: a second plan would
    // swizzle the swizzled layout.
    if (llvm::any_of(scopes, [&, scope = scope](const auto &other) {
          Operation *o = std::get<0>(other);
          return o != scope && o->isProperAncestor(scope);
        }))
      continue;
    if (!planned.insert(scope).second)
      continue;
    SmallVector<std::optional<BufferAccesses>> analysed;
    BankConflictPlan plan = planScope(scope, target, geo, analysed);
    for (auto [buffer, accesses] : llvm::zip_equal(plan.buffers, analysed))
      if (buffer.swizzle && accesses)
        applyXorSwizzle(rewriter, *accesses, *buffer.swizzle);
    if (getExplain() && !plan.buffers.empty())
      scope->emitRemark() << "avoid_bank_conflicts on '" << target.target
                          << "': " << printToString(plan);
  }
  return DiagnosedSilenceableFailure::success();
}

void hwsched::AvoidBankConflictsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getScopeMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  modifiesPayload(effects);
}
