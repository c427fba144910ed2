//===- HwSpecLoader.cpp - Finding, parsing and validating specs -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/HwSpec/HwSpecLoader.h"

#include "JsonSchema.h"

#include "hwsched/HwSpec/HostSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <set>

using namespace hwsched;
using nlohmann::json;

#ifndef HWSCHED_SPEC_DIRS
#define HWSCHED_SPEC_DIRS ""
#endif

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Search path
//===----------------------------------------------------------------------===//

std::vector<std::string> hwsched::getSpecSearchPath() {
  std::vector<std::string> dirs;
  auto append = [&](llvm::StringRef list) {
    llvm::SmallVector<llvm::StringRef> parts;
    list.split(parts, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts)
      if (!llvm::is_contained(dirs, part.str()))
        dirs.push_back(part.str());
  };
  if (const char *env = std::getenv("HWSCHED_SPEC_PATH"))
    append(env);
  append(HWSCHED_SPEC_DIRS);
  // An install tree moved after the build (or a package installed under
  // another prefix) still finds its specs beside the binary that holds this
  // code: <prefix>/bin/hwsched-opt or <prefix>/lib/HwschedPlugin.so.
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&getSpecSearchPath), &info) &&
      info.dli_fname) {
    llvm::SmallString<256> dir(info.dli_fname);
    llvm::sys::path::remove_filename(dir);
    llvm::sys::path::append(dir, "..", "share", "hwsched", "hw-specs");
    llvm::sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
    if (llvm::sys::fs::is_directory(dir))
      append(dir);
  }
  return dirs;
}

/// Spec names available on the search path, for "did you mean" lists.
static std::vector<std::string> listKnownSpecs() {
  std::set<std::string> names = {kHostTarget.str()};
  for (const std::string &dir : getSpecSearchPath()) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec)) {
      llvm::StringRef file = llvm::sys::path::filename(it->path());
      if (file.ends_with(".json") && file != "schema.json")
        names.insert(file.drop_back(5).str());
    }
  }
  return {names.begin(), names.end()};
}

llvm::Expected<std::string> hwsched::findSpecFile(llvm::StringRef target) {
  if (target.empty())
    return makeError("empty target name");
  if (target.contains('/') || target.ends_with(".json")) {
    if (!llvm::sys::fs::is_regular_file(target))
      return makeError("hardware spec file '" + target + "' does not exist");
    return target.str();
  }
  std::vector<std::string> dirs = getSpecSearchPath();
  for (const std::string &dir : dirs) {
    llvm::SmallString<256> candidate(dir);
    llvm::sys::path::append(candidate, target + ".json");
    if (llvm::sys::fs::is_regular_file(candidate))
      return std::string(candidate);
  }
  return makeError("unknown target '" + target + "': no '" + target +
                   ".json' in the spec search path [" + llvm::join(dirs, ", ") +
                   "] (set HWSCHED_SPEC_PATH or give a path); known targets: " +
                   llvm::join(listKnownSpecs(), ", "));
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// Reparses broken text to recover the parser's message, which carries the
/// line and column; json::parse without exceptions only says "discarded".
struct SyntaxErrorFinder : nlohmann::json_sax<json> {
  std::string message;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t &) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &ex) override {
    llvm::StringRef what(ex.what());
    // Drop "[json.exception.parse_error.101] ": users need the position.
    size_t close = what.find("] ");
    message =
        (close == llvm::StringRef::npos ? what : what.drop_front(close + 2))
            .str();
    return false;
  }
};

} // namespace

std::string hwsched::describeJsonSyntaxError(llvm::StringRef text) {
  SyntaxErrorFinder finder;
  json::sax_parse(text.str(), &finder);
  return finder.message;
}

namespace {
const json &getSchema() {
  static const json schema = json::parse(getSpecSchemaText().str(), nullptr,
                                         /*allow_exceptions=*/false);
  return schema;
}

/// The sections whose leaves are hardware figures that need a citation.
constexpr llvm::StringLiteral kFigureSections[] = {
    "onchip", "offchip", "compute",  "gpu",
    "npu",    "cpu",     "pipeline", "cost_weights"};

bool hasSource(const json &sources, std::string key) {
  while (!key.empty()) {
    if (sources.contains(key))
      return true;
    size_t dot = key.rfind('.');
    if (dot == std::string::npos)
      return false;
    key.resize(dot);
  }
  return false;
}

std::optional<std::string> findUncitedFigure(const json &node,
                                             const std::string &path,
                                             const json &sources) {
  if (!node.is_object())
    return hasSource(sources, path) ? std::nullopt
                                    : std::optional<std::string>(path);
  for (auto it = node.begin(); it != node.end(); ++it)
    if (auto missing = findUncitedFigure(
            it.value(), detail::joinKeyPath(path, it.key()), sources))
      return missing;
  return std::nullopt;
}

/// Resolves a dotted key path to the JSON leaf it names, or nullptr.
json *findLeaf(json &root, llvm::StringRef key) {
  json *node = &root;
  llvm::SmallVector<llvm::StringRef> parts;
  key.split(parts, '.');
  for (llvm::StringRef part : parts) {
    if (!node->is_object())
      return nullptr;
    auto it = node->find(part.str());
    if (it == node->end())
      return nullptr;
    node = &*it;
  }
  return node->is_object() ? nullptr : node;
}

json toJson(const SpecValue &value) {
  switch (value.type) {
  case SpecValue::Type::Integer:
    return value.integer;
  case SpecValue::Type::Number:
    return value.number;
  case SpecValue::Type::String:
    return value.string;
  case SpecValue::Type::Boolean:
    return value.boolean;
  case SpecValue::Type::IntegerArray:
    return json(
        std::vector<int64_t>(value.integers.begin(), value.integers.end()));
  case SpecValue::Type::StringArray:
    return json(value.strings);
  }
  return nullptr;
}

/// Flattens one JSON leaf; arrays hold integers or strings (an empty array
/// is stored as an empty integer array, which getStringArray also accepts).
std::optional<SpecValue> toSpecValue(const json &node) {
  SpecValue value;
  if (node.is_number_integer()) {
    value.type = SpecValue::Type::Integer;
    value.integer = node.get<int64_t>();
  } else if (node.is_number()) {
    value.type = SpecValue::Type::Number;
    value.number = node.get<double>();
  } else if (node.is_string()) {
    value.type = SpecValue::Type::String;
    value.string = node.get<std::string>();
  } else if (node.is_boolean()) {
    value.type = SpecValue::Type::Boolean;
    value.boolean = node.get<bool>();
  } else if (node.is_array() && !node.empty() && node.front().is_string()) {
    value.type = SpecValue::Type::StringArray;
    for (const json &item : node) {
      if (!item.is_string())
        return std::nullopt;
      value.strings.push_back(item.get<std::string>());
    }
  } else if (node.is_array()) {
    value.type = SpecValue::Type::IntegerArray;
    for (const json &item : node) {
      if (!item.is_number_integer())
        return std::nullopt;
      value.integers.push_back(item.get<int64_t>());
    }
  } else {
    return std::nullopt;
  }
  return value;
}

void flatten(const json &node, const std::string &path, HwSpec &spec) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      flatten(it.value(), detail::joinKeyPath(path, it.key()), spec);
    return;
  }
  if (std::optional<SpecValue> value = toSpecValue(node))
    spec.set(path, std::move(*value));
}
} // namespace

llvm::Expected<HwSpec>
hwsched::parseSpec(llvm::StringRef text, llvm::StringRef path,
                   llvm::ArrayRef<SpecOverride> overrides) {
  auto fail = [&](const llvm::Twine &message) {
    return makeError("hardware spec '" + path + "': " + message);
  };
  json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return fail("invalid JSON: " + describeJsonSyntaxError(text));
  const json &schema = getSchema();
  if (schema.is_discarded())
    return fail("the embedded schema is not valid JSON (build problem)");
  if (auto err = detail::validateJson(schema, doc))
    return fail(*err);

  HwKind kind = *parseHwKind(doc["kind"].get<std::string>());
  HwSpec spec(doc["name"].get<std::string>(), kind, path.str());

  // Overrides replace existing figures only: a misspelt key must not add a
  // figure that no model reads.
  llvm::StringMap<const SpecOverride *> seen;
  for (const SpecOverride &override : overrides) {
    if (override.onlyFor && *override.onlyFor != kind) {
      spec.addAppliedOverride(override.origin + " ignored (applies to " +
                              stringifyHwKind(*override.onlyFor).str() +
                              " targets)");
      continue;
    }
    auto [it, inserted] = seen.try_emplace(override.key, &override);
    if (!inserted && toJson(it->second->value) != toJson(override.value))
      return fail("conflicting overrides '" + it->second->origin + "' and '" +
                  override.origin + "' both set '" + override.key + "'");
    json *leaf = findLeaf(doc, override.key);
    if (!leaf)
      return fail("override '" + override.origin + "' names '" + override.key +
                  "', which is not a figure of this spec");
    *leaf = toJson(override.value);
    spec.addAppliedOverride(override.key + "=" + override.value.str());
  }
  if (!overrides.empty())
    if (auto err = detail::validateJson(schema, doc))
      return fail("after applying overrides: " + *err);

  // Checks the schema subset cannot express.
  int64_t alignment = doc["onchip"]["alignment_bytes"].get<int64_t>();
  if (alignment & (alignment - 1))
    return fail("at 'onchip.alignment_bytes': expected a power of two, got " +
                llvm::Twine(alignment));
  const json &sources = doc["sources"];
  for (llvm::StringRef section : kFigureSections) {
    auto it = doc.find(section.str());
    if (it == doc.end())
      continue;
    if (auto missing = findUncitedFigure(*it, section.str(), sources))
      return fail("at '" + *missing +
                  "': figure has no citation; add an entry for it (or a "
                  "parent key) to 'sources'");
  }

  for (llvm::StringRef section : kFigureSections)
    if (auto it = doc.find(section.str()); it != doc.end())
      flatten(*it, section.str(), spec);
  // Settings rather than figures: no citation.
  if (auto it = doc.find("tuning"); it != doc.end())
    flatten(*it, "tuning", spec);
  flatten(doc["kind"], "kind", spec);
  flatten(doc["name"], "name", spec);
  for (auto it = sources.begin(); it != sources.end(); ++it)
    if (it.value().is_string())
      spec.setSource(it.key(), it.value().get<std::string>());
  return spec;
}

llvm::Expected<HwSpec>
hwsched::loadSpec(llvm::StringRef target,
                  llvm::ArrayRef<SpecOverride> overrides) {
  // `host` is built from the machine (HostSpec.h) and then validated like a
  // file; `file` is what messages call the spec.
  std::string file, text;
  bool isHost = target == kHostTarget;
  if (isHost) {
    auto host = getHostSpecText();
    if (!host)
      return host.takeError();
    file = std::move(host->first);
    text = std::move(host->second);
  } else {
    llvm::Expected<std::string> found = findSpecFile(target);
    if (!found)
      return found.takeError();
    file = std::move(*found);
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
    if (!buffer)
      return makeError("hardware spec '" + file +
                       "': cannot read: " + buffer.getError().message());
    text = (*buffer)->getBuffer().str();
  }
  // Every op resolves its target once per payload op, and parsing plus
  // validating the JSON costs more than scheduling a small loop. Specs
  // without overrides are kept by file name and contents: an edited file is
  // parsed again, and only valid specs are kept.
  static std::mutex cacheMutex;
  static llvm::StringMap<HwSpec> cache;
  std::string cacheKey;
  if (overrides.empty()) {
    cacheKey = file + '\0' + text;
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = cache.find(cacheKey);
    if (it != cache.end())
      return it->second;
  }
  llvm::Expected<HwSpec> spec = parseSpec(text, file, overrides);
  if (!spec)
    return spec.takeError();
  // Names in scripts are file names: a spec whose `name` differs would make
  // remarks and DLTI records name a target nobody can look up.
  llvm::StringRef stem = llvm::sys::path::stem(file);
  if (!isHost && spec->getName() != stem)
    return makeError("hardware spec '" + file + "': at 'name': expected \"" +
                     stem + "\" (the file name without .json), got \"" +
                     spec->getName() + "\"");
  if (overrides.empty()) {
    std::lock_guard<std::mutex> lock(cacheMutex);
    // A bound for processes that load many generated specs.
    if (cache.size() >= 64)
      cache.clear();
    cache.insert({cacheKey, *spec});
  }
  return spec;
}

llvm::ArrayRef<OverrideAlias> hwsched::getOverrideAliases() {
  static const OverrideAlias aliases[] = {
      {"reg_limit", "gpu.max_registers_per_thread", HwKind::Gpu},
      {"smem_limit_bytes", "onchip.capacity_bytes", HwKind::Gpu},
      {"ub_limit_bytes", "onchip.capacity_bytes", HwKind::Npu},
      {"l2_limit_bytes", "onchip.capacity_bytes", HwKind::Cpu},
      {"max_stages", "pipeline.max_stages", std::nullopt},
  };
  return aliases;
}
