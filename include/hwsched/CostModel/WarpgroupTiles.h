//===- WarpgroupTiles.h - Tiles of the Hopper wgmma + TMA matmul -*- C++
//-*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// What the wgmma + TMA kernel (Transforms/WarpgroupMatmul.h) can be built
// with on a target, and which of its tile configurations to build: the
// block tile of C, the warpgroups sharing it, the stages of the shared-memory
// ring, the raster order of the blocks and the producer warp.
//
// The choice is a ranking, not a search over measurements: every legal
// configuration's time on the target's SMs (wave-quantized, from the spec's
// matrix peak; within 5% of the best counts as equal), then, among equal
// times, the fewer bytes each multiply-add
// brings from memory, the fewer it reads from shared memory, the more
// warpgroups an SM runs at once and the deeper the ring. Plain data in and
// out, so that benches and tests call it directly.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_COSTMODEL_WARPGROUPTILES_H
#define HWSCHED_COSTMODEL_WARPGROUPTILES_H

#include "hwsched/HwSpec/HwSpec.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hwsched {

/// Bytes of one row of a 128-byte-swizzled tile: the K step holds this many
/// bytes of inputs, and the A and B tiles' rows are this wide.
constexpr int64_t kWgmmaSwizzleBytes = 128;
/// A 128-byte swizzle repeats every 8 rows of 128 bytes: tiles start on
/// 1024-byte boundaries (so the wgmma descriptors' base offset is 0), and
/// the ring keeps that many bytes spare to align itself.
constexpr int64_t kWgmmaSwizzleAtomBytes = 1024;
constexpr int64_t kThreadsPerWarpgroup = 128;

/// One configuration of the kernel.
struct WarpgroupTiles {
  int64_t blockM = 128;
  int64_t blockN = 128;
  int64_t numStages = 4;
  int64_t warpgroups = 1;
  /// Blocks walk groups of this many tile rows (1: row by row).
  int64_t rasterGroup = 1;
  bool producerWarp = false;

  int64_t warpgroupM() const { return blockM / warpgroups; }
  int64_t threads() const { return 128 * warpgroups + (producerWarp ? 32 : 0); }
  void print(llvm::raw_ostream &os) const;
};

/// The inputs of `warpgroups` and the others a user fixed; the chooser
/// decides the rest.
struct WarpgroupTileRequest {
  std::optional<int64_t> blockM, blockN, numStages, warpgroups, rasterGroup,
      producerWarp;
  bool complete() const {
    return blockM && blockN && numStages && warpgroups && rasterGroup &&
           producerWarp;
  }
};

/// The problem in the kernel's terms.
struct WarpgroupProblem {
  int64_t m = 0, n = 0, k = 0;
  /// Bytes of an input element (2 for f16 / bf16).
  int64_t inputBytes = 2;
  /// The K step: one 128-byte swizzle span of inputs.
  int64_t blockK() const { return kWgmmaSwizzleBytes / inputBytes; }
};

/// The target's figures the kernel and the ranking depend on.
struct WarpgroupLimits {
  std::string target, computeCapability;
  int64_t sharedBytesPerBlock = 0, sharedBytesPerSm = 0;
  int64_t maxThreadsPerBlock = 0, maxThreadsPerSm = 0;
  int64_t maxRegistersPerThread = 0, registersPerSm = 0;
  int64_t smCount = 0;
  double peakMatrixGflops = 0;
  int64_t maxStages = 0;
};

/// Whether `spec` is a GPU with warpgroup MMAs and TMA (compute capability
/// sm_90): the targets readWarpgroupLimits takes.
bool isWarpgroupTarget(const HwSpec &spec);

/// Reads the limits from a GPU spec of compute capability sm_90; a refusal
/// for any other target or a missing figure.
llvm::Expected<WarpgroupLimits> readWarpgroupLimits(const HwSpec &spec);

/// Shared-memory bytes of a configuration: the ring plus the 1024 bytes
/// kept to align it.
int64_t warpgroupSharedBytes(const WarpgroupTiles &tiles);
/// Accumulator registers per thread.
int64_t warpgroupAccumulatorRegisters(const WarpgroupTiles &tiles);
/// Registers per thread the kernel is expected to take (accumulator plus
/// what ptxas gave the rest on the measured kernels).
int64_t warpgroupRegisters(const WarpgroupTiles &tiles);

/// A refusal (message only) unless the kernel can be built with `tiles` for
/// `problem` on the target: divisibility, wgmma and TMA shape rules, the
/// accumulator store's rule, K steps for the prologue, shared memory,
/// threads and registers.
llvm::Error checkWarpgroupTiles(const WarpgroupProblem &problem,
                                const WarpgroupTiles &tiles,
                                const WarpgroupLimits &limits);

/// One ranked configuration and the figures its rank comes from.
struct WarpgroupCandidate {
  WarpgroupTiles tiles;
  int64_t sharedBytes = 0, registers = 0;
  int64_t blocks = 0, blocksPerSm = 0;
  /// Blocks the busiest SM runs, and how many of them at once.
  int64_t blocksOnBusiestSm = 0, coResident = 0;
  /// Time of the busiest SM at the matrix peak (ns), and whether it is
  /// within the ranking's tolerance of the best candidate's.
  double computeNs = 0;
  bool nearBest = false;
  /// Bytes read from global memory (through L2) and from shared memory by
  /// the MMAs, per multiply-add.
  double globalBytesPerMac = 0, sharedBytesPerMac = 0;
};

/// The ranking.
struct WarpgroupTileChoice {
  std::vector<WarpgroupCandidate> ranked;
  int64_t enumerated = 0;
  /// Why configurations were dropped: the first refusal's text of each,
  /// counted.
  std::vector<std::pair<std::string, int64_t>> pruned;
  /// Prints the winner, why it won over the runner-up, and the first
  /// `top` candidates.
  void print(llvm::raw_ostream &os, size_t top = 5) const;
};

/// Ranks every legal configuration that agrees with `request`'s fixed
/// inputs; a refusal when none is legal (with the reasons counted).
llvm::Expected<WarpgroupTileChoice>
chooseWarpgroupTiles(const WarpgroupProblem &problem,
                     const WarpgroupLimits &limits,
                     const WarpgroupTileRequest &request);

} // namespace hwsched

#endif // HWSCHED_COSTMODEL_WARPGROUPTILES_H
