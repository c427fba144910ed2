//===- TensorCoreOps.cpp - patterns of the mma.sync kernel ----------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Pattern descriptors for the tensor-core (mma.sync) kernel: what upstream
// MLIR 22 has as populate functions but exposes to no transform op, and the
// bf16 mma.sync lowering that it lacks, the tf32 one that rounds; and the
// rewrite that lets the kernel take C += A x B (split_accumulation).
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/CostModel/TileConfigDecision.h"
#include "hwsched/TransformOps/OpApplication.h"
#include "hwsched/Transforms/AccumulationSplit.h"
#include "hwsched/Transforms/MmaSyncToNvvm.h"

#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"

using namespace mlir;
using namespace mlir::transform;

void hwsched::ApplyMmaSyncF32ToTf32PatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  // One tf32 multiply (not TF32x3, three tf32 products that recover f32
  // accuracy): upstream rejects TF32x3 for nvgpu.mma.sync.
  nvgpu::populateMmaSyncF32ToTF32Patterns(patterns,
                                          nvgpu::MmaSyncF32Lowering::TF32);
}

void hwsched::ApplyMmaSyncBf16ToNvvmPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  populateMmaSyncBf16ToNvvmPatterns(patterns);
}

void hwsched::ApplyMmaSyncTf32ToNvvmPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  populateMmaSyncTf32ToNvvmPatterns(patterns);
}

//===----------------------------------------------------------------------===//
// transform.hwsched.split_accumulation
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::SplitAccumulationOp::apply(transform::TransformRewriter &rewriter,
                                    transform::TransformResults &results,
                                    transform::TransformState &state) {
  OpApplication app(*this, results);
  if (DiagnosedSilenceableFailure read = app.readInputs(state);
      !read.succeeded())
    return read;
  // Decided for every op before any is rewritten: a target that does not
  // resolve fails with the payload unchanged.
  TileConfigRequest request;
  request.mmaSync = true;
  request.allowTf32 = getAllowTf32();
  request.assumeFilledInit = true;
  SmallVector<std::pair<linalg::LinalgOp, std::string>> splits;
  for (Operation *payload : state.getPayloadOps(getOps())) {
    auto matmul = dyn_cast<linalg::MatmulOp>(payload);
    if (!matmul || hasFillInit(matmul))
      continue;
    ResolvedTarget target;
    if (DiagnosedSilenceableFailure resolved =
            app.resolve(payload, {"target", "explain", "allow_tf32"}, target);
        !resolved.succeeded())
      return resolved;
    if (llvm::Error err = checkAccumulationSplittable(matmul)) {
      llvm::consumeError(std::move(err));
      continue;
    }
    // The tensor-core kernel's checks and tile rules, as the split matmul
    // will meet them in match_mma_sync_matmuls.
    MmaSyncRoute route =
        routeToMmaSync(payload, std::move(target.spec), request);
    if (route.plan)
      splits.emplace_back(matmul, *route.plan);
  }
  SmallVector<Operation *> additions;
  for (auto &[matmul, plan] : splits) {
    llvm::Expected<linalg::AddOp> add = splitAccumulation(rewriter, matmul);
    if (!add) // checked above: cannot happen
      return app.fail(add.takeError());
    additions.push_back(*add);
    if (getExplain())
      matmul->emitRemark()
          << "C += A x B split into a product into a zero-filled tensor and "
             "an addition of C after it, so that the tensor-core kernel "
             "takes the product ("
          << plan << ")";
  }
  results.set(cast<OpResult>(getAdditions()), additions);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::SplitAccumulationOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getOpsMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/TensorCoreOps.cpp.inc"
