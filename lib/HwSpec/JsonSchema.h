//===- JsonSchema.h - The JSON-Schema subset specs are checked with -*- C++ -*-//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// A validator for the keywords hw-specs/schema.json uses: type, properties,
// required, additionalProperties, minimum, maximum, exclusiveMinimum, enum,
// const, items, minItems, maxItems, allOf, if/then. A general JSON-Schema
// library would add a dependency Debian does not package for C++; this subset
// is enough to give errors that name the key path and the expectation.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_LIB_HWSPEC_JSONSCHEMA_H
#define HWSCHED_LIB_HWSPEC_JSONSCHEMA_H

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace hwsched {
namespace detail {

/// Checks `value` against `schema`; returns the first violation as
/// "at '<key path>': <what was expected>, got <what was found>".
std::optional<std::string> validateJson(const nlohmann::json &schema,
                                        const nlohmann::json &value);

/// Joins key paths the way messages print them ("gpu.warp_size").
std::string joinKeyPath(const std::string &parent, const std::string &key);

/// Prints a JSON value briefly for messages.
std::string describeJson(const nlohmann::json &value);

} // namespace detail
} // namespace hwsched

#endif // HWSCHED_LIB_HWSPEC_JSONSCHEMA_H
