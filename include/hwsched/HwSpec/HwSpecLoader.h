//===- HwSpecLoader.h - Finding, parsing and validating specs ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Specs are JSON files checked against hw-specs/schema.json (embedded in the
// library at build time, so an installed plugin validates the same way as the
// source tree). Every error names the file, the key path and what was
// expected, because users meet these errors inside a transform script run and
// have nothing else to go on.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_HWSPEC_HWSPECLOADER_H
#define HWSCHED_HWSPEC_HWSPECLOADER_H

#include "hwsched/HwSpec/HwSpec.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hwsched {

/// One inline override of a spec figure, e.g. from `reg_limit = 128` on a
/// transform op.
struct SpecOverride {
  /// What the user wrote (attribute name), for messages.
  std::string origin;
  /// Dotted key path of the figure it replaces.
  std::string key;
  SpecValue value;
  /// Shorthand overrides apply to one target kind only (`reg_limit` means
  /// nothing to an NPU); they are skipped, and reported, on other kinds.
  std::optional<HwKind> onlyFor;
};

/// The directories searched for `<name>.json`, in order: every entry of
/// $HWSCHED_SPEC_PATH (colon separated), then the shipped spec directories.
std::vector<std::string> getSpecSearchPath();

/// Finds the file for `target`: a path when it contains '/' or ends in
/// ".json", otherwise a name looked up on the search path.
llvm::Expected<std::string> findSpecFile(llvm::StringRef target);

/// Parses and validates spec text; `path` is only used in messages.
llvm::Expected<HwSpec> parseSpec(llvm::StringRef text, llvm::StringRef path,
                                 llvm::ArrayRef<SpecOverride> overrides = {});

/// findSpecFile + read + parseSpec.
llvm::Expected<HwSpec> loadSpec(llvm::StringRef target,
                                llvm::ArrayRef<SpecOverride> overrides = {});

/// The override names that are shorthands for spec keys, with the target kind
/// they apply to: `reg_limit` (gpu), `smem_limit_bytes` (gpu),
/// `ub_limit_bytes` (npu), `l2_limit_bytes` (cpu), `max_stages` (all).
struct OverrideAlias {
  llvm::StringRef name;
  llvm::StringRef key;
  std::optional<HwKind> kind;
};
llvm::ArrayRef<OverrideAlias> getOverrideAliases();

/// The embedded schema text (hw-specs/schema.json at build time).
llvm::StringRef getSpecSchemaText();

/// For JSON text that does not parse: the parser's message with the line
/// and column ("parse error at line 5, column 10: ..."), which a parse
/// without exceptions does not give. Shared by every JSON file hwsched
/// reads (specs, tuning databases).
std::string describeJsonSyntaxError(llvm::StringRef text);

} // namespace hwsched

#endif // HWSCHED_HWSPEC_HWSPECLOADER_H
