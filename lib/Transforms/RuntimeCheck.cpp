//===- RuntimeCheck.cpp - Checks that abort the emulated program ----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCheck.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace hwsched;

void RuntimeChecker::check(Location loc, Value ok, const std::string &message) {
  std::string text = message + "\n";
  std::string name = prefix + std::to_string(counter++);
  // Unique in the module, should the pass run twice.
  while (module.lookupSymbol(name))
    name = prefix + std::to_string(counter++);
  Type i8 = rewriter.getI8Type();
  auto stringType = LLVM::LLVMArrayType::get(i8, text.size());
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(rewriter, loc, stringType, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           rewriter.getStringAttr(text));
  }
  Value bad = arith::XOrIOp::create(
      rewriter, loc, ok,
      arith::ConstantIntOp::create(rewriter, loc, 1, 1).getResult());
  auto ifOp = scf::IfOp::create(rewriter, loc, bad, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
  Value text0 = LLVM::AddressOfOp::create(rewriter, loc, ptrType, name);
  Value fd = arith::ConstantIntOp::create(rewriter, loc, 2, 32);
  Value length = arith::ConstantIntOp::create(rewriter, loc, text.size(), 64);
  LLVM::CallOp::create(rewriter, loc,
                       declare("write", LLVM::LLVMFunctionType::get(
                                            rewriter.getI64Type(),
                                            {rewriter.getI32Type(), ptrType,
                                             rewriter.getI64Type()})),
                       ValueRange{fd, text0, length});
  LLVM::CallOp::create(
      rewriter, loc,
      declare("abort", LLVM::LLVMFunctionType::get(
                           LLVM::LLVMVoidType::get(rewriter.getContext()), {})),
      ValueRange{});
}

LLVM::LLVMFuncOp RuntimeChecker::declare(StringRef name,
                                         LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(rewriter, module.getLoc(), name, type);
}
