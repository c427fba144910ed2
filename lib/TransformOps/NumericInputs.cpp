//===- NumericInputs.cpp - Numeric op inputs as attributes or params ------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/TransformOps/NumericInputs.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace hwsched;

/// The param operands of an op with the trait: the trailing operands, one
/// per name (every such op declares its `params` last).
static OperandRange paramOperands(Operation *op, ArrayAttr names) {
  size_t count = names ? names.size() : 0;
  return op->getOperands().take_back(
      std::min<size_t>(count, op->getNumOperands()));
}

LogicalResult hwsched::verifyNumericParams(Operation *op, size_t params) {
  auto names = op->getAttrOfType<ArrayAttr>("param_names");
  size_t count = names ? names.size() : 0;
  if (params != count)
    return op->emitOpError() << "has " << params << " param operands but "
                             << count << " param names";
  llvm::StringSet<> seen;
  for (Attribute name : names ? names.getValue() : ArrayRef<Attribute>()) {
    StringRef text = cast<StringAttr>(name).getValue();
    if (!seen.insert(text).second)
      return op->emitOpError() << "input '" << text << "' given twice";
    if (text == "param_names" || op->hasAttr(text))
      return op->emitOpError() << "input '" << text
                               << "' given both as an attribute and as a param";
  }
  return success();
}

DiagnosedSilenceableFailure
NumericInputs::read(transform::TransformOpInterface transformOp,
                    transform::TransformState &state, NumericInputs &out,
                    ArrayRef<StringRef> listInputs) {
  Operation *op = transformOp.getOperation();
  out.op = op;
  out.values.clear();
  auto names = op->getAttrOfType<ArrayAttr>("param_names");
  if (!names)
    return DiagnosedSilenceableFailure::success();
  for (auto [name, param] : llvm::zip(names, paramOperands(op, names))) {
    StringRef text = cast<StringAttr>(name).getValue();
    ArrayRef<Attribute> held = state.getParams(param);
    if (llvm::is_contained(listInputs, text)) {
      SmallVector<int64_t> list;
      for (Attribute value : held) {
        auto integer = dyn_cast<IntegerAttr>(value);
        if (!integer)
          return transformOp.emitSilenceableError()
                 << "param '" << text << "' must hold integers, got " << value;
        list.push_back(integer.getValue().getSExtValue());
      }
      out.values.emplace_back(StringAttr::get(op->getContext(), text),
                              DenseI64ArrayAttr::get(op->getContext(), list));
      continue;
    }
    if (held.size() != 1)
      return transformOp.emitSilenceableError()
             << "param '" << text << "' holds " << held.size()
             << " values; a numeric input takes exactly one";
    out.values.emplace_back(StringAttr::get(op->getContext(), text),
                            held.front());
  }
  return DiagnosedSilenceableFailure::success();
}

Attribute NumericInputs::get(StringRef name) const {
  if (Attribute attr = op->getAttr(name))
    return attr;
  for (const NamedAttribute &value : values)
    if (value.getName() == name)
      return value.getValue();
  return {};
}

bool NumericInputs::fromParam(StringRef name) const {
  return llvm::any_of(values, [&](const NamedAttribute &value) {
    return value.getName() == name;
  });
}

DiagnosedSilenceableFailure
NumericInputs::getInteger(StringRef name, int64_t minimum,
                          std::optional<int64_t> &value) const {
  value.reset();
  Attribute attr = get(name);
  if (!attr)
    return DiagnosedSilenceableFailure::success();
  StringRef origin = fromParam(name) ? " (from a param)" : "";
  auto integer = dyn_cast<IntegerAttr>(attr);
  // An i1 is a bool here, not a count.
  if (!integer || integer.getType().isInteger(1))
    return emitSilenceableFailure(op)
           << name << origin << " must be an integer, got " << attr;
  // I64Attr getters are unsigned: read the signed value to catch -1.
  int64_t v = integer.getValue().getSExtValue();
  if (integer.getValue().getSignificantBits() > 64)
    return emitSilenceableFailure(op) << name << origin << " must be at least "
                                      << minimum << " (got " << attr << ")";
  if (v < minimum)
    return emitSilenceableFailure(op) << name << origin << " must be at least "
                                      << minimum << " (got " << v << ")";
  value = v;
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// Assembly
//===----------------------------------------------------------------------===//

ParseResult
parseHwschedParams(OpAsmParser &parser,
                   SmallVectorImpl<OpAsmParser::UnresolvedOperand> &params,
                   ArrayAttr &names) {
  SmallVector<Attribute> nameAttrs;
  auto parseOne = [&]() -> ParseResult {
    std::string name;
    OpAsmParser::UnresolvedOperand operand;
    if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
        parser.parseOperand(operand))
      return failure();
    nameAttrs.push_back(parser.getBuilder().getStringAttr(name));
    params.push_back(operand);
    return success();
  };
  if (parser.parseCommaSeparatedList(parseOne))
    return failure();
  names = parser.getBuilder().getArrayAttr(nameAttrs);
  return success();
}

/// A bare identifier prints as a keyword, anything else (a dotted spec key
/// path) as a string.
static bool isBareName(StringRef name) {
  return !name.empty() && (isalpha(name.front()) || name.front() == '_') &&
         llvm::all_of(name, [](char c) { return isalnum(c) || c == '_'; });
}

void printHwschedParams(OpAsmPrinter &printer, Operation *op,
                        OperandRange params, ArrayAttr names) {
  if (!names)
    return;
  llvm::interleaveComma(llvm::zip(names, params), printer, [&](auto pair) {
    StringRef name = cast<StringAttr>(std::get<0>(pair)).getValue();
    if (isBareName(name))
      printer << name;
    else
      printer << '"' << name << '"';
    printer << " = " << std::get<1>(pair);
  });
}
