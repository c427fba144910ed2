//===- HwSpec.cpp - In-memory hardware specification ----------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/HwSpec/HwSpec.h"
#include "hwsched/Support/Refusal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace hwsched;

llvm::StringRef hwsched::stringifyHwKind(HwKind kind) {
  switch (kind) {
  case HwKind::Gpu:
    return "gpu";
  case HwKind::Npu:
    return "npu";
  case HwKind::Cpu:
    return "cpu";
  }
  return "cpu";
}

std::optional<HwKind> hwsched::parseHwKind(llvm::StringRef text) {
  if (text == "gpu")
    return HwKind::Gpu;
  if (text == "npu")
    return HwKind::Npu;
  if (text == "cpu")
    return HwKind::Cpu;
  return std::nullopt;
}

std::optional<double> SpecValue::asNumber() const {
  if (type == Type::Integer)
    return static_cast<double>(integer);
  if (type == Type::Number)
    return number;
  return std::nullopt;
}

std::string SpecValue::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  switch (type) {
  case Type::Integer:
    os << integer;
    break;
  case Type::Number:
    os << number;
    break;
  case Type::String:
    os << '"' << string << '"';
    break;
  case Type::Boolean:
    os << (boolean ? "true" : "false");
    break;
  case Type::IntegerArray:
    os << '[';
    llvm::interleaveComma(integers, os);
    os << ']';
    break;
  case Type::StringArray:
    os << '[';
    llvm::interleaveComma(strings, os,
                          [&](const std::string &s) { os << '"' << s << '"'; });
    os << ']';
    break;
  }
  return text;
}

const SpecValue *HwSpec::lookup(llvm::StringRef key) const {
  auto it = values.find(key);
  return it == values.end() ? nullptr : &it->second;
}

std::optional<int64_t> HwSpec::getInteger(llvm::StringRef key) const {
  const SpecValue *value = lookup(key);
  if (!value || value->type != SpecValue::Type::Integer)
    return std::nullopt;
  return value->integer;
}

std::optional<double> HwSpec::getNumber(llvm::StringRef key) const {
  const SpecValue *value = lookup(key);
  return value ? value->asNumber() : std::nullopt;
}

llvm::Error HwSpec::getNumbers(llvm::ArrayRef<llvm::StringRef> keys,
                               llvm::MutableArrayRef<double> out,
                               const llvm::Twine &neededBy) const {
  for (auto [i, key] : llvm::enumerate(keys)) {
    std::optional<double> value = getNumber(key);
    if (!value)
      return missingFigure(*this, key, neededBy);
    out[i] = *value;
  }
  return llvm::Error::success();
}

llvm::Error hwsched::missingFigure(const HwSpec &spec, llvm::StringRef key,
                                   const llvm::Twine &neededBy) {
  return refuse(nullptr, "hardware spec '" + spec.getPath() + "' has no '" +
                             key + "', which " + neededBy + " needs");
}

std::optional<llvm::StringRef> HwSpec::getString(llvm::StringRef key) const {
  const SpecValue *value = lookup(key);
  if (!value || value->type != SpecValue::Type::String)
    return std::nullopt;
  return llvm::StringRef(value->string);
}

std::optional<llvm::ArrayRef<int64_t>>
HwSpec::getIntegerArray(llvm::StringRef key) const {
  const SpecValue *value = lookup(key);
  if (!value || value->type != SpecValue::Type::IntegerArray)
    return std::nullopt;
  return llvm::ArrayRef<int64_t>(value->integers);
}

std::optional<llvm::ArrayRef<std::string>>
HwSpec::getStringArray(llvm::StringRef key) const {
  const SpecValue *value = lookup(key);
  if (!value)
    return std::nullopt;
  if (value->type == SpecValue::Type::StringArray)
    return llvm::ArrayRef<std::string>(value->strings);
  if (value->type == SpecValue::Type::IntegerArray && value->integers.empty())
    return llvm::ArrayRef<std::string>();
  return std::nullopt;
}

std::optional<llvm::StringRef> HwSpec::getSource(llvm::StringRef key) const {
  // Walk up the key path: a section-level citation covers its figures.
  while (!key.empty()) {
    auto it = sources.find(key);
    if (it != sources.end())
      return llvm::StringRef(it->second);
    size_t dot = key.rfind('.');
    if (dot == llvm::StringRef::npos)
      break;
    key = key.take_front(dot);
  }
  return std::nullopt;
}

std::vector<std::string> HwSpec::getSortedKeys() const {
  std::vector<std::string> keys;
  for (const auto &entry : values)
    keys.push_back(entry.getKey().str());
  llvm::sort(keys);
  return keys;
}

std::string HwSpec::getFingerprint() const {
  // FNV-1a over "key=value;" in key order: stable across processes and
  // builds, unlike llvm::hash_value.
  uint64_t hash = 0xcbf29ce484222325ULL;
  auto mix = [&](llvm::StringRef text) {
    for (unsigned char c : text) {
      hash ^= c;
      hash *= 0x100000001b3ULL;
    }
  };
  for (const std::string &key : getSortedKeys()) {
    if (llvm::StringRef(key).starts_with("tuning."))
      continue;
    mix(key);
    mix("=");
    mix(values.find(key)->second.str());
    mix(";");
  }
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format_hex_no_prefix(hash, 16);
  return text;
}

std::vector<std::string> HwSpec::getPipelineUnits() const {
  std::vector<std::string> units;
  llvm::StringRef prefix = "pipeline.units.";
  for (const auto &entry : values) {
    llvm::StringRef key = entry.getKey();
    if (!key.consume_front(prefix))
      continue;
    std::string unit = key.split('.').first.str();
    if (!llvm::is_contained(units, unit))
      units.push_back(unit);
  }
  llvm::sort(units);
  return units;
}

PipelineSync HwSpec::getPipelineSync() const {
  return llvm::StringSwitch<PipelineSync>(
             getString("pipeline.sync").value_or("none"))
      .Case("gpu_barrier", PipelineSync::GpuBarrier)
      .Case("npu_flag", PipelineSync::NpuFlag)
      .Default(PipelineSync::None);
}

void HwSpec::set(llvm::StringRef key, SpecValue value) {
  values[key] = std::move(value);
}

void HwSpec::setSource(llvm::StringRef key, llvm::StringRef citation) {
  sources[key] = citation.str();
}
