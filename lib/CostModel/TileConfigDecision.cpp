//===- TileConfigDecision.cpp - select_tile_config's whole decision -------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Its own library (HwschedTileConfigDecision): measurement links the JIT,
// which the rest of the cost model does without.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/TileConfigDecision.h"

#include "hwsched/CostModel/TileMeasurement.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace hwsched;

/// Samples per candidate in measurement mode unless `measure_samples` says.
static constexpr int64_t kDefaultMeasureSamples = 5;

/// Candidates listed by `explain` besides the counts.
static constexpr size_t kExplainedCandidates = 5;

static std::string describeType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

//===----------------------------------------------------------------------===//
// The tensor-core kernel's payloads
//===----------------------------------------------------------------------===//

/// The element types the kernel multiplies: f16 and bf16 (mma.sync
/// m16n8k16), and f32 as tf32 (m16n8k8) only when the script allows it,
/// since tf32 rounds the inputs to 10-bit mantissas. bf16 is as wide as f16
/// (the tile rules see widths only); its mma.sync needs sm_80 (PTX ISA:
/// `.bf16` mma from sm_80; f16's m16n8k16 and the kernel's cp.async need it
/// too, but bf16 is refused here by name so that the user reads why).
static llvm::Error checkMmaSyncTypes(linalg::LinalgOp op, const HwSpec &spec,
                                     bool allowTf32) {
  auto elementType = [](Value v) { return getElementTypeOrSelf(v.getType()); };
  for (OpOperand *input : op.getDpsInputOperands()) {
    Type type = elementType(input->get());
    std::string which = "input #" + std::to_string(input->getOperandNumber()) +
                        " is " + describeType(type);
    if (type.isF32() && !allowTf32)
      return refuse(op, "mma_sync: " + which +
                            ": the tensor-core kernel multiplies f32 inputs "
                            "only as tf32 (mma.sync m16n8k8: A and B "
                            "rounded to 10-bit mantissas, f32 "
                            "accumulation), which changes the result; set "
                            "allow_tf32 to accept that, or drop mma_sync "
                            "to use the SIMT rules");
    if (!type.isF16() && !type.isBF16() && !type.isF32())
      return refuse(op, "mma_sync: the tensor-core kernel multiplies f16 "
                        "or bf16 inputs (mma.sync m16n8k16), or f32 inputs "
                        "as tf32 with allow_tf32 (m16n8k8); " +
                            which +
                            " (MLIR 22's vector-to-nvgpu conversion has no "
                            "fragments for it): drop mma_sync to use the "
                            "SIMT rules");
    if (type.isBF16()) {
      std::optional<int64_t> cc = gpuComputeCapability(spec);
      if (!cc || *cc < 80)
        return refuse(
            op, "mma_sync: " + which +
                    ": the tensor cores multiply bf16 from sm_80 (mma.sync "
                    "m16n8k16 .bf16); spec '" +
                    spec.getName() + "' is " +
                    (cc ? "sm_" + std::to_string(*cc)
                        : std::string("of no known compute capability")) +
                    ": pick an sm_80 or later target, or drop mma_sync to "
                    "use the SIMT rules");
    }
  }
  Type lhsType = elementType(op.getDpsInputOperand(0)->get());
  Type rhsType = elementType(op.getDpsInputOperand(1)->get());
  if (lhsType != rhsType)
    return refuse(op, "mma_sync: the tensor-core kernel multiplies inputs "
                      "of one type; these are " +
                          describeType(lhsType) + " and " +
                          describeType(rhsType) +
                          " (mma.sync takes A and B of one type): convert "
                          "one to the other's type first (a linalg.generic "
                          "of arith.extf and arith.truncf)");
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!elementType(init.get()).isF32())
      return refuse(op, "mma_sync: the tensor-core kernel accumulates "
                        "in f32; the result is " +
                            describeType(elementType(init.get())));
  return llvm::Error::success();
}

llvm::Error hwsched::checkMmaSyncEligible(Operation *payload,
                                          const HwSpec &spec, bool allowTf32,
                                          bool requireFillInit) {
  if (spec.getKind() != HwKind::Gpu)
    return refuse(payload, "mma_sync: the tensor-core kernel runs on GPU "
                           "targets; spec '" +
                               spec.getName() + "' is a " +
                               stringifyHwKind(spec.getKind()).str() +
                               " target");
  auto matmul = dyn_cast<linalg::MatmulOp>(payload);
  if (!matmul)
    return refuse(payload, "mma_sync: the tensor-core kernel takes a "
                           "linalg.matmul, not '" +
                               payload->getName().getStringRef().str() +
                               "'; drop mma_sync to use the SIMT rules");
  if (matmul.hasUserDefinedMaps())
    return refuse(payload, "mma_sync: the matmul has user-defined indexing "
                           "maps (a transposed operand); the kernel reads A "
                           "as M x K and B as K x N");
  if (llvm::Error err = checkMmaSyncTypes(matmul, spec, allowTf32))
    return err;
  if (!matmul.hasPureTensorSemantics())
    return refuse(payload, "mma_sync: the matmul is on buffers; the kernel "
                           "is built from tensors (before bufferization)");
  for (Operation *parent = payload->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->getName().getStringRef() == "gpu.launch")
      return refuse(payload,
                    "mma_sync: the matmul is already inside a gpu.launch");
  if (requireFillInit &&
      !matmul.getDpsInits()[0].getDefiningOp<linalg::FillOp>())
    return refuse(payload, "mma_sync: the kernel fuses the init of C, which "
                           "must be a linalg.fill; this init is not (C += A "
                           "x B: split_accumulation makes it a filled "
                           "product and an addition)");
  return llvm::Error::success();
}

/// The refusal in `error` with its culprit reported as "payload op" (a note
/// at it) rather than by its op name.
static llvm::Error notePayload(llvm::Error error) {
  Refusal refusal = takeRefusal(std::move(error));
  if (refusal.culprit) {
    refusal.notes.insert(refusal.notes.begin(),
                         RefusalNote{refusal.culprit->getLoc(), "payload op"});
    refusal.culprit = nullptr;
  }
  return refuse(std::move(refusal));
}

/// Checks `packed` against `payload` and records the packed GEMM operands in
/// `problem`: every index names an operand of the payload op that plays the
/// M x K, K x N or M x N role, at most once.
static llvm::Error markPackedOperands(Operation *payload,
                                      ArrayRef<int64_t> packed,
                                      TileProblem &problem) {
  auto fail = [&](const Twine &message) {
    return refuse(Refusal(nullptr, "packed_operands: " + message)
                      .note(payload->getLoc(), "payload op"));
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
  return llvm::Error::success();
}

/// Applies the tuning database, else `candidate_rank`, to a decision the
/// model has made: moves the chosen feasible candidate to the front.
static llvm::Error applyTuning(const TileConfigRequest &request,
                               TileConfigDecision &d) {
  TuningOutcome &out = d.tuning;
  TileSelection &selection = d.selection;
  if (request.packedOperands)
    out.schedule.packedOperands.assign(request.packedOperands->begin(),
                                       request.packedOperands->end());
  out.schedule.splitK = d.problem.splitK;
  out.schedule.accumulatorInSmem = d.problem.accumulatorInSmem;
  out.schedule.staticSmem = d.problem.staticSmem;
  out.schedule.mmaSync = d.problem.mmaSync;
  std::optional<StringRef> tuningDb;
  if (request.tuningDb)
    tuningDb = *request.tuningDb;
  llvm::Expected<TuningLookup> looked =
      lookUpTuning(d.payload, tuningDb, d.spec);
  if (!looked)
    return looked.takeError();
  out.lookup = std::move(*looked);
  const TuningLookup &l = out.lookup;
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
        return refuse(d.payload,
                      l.describeSource() + ": at 'entries.\"" + l.key +
                          "\".config': " + config + " is not among the " +
                          std::to_string(selection.ranked.size()) +
                          " feasible candidates of the model on spec '" +
                          d.spec.getName() +
                          "' (re-tune, or delete the entry)");
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
      pickCandidate(d.problem, selection, *index);
      selection.why = "from the tuning database (" + config + measured +
                      "), the model's rank #" + std::to_string(*index + 1) +
                      "; the model's own pick: " + selection.why;
      return llvm::Error::success();
    }
  }
  std::optional<int64_t> rank = request.candidateRank;
  if (!rank || *rank == 0)
    return llvm::Error::success();
  if (static_cast<size_t>(*rank) >= selection.ranked.size())
    return refuse(d.payload, llvm::formatv("candidate_rank {0} but the model "
                                           "has {1} feasible candidates",
                                           *rank, selection.ranked.size()));
  out.chosenBy = "candidate_rank";
  pickCandidate(d.problem, selection, *rank);
  selection.why = llvm::formatv("candidate_rank {0}: the model's #{1} "
                                "(estimated {2:F0} ns); the model's own pick: "
                                "{3}",
                                *rank, *rank + 1,
                                selection.ranked.front().timeNs, selection.why)
                      .str();
  return llvm::Error::success();
}

/// Measurement mode: measures the model's best candidates on the host when
/// the pick is the model's and the spec describes the host (a CPU).
static void measure(const TileConfigRequest &request, TileConfigDecision &d) {
  if (!request.measureTopK)
    return;
  if (d.tuning.chosenBy != "model") {
    d.measurement = "select_tile_config: measure_top_k not applied: the "
                    "pick comes from the " +
                    d.tuning.chosenBy;
    return;
  }
  // Candidates run on the host, so only a CPU spec describes them.
  if (d.spec.getKind() != HwKind::Cpu)
    d.measurement =
        llvm::formatv("select_tile_config: measurement impossible "
                      "(measurement runs candidates on the host CPU and "
                      "target '{0}' is a {1}): kept the model's pick",
                      d.spec.getName(), stringifyHwKind(d.spec.getKind()))
            .str();
  else if (refineTileSelectionByMeasurement(
               d.payload, d.problem, d.selection, *request.measureTopK,
               request.measureSamples.value_or(kDefaultMeasureSamples),
               d.measurement))
    d.tuning.chosenBy = "measurement";
}

llvm::Expected<TileConfigDecision>
hwsched::decideTileConfig(Operation *payload, HwSpec spec,
                          const TileConfigRequest &request) {
  TileConfigDecision d;
  d.payload = payload;
  d.spec = std::move(spec);
  llvm::Expected<TileProblem> problem = analyzeTileProblem(payload);
  if (!problem)
    return notePayload(problem.takeError());
  d.problem = std::move(*problem);
  // The split-K result is the script's promise to apply the split.
  d.problem.splitK = request.splitK;
  // What the script's schedule keeps in shared memory (GPU rule only).
  d.problem.accumulatorInSmem = request.accumulatorInSmem;
  d.problem.staticSmem = request.staticSmem;
  d.problem.mmaSync = request.mmaSync;
  SmallVector<std::string> opNotes;
  if (request.packedOperands) {
    if (llvm::Error err =
            markPackedOperands(payload, *request.packedOperands, d.problem))
      return std::move(err);
    if (d.spec.getKind() != HwKind::Cpu)
      opNotes.push_back(
          llvm::formatv("packed_operands ignored: the {0} rule stages "
                        "tiles in on-chip memory whether or not the "
                        "schedule packs them",
                        stringifyHwKind(d.spec.getKind()))
              .str());
  }
  d.problem.allowTf32 = request.allowTf32;
  if (request.mmaSync)
    if (llvm::Error err = checkMmaSyncEligible(
            payload, d.spec, request.allowTf32, !request.assumeFilledInit))
      return notePayload(std::move(err));
  llvm::Expected<TileSelection> selected = selectTileConfig(d.problem, d.spec);
  if (!selected)
    return notePayload(withCulprit(selected.takeError(), payload));
  d.selection = std::move(*selected);
  // Not an insert of an empty range: SmallVector would self-move its
  // strings (libstdc++ empties a self-moved string).
  if (!opNotes.empty())
    d.selection.notes.insert(d.selection.notes.begin(), opNotes.begin(),
                             opNotes.end());
  if (request.candidatesFile)
    d.modelOrder = d.selection.ranked;
  if (llvm::Error err = applyTuning(request, d))
    return std::move(err);
  measure(request, d);
  return d;
}

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

static std::string formatList(ArrayRef<int64_t> values) {
  std::string text = "[";
  for (auto [i, v] : llvm::enumerate(values))
    text += (i ? ", " : "") + std::to_string(v);
  return text + "]";
}

MmaSyncRoute hwsched::routeToMmaSync(Operation *payload, HwSpec spec,
                                     const TileConfigRequest &request) {
  MmaSyncRoute route;
  if (!isMmaSyncTarget(spec))
    return route;
  route.considered = true;
  // The kernel's payload checks (checkMmaSyncEligible) and its tile rules,
  // as select_tile_config { mma_sync } decides later.
  llvm::Expected<TileConfigDecision> decision =
      decideTileConfig(payload, std::move(spec), request);
  if (!decision) {
    route.refusal = takeRefusal(decision.takeError()).message;
    return route;
  }
  std::string plan;
  llvm::raw_string_ostream os(plan);
  printTileCandidate(os, decision->selection.ranked.front(), HwKind::Gpu);
  route.plan = std::move(plan);
  return route;
}

void hwsched::printTileCandidate(llvm::raw_ostream &os, const TileCandidate &c,
                                 HwKind kind) {
  if (c.mmaSync)
    os << llvm::formatv("tile {0}x{1}x{2}, warp {3}x{4} of mma.sync "
                        "m16n8k{5}{6}",
                        c.bm, c.bn, c.bk, c.wm, c.wn, c.tk,
                        c.tf32 ? " (tf32)" : (c.bf16 ? " (bf16)" : ""));
  else
    os << llvm::formatv("tile {0}x{1}x{2}, inner {3}x{4}", c.bm, c.bn, c.bk,
                        c.tm, c.tn);
  if (kind == HwKind::Gpu && c.wm && !c.mmaSync)
    os << llvm::formatv(", warp {0}x{1}", c.wm, c.wn);
  os << llvm::formatv(", {0} stages", c.stages);
  if (kind == HwKind::Gpu)
    os << llvm::formatv(
        ", split_k {0}, {1} threads: {2} registers/thread, "
        "{3} shared bytes{4}, {5} blocks/SM, occupancy {6:F3}",
        c.splitK, c.threads, c.registers, c.onchipBytes,
        c.accumulatorBytes
            ? llvm::formatv(" (accumulator {0})", c.accumulatorBytes).str()
            : std::string(),
        c.blocksPerSm, c.occupancy);
  else if (kind == HwKind::Npu)
    os << llvm::formatv(": {0} UB bytes (live x ping-pong)", c.onchipBytes);
  else
    os << llvm::formatv(": {0} vector registers, {1} L1 bytes, {2} L2 "
                        "bytes, {3} thread(s)",
                        c.registers, c.l1Bytes, c.onchipBytes,
                        std::max<int64_t>(c.panelThreads, 1));
  os << llvm::formatv(", {0} blocks, {1:F2} waves (efficiency {2:F2}), "
                      "score {3:F0} ns",
                      c.blocks, c.waves, c.waveEfficiency, c.timeNs);
}

SmallVector<std::string> TileConfigDecision::remarks(bool explain) const {
  SmallVector<std::string> out;
  const TileSelection &s = selection;
  // Padding and dynamic-extent assumptions change what the user must do
  // (pad, guard), so they are reported even without `explain`.
  for (const std::string &note : s.notes)
    out.push_back("select_tile_config: " + note);
  // Measured times (or why there are none) are what the user asked for
  // with measure_top_k: reported without `explain` too.
  if (!measurement.empty())
    out.push_back(measurement);
  // A database that changed (or could not change) the decision says so.
  if (!tuning.remark.empty())
    out.push_back(tuning.remark);
  if (!explain)
    return out;
  int64_t prunedTotal = 0;
  std::string pruned;
  for (auto &[rule, count] : s.pruned) {
    prunedTotal += count;
    pruned += llvm::formatv("; {0}: {1}", rule, count).str();
  }
  std::string overrides;
  for (const std::string &o : spec.getAppliedOverrides())
    overrides += (overrides.empty() ? " with " : ", ") + o;
  out.push_back(llvm::formatv(
      "select_tile_config on '{0}'{1} for a {2} (batch {3}, M {4}, N {5}, "
      "K {6}): tile_sizes {7}, thread_tile_sizes {8}, "
      "reduction_tile_sizes {9}, num_stages {10}, num_threads {11}{12}",
      spec.getName(), overrides, stringifyTileProblemKind(problem.kind),
      s.gemmBatch, s.gemmM, s.gemmN, s.gemmK, formatList(s.tileSizes),
      formatList(s.threadTileSizes), formatList(s.reductionTileSizes),
      s.numStages, formatList(s.numThreads),
      problem.splitK ? llvm::formatv(", split_k {0}", s.splitK).str() : ""));
  // No timing in the remark: the same input must give the same output
  // (the time is the "hwsched::selectTileConfig" time-trace event).
  out.push_back(
      llvm::formatv("candidates: {0} enumerated, {1} feasible, {2} pruned{3}",
                    s.enumerated, s.ranked.size(), prunedTotal, pruned));
  if (!s.smemRule.empty())
    out.push_back(s.smemRule);
  if (tuning.lookup.database && tuning.remark.empty())
    out.push_back(tuning.lookup.describeSource() + ": " +
                  tuning.databaseStatus + " for '" + tuning.lookup.key +
                  "', the model decides");
  for (size_t i = 0; i < std::min(kExplainedCandidates, s.ranked.size()); ++i) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "candidate #" << (i + 1) << ": ";
    printTileCandidate(os, s.ranked[i], spec.getKind());
    out.push_back(std::move(text));
  }
  // The SM-fill rule, when the best-scored grid leaves too many SMs idle:
  // what it picked instead (or that nothing reaches the threshold).
  if (!s.fillRule.empty())
    out.push_back(s.fillRule);
  out.push_back("winner: " + s.why);
  return out;
}

void TileConfigDecision::print(llvm::raw_ostream &os) const {
  for (const std::string &remark : remarks(/*explain=*/true))
    os << remark << "\n";
}

llvm::Error TileConfigDecision::exportTo(StringRef path, Location opLoc,
                                         int64_t topK) const {
  CandidateExport line;
  line.key = tuning.lookup.key;
  line.signature = tuning.lookup.signature;
  line.spec = &spec;
  line.schedule = tuning.schedule;
  line.problem = &problem;
  TileSelection modelSelection = selection;
  modelSelection.ranked = modelOrder;
  line.selection = &modelSelection;
  line.payloadLoc = formatLocation(payload->getLoc());
  line.opLoc = formatLocation(opLoc);
  TunedConfig chosen = TunedConfig::of(selection.ranked.front());
  line.chosen = findCandidate(modelSelection, chosen).value_or(0);
  line.chosenBy = tuning.chosenBy;
  line.database = tuning.lookup.source.path;
  line.databaseStatus = tuning.databaseStatus;
  line.topK = topK;
  return appendCandidateExport(path, line);
}
