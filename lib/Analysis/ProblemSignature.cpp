//===- ProblemSignature.cpp - What identifies a tuning problem ------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Analysis/ProblemSignature.h"

#include "hwsched/Analysis/TileProblem.h"
#include "hwsched/Support/Refusal.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace hwsched;

void ProblemSignature::print(llvm::raw_ostream &os) const {
  os << opName << ' ';
  llvm::interleave(
      loopExtents, os,
      [&](int64_t e) {
        if (e == kDynamicExtent)
          os << '?';
        else
          os << e;
      },
      "x");
  os << ' ' << iterators << ' ';
  llvm::interleave(elementTypes, os, ",");
  if (!structure.empty())
    os << ' ' << structure;
}

std::string ProblemSignature::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os);
  return text;
}

/// FNV-1a: a digest that is the same in every process and build (unlike
/// llvm::hash_value, which may be seeded), so database keys stay valid.
static uint64_t fnv1a(llvm::StringRef text, uint64_t hash) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

llvm::Expected<ProblemSignature> hwsched::signProblem(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return refuse(op, "a tuning problem is a Linalg op, got '" +
                          op->getName().getStringRef() + "'");
  ProblemSignature s;
  s.opName = op->getName().getStringRef().str();
  for (int64_t extent : linalgOp.getStaticLoopRanges())
    s.loopExtents.push_back(ShapedType::isDynamic(extent) ? kDynamicExtent
                                                          : extent);
  for (utils::IteratorType kind : linalgOp.getIteratorTypesArray())
    s.iterators += kind == utils::IteratorType::parallel ? 'p' : 'r';
  for (OpOperand &operand : op->getOpOperands()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    getElementTypeOrSelf(operand.get().getType()).print(os);
    s.elementTypes.push_back(text);
  }
  // A named op's name fixes its maps and body; a generic needs both.
  if (isa<linalg::GenericOp>(op)) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    std::string text;
    llvm::raw_string_ostream os(text);
    for (AffineMap map : linalgOp.getIndexingMapsArray())
      os << map << ';';
    for (Operation &bodyOp : linalgOp.getBlock()->without_terminator()) {
      os << bodyOp.getName() << '(';
      for (Value operand : bodyOp.getOperands())
        if (auto arg = dyn_cast<BlockArgument>(operand))
          os << 'a' << arg.getArgNumber() << ',';
        else
          os << "v,";
      os << ')';
    }
    hash = fnv1a(text, hash);
    llvm::raw_string_ostream(s.structure)
        << llvm::format_hex_no_prefix(hash, 16);
  }
  return s;
}
