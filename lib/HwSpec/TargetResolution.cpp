//===- TargetResolution.cpp - Which spec one op application uses ----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/HwSpec/TargetResolution.h"

#include "hwsched/HwSpec/HwSpecLoader.h"
#include "hwsched/HwSpec/SpecAttributes.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace hwsched;

static std::string &driverDefaultTarget() {
  static std::string target;
  return target;
}

void hwsched::setDefaultTarget(llvm::StringRef target) {
  driverDefaultTarget() = target.str();
}

std::optional<std::string> hwsched::getDriverTarget() {
  if (!driverDefaultTarget().empty())
    return driverDefaultTarget();
  if (const char *env = std::getenv("HWSCHED_TARGET"); env && *env)
    return std::string(env);
  return std::nullopt;
}

std::string hwsched::getDefaultTarget() {
  return getDriverTarget().value_or(kBuiltinDefaultTarget.str());
}

/// Spec sections a quoted override key may start with.
static bool isFigureKey(llvm::StringRef name) {
  llvm::StringRef section = name.split('.').first;
  return name.contains('.') &&
         llvm::is_contained({"onchip", "offchip", "compute", "gpu", "npu",
                             "cpu", "pipeline", "cost_weights"},
                            section);
}

/// Converts an override attribute to a spec value. Returns std::nullopt for
/// attribute kinds that are not values; a refusal for values that are of the
/// right kind but cannot be represented faithfully (they would otherwise be
/// silently truncated, e.g. an i128 of 2^64 + 1 becoming 1).
static llvm::Expected<std::optional<SpecValue>> toSpecValue(Attribute attr) {
  SpecValue value;
  if (auto boolAttr = llvm::dyn_cast<BoolAttr>(attr)) {
    value.type = SpecValue::Type::Boolean;
    value.boolean = boolAttr.getValue();
  } else if (auto intAttr = llvm::dyn_cast<IntegerAttr>(attr)) {
    const APInt &bits = intAttr.getValue();
    bool isUnsigned = intAttr.getType().isUnsignedInteger();
    if (isUnsigned ? bits.getActiveBits() > 63
                   : bits.getSignificantBits() > 64) {
      SmallString<32> text;
      bits.toString(text, /*Radix=*/10, /*Signed=*/!isUnsigned);
      return refuse(
          nullptr,
          ("value " + text + " does not fit in a signed 64-bit integer").str());
    }
    value.type = SpecValue::Type::Integer;
    value.integer = bits.getSExtValue();
  } else if (auto floatAttr = llvm::dyn_cast<FloatAttr>(attr)) {
    value.type = SpecValue::Type::Number;
    value.number = floatAttr.getValueAsDouble();
    // JSON has no NaN or infinity, and no figure means either.
    if (!std::isfinite(value.number)) {
      return refuse(nullptr, "value is not a finite number");
    }
  } else if (auto strAttr = llvm::dyn_cast<StringAttr>(attr)) {
    value.type = SpecValue::Type::String;
    value.string = strAttr.str();
  } else if (auto arrayAttr = llvm::dyn_cast<DenseI64ArrayAttr>(attr)) {
    value.type = SpecValue::Type::IntegerArray;
    value.integers.assign(arrayAttr.asArrayRef().begin(),
                          arrayAttr.asArrayRef().end());
  } else if (auto arrayAttr = llvm::dyn_cast<ArrayAttr>(attr)) {
    // Only arrays of strings (e.g. memory-space pairs); `[]` is empty.
    value.type = SpecValue::Type::StringArray;
    for (Attribute item : arrayAttr) {
      auto str = llvm::dyn_cast<StringAttr>(item);
      if (!str)
        return std::nullopt;
      value.strings.push_back(str.str());
    }
  } else {
    return std::nullopt;
  }
  return std::optional<SpecValue>(std::move(value));
}

/// An attribute as the user wrote it, for messages.
static std::string printAttr(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attr;
  return text;
}

/// Turns the op's non-inherent attributes into spec overrides.
static llvm::Error collectOverrides(Operation *op, ArrayRef<StringRef> ownAttrs,
                                    ArrayRef<NamedAttribute> paramInputs,
                                    SmallVectorImpl<SpecOverride> &overrides) {
  SmallVector<NamedAttribute> given(op->getAttrs());
  llvm::append_range(given, paramInputs);
  for (NamedAttribute attr : given) {
    StringRef name = attr.getName().getValue();
    // `param_names` only names the params, whose values come as
    // `paramInputs`.
    if (llvm::is_contained(ownAttrs, name) || name == kDefaultTargetAttr ||
        name == "param_names")
      continue;
    SpecOverride override;
    override.origin = name.str();
    if (!op->hasAttr(name))
      override.origin += " (param)";
    const OverrideAlias *alias =
        llvm::find_if(getOverrideAliases(),
                      [&](const OverrideAlias &a) { return a.name == name; });
    if (alias != getOverrideAliases().end()) {
      override.key = alias->key.str();
      override.onlyFor = alias->kind;
    } else if (isFigureKey(name)) {
      override.key = name.str();
    } else if (name.contains('.')) {
      // A dialect attribute (e.g. a test tag): not ours to interpret.
      continue;
    } else {
      SmallVector<std::string> known;
      for (const OverrideAlias &a : getOverrideAliases())
        known.push_back(a.name.str());
      return refuse(nullptr,
                    "unknown override '" + name + "'; expected one of " +
                        llvm::join(known, ", ") +
                        " or a quoted spec key path such as \"gpu.sm_count\"");
    }
    llvm::Expected<std::optional<SpecValue>> value =
        toSpecValue(attr.getValue());
    if (!value)
      return refuse(nullptr, "override '" + name +
                                 "': " + takeRefusalMessage(value.takeError()) +
                                 ", got " + printAttr(attr.getValue()));
    if (!*value)
      return refuse(nullptr,
                    "override '" + name +
                        "' must be an integer, float, string, bool, "
                        "array<i64> or array of strings attribute, got " +
                        printAttr(attr.getValue()));
    override.value = std::move(**value);
    overrides.push_back(std::move(override));
  }
  return llvm::Error::success();
}

llvm::Expected<ResolvedTarget>
hwsched::resolveTarget(Operation *op, Operation *payload,
                       ArrayRef<StringRef> ownAttrs,
                       ArrayRef<NamedAttribute> paramInputs) {
  ResolvedTarget result;
  if (auto target = op->getAttrOfType<StringAttr>("target")) {
    result.target = target.str();
    result.origin = "attribute";
  } else {
    llvm::Expected<std::optional<std::string>> recorded =
        payload ? findRecordedTarget(payload)
                : llvm::Expected<std::optional<std::string>>(std::nullopt);
    if (!recorded)
      return recorded.takeError();
    if (*recorded) {
      result.target = **recorded;
      result.origin = "payload";
    } else if (std::optional<std::string> driver = getDriverTarget()) {
      result.target = *driver;
      result.origin = "driver";
    } else if (auto fallback =
                   op->getAttrOfType<StringAttr>(kDefaultTargetAttr)) {
      result.target = fallback.str();
      result.origin = "script default";
    } else {
      result.target = kBuiltinDefaultTarget.str();
      result.origin = "default";
    }
  }
  // Not an override: a non-string value is a mistake in the script.
  if (Attribute fallback = op->getAttr(kDefaultTargetAttr);
      fallback && !isa<StringAttr>(fallback))
    return refuse(nullptr, "'" + kDefaultTargetAttr +
                               "' must be a string naming a spec (e.g. "
                               "\"host\"), got " +
                               printAttr(fallback));

  SmallVector<SpecOverride> overrides;
  if (llvm::Error error =
          collectOverrides(op, ownAttrs, paramInputs, overrides))
    return std::move(error);

  llvm::Expected<HwSpec> spec = loadSpec(result.target, overrides);
  if (!spec)
    return refuse(nullptr, llvm::toString(spec.takeError()));
  result.spec = std::move(*spec);

  llvm::Expected<Attribute> space =
      parseOnChipMemorySpace(result.spec, op->getContext());
  if (!space)
    return space.takeError();
  result.onChipMemorySpace = *space;
  // Parsed here like the memory space, so a malformed pair fails every op
  // that reads the spec, not only the one that uses it.
  llvm::Expected<SmallVector<MemorySpacePair>> pairs =
      parseDirectReadSpaces(result.spec, op->getContext());
  if (!pairs)
    return pairs.takeError();
  result.directReadSpaces.assign(pairs->begin(), pairs->end());
  return result;
}
