//===- NpuSync.cpp - NPU pipe synchronisation dialect ---------------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Dialect/NpuSync/NpuSync.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace hwsched::npu;

#include "hwsched/Dialect/NpuSync/NpuSyncDialect.cpp.inc"

void HwschedNpuDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "hwsched/Dialect/NpuSync/NpuSyncOps.cpp.inc"
      >();
}

llvm::ArrayRef<llvm::StringLiteral> hwsched::npu::getPipeNames() {
  // Ascend PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_M, PIPE_V, PIPE_S, PIPE_FIX
  // under the unit names the hw-specs use.
  static constexpr llvm::StringLiteral names[] = {
      "mte1", "mte2", "mte3", "cube", "vector", "scalar", "fixpipe"};
  return names;
}

std::optional<unsigned> hwsched::npu::getPipeIndex(StringRef name) {
  for (auto [i, pipe] : llvm::enumerate(getPipeNames()))
    if (pipe == name)
      return i;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Custom directive: a pipe name as a bare keyword
//===----------------------------------------------------------------------===//

static ParseResult parsePipeName(OpAsmParser &parser, StringAttr &pipe) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  if (!getPipeIndex(name))
    return parser.emitError(loc) << "unknown pipe '" << name << "'";
  pipe = parser.getBuilder().getStringAttr(name);
  return success();
}

static void printPipeName(OpAsmPrinter &printer, Operation *, StringAttr pipe) {
  printer << pipe.getValue();
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

static LogicalResult verifyFlagOp(Operation *op, StringRef src, StringRef dst,
                                  Value event) {
  std::string known;
  for (StringRef name : getPipeNames())
    known += (known.empty() ? "" : ", ") + name.str();
  if (!getPipeIndex(src))
    return op->emitOpError() << "unknown source pipe '" << src
                             << "' (expected one of " << known << ")";
  if (!getPipeIndex(dst))
    return op->emitOpError() << "unknown destination pipe '" << dst
                             << "' (expected one of " << known << ")";
  if (src == dst)
    return op->emitOpError() << "source and destination pipe are both '" << src
                             << "': a pipe executes in order and needs no flag";
  APInt id;
  if (matchPattern(event, m_ConstantInt(&id))) {
    int64_t value = id.getSExtValue();
    if (value < 0 || value >= static_cast<int64_t>(kNumEventIds))
      return op->emitOpError() << "event id " << value << " out of range [0, "
                               << kNumEventIds << ")";
  }
  return success();
}

LogicalResult SetFlagOp::verify() {
  return verifyFlagOp(*this, getSrcPipe(), getDstPipe(), getEvent());
}

LogicalResult WaitFlagOp::verify() {
  return verifyFlagOp(*this, getSrcPipe(), getDstPipe(), getEvent());
}

#define GET_OP_CLASSES
#include "hwsched/Dialect/NpuSync/NpuSyncOps.cpp.inc"
