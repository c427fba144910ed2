//===- spec_loader_fuzzer.cpp - Fuzz target for the hardware-spec loader --===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// libFuzzer entry point for everything a spec file reaches: JSON parsing and
// the syntax-error finder, schema validation, the extra checks (alignment,
// citations), overrides, flattening, and then the MLIR side of a valid spec:
// the on-chip memory space (parsed as MLIR attribute text, so arbitrary text
// reaches the MLIR attribute parser), the #dlti.target_system_spec built by
// attach_target_spec, and every figure as an attribute.
//
// Input: spec text, optionally followed by a line "#overrides" and then one
// override per line, `name=value`, where name is a shorthand (reg_limit, ...)
// or a dotted key path, and value is JSON-like: 12, -3, 1.5, "text", true,
// [1,2,3]. The same entry point is linked into a libFuzzer binary (clang) and
// into a replay driver (any compiler) that runs files given on the command
// line, so the corpus doubles as a regression suite.
//
//===----------------------------------------------------------------------===//

#include "hwsched/HwSpec/HwSpecLoader.h"
#include "hwsched/HwSpec/SpecAttributes.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdint>
#include <cstdlib>

using namespace hwsched;

/// Parses one override value; returns false for text that is not a value
/// (such lines are skipped: the loader never sees them).
static bool parseValue(llvm::StringRef text, SpecValue &value) {
  text = text.trim();
  if (text.empty())
    return false;
  if (text == "true" || text == "false") {
    value.type = SpecValue::Type::Boolean;
    value.boolean = text == "true";
    return true;
  }
  if (text.front() == '"') {
    value.type = SpecValue::Type::String;
    value.string =
        text.drop_front().drop_back(text.ends_with("\"") ? 1 : 0).str();
    return true;
  }
  if (text.front() == '[') {
    value.type = SpecValue::Type::IntegerArray;
    llvm::SmallVector<llvm::StringRef> parts;
    text.drop_front().drop_back(text.ends_with("]") ? 1 : 0).split(parts, ',');
    for (llvm::StringRef part : parts) {
      int64_t item;
      if (part.trim().getAsInteger(10, item))
        return false;
      value.integers.push_back(item);
    }
    return true;
  }
  int64_t integer;
  if (!text.getAsInteger(10, integer)) {
    value.type = SpecValue::Type::Integer;
    value.integer = integer;
    return true;
  }
  double number;
  if (!text.getAsDouble(number)) {
    value.type = SpecValue::Type::Number;
    value.number = number;
    return true;
  }
  return false;
}

static std::vector<SpecOverride> parseOverrides(llvm::StringRef text) {
  std::vector<SpecOverride> overrides;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    auto [name, rest] = line.split('=');
    name = name.trim();
    SpecOverride override;
    if (name.empty() || !parseValue(rest, override.value))
      continue;
    override.origin = name.str();
    override.key = name.str();
    for (const OverrideAlias &alias : getOverrideAliases())
      if (alias.name == name) {
        override.key = alias.key.str();
        override.onlyFor = alias.kind;
      }
    overrides.push_back(std::move(override));
  }
  return overrides;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  auto [text, overrideText] = input.split("\n#overrides\n");
  std::vector<SpecOverride> overrides = parseOverrides(overrideText);

  llvm::Expected<HwSpec> spec = parseSpec(text, "fuzz.json", overrides);
  if (!spec) {
    std::string message = llvm::toString(spec.takeError());
    // Every error names the file.
    if (!llvm::StringRef(message).contains("fuzz.json"))
      abort();
    return 0;
  }

  // Every accessor on every key.
  for (const std::string &key : spec->getSortedKeys()) {
    const SpecValue *value = spec->lookup(key);
    if (!value)
      abort();
    (void)value->str();
    (void)value->asNumber();
    (void)spec->getInteger(key);
    (void)spec->getNumber(key);
    (void)spec->getString(key);
    (void)spec->getIntegerArray(key);
    (void)spec->getSource(key);
  }
  (void)spec->getPipelineUnits();

  // The MLIR side, in a fresh single-threaded context per input, so
  // attributes interned by one input cannot influence the next.
  mlir::DialectRegistry registry;
  registry.insert<mlir::DLTIDialect, mlir::gpu::GPUDialect>();
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  // The loader captures parser diagnostics into its errors; this handler
  // keeps anything else off stderr during long runs.
  mlir::ScopedDiagnosticHandler handler(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  // A refusal must say something: an empty message is a bug.
  auto refusedSilently = [](llvm::Error error) {
    return hwsched::takeRefusalMessage(std::move(error)).empty();
  };
  if (llvm::Expected<mlir::Attribute> space =
          parseOnChipMemorySpace(*spec, &context);
      !space && refusedSilently(space.takeError()))
    abort();
  llvm::Expected<mlir::Attribute> dlti = buildTargetSystemSpec(
      *spec, spec->getName(), mlir::Attribute(), &context);
  if (!dlti) {
    if (refusedSilently(dlti.takeError()))
      abort();
  } else {
    // Attaching twice keeps one entry per device (the second replaces the
    // first): must not crash on an existing spec.
    llvm::Expected<mlir::Attribute> again =
        buildTargetSystemSpec(*spec, spec->getName(), *dlti, &context);
    if (!again)
      llvm::consumeError(again.takeError());
  }
  for (const std::string &key : spec->getSortedKeys())
    (void)specValueToAttribute(*spec, key, &context);
  (void)specValueToAttribute(*spec, "no.such.key", &context);
  return 0;
}
