//===- TuningDecision.h - Decisions read from a tuning database -*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// select_tile_config and tuned_knob read the same tuning database under the
// same problem key; this is where that is decided once: which database
// applies and what it holds for a payload op (TuningLookup), and the value a
// database gives a script knob (KnobDecision). Each decision prints the
// remark its op reports, so tests and tools read the same text.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_TUNINGDECISION_H
#define HWSCHED_COSTMODEL_TUNINGDECISION_H

#include "hwsched/CostModel/TuningDatabase.h"

#include "mlir/IR/Location.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace hwsched {

/// The database that applies to one payload op, opened, and the problem key.
struct TuningLookup {
  std::string key;
  ProblemSignature signature;
  /// Null when no database is named.
  std::shared_ptr<const TuningDatabase> database;
  TuningDatabaseSource source;
  /// The entry for `key`, if the database has one.
  const TuningRecord *record = nullptr;

  /// "tuning database 'db.json' (from $HWSCHED_TUNING_DB)".
  std::string describeSource() const;
};

/// Signs `payload`, finds the database for `spec` (`attribute` first) and
/// looks the problem up. A refusal (naming the file and the key path) when
/// the payload cannot be signed or the database cannot be read.
llvm::Expected<TuningLookup>
lookUpTuning(mlir::Operation *payload, std::optional<llvm::StringRef> attribute,
             const HwSpec &spec);

/// "file:line:col" of a location, for the candidates export.
std::string formatLocation(mlir::Location loc);

/// The value of a script knob for one payload op: the database's, when it
/// has one for the problem, else the script's.
struct KnobDecision {
  mlir::Operation *payload = nullptr;
  TuningLookup lookup;
  std::string name;
  int64_t value = 0;
  /// The value the script's knob holds.
  int64_t scriptValue = 0;
  bool fromDatabase = false;

  /// "tuned_knob 'k' = 4 from tuning database '...', entry '...' (the
  /// script's value: 2)", or, for the script's value, why the database did
  /// not give one.
  void print(llvm::raw_ostream &os) const;
};

/// Decides knob `name` (whose options are `options`, empty when any value
/// goes) for `payload` on `spec`. A refusal when the database cannot be read
/// or records a value that is not an option.
llvm::Expected<KnobDecision>
decideKnob(mlir::Operation *payload, const HwSpec &spec,
           std::optional<llvm::StringRef> tuningDb, llvm::StringRef name,
           llvm::ArrayRef<int64_t> options, int64_t scriptValue);

/// The one value of a knob for all the problems of a handle: the database's
/// when it answers any of them (it must answer them alike), else
/// `scriptValue`. A refusal, with a note at each of two disagreeing
/// problems, otherwise.
llvm::Expected<int64_t> agreeOnKnobValue(llvm::ArrayRef<KnobDecision> decisions,
                                         int64_t scriptValue);

/// The knob decision as a line of the candidates export.
KnobExport makeKnobExport(const KnobDecision &decision,
                          llvm::ArrayRef<int64_t> options);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_TUNINGDECISION_H
