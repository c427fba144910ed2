//===- TuningDatabase.h - Measured configurations by problem ----*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The model picks a tile configuration; a tuner (tools/hwsched-tune)
// measures candidates and records the fastest in a tuning database, a JSON
// file mapping a problem (payload signature, target, spec fingerprint) to
// the configuration and the script knobs it measured best. The ops read the
// database at transform time, so changing the file changes the schedule
// without a rebuild, and a tuned script needs nothing but the file.
//
// The same layer writes what a tool needs to tune: one JSON line per
// decision with the model's ranked candidates and their constraint figures
// (the candidates export), and one per knob.
//
// File format (version 1; docs/tuning.md is the reference):
//   {"hwsched_tuning_db": 1,
//    "entries": {"<key>": {
//        "config": {"block": [BM, BN, BK], "inner": [TM, TN],
//                   "stages": S, "split_k": s},            (optional)
//        "schedule": {"packed_operands": [..], "split_k": false,
//                     "accumulator_in_smem": false,
//                     "static_smem": false},                (optional)
//        "knobs": {"<knob name>": <integer>, ...},          (optional)
//        ...anything else (measurements, the tuner's notes) is kept for
//        people and ignored here}}}
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_TUNINGDATABASE_H
#define HWSCHED_COSTMODEL_TUNINGDATABASE_H

#include "hwsched/Analysis/ProblemSignature.h"
#include "hwsched/CostModel/TileConfig.h"
#include "hwsched/HwSpec/HwSpec.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace hwsched {

/// The database key of a problem: "<signature> on <target>#<fingerprint>",
/// e.g. "linalg.matmul 256x256x256 ppr f32,f32,f32 on x86-avx512#0123...".
std::string tuningKey(const ProblemSignature &signature, const HwSpec &spec);

/// What the schedule does with the problem that changes the model's figures
/// (select_tile_config's packed_operands, split_k result,
/// accumulator_in_smem, static_smem): a configuration measured under one
/// schedule says nothing about another.
struct TuningSchedule {
  llvm::SmallVector<int64_t> packedOperands;
  bool splitK = false, accumulatorInSmem = false, staticSmem = false,
       mmaSync = false;

  bool operator==(const TuningSchedule &other) const;
  /// "packed_operands [1], split_k result, ..." ("default" when all off).
  void print(llvm::raw_ostream &os) const;
};

/// A configuration in the GEMM view of the tile rules.
struct TunedConfig {
  int64_t bm = 0, bn = 0, bk = 0, tm = 0, tn = 0, stages = 0, splitK = 1;

  static TunedConfig of(const TileCandidate &candidate);
  bool matches(const TileCandidate &candidate) const;
  /// "block 256x256x512, inner 8x32, 2 stages, split_k 1".
  void print(llvm::raw_ostream &os) const;
};

/// One entry of a database.
struct TuningRecord {
  std::optional<TunedConfig> config;
  std::optional<TuningSchedule> schedule;
  std::map<std::string, int64_t> knobs;
  /// "measured_ns" of the entry, for `explain`; negative when absent.
  double measuredNs = -1;
};

/// A loaded database file.
class TuningDatabase {
public:
  /// Reads `path`. Repeated loads of an unchanged file (same size and
  /// modification time) return the same object. A file that cannot be read
  /// or parsed, or an entry of the wrong shape, is refused with a message
  /// naming the file and the key path ("tuning database 'db.json': at
  /// 'entries.\"<key>\".config.block': expected 3 integers >= 1").
  static llvm::Expected<std::shared_ptr<const TuningDatabase>>
  load(llvm::StringRef path);

  const TuningRecord *lookup(llvm::StringRef key) const;
  llvm::StringRef getPath() const { return path; }
  size_t size() const { return records.size(); }

private:
  std::string path;
  llvm::StringMap<TuningRecord> records;
};

/// Which database applies: the op's `tuning_db` attribute, else
/// $HWSCHED_TUNING_DB, else the spec's `tuning.database` (relative to the
/// spec file's directory). std::nullopt when none names one.
struct TuningDatabaseSource {
  std::string path;
  /// "attribute", "environment" or "spec".
  std::string origin;
};
std::optional<TuningDatabaseSource>
findTuningDatabase(std::optional<llvm::StringRef> attribute,
                   const HwSpec &spec);

/// One select_tile_config decision as a tool reads it: the problem, the
/// model's ranked candidates with predicted times and constraint figures,
/// and what was returned.
struct CandidateExport {
  std::string key;
  ProblemSignature signature;
  const HwSpec *spec = nullptr;
  TuningSchedule schedule;
  const TileProblem *problem = nullptr;
  const TileSelection *selection = nullptr;
  /// Where the payload op and the transform op are ("file:line:col").
  std::string payloadLoc, opLoc;
  /// Index into selection->ranked of the returned candidate; where it came
  /// from ("model", "candidate_rank", "database") and, for a database, its
  /// path and status ("hit", "no entry", "schedule differs").
  size_t chosen = 0;
  std::string chosenBy = "model";
  std::string database, databaseStatus;
  /// Candidates listed (0 = all feasible ones).
  int64_t topK = 0;
};
/// Appends one JSON line ({"hwsched_tuning_candidates": 1, ...}) to `path`.
llvm::Error appendCandidateExport(llvm::StringRef path,
                                  const CandidateExport &record);

/// One knob decision: {"hwsched_tuning_knob": 1, "key": ..., "knob": ...,
/// "options": [...], "value": v, "source": "database" | "script"}.
struct KnobExport {
  std::string key, knob, source, payloadLoc;
  llvm::SmallVector<int64_t> options;
  int64_t value = 0;
};
llvm::Error appendKnobExport(llvm::StringRef path, const KnobExport &record);

/// The index of the feasible candidate `config` describes, if any.
std::optional<size_t> findCandidate(const TileSelection &selection,
                                    const TunedConfig &config);

/// Makes `selection.ranked[index]` the pick: moves it to the front (the
/// others keep their order) and expands it to the per-loop results.
void pickCandidate(const TileProblem &problem, TileSelection &selection,
                   size_t index);

/// The candidates file a decision is written to: the op's attribute, else
/// $HWSCHED_TUNING_CANDIDATES; std::nullopt when neither.
std::optional<std::string>
findCandidatesFile(std::optional<llvm::StringRef> attribute);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_TUNINGDATABASE_H
