//===- EpilogueIntoStores.h - An epilogue at its stores ---------*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Fuses an elementwise epilogue on buffers (bias, activation, conversion)
// into the stores of the op before it that writes the epilogue's input: at
// every `vector.store`, `vector.transfer_write` or `memref.store` of the
// producer's result, the epilogue's body is computed on the stored value
// (and on its other inputs, read at the same indices through their
// indexing maps) and the outcome is stored into the epilogue's
// destination. The epilogue op disappears, and with it a pass over memory
// (for a GPU kernel: a second kernel that reads C back from global memory).
//
// Why after bufferization and at the stores: the tensor-core kernel keeps
// its accumulators in mma.sync register fragments, stored by each lane as
// `vector<2xf32>` pieces; neither tiling (the epilogue would see a shared
// or global C tile) nor upstream's vector-to-nvgpu conversion (it has no
// elementwise ops on mma.sync fragments) can place the epilogue there.
// Usable from C++ without the Transform dialect.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_EPILOGUEINTOSTORES_H
#define HWSCHED_TRANSFORMS_EPILOGUEINTOSTORES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace hwsched {

/// What fusing one epilogue into its producer's stores will do.
struct EpilogueStoresPlan {
  mlir::linalg::GenericOp epilogue;
  /// The epilogue operand that reads the producer's result (an input with
  /// the identity map, or the output itself when the epilogue runs in
  /// place), and that result's buffer (the operand's value: not a view).
  mlir::OpOperand *resultOperand = nullptr;
  mlir::Value resultBuffer;
  /// The op before the epilogue (in its block) whose stores write
  /// resultBuffer, and those stores (vector.store, vector.transfer_write,
  /// memref.store; on resultBuffer or on unit-stride subviews of it).
  mlir::Operation *producer = nullptr;
  llvm::SmallVector<mlir::Operation *> stores;
  /// The epilogue writes resultBuffer itself (in place): each store then
  /// writes the epilogue's value instead.
  bool inPlace = false;
  /// resultBuffer is still read after the epilogue, or is not a temporary
  /// of this function (an argument whose contents the caller sees): its
  /// stores stay, and the epilogue's values are stored besides them.
  bool keepResultStores = false;
  /// Allocations between the producer and the epilogue that the epilogue
  /// uses (its destination, typically): moved before the producer.
  llvm::SmallVector<mlir::Operation *> allocsToHoist;

  void print(llvm::raw_ostream &os) const;
};

/// Checks `epilogue` and finds its producer's stores, or refuses (at the
/// op that stands in the way) without changing anything. The epilogue must
/// be a `linalg.generic` on buffers with all loops parallel, one output
/// with the identity indexing map, inputs with projected-permutation maps,
/// and a body of elementwise ops (arith, math) and `linalg.index`; the
/// producer must write the result only through the stores above (no reads
/// of it, no other users in it), must not write the epilogue's other
/// inputs nor touch its destination; nothing between the producer and the
/// epilogue may touch memory (allocations excepted).
llvm::Expected<EpilogueStoresPlan>
planEpilogueIntoStores(mlir::linalg::GenericOp epilogue);

/// The plans for `payloads`, each an epilogue (a linalg.generic) or a call
/// of a function holding one (brought back to its call site: the form
/// transform.hwsched.outline_kernel_function leaves for a one-iteration
/// loop around an epilogue), every one checked before any store changes. On a
/// refusal every call is put back and the payload is as it was; a refusal
/// that named an op of an inlined copy names the call instead. On success
/// the calls and the callees nothing else calls are gone and the plans are
/// ready for applyEpilogueIntoStores.
llvm::Expected<llvm::SmallVector<EpilogueStoresPlan>>
planEpiloguesIntoStores(mlir::RewriterBase &rewriter,
                        llvm::ArrayRef<mlir::Operation *> payloads);

/// Before bufferization: whether epilogue_into_stores can take `epilogue`
/// (a Linalg op, named or generic, to be generalized) once `producer`,
/// whose result it reads as an input, has stores: its form (one output
/// with the identity map, all loops parallel, inputs through projected
/// permutations, an elementwise body), the producer's result read once
/// through the identity map, the destination's contents not read. A
/// refusal names the reason; nothing changes either way.
llvm::Error checkEpilogueForStores(mlir::linalg::LinalgOp epilogue,
                                   mlir::Operation *producer);

/// Applies `plan`: the epilogue's body at every store, the epilogue erased,
/// and a temporary result buffer with no reader left erased with its views.
void applyEpilogueIntoStores(mlir::RewriterBase &rewriter,
                             const EpilogueStoresPlan &plan);

} // namespace hwsched

#endif // HWSCHED_TRANSFORMS_EPILOGUEINTOSTORES_H
