//===- PayloadGenerator.h - Valid payload programs from bytes ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// A structured generator for the op fuzzer: the input bytes choose, one
// statement at a time, a Linalg / SCF / memref / tensor / GPU program that
// parses and verifies by construction, so the fuzzer spends its executions in
// the transform ops rather than in the MLIR parser. It covers what the ops
// meet in practice: elementwise chains, matmuls, reductions, transposes,
// broadcasts (memrefs or tensors), static and dynamic shapes, f32 / f16 / i32
// / i8, scf.for nests (constant and dynamic bounds, iter_args), scf.if,
// gpu.launch bodies with barriers, on-chip allocations (alloc / alloca) in
// the default, #gpu.address_space, "ub" and integer memory spaces, subviews
// staged into on-chip tiles, copies, deallocations and vector transfers.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_FUZZ_PAYLOADGENERATOR_H
#define HWSCHED_FUZZ_PAYLOADGENERATOR_H

#include "FuzzInput.h"

#include <string>

namespace hwsched::fuzz {

/// Builds one payload module (MLIR text) from the bytes read from `in`.
std::string generatePayload(ByteReader &in);

} // namespace hwsched::fuzz

#endif // HWSCHED_FUZZ_PAYLOADGENERATOR_H
