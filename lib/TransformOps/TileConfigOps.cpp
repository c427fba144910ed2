//===- TileConfigOps.cpp - transform.cost_model.select_tile_config -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The op resolves the spec of each payload op, lets decideTileConfig
// (CostModel/TileConfigDecision.h: tile problem, rules, tuning database,
// measurement) choose, reports the decision's own remarks and returns the
// choice as parameters. It never changes the payload.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/CostModel/TileConfigDecision.h"
#include "hwsched/TransformOps/OpApplication.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"

#include "mlir/IR/Builders.h"

#include <tuple>

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

/// Reads the op's inputs (attributes and params) into `app.inputs` and
/// `request`; a failure has gone through app.fail().
static DiagnosedSilenceableFailure readRequest(hwsched::SelectTileConfigOp op,
                                               TransformState &state,
                                               OpApplication &app,
                                               TileConfigRequest &request) {
  if (DiagnosedSilenceableFailure read =
          app.readInputs(state, {"packed_operands"});
      !read.succeeded())
    return read;
  const NumericInputs &inputs = app.inputs;
  for (auto [name, minimum, value] :
       {std::tuple{"measure_top_k", 1, &request.measureTopK},
        std::tuple{"measure_samples", 1, &request.measureSamples},
        std::tuple{"candidate_rank", 0, &request.candidateRank},
        std::tuple{"export_top_k", 0, &request.exportTopK}})
    if (DiagnosedSilenceableFailure check =
            inputs.getInteger(name, minimum, *value);
        !check.succeeded())
      return app.fail(std::move(check));
  request.candidatesFile = findCandidatesFile(op.getCandidatesFile());
  if (auto packed =
          dyn_cast_or_null<DenseI64ArrayAttr>(inputs.get("packed_operands")))
    request.packedOperands.emplace(packed.asArrayRef());
  if (std::optional<StringRef> db = op.getTuningDb())
    request.tuningDb = db->str();
  request.splitK = static_cast<bool>(op.getSplitK());
  request.accumulatorInSmem = op.getAccumulatorInSmem();
  request.staticSmem = op.getStaticSmem();
  request.mmaSync = op.getMmaSync();
  request.allowTf32 = op.getAllowTf32();
  // tf32 is a precision the tensor-core kernel offers; the SIMT kernels
  // multiply f32 in f32, so the attribute would promise nothing there.
  if (request.allowTf32 && !request.mmaSync)
    return app.fail(refuse(nullptr, "allow_tf32 is a promise of the "
                                    "tensor-core kernel: give mma_sync too, "
                                    "or drop allow_tf32"));
  return DiagnosedSilenceableFailure::success();
}

/// Sets the results: each list concatenates the decisions' values in
/// payload order.
static void setResults(hwsched::SelectTileConfigOp op,
                       TransformResults &results,
                       ArrayRef<TileConfigDecision> decisions) {
  Builder b(op.getContext());
  auto set = [&](Value result, auto values) {
    SmallVector<Attribute> params;
    for (const TileConfigDecision &d : decisions)
      for (int64_t v : values(d.selection))
        params.push_back(b.getI64IntegerAttr(v));
    results.setParams(cast<OpResult>(result), params);
  };
  using Values = SmallVector<int64_t>;
  set(op.getTileSizes(), [](const TileSelection &s) { return s.tileSizes; });
  set(op.getThreadTileSizes(),
      [](const TileSelection &s) { return s.threadTileSizes; });
  set(op.getReductionTileSizes(),
      [](const TileSelection &s) { return s.reductionTileSizes; });
  set(op.getNumStages(),
      [](const TileSelection &s) { return Values{s.numStages}; });
  set(op.getNumThreads(), [](const TileSelection &s) { return s.numThreads; });
  if (op.getSplitK())
    set(op.getSplitK(),
        [](const TileSelection &s) { return Values{s.splitK}; });
}

DiagnosedSilenceableFailure
hwsched::SelectTileConfigOp::apply(transform::TransformRewriter &rewriter,
                                   transform::TransformResults &results,
                                   transform::TransformState &state) {
  OpApplication app(*this, results);
  TileConfigRequest request;
  if (DiagnosedSilenceableFailure read =
          readRequest(*this, state, app, request);
      !read.succeeded())
    return read;
  // Decide for every payload op before producing anything, so one bad op
  // fails the whole application with no partial results.
  std::vector<TileConfigDecision> decisions;
  for (Operation *payload : state.getPayloadOps(getOp())) {
    ResolvedTarget target;
    if (DiagnosedSilenceableFailure resolved = app.resolve(
            payload,
            {"target", "explain", "measure_top_k", "measure_samples",
             "packed_operands", "accumulator_in_smem", "static_smem",
             "mma_sync", "allow_tf32", "tuning_db", "candidate_rank",
             "candidates_file", "export_top_k"},
            target);
        !resolved.succeeded())
      return resolved;
    llvm::Expected<TileConfigDecision> decision =
        decideTileConfig(payload, std::move(target.spec), request);
    if (!decision)
      return app.fail(decision.takeError());
    decisions.push_back(std::move(*decision));
  }
  // Every decision is made: export them for a tuner.
  if (request.candidatesFile)
    for (const TileConfigDecision &d : decisions)
      if (llvm::Error err = d.exportTo(*request.candidatesFile, getLoc(),
                                       request.exportTopK.value_or(0)))
        return app.fail(std::move(err));
  for (const TileConfigDecision &d : decisions)
    for (const std::string &remark : d.remarks(getExplain()))
      d.payload->emitRemark() << remark;
  setResults(*this, results, decisions);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// transform.hwsched.match_mma_sync_matmuls
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::MatchMmaSyncMatmulsOp::apply(transform::TransformRewriter &rewriter,
                                      transform::TransformResults &results,
                                      transform::TransformState &state) {
  OpApplication app(*this, results);
  if (DiagnosedSilenceableFailure read = app.readInputs(state);
      !read.succeeded())
    return read;
  // Every op is routed before any remark, so a failure leaves none.
  struct Route {
    Operation *op;
    bool considered = false, taken = false;
    std::string why;
  };
  std::vector<Route> routes;
  TileConfigRequest request;
  request.mmaSync = true;
  request.allowTf32 = getAllowTf32();
  for (Operation *payload : state.getPayloadOps(getOps())) {
    ResolvedTarget target;
    if (DiagnosedSilenceableFailure resolved =
            app.resolve(payload, {"target", "explain", "allow_tf32"}, target);
        !resolved.succeeded())
      return resolved;
    Route &route = routes.emplace_back(Route{payload});
    MmaSyncRoute decided =
        routeToMmaSync(payload, std::move(target.spec), request);
    route.considered = decided.considered;
    route.taken = decided.plan.has_value();
    route.why = route.taken ? "taken by the tensor-core kernel (mma.sync), "
                              "tiles from the cost model: " +
                                  *decided.plan
                            : "not taken by the tensor-core kernel "
                              "(mma.sync): " +
                                  decided.refusal;
  }
  SmallVector<Operation *> taken, others;
  for (Route &route : routes) {
    (route.taken ? taken : others).push_back(route.op);
    if (getExplain() && route.considered)
      route.op->emitRemark() << route.why;
  }
  results.set(cast<OpResult>(getTaken()), taken);
  results.set(cast<OpResult>(getOthers()), others);
  return DiagnosedSilenceableFailure::success();
}
