//===- TileConfigOps.cpp - transform.cost_model.select_tile_config -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The op reads each payload op into a TileProblem, lets the tile rules of
// the resolved spec choose, and returns the choice as parameters. It never
// changes the payload.
//
//===----------------------------------------------------------------------===//

#include "TuningSupport.h"

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/Analysis/TileProblem.h"
#include "hwsched/CostModel/TileConfig.h"
#include "hwsched/CostModel/TileMeasurement.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/TransformOps/TargetResolution.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <tuple>

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

/// Samples per candidate in measurement mode unless `measure_samples` says.
static constexpr int64_t kDefaultMeasureSamples = 5;

/// Candidates listed by `explain` besides the counts.
static constexpr size_t kExplainedCandidates = 5;

static std::string formatList(ArrayRef<int64_t> values) {
  std::string text = "[";
  for (auto [i, v] : llvm::enumerate(values))
    text += (i ? ", " : "") + std::to_string(v);
  return text + "]";
}

static std::string describeCandidate(const TileCandidate &c, HwKind kind) {
  std::string text = llvm::formatv("tile {0}x{1}x{2}, inner {3}x{4}", c.bm,
                                   c.bn, c.bk, c.tm, c.tn)
                         .str();
  if (kind == HwKind::Gpu && c.wm)
    text += llvm::formatv(", warp {0}x{1}", c.wm, c.wn).str();
  text += llvm::formatv(", {0} stages", c.stages).str();
  if (kind == HwKind::Gpu)
    text +=
        llvm::formatv(
            ", split_k {0}, {1} threads: {2} registers/thread, "
            "{3} shared bytes{4}, {5} blocks/SM, occupancy {6:F3}",
            c.splitK, c.threads, c.registers, c.onchipBytes,
            c.accumulatorBytes
                ? llvm::formatv(" (accumulator {0})", c.accumulatorBytes).str()
                : std::string(),
            c.blocksPerSm, c.occupancy)
            .str();
  else if (kind == HwKind::Npu)
    text +=
        llvm::formatv(": {0} UB bytes (live x ping-pong)", c.onchipBytes).str();
  else
    text += llvm::formatv(": {0} vector registers, {1} L1 bytes, {2} L2 "
                          "bytes, {3} thread(s)",
                          c.registers, c.l1Bytes, c.onchipBytes,
                          std::max<int64_t>(c.panelThreads, 1))
                .str();
  text += llvm::formatv(", {0} blocks, {1:F2} waves (efficiency {2:F2}), "
                        "score {3:F0} ns",
                        c.blocks, c.waves, c.waveEfficiency, c.timeNs)
              .str();
  return text;
}

/// Checks `packed_operands` against `payload` and records the packed GEMM
/// operands in `problem`: every index names an operand of the payload op
/// that plays the M x K, K x N or M x N role, at most once.
static DiagnosedSilenceableFailure
markPackedOperands(hwsched::SelectTileConfigOp op, Operation *payload,
                   ArrayRef<int64_t> packed, TileProblem &problem) {
  auto fail = [&](const Twine &message) {
    DiagnosedSilenceableFailure diag = op.emitSilenceableError()
                                       << "packed_operands: " << message;
    diag.attachNote(payload->getLoc()) << "payload op";
    return diag;
  };
  llvm::SmallDenseSet<int64_t> seen;
  int64_t count = static_cast<int64_t>(problem.operandRoles.size());
  for (int64_t index : packed) {
    if (index < 0 || index >= count)
      return fail(llvm::formatv("operand index {0} out of range: '{1}' has "
                                "{2} operands",
                                index, payload->getName().getStringRef(),
                                count));
    if (!seen.insert(index).second)
      return fail(llvm::formatv("operand index {0} given twice", index));
    switch (problem.operandRoles[index]) {
    case TileProblem::Role::Lhs:
      problem.packedLhs = true;
      break;
    case TileProblem::Role::Rhs:
      problem.packedRhs = true;
      break;
    case TileProblem::Role::Acc:
      problem.packedAcc = true;
      break;
    case TileProblem::Role::Other:
      return fail(llvm::formatv(
          "operand {0} of '{1}' ({2} op) is not an M x K, K x N or M x N "
          "operand of a GEMM view; only contraction and convolution "
          "operands can be packed",
          index, payload->getName().getStringRef(),
          stringifyTileProblemKind(problem.kind)));
    }
  }
  return DiagnosedSilenceableFailure::success();
}

namespace {
/// Where one decision's pick came from, for the remarks and the export.
struct TuningOutcome {
  tuning::TuningLookup lookup;
  TuningSchedule schedule;
  /// "model", "candidate_rank", "database" or "measurement".
  std::string chosenBy = "model";
  /// "hit", "no entry", "no configuration", "schedule differs"; empty
  /// without a database.
  std::string databaseStatus;
  /// The remark saying what the database did (empty when it did nothing
  /// worth a remark without `explain`).
  std::string remark;
};
} // namespace

/// Applies the tuning database, else `candidate_rank`, to a decision the
/// model has made: moves the chosen feasible candidate to the front.
static DiagnosedSilenceableFailure applyTuning(
    hwsched::SelectTileConfigOp op, Operation *payload, const HwSpec &spec,
    const TileProblem &problem, std::optional<ArrayRef<int64_t>> packed,
    std::optional<int64_t> rank, TileSelection &selection, TuningOutcome &out) {
  out.schedule.packedOperands.assign(packed ? packed->begin() : nullptr,
                                     packed ? packed->end() : nullptr);
  out.schedule.splitK = problem.splitK;
  out.schedule.accumulatorInSmem = problem.accumulatorInSmem;
  out.schedule.staticSmem = problem.staticSmem;
  DiagnosedSilenceableFailure looked =
      tuning::lookUpTuning(op, payload, op.getTuningDb(), spec, out.lookup);
  if (!looked.succeeded())
    return looked;
  const tuning::TuningLookup &l = out.lookup;
  const TileCandidate modelPick = selection.ranked.front();
  if (l.database) {
    std::string schedule;
    llvm::raw_string_ostream ss(schedule);
    if (!l.record) {
      out.databaseStatus = "no entry";
    } else if (!l.record->config) {
      out.databaseStatus = "no configuration";
    } else if (l.record->schedule && !(*l.record->schedule == out.schedule)) {
      out.databaseStatus = "schedule differs";
      l.record->schedule->print(ss);
      ss << " there, ";
      out.schedule.print(ss);
      ss << " here";
      out.remark = l.describeSource() + ": the entry '" + l.key +
                   "' was tuned for another schedule (" + schedule +
                   "): not used, the model decides";
    } else {
      std::optional<size_t> index = findCandidate(selection, *l.record->config);
      std::string config;
      llvm::raw_string_ostream cs(config);
      l.record->config->print(cs);
      if (!index)
        return silenceable(
            op,
            Refusal(payload,
                    l.describeSource() + ": at 'entries.\"" + l.key +
                        "\".config': " + config + " is not among the " +
                        std::to_string(selection.ranked.size()) +
                        " feasible candidates of the model on spec '" +
                        spec.getName() + "' (re-tune, or delete the entry)"));
      out.databaseStatus = "hit";
      out.chosenBy = "database";
      std::string measured =
          l.record->measuredNs >= 0
              ? llvm::formatv(", measured {0:F0} ns", l.record->measuredNs)
                    .str()
              : "";
      out.remark = llvm::formatv(
          "select_tile_config: from {0}, entry '{1}': {2}{3}; the model "
          "ranks it #{4} of {5} (estimated {6:F0} ns; its own pick {7:F0} "
          "ns)",
          l.describeSource(), l.key, config, measured, *index + 1,
          selection.ranked.size(), selection.ranked[*index].timeNs,
          modelPick.timeNs);
      pickCandidate(problem, selection, *index);
      selection.why = "from the tuning database (" + config + measured +
                      "), the model's rank #" + std::to_string(*index + 1) +
                      "; the model's own pick: " + selection.why;
      return DiagnosedSilenceableFailure::success();
    }
  }
  if (!rank || *rank == 0)
    return DiagnosedSilenceableFailure::success();
  if (static_cast<size_t>(*rank) >= selection.ranked.size())
    return silenceable(
        op, Refusal(payload, llvm::formatv("candidate_rank {0} but the model "
                                           "has {1} feasible candidates",
                                           *rank, selection.ranked.size())));
  out.chosenBy = "candidate_rank";
  pickCandidate(problem, selection, *rank);
  selection.why = llvm::formatv("candidate_rank {0}: the model's #{1} "
                                "(estimated {2:F0} ns); the model's own pick: "
                                "{3}",
                                *rank, *rank + 1,
                                selection.ranked.front().timeNs, selection.why)
                      .str();
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
hwsched::SelectTileConfigOp::apply(transform::TransformRewriter &rewriter,
                                   transform::TransformResults &results,
                                   transform::TransformState &state) {
  auto payloads = llvm::to_vector(state.getPayloadOps(getOp()));
  NumericInputs inputs;
  std::optional<int64_t> topK, samples;
  auto fail = [&](DiagnosedSilenceableFailure failure) {
    results.setRemainingToEmpty(*this);
    return failure;
  };
  if (DiagnosedSilenceableFailure read =
          NumericInputs::read(*this, state, inputs, {"packed_operands"});
      !read.succeeded())
    return fail(std::move(read));
  std::optional<int64_t> rank, exportTopK;
  for (auto [name, minimum, value] :
       {std::tuple{"measure_top_k", 1, &topK},
        std::tuple{"measure_samples", 1, &samples},
        std::tuple{"candidate_rank", 0, &rank},
        std::tuple{"export_top_k", 0, &exportTopK}})
    if (DiagnosedSilenceableFailure check =
            inputs.getInteger(name, minimum, *value);
        !check.succeeded())
      return fail(std::move(check));
  std::optional<std::string> exportFile =
      findCandidatesFile(getCandidatesFile());
  std::optional<ArrayRef<int64_t>> packedOperands;
  if (auto packed =
          dyn_cast_or_null<DenseI64ArrayAttr>(inputs.get("packed_operands")))
    packedOperands = packed.asArrayRef();
  struct Decision {
    Operation *payload;
    ResolvedTarget target;
    TileProblem problem;
    TileSelection selection;
    /// Measurement mode: the measured times or why nothing was measured.
    std::string measurement;
    TuningOutcome tuning;
    /// The model's ranking before any choice, for the candidates export.
    std::vector<TileCandidate> modelOrder;
  };
  std::vector<Decision> decisions;
  // Decide for every payload op before producing anything, so one bad op
  // fails the whole application with no partial results.
  for (Operation *payload : payloads) {
    Decision d;
    d.payload = payload;
    DiagnosedSilenceableFailure resolved = resolveTarget(
        *this, payload,
        {"target", "explain", "measure_top_k", "measure_samples",
         "packed_operands", "accumulator_in_smem", "static_smem", "tuning_db",
         "candidate_rank", "candidates_file", "export_top_k"},
        d.target, &inputs);
    if (!resolved.succeeded()) {
      results.setRemainingToEmpty(*this);
      return resolved;
    }
    llvm::Expected<TileProblem> problem = analyzeTileProblem(payload);
    if (!problem) {
      results.setRemainingToEmpty(*this);
      return silenceable(*this, problem.takeError(), "payload op");
    }
    d.problem = std::move(*problem);
    // The split-K result is the script's promise to apply the split.
    d.problem.splitK = static_cast<bool>(getSplitK());
    // What the script's schedule keeps in shared memory (GPU rule only).
    d.problem.accumulatorInSmem = getAccumulatorInSmem();
    d.problem.staticSmem = getStaticSmem();
    SmallVector<std::string> opNotes;
    if (packedOperands) {
      DiagnosedSilenceableFailure marked =
          markPackedOperands(*this, payload, *packedOperands, d.problem);
      if (!marked.succeeded()) {
        results.setRemainingToEmpty(*this);
        return marked;
      }
      if (d.target.spec.getKind() != HwKind::Cpu)
        opNotes.push_back(
            llvm::formatv("packed_operands ignored: the {0} rule stages "
                          "tiles in on-chip memory whether or not the "
                          "schedule packs them",
                          stringifyHwKind(d.target.spec.getKind()))
                .str());
    }
    llvm::Expected<TileSelection> selected =
        selectTileConfig(d.problem, d.target.spec);
    if (!selected) {
      results.setRemainingToEmpty(*this);
      return silenceable(*this, withCulprit(selected.takeError(), payload),
                         "payload op");
    }
    d.selection = std::move(*selected);
    // Not an insert of an empty range: SmallVector would self-move its
    // strings (libstdc++ empties a self-moved string).
    if (!opNotes.empty())
      d.selection.notes.insert(d.selection.notes.begin(), opNotes.begin(),
                               opNotes.end());
    if (exportFile)
      d.modelOrder = d.selection.ranked;
    DiagnosedSilenceableFailure tuned =
        applyTuning(*this, payload, d.target.spec, d.problem, packedOperands,
                    rank, d.selection, d.tuning);
    if (!tuned.succeeded())
      return fail(std::move(tuned));
    if (topK && d.tuning.chosenBy != "model") {
      d.measurement = "select_tile_config: measure_top_k not applied: the "
                      "pick comes from the " +
                      d.tuning.chosenBy;
    } else if (topK) {
      // Candidates run on the host, so only a CPU spec describes them.
      if (d.target.spec.getKind() != HwKind::Cpu)
        d.measurement =
            llvm::formatv("select_tile_config: measurement impossible "
                          "(measurement runs candidates on the host CPU and "
                          "target '{0}' is a {1}): kept the model's pick",
                          d.target.spec.getName(),
                          stringifyHwKind(d.target.spec.getKind()))
                .str();
      else if (refineTileSelectionByMeasurement(
                   payload, d.problem, d.selection, *topK,
                   samples.value_or(kDefaultMeasureSamples), d.measurement))
        d.tuning.chosenBy = "measurement";
    }
    decisions.push_back(std::move(d));
  }

  // Every decision is made: export them for a tuner.
  if (exportFile)
    for (Decision &d : decisions) {
      CandidateExport line;
      line.key = d.tuning.lookup.key;
      line.signature = d.tuning.lookup.signature;
      line.spec = &d.target.spec;
      line.schedule = d.tuning.schedule;
      line.problem = &d.problem;
      TileSelection modelSelection = d.selection;
      modelSelection.ranked = d.modelOrder;
      line.selection = &modelSelection;
      line.payloadLoc = tuning::formatLocation(d.payload->getLoc());
      line.opLoc = tuning::formatLocation(getLoc());
      TunedConfig chosen = TunedConfig::of(d.selection.ranked.front());
      line.chosen = findCandidate(modelSelection, chosen).value_or(0);
      line.chosenBy = d.tuning.chosenBy;
      line.database = d.tuning.lookup.source.path;
      line.databaseStatus = d.tuning.databaseStatus;
      line.topK = exportTopK.value_or(0);
      if (llvm::Error err = appendCandidateExport(*exportFile, line))
        return fail(silenceable(*this, std::move(err)));
    }

  Builder b(getContext());
  SmallVector<Attribute> tiles, threadTiles, reductionTiles, stages, threads,
      splits;
  auto append = [&](SmallVectorImpl<Attribute> &out, ArrayRef<int64_t> vals) {
    for (int64_t v : vals)
      out.push_back(b.getI64IntegerAttr(v));
  };
  for (Decision &d : decisions) {
    const TileSelection &s = d.selection;
    append(tiles, s.tileSizes);
    append(threadTiles, s.threadTileSizes);
    append(reductionTiles, s.reductionTileSizes);
    append(stages, {s.numStages});
    append(threads, s.numThreads);
    append(splits, {s.splitK});

    // Padding and dynamic-extent assumptions change what the user must do
    // (pad, guard), so they are reported even without `explain`.
    for (const std::string &note : s.notes)
      d.payload->emitRemark() << "select_tile_config: " << note;
    // Measured times (or why there are none) are what the user asked for
    // with measure_top_k: reported without `explain` too.
    if (!d.measurement.empty())
      d.payload->emitRemark() << d.measurement;
    // A database that changed (or could not change) the decision says so.
    if (!d.tuning.remark.empty())
      d.payload->emitRemark() << d.tuning.remark;
    if (!getExplain())
      continue;
    HwKind kind = d.target.spec.getKind();
    int64_t prunedTotal = 0;
    std::string pruned;
    for (auto &[rule, count] : s.pruned) {
      prunedTotal += count;
      pruned += llvm::formatv("; {0}: {1}", rule, count).str();
    }
    std::string overrides;
    for (const std::string &o : d.target.spec.getAppliedOverrides())
      overrides += (overrides.empty() ? " with " : ", ") + o;
    d.payload->emitRemark() << llvm::formatv(
        "select_tile_config on '{0}'{1} for a {2} (batch {3}, M {4}, N {5}, "
        "K {6}): tile_sizes {7}, thread_tile_sizes {8}, "
        "reduction_tile_sizes {9}, num_stages {10}, num_threads {11}{12}",
        d.target.spec.getName(), overrides,
        stringifyTileProblemKind(d.problem.kind), s.gemmBatch, s.gemmM, s.gemmN,
        s.gemmK, formatList(s.tileSizes), formatList(s.threadTileSizes),
        formatList(s.reductionTileSizes), s.numStages, formatList(s.numThreads),
        getSplitK() ? llvm::formatv(", split_k {0}", s.splitK).str() : "");
    // No timing in the remark: the same input must give the same output
    // (the time is the "hwsched::selectTileConfig" time-trace event).
    d.payload->emitRemark() << llvm::formatv(
        "candidates: {0} enumerated, {1} feasible, {2} pruned{3}", s.enumerated,
        s.ranked.size(), prunedTotal, pruned);
    if (!s.smemRule.empty())
      d.payload->emitRemark() << s.smemRule;
    if (d.tuning.lookup.database && d.tuning.remark.empty())
      d.payload->emitRemark()
          << d.tuning.lookup.describeSource() << ": " << d.tuning.databaseStatus
          << " for '" << d.tuning.lookup.key << "', the model decides";
    for (size_t i = 0; i < std::min(kExplainedCandidates, s.ranked.size()); ++i)
      d.payload->emitRemark() << "candidate #" << (i + 1) << ": "
                              << describeCandidate(s.ranked[i], kind);
    // The SM-fill rule, when the best-scored grid leaves too many SMs idle:
    // what it picked instead (or that nothing reaches the threshold).
    if (!s.fillRule.empty())
      d.payload->emitRemark() << s.fillRule;
    d.payload->emitRemark() << "winner: " << s.why;
  }
  results.setParams(cast<OpResult>(getTileSizes()), tiles);
  results.setParams(cast<OpResult>(getThreadTileSizes()), threadTiles);
  results.setParams(cast<OpResult>(getReductionTileSizes()), reductionTiles);
  results.setParams(cast<OpResult>(getNumStages()), stages);
  results.setParams(cast<OpResult>(getNumThreads()), threads);
  if (getSplitK())
    results.setParams(cast<OpResult>(getSplitK()), splits);
  return DiagnosedSilenceableFailure::success();
}

void hwsched::SelectTileConfigOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getOpMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}
