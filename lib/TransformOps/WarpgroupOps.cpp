//===- WarpgroupOps.cpp - The Hopper wgmma + TMA matmul ops ---------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/Support/PrintToString.h"
#include "hwsched/TransformOps/OpApplication.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/Transforms/WarpgroupMatmul.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

/// The op's attributes that are not spec overrides.
static constexpr StringRef kOwnAttrs[] = {
    "target",     "explain",    "block_m",      "block_n",
    "num_stages", "warpgroups", "raster_group", "producer_warp"};

/// The tile request from the attributes or params (the cost model decides
/// what is absent).
static DiagnosedSilenceableFailure readRequest(OpApplication &app,
                                               WarpgroupTileRequest &request) {
  struct Input {
    StringRef name;
    int64_t minimum;
    std::optional<int64_t> &value;
  } inputs[] = {{"block_m", 64, request.blockM},
                {"block_n", 64, request.blockN},
                {"num_stages", 2, request.numStages},
                {"warpgroups", 1, request.warpgroups},
                {"raster_group", 1, request.rasterGroup},
                {"producer_warp", 0, request.producerWarp}};
  for (Input &input : inputs) {
    DiagnosedSilenceableFailure read =
        app.fail(app.inputs.getInteger(input.name, input.minimum, input.value));
    if (!read.succeeded())
      return read;
  }
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
hwsched::RewriteMatmulAsWgmmaOp::apply(transform::TransformRewriter &rewriter,
                                       transform::TransformResults &results,
                                       transform::TransformState &state) {
  OpApplication app(*this, results);
  DiagnosedSilenceableFailure read = app.readInputs(state);
  if (!read.succeeded())
    return read;
  WarpgroupTileRequest request;
  read = readRequest(app, request);
  if (!read.succeeded())
    return read;
  // Plan every matmul before rewriting any. (The interpreter refuses a
  // consumed handle that lists an op twice.)
  std::vector<WarpgroupMatmulPlan> plans;
  for (Operation *payload : state.getPayloadOps(getMatmul())) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        app.resolve(payload, kOwnAttrs, target);
    if (!resolved.succeeded())
      return resolved;
    llvm::Expected<WarpgroupMatmulPlan> plan =
        planWarpgroupMatmul(payload, target.spec, request);
    if (!plan)
      return app.fail(plan.takeError());
    plans.push_back(std::move(*plan));
  }
  SmallVector<Operation *> launches;
  for (const WarpgroupMatmulPlan &plan : plans) {
    if (getExplain()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      plan.print(os);
      plan.matmul->emitRemark() << text;
    }
    FailureOr<gpu::LaunchOp> launch = rewriteAsWarpgroupMatmul(rewriter, plan);
    if (failed(launch))
      return emitDefiniteFailure() << "the wgmma rewrite failed after its "
                                      "checks passed";
    launches.push_back(*launch);
  }
  results.set(cast<OpResult>(getLaunch()), launches);
  return DiagnosedSilenceableFailure::success();
}

/// ", zero-padded from MxNxK to M'xN'xK'" when the route pads the op.
static std::string paddingNote(const WarpgroupMatmulPlan &plan) {
  if (!plan.unpadded)
    return "";
  const WarpgroupProblem &from = *plan.unpadded, &to = plan.problem;
  return llvm::formatv(", zero-padded from {0}x{1}x{2} to {3}x{4}x{5}", from.m,
                       from.n, from.k, to.m, to.n, to.k)
      .str();
}

DiagnosedSilenceableFailure
hwsched::MatchWgmmaMatmulsOp::apply(transform::TransformRewriter &rewriter,
                                    transform::TransformResults &results,
                                    transform::TransformState &state) {
  OpApplication app(*this, results);
  DiagnosedSilenceableFailure read = app.readInputs(state);
  if (!read.succeeded())
    return read;
  // Route every op before reporting, so a spec problem leaves no remarks.
  struct Route {
    Operation *op;
    std::optional<llvm::Expected<WarpgroupMatmulPlan>> plan;
  };
  std::vector<Route> routes;
  for (Operation *payload : state.getPayloadOps(getOps())) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        app.resolve(payload, {"target", "explain"}, target);
    if (!resolved.succeeded())
      return resolved;
    Route &route = routes.emplace_back(Route{payload, std::nullopt});
    if (!isWarpgroupTarget(target.spec))
      continue;
    // A Hopper spec without a figure the model reads is the spec's fault.
    if (llvm::Expected<WarpgroupLimits> limits =
            readWarpgroupLimits(target.spec);
        !limits)
      return app.fail(limits.takeError());
    route.plan.emplace(routeWarpgroupMatmul(payload, target.spec));
  }
  SmallVector<Operation *> taken, others;
  for (Route &route : routes) {
    if (!route.plan) {
      others.push_back(route.op);
      continue;
    }
    if (*route.plan) {
      taken.push_back(route.op);
      if (getExplain())
        route.op->emitRemark()
            << "taken by the Hopper kernel (wgmma + TMA)"
            << paddingNote(**route.plan) << ", tiles from the cost model: "
            << printToString((*route.plan)->tiles);
      continue;
    }
    others.push_back(route.op);
    Refusal refusal = takeRefusal(route.plan->takeError());
    if (getExplain())
      route.op->emitRemark()
          << "not taken by the Hopper kernel: " << refusal.message;
  }
  results.set(cast<OpResult>(getTaken()), taken);
  results.set(cast<OpResult>(getOthers()), others);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::RewriteMatmulAsWgmmaOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getMatmulMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

#define GET_OP_CLASSES
#include "hwsched/TransformOps/WarpgroupOps.cpp.inc"
