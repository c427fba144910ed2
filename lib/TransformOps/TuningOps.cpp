//===- TuningOps.cpp - transform.cost_model.tuned_knob --------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The knob op: the value a tuning database recorded for a script knob on a
// problem, else the knob's own. The decision lives in
// CostModel/TuningDecision.h; the op unpacks the knob, calls and reports.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/HwschedTransformOps.h"

#include "hwsched/CostModel/TuningDecision.h"
#include "hwsched/Support/PrintToString.h"
#include "hwsched/TransformOps/OpApplication.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"

#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;

namespace {
/// The knob an op reads: its name and options, the value the script gives
/// it, and where its decisions are exported (none when std::nullopt).
struct KnobInput {
  std::string name;
  SmallVector<int64_t> options;
  int64_t scriptValue = 0;
  std::optional<std::string> exportFile;
};
} // namespace

/// The knob's name and options: from the upstream knob op that defines it,
/// unless the op names them; its value from the transform state; the
/// candidates file from the op's attribute or the environment.
static llvm::Expected<KnobInput> readKnob(hwsched::TunedKnobOp op,
                                          TransformState &state) {
  KnobInput knob;
  knob.name = op.getName() ? op.getName()->str() : "";
  if (std::optional<ArrayRef<int64_t>> given = op.getOptions())
    knob.options.assign(given->begin(), given->end());
  if (auto def = op.getKnob().getDefiningOp<transform::tune::KnobOp>()) {
    if (knob.name.empty())
      knob.name = def.getName().str();
    if (!op.getOptions())
      if (auto list = dyn_cast<ArrayAttr>(def.getOptions()))
        for (Attribute option : list)
          if (auto integer = dyn_cast<IntegerAttr>(option))
            knob.options.push_back(integer.getValue().getSExtValue());
  }
  if (knob.name.empty())
    return refuse(nullptr, "the knob is not defined by transform.tune.knob "
                           "here: give its `name`");
  ArrayRef<Attribute> held = state.getParams(op.getKnob());
  if (held.size() != 1 || !isa<IntegerAttr>(held.front()))
    return refuse(nullptr, "knob '" + knob.name +
                               "' must hold exactly one integer, got " +
                               Twine(held.size()) + " value(s)");
  knob.scriptValue = cast<IntegerAttr>(held.front()).getValue().getSExtValue();
  knob.exportFile = findCandidatesFile(op.getCandidatesFile());
  return knob;
}

//===----------------------------------------------------------------------===//
// TunedKnobOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::TunedKnobOp::apply(transform::TransformRewriter &rewriter,
                            transform::TransformResults &results,
                            transform::TransformState &state) {
  OpApplication app(*this, results);
  if (DiagnosedSilenceableFailure read = app.readInputs(state);
      !read.succeeded())
    return read;
  llvm::Expected<KnobInput> knob = readKnob(*this, state);
  if (!knob)
    return app.fail(knob.takeError());
  std::vector<KnobDecision> decisions;
  for (Operation *payload : state.getPayloadOps(getOp())) {
    ResolvedTarget target;
    if (DiagnosedSilenceableFailure resolved =
            app.resolve(payload,
                        {"target", "name", "options", "tuning_db",
                         "candidates_file", "explain"},
                        target);
        !resolved.succeeded())
      return resolved;
    llvm::Expected<KnobDecision> decision =
        decideKnob(payload, target.spec, getTuningDb(), knob->name,
                   knob->options, knob->scriptValue);
    if (!decision)
      return app.fail(decision.takeError());
    decisions.push_back(std::move(*decision));
  }
  // One value for the scope: the problems the database answers must agree.
  llvm::Expected<int64_t> value =
      agreeOnKnobValue(decisions, knob->scriptValue);
  if (!value)
    return app.fail(value.takeError());
  for (const KnobDecision &d : decisions) {
    if (knob->exportFile)
      if (llvm::Error err = appendKnobExport(*knob->exportFile,
                                             makeKnobExport(d, knob->options)))
        return app.fail(std::move(err));
    if (d.fromDatabase || getExplain())
      d.payload->emitRemark() << printToString(d);
  }
  results.setParams(cast<OpResult>(getValue()),
                    {Builder(getContext()).getI64IntegerAttr(*value)});
  return DiagnosedSilenceableFailure::success();
}
