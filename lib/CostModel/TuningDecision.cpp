//===- TuningDecision.cpp - Decisions read from a tuning database ---------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/TuningDecision.h"

#include "hwsched/Support/Refusal.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace hwsched;

std::string TuningLookup::describeSource() const {
  std::string from = source.origin == "environment"
                         ? "$HWSCHED_TUNING_DB"
                         : (source.origin == "spec" ? "the spec's "
                                                      "tuning.database"
                                                    : "the op's tuning_db");
  return "tuning database '" + source.path + "' (from " + from + ")";
}

llvm::Expected<TuningLookup>
hwsched::lookUpTuning(Operation *payload, std::optional<StringRef> attribute,
                      const HwSpec &spec) {
  TuningLookup out;
  llvm::Expected<ProblemSignature> signature = signProblem(payload);
  if (!signature)
    return signature.takeError();
  out.signature = std::move(*signature);
  out.key = tuningKey(out.signature, spec);
  std::optional<TuningDatabaseSource> source =
      findTuningDatabase(attribute, spec);
  if (!source)
    return out;
  out.source = *source;
  llvm::Expected<std::shared_ptr<const TuningDatabase>> database =
      TuningDatabase::load(source->path);
  if (!database)
    return database.takeError();
  out.database = *database;
  out.record = out.database->lookup(out.key);
  return out;
}

std::string hwsched::formatLocation(Location loc) {
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
// Knobs
//===----------------------------------------------------------------------===//

void KnobDecision::print(llvm::raw_ostream &os) const {
  os << "tuned_knob '" << name << "' = " << value;
  if (fromDatabase) {
    os << " from " << lookup.describeSource() << ", entry '" << lookup.key
       << "' (the script's value: " << scriptValue << ")";
    return;
  }
  os << " (the script's value; "
     << (lookup.database ? lookup.describeSource() +
                               " has no value for it under '" + lookup.key + "'"
                         : std::string("no tuning database"))
     << ")";
}

llvm::Expected<KnobDecision>
hwsched::decideKnob(Operation *payload, const HwSpec &spec,
                    std::optional<StringRef> tuningDb, StringRef name,
                    ArrayRef<int64_t> options, int64_t scriptValue) {
  KnobDecision d;
  d.payload = payload;
  d.name = name.str();
  d.value = d.scriptValue = scriptValue;
  llvm::Expected<TuningLookup> lookup = lookUpTuning(payload, tuningDb, spec);
  if (!lookup)
    return lookup.takeError();
  d.lookup = std::move(*lookup);
  if (!d.lookup.record)
    return d;
  auto it = d.lookup.record->knobs.find(d.name);
  if (it == d.lookup.record->knobs.end())
    return d;
  if (!options.empty() && !llvm::is_contained(options, it->second)) {
    std::string message;
    llvm::raw_string_ostream os(message);
    os << d.lookup.describeSource() << ": at 'entries.\"" << d.lookup.key
       << "\".knobs." << name << "': " << it->second
       << " is not an option of knob '" << name << "' (";
    llvm::interleaveComma(options, os);
    os << ")";
    return refuse(nullptr, message);
  }
  d.value = it->second;
  d.fromDatabase = true;
  return d;
}

llvm::Expected<int64_t>
hwsched::agreeOnKnobValue(ArrayRef<KnobDecision> decisions,
                          int64_t scriptValue) {
  int64_t value = scriptValue;
  const KnobDecision *decidedBy = nullptr;
  for (const KnobDecision &d : decisions) {
    if (!d.fromDatabase)
      continue;
    if (decidedBy && d.value != value) {
      std::string message;
      llvm::raw_string_ostream os(message);
      os << d.lookup.describeSource() << " gives knob '" << d.name
         << "' different values for the problems given together ("
         << decidedBy->value << " for '" << decidedBy->lookup.key << "', "
         << d.value << " for '" << d.lookup.key
         << "'): apply the op to one problem at a time";
      return refuse(Refusal(nullptr, message)
                        .note(decidedBy->payload->getLoc(), "first problem")
                        .note(d.payload->getLoc(), "second problem"));
    }
    decidedBy = &d;
    value = d.value;
  }
  return value;
}

KnobExport hwsched::makeKnobExport(const KnobDecision &d,
                                   ArrayRef<int64_t> options) {
  return KnobExport{d.lookup.key,
                    d.name,
                    d.fromDatabase ? "database" : "script",
                    formatLocation(d.payload->getLoc()),
                    llvm::SmallVector<int64_t>(options),
                    d.value};
}
