//===- JsonSchema.cpp - The JSON-Schema subset specs are checked with -----===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "JsonSchema.h"

#include <cmath>
#include <sstream>

using nlohmann::json;

namespace hwsched {
namespace detail {

std::string joinKeyPath(const std::string &parent, const std::string &key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string describeJson(const json &value) {
  std::string text = value.dump();
  if (text.size() > 60)
    text = text.substr(0, 57) + "...";
  const char *kind = "";
  switch (value.type()) {
  case json::value_t::string:
    kind = "string ";
    break;
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
    kind = "integer ";
    break;
  case json::value_t::number_float:
    kind = "number ";
    break;
  case json::value_t::boolean:
    kind = "boolean ";
    break;
  case json::value_t::array:
    kind = "array ";
    break;
  case json::value_t::object:
    kind = "object ";
    break;
  default:
    break;
  }
  return kind + text;
}

namespace {

std::string printPath(const std::string &path) {
  return "'" + (path.empty() ? std::string("<top level>") : path) + "'";
}

bool isInteger(const json &value) {
  if (value.is_number_integer())
    return true;
  // JSON has one number type; 4.0 is an integer in JSON-Schema's sense.
  // Only whole numbers a 64-bit integer holds count: the loader reads them
  // as int64_t, and converting a double outside that range is undefined
  // behaviour (the spec-loader fuzzer found 1.8e20).
  if (value.is_number_float()) {
    double d = value.get<double>();
    if (!std::isfinite(d) || d < -0x1p63 || d >= 0x1p63)
      return false;
    return d == std::trunc(d);
  }
  return false;
}

bool hasType(const json &value, const std::string &type) {
  if (type == "object")
    return value.is_object();
  if (type == "array")
    return value.is_array();
  if (type == "string")
    return value.is_string();
  if (type == "integer")
    return isInteger(value);
  if (type == "number")
    return value.is_number();
  if (type == "boolean")
    return value.is_boolean();
  return false;
}

/// Describes what a schema expects, for "expected X" messages.
std::string describeExpectation(const json &schema) {
  std::ostringstream os;
  auto type = schema.find("type");
  os << (type != schema.end() && type->is_string() ? type->get<std::string>()
                                                   : std::string("value"));
  if (auto it = schema.find("exclusiveMinimum"); it != schema.end())
    os << " > " << it->dump();
  if (auto it = schema.find("minimum"); it != schema.end())
    os << " >= " << it->dump();
  if (auto it = schema.find("maximum"); it != schema.end())
    os << " <= " << it->dump();
  if (auto it = schema.find("enum"); it != schema.end())
    os << " (one of " << it->dump() << ")";
  if (auto it = schema.find("const"); it != schema.end())
    os << " equal to " << it->dump();
  return os.str();
}

/// The first sentence of a schema description: enough to say what a key
/// means without burying the error.
std::string describeKey(const json &schema) {
  auto it = schema.find("description");
  if (it == schema.end() || !it->is_string())
    return "";
  std::string text = it->get<std::string>();
  size_t end = text.find(". ");
  if (end != std::string::npos)
    text.resize(end + 1);
  return " (" + text + ")";
}

class Validator {
public:
  std::optional<std::string> check(const json &schema, const json &value,
                                   const std::string &path) {
    if (!schema.is_object())
      return std::nullopt;
    if (auto err = checkScalar(schema, value, path))
      return err;
    if (value.is_object())
      if (auto err = checkObject(schema, value, path))
        return err;
    if (value.is_array())
      if (auto err = checkArray(schema, value, path))
        return err;
    if (auto it = schema.find("allOf"); it != schema.end() && it->is_array())
      for (const json &sub : *it)
        if (auto err = check(sub, value, path))
          return err;
    if (auto it = schema.find("if"); it != schema.end()) {
      // `if` only selects; its own failure is not an error.
      if (!check(*it, value, path))
        if (auto then = schema.find("then"); then != schema.end())
          if (auto err = check(*then, value, path))
            return err;
    }
    return std::nullopt;
  }

private:
  std::optional<std::string> mismatch(const json &schema, const json &value,
                                      const std::string &path) {
    return "at " + printPath(path) + ": expected " +
           describeExpectation(schema) + ", got " + describeJson(value) +
           describeKey(schema);
  }

  std::optional<std::string> checkScalar(const json &schema, const json &value,
                                         const std::string &path) {
    if (auto it = schema.find("type"); it != schema.end() && it->is_string())
      if (!hasType(value, it->get<std::string>()))
        return mismatch(schema, value, path);
    if (value.is_number()) {
      double v = value.get<double>();
      if (auto it = schema.find("exclusiveMinimum");
          it != schema.end() && it->is_number() && !(v > it->get<double>()))
        return mismatch(schema, value, path);
      if (auto it = schema.find("minimum");
          it != schema.end() && it->is_number() && !(v >= it->get<double>()))
        return mismatch(schema, value, path);
      if (auto it = schema.find("maximum");
          it != schema.end() && it->is_number() && !(v <= it->get<double>()))
        return mismatch(schema, value, path);
    }
    if (auto it = schema.find("enum"); it != schema.end() && it->is_array()) {
      bool found = false;
      for (const json &option : *it)
        found |= option == value;
      if (!found)
        return mismatch(schema, value, path);
    }
    if (auto it = schema.find("const"); it != schema.end() && *it != value)
      return mismatch(schema, value, path);
    return std::nullopt;
  }

  std::optional<std::string> checkObject(const json &schema, const json &value,
                                         const std::string &path) {
    auto props = schema.find("properties");
    if (auto it = schema.find("required"); it != schema.end() && it->is_array())
      for (const json &key : *it) {
        if (!key.is_string() || value.contains(key.get<std::string>()))
          continue;
        std::string name = key.get<std::string>();
        std::string what;
        if (props != schema.end() && props->contains(name))
          what = ": " + describeExpectation((*props)[name]) +
                 describeKey((*props)[name]);
        return "at " + printPath(path) + ": missing required key '" + name +
               "'" + what;
      }
    auto additional = schema.find("additionalProperties");
    for (auto item = value.begin(); item != value.end(); ++item) {
      std::string childPath = joinKeyPath(path, item.key());
      if (props != schema.end() && props->contains(item.key())) {
        if (auto err = check((*props)[item.key()], item.value(), childPath))
          return err;
        continue;
      }
      if (additional == schema.end())
        continue;
      if (additional->is_boolean() && !additional->get<bool>()) {
        std::string known;
        if (props != schema.end())
          for (auto p = props->begin(); p != props->end(); ++p)
            known += (known.empty() ? "" : ", ") + p.key();
        return "at " + printPath(path) + ": unknown key '" + item.key() +
               "'; expected one of: " + known;
      }
      if (additional->is_object())
        if (auto err = check(*additional, item.value(), childPath))
          return err;
    }
    return std::nullopt;
  }

  std::optional<std::string> checkArray(const json &schema, const json &value,
                                        const std::string &path) {
    size_t size = value.size();
    if (auto it = schema.find("minItems"); it != schema.end() &&
                                           it->is_number_integer() &&
                                           size < it->get<size_t>())
      return "at " + printPath(path) + ": expected at least " + it->dump() +
             " items, got " + std::to_string(size);
    if (auto it = schema.find("maxItems"); it != schema.end() &&
                                           it->is_number_integer() &&
                                           size > it->get<size_t>())
      return "at " + printPath(path) + ": expected at most " + it->dump() +
             " items, got " + std::to_string(size);
    if (auto it = schema.find("items"); it != schema.end())
      for (size_t i = 0; i < size; ++i)
        if (auto err =
                check(*it, value[i], path + "[" + std::to_string(i) + "]"))
          return err;
    return std::nullopt;
  }
};

} // namespace

std::optional<std::string> validateJson(const json &schema, const json &value) {
  return Validator().check(schema, value, "");
}

} // namespace detail
} // namespace hwsched
