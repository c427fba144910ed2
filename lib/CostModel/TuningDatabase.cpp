//===- TuningDatabase.cpp - Measured configurations by problem ------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// MLIR code is built without exceptions: every nlohmann_json call here is a
// non-throwing one (parse with allow_exceptions = false, `find` and
// `is_number_integer` before `get`, dump with the replacing error handler).
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/TuningDatabase.h"

#include "hwsched/HwSpec/HwSpecLoader.h"
#include "hwsched/Support/Refusal.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>

using namespace hwsched;
using json = nlohmann::json;

std::string hwsched::tuningKey(const ProblemSignature &signature,
                               const HwSpec &spec) {
  return signature.str() + " on " + spec.getName().str() + "#" +
         spec.getFingerprint();
}

//===----------------------------------------------------------------------===//
// Plain data
//===----------------------------------------------------------------------===//

bool TuningSchedule::operator==(const TuningSchedule &other) const {
  return packedOperands == other.packedOperands && splitK == other.splitK &&
         accumulatorInSmem == other.accumulatorInSmem &&
         staticSmem == other.staticSmem && mmaSync == other.mmaSync;
}

void TuningSchedule::print(llvm::raw_ostream &os) const {
  llvm::SmallVector<std::string> parts;
  if (!packedOperands.empty()) {
    std::string list;
    llvm::raw_string_ostream ls(list);
    ls << "packed_operands [";
    llvm::interleaveComma(packedOperands, ls);
    ls << "]";
    parts.push_back(list);
  }
  if (splitK)
    parts.push_back("split_k result");
  if (accumulatorInSmem)
    parts.push_back("accumulator_in_smem");
  if (staticSmem)
    parts.push_back("static_smem");
  if (mmaSync)
    parts.push_back("mma_sync");
  if (parts.empty())
    os << "default";
  else
    llvm::interleaveComma(parts, os);
}

TunedConfig TunedConfig::of(const TileCandidate &c) {
  TunedConfig config;
  config.bm = c.bm;
  config.bn = c.bn;
  config.bk = c.bk;
  config.tm = c.tm;
  config.tn = c.tn;
  config.stages = c.stages;
  config.splitK = c.splitK;
  return config;
}

bool TunedConfig::matches(const TileCandidate &c) const {
  return bm == c.bm && bn == c.bn && bk == c.bk && tm == c.tm && tn == c.tn &&
         stages == c.stages && splitK == c.splitK;
}

void TunedConfig::print(llvm::raw_ostream &os) const {
  os << llvm::formatv("block {0}x{1}x{2}, inner {3}x{4}, {5} stages, split_k "
                      "{6}",
                      bm, bn, bk, tm, tn, stages, splitK);
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {
/// Builds the messages of one file: every problem names the file and the
/// key path.
struct Reader {
  std::string path;

  llvm::Error fail(const std::string &where, const llvm::Twine &what) const {
    std::string at = where.empty() ? "" : "at '" + where + "': ";
    return refuse(nullptr, "tuning database '" + path + "': " + at + what);
  }

  static std::string describe(const json &value) {
    std::string text =
        value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 60)
      text = text.substr(0, 57) + "...";
    return std::string(value.type_name()) + " " + text;
  }

  llvm::Error readInts(const json &value, const std::string &where,
                       size_t count, int64_t minimum,
                       llvm::SmallVectorImpl<int64_t> &out) const {
    auto bad = [&] {
      return fail(where, llvm::formatv("expected {0} integer{1} >= {2}, got "
                                       "{3}",
                                       count, count == 1 ? "" : "s", minimum,
                                       describe(value)));
    };
    if (!value.is_array() || value.size() != count)
      return bad();
    for (const json &item : value) {
      if (!item.is_number_integer() || item.get<int64_t>() < minimum)
        return bad();
      out.push_back(item.get<int64_t>());
    }
    return llvm::Error::success();
  }

  llvm::Error readInt(const json &object, const std::string &where,
                      const char *name, int64_t minimum, int64_t &out,
                      bool required) const {
    auto it = object.find(name);
    if (it == object.end()) {
      if (required)
        return fail(where, llvm::Twine("missing '") + name + "'");
      return llvm::Error::success();
    }
    if (!it->is_number_integer() || it->get<int64_t>() < minimum)
      return fail(where + "." + name,
                  llvm::formatv("expected an integer >= {0}, got {1}", minimum,
                                describe(*it)));
    out = it->get<int64_t>();
    return llvm::Error::success();
  }

  llvm::Error readConfig(const json &value, const std::string &where,
                         TunedConfig &config) const {
    if (!value.is_object())
      return fail(where, "expected an object, got " + describe(value));
    llvm::SmallVector<int64_t> block, inner;
    auto blockIt = value.find("block");
    auto innerIt = value.find("inner");
    if (blockIt == value.end())
      return fail(where, "missing 'block' ([BM, BN, BK])");
    if (innerIt == value.end())
      return fail(where, "missing 'inner' ([TM, TN])");
    // BK is 0 for ops without a reduction (elementwise).
    if (llvm::Error err = readInts(*blockIt, where + ".block", 3, 0, block))
      return err;
    if (llvm::Error err = readInts(*innerIt, where + ".inner", 2, 1, inner))
      return err;
    config.bm = block[0];
    config.bn = block[1];
    config.bk = block[2];
    config.tm = inner[0];
    config.tn = inner[1];
    if (llvm::Error err =
            readInt(value, where, "stages", 1, config.stages, true))
      return err;
    return readInt(value, where, "split_k", 1, config.splitK, false);
  }

  llvm::Error readSchedule(const json &value, const std::string &where,
                           TuningSchedule &schedule) const {
    if (!value.is_object())
      return fail(where, "expected an object, got " + describe(value));
    for (auto it = value.begin(); it != value.end(); ++it) {
      std::string at = where + "." + it.key();
      if (it.key() == "packed_operands") {
        if (!it->is_array())
          return fail(at, "expected an array of integers >= 0, got " +
                              describe(*it));
        if (llvm::Error err =
                readInts(*it, at, it->size(), 0, schedule.packedOperands))
          return err;
        continue;
      }
      bool *flag = llvm::StringSwitch<bool *>(it.key())
                       .Case("split_k", &schedule.splitK)
                       .Case("accumulator_in_smem", &schedule.accumulatorInSmem)
                       .Case("static_smem", &schedule.staticSmem)
                       .Case("mma_sync", &schedule.mmaSync)
                       .Default(nullptr);
      if (!flag)
        return fail(at,
                    "unknown schedule key; expected packed_operands, "
                    "split_k, accumulator_in_smem, static_smem or mma_sync");
      if (!it->is_boolean())
        return fail(at, "expected a boolean, got " + describe(*it));
      *flag = it->get<bool>();
    }
    return llvm::Error::success();
  }

  llvm::Error readEntry(const json &value, const std::string &where,
                        TuningRecord &record) const {
    if (!value.is_object())
      return fail(where, "expected an object, got " + describe(value));
    if (auto it = value.find("config"); it != value.end()) {
      TunedConfig config;
      if (llvm::Error err = readConfig(*it, where + ".config", config))
        return err;
      record.config = config;
    }
    if (auto it = value.find("schedule"); it != value.end()) {
      TuningSchedule schedule;
      if (llvm::Error err = readSchedule(*it, where + ".schedule", schedule))
        return err;
      record.schedule = schedule;
    }
    if (auto it = value.find("knobs"); it != value.end()) {
      if (!it->is_object())
        return fail(where + ".knobs",
                    "expected an object of integers, got " + describe(*it));
      for (auto knob = it->begin(); knob != it->end(); ++knob) {
        if (!knob->is_number_integer())
          return fail(where + ".knobs." + knob.key(),
                      "expected an integer, got " + describe(*knob));
        record.knobs[knob.key()] = knob->get<int64_t>();
      }
    }
    if (auto it = value.find("measured_ns");
        it != value.end() && it->is_number())
      record.measuredNs = it->get<double>();
    return llvm::Error::success();
  }
};

struct CacheEntry {
  llvm::sys::TimePoint<> modified;
  uint64_t size = 0;
  std::shared_ptr<const TuningDatabase> database;
};
} // namespace

llvm::Expected<std::shared_ptr<const TuningDatabase>>
TuningDatabase::load(llvm::StringRef path) {
  Reader reader{path.str()};
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return reader.fail("", "cannot read the file: " + ec.message());
  // Transform scripts apply the ops many times per run: parse a file once
  // per version of it.
  static std::mutex mutex;
  static llvm::StringMap<CacheEntry> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto cached = cache.find(path);
  if (cached != cache.end() &&
      cached->second.modified == status.getLastModificationTime() &&
      cached->second.size == status.getSize())
    return cached->second.database;

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return reader.fail("",
                       "cannot read the file: " + buffer.getError().message());
  json doc = json::parse((*buffer)->getBuffer().begin(),
                         (*buffer)->getBuffer().end(), nullptr,
                         /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return reader.fail("", "invalid JSON: " +
                               describeJsonSyntaxError((*buffer)->getBuffer()));
  if (!doc.is_object())
    return reader.fail("", "expected an object, got " + Reader::describe(doc));
  auto version = doc.find("hwsched_tuning_db");
  if (version == doc.end() || !version->is_number_integer() ||
      version->get<int64_t>() != 1)
    return reader.fail("hwsched_tuning_db",
                       "expected the format version 1 (is this a tuning "
                       "database?)");
  auto database = std::make_shared<TuningDatabase>();
  database->path = path.str();
  auto entries = doc.find("entries");
  if (entries == doc.end() || !entries->is_object())
    return reader.fail("entries", "expected an object mapping problem keys "
                                  "to entries");
  for (auto it = entries->begin(); it != entries->end(); ++it) {
    TuningRecord record;
    if (llvm::Error err =
            reader.readEntry(*it, "entries.\"" + it.key() + "\"", record))
      return std::move(err);
    database->records[it.key()] = std::move(record);
  }
  cache[path] = {status.getLastModificationTime(), status.getSize(), database};
  return std::shared_ptr<const TuningDatabase>(database);
}

const TuningRecord *TuningDatabase::lookup(llvm::StringRef key) const {
  auto it = records.find(key);
  return it == records.end() ? nullptr : &it->second;
}

std::optional<TuningDatabaseSource>
hwsched::findTuningDatabase(std::optional<llvm::StringRef> attribute,
                            const HwSpec &spec) {
  if (attribute && !attribute->empty())
    return TuningDatabaseSource{attribute->str(), "attribute"};
  if (const char *env = std::getenv("HWSCHED_TUNING_DB"); env && *env)
    return TuningDatabaseSource{env, "environment"};
  if (std::optional<llvm::StringRef> file = spec.getString("tuning.database")) {
    llvm::SmallString<256> path(*file);
    if (llvm::sys::path::is_relative(path)) {
      path = llvm::sys::path::parent_path(spec.getPath());
      llvm::sys::path::append(path, *file);
    }
    return TuningDatabaseSource{path.str().str(), "spec"};
  }
  return std::nullopt;
}

std::optional<std::string>
hwsched::findCandidatesFile(std::optional<llvm::StringRef> attribute) {
  if (attribute && !attribute->empty())
    return attribute->str();
  if (const char *env = std::getenv("HWSCHED_TUNING_CANDIDATES"); env && *env)
    return std::string(env);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static json signatureJson(const ProblemSignature &s, const HwSpec &spec) {
  json loops = json::array();
  for (int64_t e : s.loopExtents)
    loops.push_back(e == kDynamicExtent ? json(nullptr) : json(e));
  json sig = {{"op", s.opName},
              {"loops", loops},
              {"iterators", s.iterators},
              {"element_types", s.elementTypes},
              {"target", spec.getName().str()},
              {"spec_fingerprint", spec.getFingerprint()},
              {"spec_path", spec.getPath().str()}};
  if (!s.structure.empty())
    sig["structure"] = s.structure;
  return sig;
}

static json scheduleJson(const TuningSchedule &schedule) {
  json out = {
      {"packed_operands", std::vector<int64_t>(schedule.packedOperands.begin(),
                                               schedule.packedOperands.end())},
      {"split_k", schedule.splitK},
      {"accumulator_in_smem", schedule.accumulatorInSmem},
      {"static_smem", schedule.staticSmem}};
  // Only when set: the entries and exports of the SIMT schedules read as
  // before (an absent key reads as false).
  if (schedule.mmaSync)
    out["mma_sync"] = true;
  return out;
}

static json listJson(llvm::ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

/// One candidate: its configuration (as a database entry spells it), the
/// per-loop lists the op would return, the model's estimate and the
/// figures the hardware rules checked, under the names of the target kind.
static json candidateJson(const TileCandidate &c, size_t rank, HwKind kind,
                          const TileProblem &problem) {
  TileSelection expanded;
  expandToLoops(problem, c, expanded);
  json entry = {{"rank", rank},
                {"config",
                 {{"block", {c.bm, c.bn, c.bk}},
                  {"inner", {c.tm, c.tn}},
                  {"stages", c.stages},
                  {"split_k", c.splitK}}},
                {"tile_sizes", listJson(expanded.tileSizes)},
                {"thread_tile_sizes", listJson(expanded.threadTileSizes)},
                {"reduction_tile_sizes", listJson(expanded.reductionTileSizes)},
                {"num_stages", expanded.numStages},
                {"num_threads", listJson(expanded.numThreads)},
                {"predicted_ns", c.timeNs},
                {"compute_ns", c.computeNs},
                {"memory_ns", c.memoryNs},
                {"onchip_ns", c.onchipNs},
                {"blocks", c.blocks},
                {"waves", c.waves}};
  switch (kind) {
  case HwKind::Gpu:
    entry["registers_per_thread"] = c.registers;
    entry["smem_bytes"] = c.onchipBytes;
    entry["accumulator_smem_bytes"] = c.accumulatorBytes;
    entry["threads"] = c.threads;
    entry["blocks_per_sm"] = c.blocksPerSm;
    entry["occupancy"] = c.occupancy;
    entry["reduce_ns"] = c.reduceNs;
    if (c.wm)
      entry["warp_tile"] = {c.wm, c.wn};
    break;
  case HwKind::Npu:
    entry["ub_bytes"] = c.onchipBytes;
    break;
  case HwKind::Cpu:
    entry["vector_registers"] = c.registers;
    entry["l1_bytes"] = c.l1Bytes;
    entry["l2_bytes"] = c.onchipBytes;
    break;
  }
  return entry;
}

static llvm::Error appendLine(llvm::StringRef path, const json &line) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Append);
  if (ec)
    return refuse(nullptr, "cannot write the tuning candidates file '" + path +
                               "': " + ec.message());
  os << line.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  os.close();
  if (os.has_error()) {
    std::string message = os.error().message();
    os.clear_error();
    return refuse(nullptr, "cannot write the tuning candidates file '" + path +
                               "': " + message);
  }
  return llvm::Error::success();
}

llvm::Error hwsched::appendCandidateExport(llvm::StringRef path,
                                           const CandidateExport &r) {
  const TileSelection &s = *r.selection;
  json pruned = json::object();
  for (const auto &[rule, count] : s.pruned)
    pruned[rule] = count;
  size_t count = s.ranked.size();
  if (r.topK > 0)
    count = std::min<size_t>(count, r.topK);
  json candidates = json::array();
  for (size_t i = 0; i < count; ++i)
    candidates.push_back(
        candidateJson(s.ranked[i], i, r.spec->getKind(), *r.problem));
  json line = {{"hwsched_tuning_candidates", 1},
               {"key", r.key},
               {"signature", signatureJson(r.signature, *r.spec)},
               {"kind", stringifyHwKind(r.spec->getKind()).str()},
               {"gemm",
                {{"batch", s.gemmBatch},
                 {"m", s.gemmM},
                 {"n", s.gemmN},
                 {"k", s.gemmK}}},
               {"schedule", scheduleJson(r.schedule)},
               {"payload_loc", r.payloadLoc},
               {"op_loc", r.opLoc},
               {"enumerated", s.enumerated},
               {"feasible", s.ranked.size()},
               {"pruned", pruned},
               {"chosen_rank", r.chosen},
               {"chosen_by", r.chosenBy},
               {"chosen", candidateJson(s.ranked[r.chosen], r.chosen,
                                        r.spec->getKind(), *r.problem)},
               {"database", r.database},
               {"database_status", r.databaseStatus},
               {"candidates", candidates}};
  return appendLine(path, line);
}

llvm::Error hwsched::appendKnobExport(llvm::StringRef path,
                                      const KnobExport &r) {
  json line = {{"hwsched_tuning_knob", 1},
               {"key", r.key},
               {"knob", r.knob},
               {"options", listJson(r.options)},
               {"value", r.value},
               {"source", r.source},
               {"payload_loc", r.payloadLoc}};
  return appendLine(path, line);
}

//===----------------------------------------------------------------------===//
// Choosing
//===----------------------------------------------------------------------===//

std::optional<size_t> hwsched::findCandidate(const TileSelection &selection,
                                             const TunedConfig &config) {
  for (auto [i, c] : llvm::enumerate(selection.ranked))
    if (config.matches(c))
      return i;
  return std::nullopt;
}

void hwsched::pickCandidate(const TileProblem &problem,
                            TileSelection &selection, size_t index) {
  // The pick first, the others keep the model's order.
  std::rotate(selection.ranked.begin(), selection.ranked.begin() + index,
              selection.ranked.begin() + index + 1);
  expandToLoops(problem, selection.ranked.front(), selection);
}
