//===- NumericInputs.h - Numeric op inputs as attributes or params -*- C++
//-*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Every numeric decision input of a hwsched op (`num_stages`, a spec
// override such as `max_stages`, ...) can be written as an attribute or
// passed as a `!transform.param` in a `params(name = %p, ...)` clause, so a
// tuning knob or a value read from a tuning database drives it without
// editing the script. This header holds the one place that turns both forms
// into the same attribute: the custom assembly directive, the verifier trait
// and the per-application reader the ops call.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMOPS_NUMERICINPUTS_H
#define HWSCHED_TRANSFORMOPS_NUMERICINPUTS_H

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include <optional>

namespace hwsched {

/// Checks that the `numParams` param operands of `op` (its trailing
/// operands) pair up with its `param_names`, that no name repeats and that no
/// name is also given as an attribute of the op.
mlir::LogicalResult verifyNumericParams(mlir::Operation *op, size_t numParams);

/// ODS trait of the ops with a `params(...)` clause (HwschedNumericParams).
template <typename ConcreteType>
class HwschedNumericParams
    : public mlir::OpTrait::TraitBase<ConcreteType, HwschedNumericParams> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyNumericParams(op,
                               llvm::cast<ConcreteType>(op).getParams().size());
  }
};

/// The numeric inputs of one application of an op: its attributes, and the
/// values of its `params(...)` read from the transform state, by name.
class NumericInputs {
public:
  /// Reads the params of `op`. Each must hold exactly one value, except the
  /// inputs named in `listInputs`, which take all of a param's values (as a
  /// DenseI64ArrayAttr; each value an integer). Fails (silenceable, naming
  /// the input) on a param with no or several values.
  static mlir::DiagnosedSilenceableFailure
  read(mlir::transform::TransformOpInterface op,
       mlir::transform::TransformState &state, NumericInputs &out,
       llvm::ArrayRef<llvm::StringRef> listInputs = {});

  /// The attribute `name` of the op, else the value of its param; null when
  /// the op has neither.
  mlir::Attribute get(llvm::StringRef name) const;
  bool fromParam(llvm::StringRef name) const;

  /// Integer input `name`, at least `minimum`; std::nullopt in `value` when
  /// the op has none. A non-integer or an out-of-range value is a
  /// silenceable failure naming the input and where it came from.
  mlir::DiagnosedSilenceableFailure
  getInteger(llvm::StringRef name, int64_t minimum,
             std::optional<int64_t> &value) const;

  /// The inputs given as params, as attributes of the same names (spec
  /// overrides among them are resolved like attribute overrides).
  llvm::ArrayRef<mlir::NamedAttribute> paramValues() const { return values; }

private:
  mlir::Operation *op = nullptr;
  llvm::SmallVector<mlir::NamedAttribute> values;
};

} // namespace hwsched

/// Custom assembly directive `custom<HwschedParams>($params, $param_names)`:
/// `params(num_stages = %p, "gpu.sm_count" = %q)`, nothing when empty.
mlir::ParseResult parseHwschedParams(
    mlir::OpAsmParser &parser,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &params,
    mlir::ArrayAttr &names);
void printHwschedParams(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                        mlir::OperandRange params, mlir::ArrayAttr names);

#endif // HWSCHED_TRANSFORMOPS_NUMERICINPUTS_H
