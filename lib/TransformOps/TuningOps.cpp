//===- TuningOps.cpp - transform.cost_model.tuned_knob --------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The knob op: the value a tuning database recorded for a script knob on a
// problem, else the knob's own. Also the lookup select_tile_config shares.
//
//===----------------------------------------------------------------------===//

#include "TuningSupport.h"

#include "hwsched/TransformOps/HwschedTransformOps.h"
#include "hwsched/TransformOps/RefusalDiagnostics.h"
#include "hwsched/TransformOps/TargetResolution.h"

#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::transform;
using namespace hwsched;
using namespace hwsched::tuning;

std::string TuningLookup::describeSource() const {
  std::string from = source.origin == "environment"
                         ? "$HWSCHED_TUNING_DB"
                         : (source.origin == "spec" ? "the spec's "
                                                      "tuning.database"
                                                    : "the op's tuning_db");
  return "tuning database '" + source.path + "' (from " + from + ")";
}

DiagnosedSilenceableFailure
tuning::lookUpTuning(transform::TransformOpInterface op, Operation *payload,
                     std::optional<StringRef> attribute, const HwSpec &spec,
                     TuningLookup &out) {
  llvm::Expected<ProblemSignature> signature = signProblem(payload);
  if (!signature)
    return silenceable(op, signature.takeError());
  out.signature = std::move(*signature);
  out.key = tuningKey(out.signature, spec);
  std::optional<TuningDatabaseSource> source =
      findTuningDatabase(attribute, spec);
  if (!source)
    return DiagnosedSilenceableFailure::success();
  out.source = *source;
  llvm::Expected<std::shared_ptr<const TuningDatabase>> database =
      TuningDatabase::load(source->path);
  if (!database)
    return silenceable(op, database.takeError());
  out.database = *database;
  out.record = out.database->lookup(out.key);
  return DiagnosedSilenceableFailure::success();
}

std::string tuning::formatLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", file.getFilename(), file.getLine(),
                         file.getColumn())
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// TunedKnobOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
hwsched::TunedKnobOp::apply(transform::TransformRewriter &rewriter,
                            transform::TransformResults &results,
                            transform::TransformState &state) {
  auto fail = [&](DiagnosedSilenceableFailure failure) {
    results.setRemainingToEmpty(*this);
    return failure;
  };
  NumericInputs inputs;
  if (DiagnosedSilenceableFailure read =
          NumericInputs::read(*this, state, inputs);
      !read.succeeded())
    return fail(std::move(read));

  // The knob's name and options: from the upstream knob op that defines it,
  // unless the op names them.
  std::string name = getName() ? getName()->str() : "";
  SmallVector<int64_t> options;
  if (std::optional<ArrayRef<int64_t>> given = getOptions())
    options.assign(given->begin(), given->end());
  if (auto knob = getKnob().getDefiningOp<transform::tune::KnobOp>()) {
    if (name.empty())
      name = knob.getName().str();
    if (!getOptions())
      if (auto list = dyn_cast<ArrayAttr>(knob.getOptions()))
        for (Attribute option : list)
          if (auto integer = dyn_cast<IntegerAttr>(option))
            options.push_back(integer.getValue().getSExtValue());
  }
  if (name.empty())
    return fail(emitSilenceableError()
                << "the knob is not defined by transform.tune.knob here: "
                   "give its `name`");
  ArrayRef<Attribute> held = state.getParams(getKnob());
  if (held.size() != 1 || !isa<IntegerAttr>(held.front()))
    return fail(emitSilenceableError()
                << "knob '" << name << "' must hold exactly one integer, got "
                << held.size() << " value(s)");
  int64_t scriptValue =
      cast<IntegerAttr>(held.front()).getValue().getSExtValue();

  struct Decision {
    Operation *payload;
    TuningLookup lookup;
    int64_t value;
    bool fromDatabase;
  };
  std::vector<Decision> decisions;
  for (Operation *payload : state.getPayloadOps(getOp())) {
    ResolvedTarget target;
    DiagnosedSilenceableFailure resolved =
        resolveTarget(*this, payload,
                      {"target", "name", "options", "tuning_db",
                       "candidates_file", "explain"},
                      target, &inputs);
    if (!resolved.succeeded())
      return fail(std::move(resolved));
    Decision d{payload, {}, scriptValue, false};
    DiagnosedSilenceableFailure looked =
        lookUpTuning(*this, payload, getTuningDb(), target.spec, d.lookup);
    if (!looked.succeeded())
      return fail(std::move(looked));
    if (d.lookup.record) {
      auto it = d.lookup.record->knobs.find(name);
      if (it != d.lookup.record->knobs.end()) {
        if (!options.empty() && !llvm::is_contained(options, it->second)) {
          DiagnosedSilenceableFailure diag =
              emitSilenceableError()
              << d.lookup.describeSource() << ": at 'entries.\"" << d.lookup.key
              << "\".knobs." << name << "': " << it->second
              << " is not an option of knob '" << name << "' (";
          llvm::interleaveComma(options, diag);
          diag << ")";
          return fail(std::move(diag));
        }
        d.value = it->second;
        d.fromDatabase = true;
      }
    }
    decisions.push_back(std::move(d));
  }

  // One value for the scope: the problems the database answers must agree.
  int64_t value = scriptValue;
  const Decision *decidedBy = nullptr;
  for (const Decision &d : decisions) {
    if (!d.fromDatabase)
      continue;
    if (decidedBy && d.value != value) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << d.lookup.describeSource() << " gives knob '" << name
          << "' different values for the problems of the handle ("
          << decidedBy->value << " for '" << decidedBy->lookup.key << "', "
          << d.value << " for '" << d.lookup.key
          << "'): apply the op to one problem at a time";
      diag.attachNote(decidedBy->payload->getLoc()) << "first problem";
      diag.attachNote(d.payload->getLoc()) << "second problem";
      return fail(std::move(diag));
    }
    decidedBy = &d;
    value = d.value;
  }

  std::optional<std::string> exportFile =
      findCandidatesFile(getCandidatesFile());
  for (Decision &d : decisions) {
    if (exportFile) {
      KnobExport line{d.lookup.key,
                      name,
                      d.fromDatabase ? "database" : "script",
                      formatLocation(d.payload->getLoc()),
                      options,
                      d.value};
      if (llvm::Error err = appendKnobExport(*exportFile, line))
        return fail(silenceable(*this, std::move(err)));
    }
    if (d.fromDatabase)
      d.payload->emitRemark()
          << "tuned_knob '" << name << "' = " << d.value << " from "
          << d.lookup.describeSource() << ", entry '" << d.lookup.key
          << "' (the script's value: " << scriptValue << ")";
    else if (getExplain())
      d.payload->emitRemark()
          << "tuned_knob '" << name << "' = " << d.value
          << " (the script's value; "
          << (d.lookup.database
                  ? d.lookup.describeSource() + " has no value for it under '" +
                        d.lookup.key + "'"
                  : std::string("no tuning database"))
          << ")";
  }
  results.setParams(cast<OpResult>(getValue()),
                    {Builder(getContext()).getI64IntegerAttr(value)});
  return DiagnosedSilenceableFailure::success();
}

void hwsched::TunedKnobOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getKnobMutable(), effects);
  onlyReadsHandle(getOpMutable(), effects);
  onlyReadsHandle(getParamsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}
