//===- SpecAttributes.cpp - Hardware specs as MLIR attributes -------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/HwSpec/SpecAttributes.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace mlir;
using namespace hwsched;

static constexpr llvm::StringLiteral kMemorySpaceKey = "onchip.memory_space";

/// Parses the whole of `text` as an attribute; a refusal carrying the
/// parser's message when it does not parse.
static llvm::Expected<Attribute> parseWholeAttribute(llvm::StringRef text,
                                                     MLIRContext *context) {
  // The parser reports through the context; capture its message so it lands
  // in our error instead of escaping as a stray diagnostic.
  std::string parserMessage;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (parserMessage.empty())
      parserMessage = diag.str();
    return success();
  });
  size_t consumed = 0;
  Attribute attr = parseAttribute(text, context, Type(), &consumed,
                                  /*isKnownNullTerminated=*/false);
  if (attr && consumed != text.size())
    return refuse(nullptr, "trailing characters after the attribute");
  if (!attr)
    return refuse(nullptr, parserMessage);
  return attr;
}

llvm::Expected<Attribute>
hwsched::parseOnChipMemorySpace(const HwSpec &spec, MLIRContext *context) {
  std::optional<llvm::StringRef> text = spec.getString(kMemorySpaceKey);
  if (!text)
    return Attribute();
  llvm::Expected<Attribute> attr = parseWholeAttribute(*text, context);
  if (!attr)
    return addContext(attr.takeError(),
                      "hardware spec '" + spec.getPath() + "': at '" +
                          kMemorySpaceKey +
                          "': expected MLIR attribute text (e.g. "
                          "\"#gpu.address_space<workgroup>\"), got \"" +
                          *text + "\": ");
  return *attr;
}

static constexpr llvm::StringLiteral kDirectReadKey =
    "onchip.direct_read_spaces";

bool MemorySpacePair::matches(Attribute from, Attribute to) const {
  return (!source || *source == from) && (!target || *target == to);
}

llvm::Expected<SmallVector<MemorySpacePair>>
hwsched::parseDirectReadSpaces(const HwSpec &spec, MLIRContext *context) {
  SmallVector<MemorySpacePair> pairs;
  if (!spec.lookup(kDirectReadKey))
    return pairs;
  std::optional<llvm::ArrayRef<std::string>> entries =
      spec.getStringArray(kDirectReadKey);
  if (!entries)
    return refuse(nullptr, "hardware spec '" + spec.getPath() + "': at '" +
                               kDirectReadKey +
                               "': expected an array of strings");
  for (const std::string &entry : *entries) {
    std::string where = ("hardware spec '" + spec.getPath() + "': at '" +
                         kDirectReadKey + "': entry \"" + entry + "\": ")
                            .str();
    auto [sourceText, targetText] = llvm::StringRef(entry).split("->");
    if (sourceText.size() == entry.size())
      return refuse(nullptr, where + "expected \"SOURCE -> TARGET\" (each MLIR "
                                     "attribute text, '*' or 'default')");
    MemorySpacePair pair;
    for (auto [text, side] :
         {std::make_pair(sourceText.trim(), &pair.source),
          std::make_pair(targetText.trim(), &pair.target)}) {
      if (text == "*")
        continue;
      if (text == "default") {
        *side = Attribute();
        continue;
      }
      if (text.empty())
        return refuse(nullptr,
                      where + "empty memory space (write 'default' or '*')");
      llvm::Expected<Attribute> attr = parseWholeAttribute(text, context);
      if (!attr)
        return addContext(attr.takeError(),
                          where + "cannot parse '" + text + "': ");
      *side = *attr;
    }
    pairs.push_back(pair);
  }
  return pairs;
}

namespace {
/// A key-path tree, so dotted keys become nested #dlti.map entries.
struct KeyTree {
  Attribute leaf;
  std::map<std::string, KeyTree> children;

  void insert(llvm::StringRef key, Attribute value) {
    auto [head, rest] = key.split('.');
    KeyTree &child = children[head.str()];
    if (rest.empty())
      child.leaf = value;
    else
      child.insert(rest, value);
  }

  SmallVector<DataLayoutEntryInterface> entries(MLIRContext *context) const {
    SmallVector<DataLayoutEntryInterface> result;
    for (const auto &[name, child] : children) {
      Attribute value = child.leaf;
      if (!value)
        value = MapAttr::get(context, child.entries(context));
      result.push_back(
          DataLayoutEntryAttr::get(StringAttr::get(context, name), value));
    }
    return result;
  }
};

Attribute toAttribute(const SpecValue &value, Builder &b) {
  switch (value.type) {
  case SpecValue::Type::Integer:
    return b.getI64IntegerAttr(value.integer);
  case SpecValue::Type::Number:
    return b.getF64FloatAttr(value.number);
  case SpecValue::Type::String:
    return b.getStringAttr(value.string);
  case SpecValue::Type::Boolean:
    return b.getBoolAttr(value.boolean);
  case SpecValue::Type::IntegerArray:
    return b.getDenseI64ArrayAttr(value.integers);
  case SpecValue::Type::StringArray:
    return b.getStrArrayAttr(
        llvm::to_vector_of<llvm::StringRef>(value.strings));
  }
  return {};
}

} // namespace

Attribute hwsched::specValueToAttribute(const HwSpec &spec, StringRef key,
                                        MLIRContext *context) {
  const SpecValue *value = spec.lookup(key);
  if (!value)
    return {};
  if (key == kMemorySpaceKey) {
    llvm::Expected<Attribute> space = parseOnChipMemorySpace(spec, context);
    if (!space)
      llvm::consumeError(space.takeError());
    else if (*space)
      return *space;
  }
  Builder b(context);
  return toAttribute(*value, b);
}

namespace {
std::string deviceId(HwKind kind) {
  return llvm::StringRef(stringifyHwKind(kind)).upper();
}
} // namespace

llvm::Expected<Attribute>
hwsched::buildTargetSystemSpec(const HwSpec &spec, llvm::StringRef targetName,
                               Attribute existing, MLIRContext *context) {
  llvm::Expected<Attribute> memorySpace = parseOnChipMemorySpace(spec, context);
  if (!memorySpace)
    return memorySpace.takeError();
  Builder b(context);
  KeyTree tree;
  for (const std::string &key : spec.getSortedKeys()) {
    Attribute value = key == kMemorySpaceKey
                          ? *memorySpace
                          : toAttribute(*spec.lookup(key), b);
    if (value)
      tree.insert(key, value);
  }
  SmallVector<DataLayoutEntryInterface> deviceEntries = tree.entries(context);
  deviceEntries.push_back(DataLayoutEntryAttr::get(
      b.getStringAttr(kDltiTargetKey), b.getStringAttr(targetName)));
  auto device = TargetDeviceSpecAttr::get(context, deviceEntries);

  std::string id = deviceId(spec.getKind());
  SmallVector<DataLayoutEntryInterface> systemEntries;
  if (auto old = llvm::dyn_cast_or_null<TargetSystemSpecAttr>(existing)) {
    for (DataLayoutEntryInterface entry : old.getEntries()) {
      auto key = llvm::dyn_cast<StringAttr>(entry.getKey());
      if (!key || key.getValue() != id)
        systemEntries.push_back(entry);
    }
  } else if (existing) {
    return refuse(nullptr, "the payload's 'dlti.target_system_spec' is not a "
                           "#dlti.target_system_spec");
  }
  systemEntries.push_back(
      DataLayoutEntryAttr::get(b.getStringAttr(id), device));
  return Attribute(TargetSystemSpecAttr::get(context, systemEntries));
}

llvm::Expected<std::optional<std::string>>
hwsched::findRecordedTarget(Operation *op) {
  for (Operation *current = op; current; current = current->getParentOp()) {
    auto system = current->getAttrOfType<TargetSystemSpecAttr>(
        DLTIDialect::kTargetSystemDescAttrName);
    if (!system)
      continue;
    SmallVector<std::string> targets;
    for (DataLayoutEntryInterface entry : system.getEntries()) {
      auto device = llvm::dyn_cast<TargetDeviceSpecAttr>(entry.getValue());
      if (!device)
        continue;
      for (DataLayoutEntryInterface field : device.getEntries()) {
        auto key = llvm::dyn_cast<StringAttr>(field.getKey());
        auto value = llvm::dyn_cast<StringAttr>(field.getValue());
        if (key && value && key.getValue() == kDltiTargetKey)
          targets.push_back(value.str());
      }
    }
    if (targets.size() > 1)
      return refuse(nullptr,
                    "the payload records several hwsched targets (" +
                        llvm::join(targets, ", ") +
                        ") in its dlti.target_system_spec; name one with "
                        "`target`");
    if (targets.size() == 1)
      return std::optional<std::string>(targets.front());
  }
  return std::optional<std::string>();
}
