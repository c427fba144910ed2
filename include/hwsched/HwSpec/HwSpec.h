//===- HwSpec.h - In-memory hardware specification --------------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// A validated hardware spec, flattened to dotted key paths
// ("gpu.registers_per_sm", "pipeline.units.vector.latency_cycles"). Every layer
// above reads figures through this class, so no layer depends on the JSON
// library or on the file format.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_HWSPEC_HWSPEC_H
#define HWSCHED_HWSPEC_HWSPEC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hwsched {

/// The three target families the cost models distinguish.
enum class HwKind { Gpu, Npu, Cpu };

/// Returns "gpu", "npu" or "cpu".
llvm::StringRef stringifyHwKind(HwKind kind);
/// Parses "gpu", "npu" or "cpu".
std::optional<HwKind> parseHwKind(llvm::StringRef text);

/// How a pipelined loop synchronises its stages: the spec's `pipeline.sync`
/// ("none", "gpu_barrier", "npu_flag"; absent or another value: None).
enum class PipelineSync { None, GpuBarrier, NpuFlag };

/// One leaf figure of a spec.
struct SpecValue {
  enum class Type {
    Integer,
    Number,
    String,
    Boolean,
    IntegerArray,
    StringArray
  };
  Type type = Type::Integer;
  int64_t integer = 0;
  double number = 0.0;
  bool boolean = false;
  std::string string;
  llvm::SmallVector<int64_t> integers;
  std::vector<std::string> strings;

  /// The value as a double when it is numeric.
  std::optional<double> asNumber() const;
  /// Prints the value the way the JSON file spells it.
  std::string str() const;
};

/// A loaded, validated hardware spec.
class HwSpec {
public:
  HwSpec() = default;
  HwSpec(std::string name, HwKind kind, std::string path)
      : name(std::move(name)), kind(kind), path(std::move(path)) {}

  /// The spec's `name` (e.g. "nvidia-a100").
  llvm::StringRef getName() const { return name; }
  HwKind getKind() const { return kind; }
  /// The file the spec was read from.
  llvm::StringRef getPath() const { return path; }

  /// Typed lookups by dotted key path; std::nullopt when the key is absent or
  /// holds another type. Integers also answer getNumber.
  std::optional<int64_t> getInteger(llvm::StringRef key) const;
  std::optional<double> getNumber(llvm::StringRef key) const;
  std::optional<llvm::StringRef> getString(llvm::StringRef key) const;
  std::optional<llvm::ArrayRef<int64_t>>
  getIntegerArray(llvm::StringRef key) const;
  /// An array of strings. An empty JSON array answers both getIntegerArray
  /// and getStringArray (it carries no element type).
  std::optional<llvm::ArrayRef<std::string>>
  getStringArray(llvm::StringRef key) const;
  const SpecValue *lookup(llvm::StringRef key) const;

  /// Reads the numeric figures `keys` into `out` (same length). The first
  /// absent or non-numeric key is a refusal (missingFigure) naming the key a
  /// user must add and `neededBy`, the model that reads it.
  llvm::Error getNumbers(llvm::ArrayRef<llvm::StringRef> keys,
                         llvm::MutableArrayRef<double> out,
                         const llvm::Twine &neededBy) const;

  /// The citation recorded for `key` or its closest ancestor, if any.
  std::optional<llvm::StringRef> getSource(llvm::StringRef key) const;

  /// All figure keys in sorted order, for deterministic printing and export.
  std::vector<std::string> getSortedKeys() const;

  /// A digest of every figure (overrides applied; the `tuning` settings
  /// left out), the same in every process: a tuning database records it so
  /// that a configuration measured under one spec is not reused under
  /// another. 16 lowercase hex digits.
  std::string getFingerprint() const;

  /// The names of the pipeline units ("async_copy", "cube", ...), sorted.
  std::vector<std::string> getPipelineUnits() const;

  /// `pipeline.sync`, the one place that reads it.
  PipelineSync getPipelineSync() const;

  /// Overrides applied when the spec was resolved, as "key=value" strings in
  /// application order; remarks print them so a decision can be reproduced.
  llvm::ArrayRef<std::string> getAppliedOverrides() const {
    return appliedOverrides;
  }

  // Mutators used by the loader only.
  void set(llvm::StringRef key, SpecValue value);
  void setSource(llvm::StringRef key, llvm::StringRef citation);
  void addAppliedOverride(std::string text) {
    appliedOverrides.push_back(std::move(text));
  }

private:
  std::string name;
  HwKind kind = HwKind::Cpu;
  std::string path;
  llvm::StringMap<SpecValue> values;
  llvm::StringMap<std::string> sources;
  std::vector<std::string> appliedOverrides;
};

/// The refusal for a figure `key` that `spec` lacks (or holds with another
/// type): "hardware spec '<path>' has no '<key>', which <neededBy> needs".
llvm::Error missingFigure(const HwSpec &spec, llvm::StringRef key,
                          const llvm::Twine &neededBy);

} // namespace hwsched

#endif // HWSCHED_HWSPEC_HWSPEC_H
