//===- EmulateNpuSync.cpp - Checked CPU emulation of NPU flags ------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/Dialect/NpuSync/NpuSync.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include "hwsched/Transforms/Passes.h"

#include "RuntimeCheck.h"

namespace hwsched {
#define GEN_PASS_DEF_HWSCHEDEMULATENPUSYNC
#include "hwsched/Transforms/Passes.h.inc"
} // namespace hwsched

using namespace mlir;
using namespace hwsched;

static constexpr llvm::StringLiteral kFlagTable = "__hwsched_npu_flags";

namespace {
struct EmulateNpuSyncPass
    : hwsched::impl::HwschedEmulateNpuSyncBase<EmulateNpuSyncPass> {
  void runOnOperation() override;
};

} // namespace

/// "<op> <src> -> <dst> at <loc>" for assertion messages.
static std::string describe(Operation *op, StringRef src, StringRef dst) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << " " << src << " -> " << dst << " at " << op->getLoc();
  return text;
}

void EmulateNpuSyncPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<Operation *> flagOps;
  module.walk([&](Operation *op) {
    if (isa<npu::SetFlagOp, npu::WaitFlagOp>(op))
      flagOps.push_back(op);
  });
  if (flagOps.empty())
    return;

  unsigned numPipes = npu::getPipeNames().size();
  int64_t numFlags = numPipes * numPipes * npu::kNumEventIds;
  IRRewriter rewriter(module.getContext());
  auto tableType = MemRefType::get({numFlags}, rewriter.getI32Type());
  if (!module.lookupSymbol(kFlagTable)) {
    rewriter.setInsertionPointToStart(module.getBody());
    auto init = DenseElementsAttr::get(
        RankedTensorType::get({numFlags}, rewriter.getI32Type()),
        rewriter.getI32IntegerAttr(0).getValue());
    memref::GlobalOp::create(rewriter, module.getLoc(), kFlagTable,
                             rewriter.getStringAttr("private"), tableType, init,
                             /*constant=*/false, IntegerAttr());
  }

  RuntimeChecker checker(module, rewriter, "__hwsched_npu_msg_");
  llvm::SetVector<func::FuncOp> functions;
  for (Operation *op : flagOps) {
    bool isSet = isa<npu::SetFlagOp>(op);
    StringRef src = op->getAttrOfType<StringAttr>("src_pipe").getValue();
    StringRef dst = op->getAttrOfType<StringAttr>("dst_pipe").getValue();
    Value event = op->getOperand(0);
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto i32 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, v, 32);
    };
    std::string what = describe(op, src, dst);
    Value nonNegative = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge, event, cst(0));
    Value below =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, event,
                              cst(npu::kNumEventIds));
    Value inRange = arith::AndIOp::create(rewriter, loc, nonNegative, below);
    checker.check(loc, inRange,
                  "hwsched-emulate-npu-sync: event id out of range [0, " +
                      std::to_string(npu::kNumEventIds) + ") in " + what);
    int64_t pair =
        (*npu::getPipeIndex(src) * numPipes + *npu::getPipeIndex(dst)) *
        npu::kNumEventIds;
    Value index = arith::AddIOp::create(rewriter, loc, event, cst(pair));
    Value table =
        memref::GetGlobalOp::create(rewriter, loc, tableType, kFlagTable);
    Value current = memref::LoadOp::create(rewriter, loc, table, index);
    Value ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                     current, i32(isSet ? 0 : 1));
    checker.check(
        loc, ok,
        std::string("hwsched-emulate-npu-sync: ") +
            (isSet ? "flag already set (set twice without a wait_flag) in "
                   : "no set_flag to consume (deadlock on the hardware) in ") +
            what);
    memref::StoreOp::create(rewriter, loc, i32(isSet ? 1 : 0), table, index);
    if (auto func = op->getParentOfType<func::FuncOp>())
      functions.insert(func);
    rewriter.eraseOp(op);
  }

  // Every set must have been consumed when a kernel returns.
  for (func::FuncOp func : functions) {
    func.walk([&](func::ReturnOp ret) {
      Location loc = ret.getLoc();
      rewriter.setInsertionPoint(ret);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value count = arith::ConstantIndexOp::create(rewriter, loc, numFlags);
      Value none = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
      Value table =
          memref::GetGlobalOp::create(rewriter, loc, tableType, kFlagTable);
      auto loop = scf::ForOp::create(
          rewriter, loc, zero, count, one, ValueRange{none},
          [&](OpBuilder &b, Location l, Value i, ValueRange acc) {
            Value flag = memref::LoadOp::create(b, l, table, i);
            Value any = arith::OrIOp::create(b, l, acc[0], flag);
            scf::YieldOp::create(b, l, any);
          });
      Value clear = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, loop.getResult(0), none);
      std::string where;
      llvm::raw_string_ostream os(where);
      os << "@" << func.getSymName() << " at " << loc;
      checker.check(loc, clear,
                    "hwsched-emulate-npu-sync: a flag is still set "
                    "(set_flag without wait_flag) when returning from " +
                        where);
    });
  }
}
