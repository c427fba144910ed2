//===- TuningSupport.h - What the tuning-aware ops share --------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// select_tile_config and tuned_knob read the same tuning database under the
// same problem key; this is where that is decided once.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_LIB_TRANSFORMOPS_TUNINGSUPPORT_H
#define HWSCHED_LIB_TRANSFORMOPS_TUNINGSUPPORT_H

#include "hwsched/CostModel/TuningDatabase.h"

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

#include <memory>
#include <optional>
#include <string>

namespace hwsched {
namespace tuning {

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
/// looks the problem up. Silenceable failure (naming the file and the key
/// path) when the database cannot be read.
mlir::DiagnosedSilenceableFailure
lookUpTuning(mlir::transform::TransformOpInterface op, mlir::Operation *payload,
             std::optional<llvm::StringRef> attribute, const HwSpec &spec,
             TuningLookup &out);

/// "file:line:col" of a location, for the candidates export.
std::string formatLocation(mlir::Location loc);

} // namespace tuning
} // namespace hwsched

#endif // HWSCHED_LIB_TRANSFORMOPS_TUNINGSUPPORT_H
