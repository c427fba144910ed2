//===- HostSpec.cpp - The `host` target's spec from detected facts --------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Turns HostFacts into spec JSON. The vector width and register count follow
// from the ISA; what the ISA does not say (FMA pipes per core, FMA latency,
// vector loads per cycle) comes from a small table of microarchitectures
// with its public sources, keyed by LLVM's CPU name. A CPU not in the table
// gets the figures of a typical core of its ISA, and its source says so.
//
//===----------------------------------------------------------------------===//

#include "hwsched/HwSpec/HostSpec.h"

#include "hwsched/Support/Refusal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

using namespace hwsched;
using nlohmann::json;

namespace {
/// Per-core FP32 FMA throughput and latency of one microarchitecture.
struct Microarch {
  llvm::StringLiteral llvmName;
  /// FMA pipes per core and the width of one pipe: a vector wider than a
  /// pipe occupies several (Zen 4 runs a 512-bit FMA on both 256-bit pipes).
  int64_t fmaPipes, pipeBits;
  int64_t fmaLatency;
  /// Vector loads per cycle at the core's widest width.
  int64_t loadsPerCycle;
  llvm::StringLiteral source;
};
} // namespace

static constexpr llvm::StringLiteral kAgner =
    "Agner Fog, 'The microarchitecture of Intel, AMD and VIA CPUs' and "
    "'Instruction tables'";

// clang-format off
static const Microarch kMicroarchs[] = {
    {"haswell", 2, 256, 5, 2, "Intel optimization manual (Haswell): two 256-bit FMA units (ports 0, 1), latency 5"},
    {"broadwell", 2, 256, 5, 2, "Intel optimization manual (Broadwell): two 256-bit FMA units, latency 5"},
    {"skylake", 2, 256, 4, 2, "Intel optimization manual (Skylake client): two 256-bit FMA units, latency 4, two loads per cycle"},
    {"skylake-avx512", 2, 512, 4, 2, "Intel ark: two AVX-512 FMA units on Xeon Gold 6xxx / Platinum (one on some Silver and Bronze parts, not detectable here); latency 4"},
    {"cascadelake", 2, 512, 4, 2, "Intel ark: two AVX-512 FMA units on Xeon Gold 6xxx / Platinum (one on some Silver and Bronze parts); latency 4"},
    {"cooperlake", 2, 512, 4, 2, "Intel ark: two AVX-512 FMA units; latency 4"},
    {"icelake-server", 2, 512, 4, 2, "Intel ark (Xeon Ice Lake-SP): two AVX-512 FMA units; Intel optimization manual: latency 4"},
    {"sapphirerapids", 2, 512, 4, 2, "Intel ark (Xeon Sapphire Rapids): two AVX-512 FMA units; Intel optimization manual (Golden Cove): latency 4"},
    {"emeraldrapids", 2, 512, 4, 2, "Intel ark (Xeon Emerald Rapids): two AVX-512 FMA units; latency 4"},
    {"graniterapids", 2, 512, 4, 2, "Intel ark (Xeon 6 Granite Rapids): two AVX-512 FMA units; latency 4"},
    {"icelake-client", 2, 256, 4, 2, "Intel optimization manual (Sunny Cove client): one 512-bit FMA (ports 0 and 1 fused) or two 256-bit FMAs per cycle; latency 4"},
    {"tigerlake", 2, 256, 4, 2, "Intel optimization manual (Willow Cove client): one 512-bit FMA (ports 0 and 1 fused) or two 256-bit; latency 4"},
    {"rocketlake", 2, 256, 4, 2, "Intel optimization manual (Cypress Cove): one 512-bit FMA (ports 0 and 1 fused) or two 256-bit; latency 4"},
    {"alderlake", 2, 256, 4, 2, "Intel optimization manual (Golden Cove P-core): two 256-bit FMA units, latency 4 (E-cores are slower; hybrid parts are described by their P-cores)"},
    {"raptorlake", 2, 256, 4, 2, "Intel optimization manual (Raptor Cove P-core): two 256-bit FMA units, latency 4"},
    {"meteorlake", 2, 256, 4, 2, "Intel optimization manual (Redwood Cove P-core): two 256-bit FMA units, latency 4"},
    {"arrowlake", 2, 256, 4, 2, "Intel optimization manual (Lion Cove P-core): two 256-bit FMA units, latency 4"},
    {"arrowlake-s", 2, 256, 4, 2, "Intel optimization manual (Lion Cove P-core): two 256-bit FMA units, latency 4"},
    {"lunarlake", 2, 256, 4, 2, "Intel optimization manual (Lion Cove P-core): two 256-bit FMA units, latency 4"},
    {"znver1", 2, 128, 5, 2, "AMD Software Optimization Guide for Family 17h (Zen): two 128-bit FMA pipes (256-bit ops split in two), latency 5"},
    {"znver2", 2, 256, 5, 2, "AMD Software Optimization Guide for Family 17h Models 30h+ (Zen 2): two 256-bit FMA pipes, latency 5"},
    {"znver3", 2, 256, 4, 2, "AMD Software Optimization Guide for Family 19h (Zen 3, pub. 56665): two 256-bit FMA pipes, latency 4; three loads per cycle, two of them 256-bit"},
    {"znver4", 2, 256, 4, 2, "AMD Software Optimization Guide for Family 19h Models 10h+ (Zen 4, pub. 57647): AVX-512 executes on two 256-bit FMA pipes (a 512-bit FMA per cycle: half the rate of two 512-bit units), latency 4"},
    {"znver5", 2, 512, 4, 2, "AMD Software Optimization Guide for Family 1Ah (Zen 5, pub. 58455): two 512-bit FMA pipes on desktop and server parts (mobile Zen 5 has a 256-bit datapath, not detectable here), latency 4, two 512-bit loads per cycle"},
    {"neoverse-n1", 2, 128, 4, 2, "Arm Neoverse N1 Software Optimization Guide: two 128-bit ASIMD FMA pipes (V0, V1), FMLA latency 4, two loads per cycle"},
    {"neoverse-n2", 2, 128, 4, 3, "Arm Neoverse N2 Software Optimization Guide: two 128-bit ASIMD/SVE2 FMA pipes, FMLA latency 4, three loads per cycle"},
    {"neoverse-v1", 4, 128, 4, 3, "Arm Neoverse V1 Software Optimization Guide: four 128-bit ASIMD FMA pipes (two 256-bit SVE), FMLA latency 4, three loads per cycle"},
    {"neoverse-v2", 4, 128, 4, 3, "Arm Neoverse V2 Software Optimization Guide: four 128-bit ASIMD/SVE2 FMA pipes, FMLA latency 4, three loads per cycle"},
    {"neoverse-v3", 4, 128, 4, 3, "Arm Neoverse V3 Software Optimization Guide: four 128-bit ASIMD/SVE2 FMA pipes, FMLA latency 4"},
};
// clang-format on

namespace {
/// The vector ISA as the schedule uses it: fixed-width vectors.
struct VectorIsa {
  std::string name;
  int64_t widthBits = 0, registers = 0;
  bool fma = false;
  bool aarch64 = false;
  std::string source;
};
} // namespace

static llvm::Expected<VectorIsa> vectorIsaOf(const HostFacts &facts) {
  VectorIsa isa;
  auto from = [&](llvm::StringRef features) {
    return "host: " + facts.isaSource + " (" + facts.cpuName + ": " +
           features.str() + ")";
  };
  if (facts.hasFeature("avx512f")) {
    isa = {"AVX-512", 512,
           32,        facts.hasFeature("fma"),
           false,     from("avx512f: 32 zmm registers of 512 bits")};
  } else if (facts.hasFeature("avx")) {
    isa = {facts.hasFeature("avx2") ? "AVX2" : "AVX",
           256,
           16,
           facts.hasFeature("fma"),
           false,
           from("avx, no avx512f: 16 ymm registers of 256 bits")};
  } else if (facts.hasFeature("sse2")) {
    isa = {"SSE2", 128,   16,
           false,  false, from("sse2, no avx: 16 xmm registers of 128 bits")};
  } else if (facts.hasFeature("neon") || facts.hasFeature("sve")) {
    // The schedule emits fixed-width vectors, which LLVM lowers to NEON
    // (SVE registers are as wide only with -msve-vector-bits): 32 registers
    // of 128 bits. SVE machines reach their peak with more NEON pipes.
    isa = {facts.hasFeature("sve") ? "NEON (SVE present)" : "NEON",
           128,
           32,
           true,
           true,
           from(facts.hasFeature("sve")
                    ? "neon/sve: fixed-width vectors use the 32 NEON "
                      "registers of 128 bits"
                    : "neon: 32 registers of 128 bits")};
  } else {
    return refuse(nullptr,
                  "host detection: CPU '" + facts.cpuName +
                      "' with features [" + llvm::join(facts.features, ",") +
                      "] has no vector ISA hwsched knows; the host target "
                      "needs x86 (sse2, avx, avx2, avx512f) or AArch64 (neon, "
                      "sve) features (set HWSCHED_HOST_FEATURES, or name a "
                      "CPU spec with --hwsched-target)");
  }
  if (!isa.aarch64 && !isa.fma)
    isa.source += "; no FMA: the kernel's multiply and add each use a pipe";
  return isa;
}

namespace {
/// The compute figures of one host core: from the microarchitecture table,
/// or a typical core of the ISA when the CPU is not in it.
struct HostCore {
  int64_t fmaPipes = 0, pipeBits = 0, fmaLatency = 0, loads = 0;
  /// Where the table figures come from (or that they are assumed).
  std::string archSource;
  /// FMAs per cycle at the vector width.
  int64_t fmaUnits = 0;
  double clockGhz = 0, lanes = 0, peak = 0;
};
} // namespace

/// Bandwidth is not detectable without measuring; a typical share per core
/// of a server memory system, so the model's memory term is plausible.
static constexpr int64_t kBandwidthPerCore = 12;

/// Looks the CPU up in the microarchitecture table and derives the FMA
/// units and the FP32 peak of one core.
static HostCore describeHostCore(const HostFacts &facts, const VectorIsa &isa) {
  HostCore core;
  const Microarch *arch = llvm::find_if(kMicroarchs, [&](const Microarch &m) {
    return m.llvmName == facts.cpuName;
  });
  bool known = arch != std::end(kMicroarchs);
  core.fmaPipes = known ? arch->fmaPipes : 2;
  core.pipeBits = known ? arch->pipeBits : isa.aarch64 ? 128 : 256;
  core.fmaLatency = known ? arch->fmaLatency : 4;
  core.loads = known ? arch->loadsPerCycle : 2;
  core.archSource =
      known ? ("host: table for LLVM CPU '" + facts.cpuName +
               "': " + arch->source.str())
            : ("host: LLVM CPU '" + facts.cpuName +
               "' is not in hwsched's table; assumed a typical " +
               (isa.aarch64 ? "AArch64 core (two 128-bit FMA pipes"
                            : "x86 core (two 256-bit FMA pipes") +
               ", FMA latency 4, two loads per cycle; " + kAgner.str() + ")");
  // FMAs per cycle at the vector width: a vector no wider than a pipe uses
  // one pipe; a 512-bit FMA on two 256-bit pipes (Zen 4) counts as one unit.
  core.fmaUnits = std::max<int64_t>(
      1,
      core.fmaPipes * std::min(core.pipeBits, isa.widthBits) / isa.widthBits);
  core.clockGhz = static_cast<double>(facts.clockMhz.value) / 1000.0;
  core.lanes = static_cast<double>(isa.widthBits) / 32.0;
  core.peak =
      std::round(core.clockGhz * core.lanes * 2.0 * core.fmaUnits * 10.0) /
      10.0;
  return core;
}

/// The spec's figures (every section but "sources").
static void setHostFigures(json &doc, const HostFacts &facts,
                           const VectorIsa &isa, const HostCore &core) {
  int64_t cores = facts.cores.value;
  int64_t alignment = facts.cacheLine.value;
  doc["name"] = kHostTarget.str();
  doc["kind"] = "cpu";
  doc["description"] =
      "The machine running hwsched, detected at run time: LLVM CPU '" +
      facts.cpuName + "', " + isa.name + ", " + std::to_string(cores) +
      " core(s) available to this process. Compute peaks are for ONE core.";
  doc["onchip"] = {{"capacity_bytes", facts.l2.value},
                   {"alignment_bytes", alignment},
                   {"direct_read_spaces", json::array({"* -> *"})}};
  doc["offchip"] = {{"bandwidth_gb_per_s", kBandwidthPerCore * cores},
                    {"latency_cycles", 300}};
  doc["compute"] = {{"clock_ghz", core.clockGhz},
                    {"peak_fp32_gflops", core.peak}};
  doc["cpu"] = {{"cores", cores},
                {"vector_width_bits", isa.widthBits},
                {"vector_registers", isa.registers},
                {"fma_units_per_core", core.fmaUnits},
                {"l1d_bytes", facts.l1d.value},
                {"l2_bytes", facts.l2.value},
                {"l3_bytes", facts.l3.value},
                {"l3_sharing_cores", facts.l3SharingCores.value},
                {"cache_line_bytes", facts.cacheLine.value}};
  doc["pipeline"] = {
      {"max_stages", 2},
      {"sync", "none"},
      {"units",
       {{"load",
         {{"count", core.loads}, {"latency_cycles", 5}, {"issue_cycles", 1}}},
        {"vector",
         {{"count", core.fmaUnits},
          {"latency_cycles", core.fmaLatency},
          {"issue_cycles", 1}}}}}};
  doc["cost_weights"] = {{"cache_pressure", 1.0},
                         {"bandwidth_saved", 1.0},
                         {"recompute", 1.0},
                         {"recompute_limit", 16}};
}

/// The spec's "sources": where each detected figure was read, and why each
/// other one has its value.
static void setHostSources(json &sources, const HostFacts &facts,
                           const VectorIsa &isa, const HostCore &core) {
  // Detected figures: where each was read.
  std::pair<const char *, const HostFigure *> detected[] = {
      {"onchip.capacity_bytes", &facts.l2},
      {"onchip.alignment_bytes", &facts.cacheLine},
      {"compute.clock_ghz", &facts.clockMhz},
      {"cpu.cores", &facts.cores},
      {"cpu.l1d_bytes", &facts.l1d},
      {"cpu.l2_bytes", &facts.l2},
      {"cpu.l3_bytes", &facts.l3},
      {"cpu.l3_sharing_cores", &facts.l3SharingCores},
      {"cpu.cache_line_bytes", &facts.cacheLine}};
  for (auto &[key, figure] : detected)
    sources[key] = figure->source;
  sources["onchip.direct_read_spaces"] =
      "hwsched reading of a CPU: one memory behind the caches, every memory "
      "space reads the same DRAM";
  sources["offchip.bandwidth_gb_per_s"] =
      "host: not detectable without measuring; assumed " +
      std::to_string(kBandwidthPerCore) +
      " GB/s per core (a typical per-core share of a DDR4/DDR5 server "
      "socket)";
  sources["offchip.latency_cycles"] =
      "host: not detectable; assumed 300 cycles (about 90 ns of DRAM "
      "latency at 3.3 GHz)";
  sources["compute.peak_fp32_gflops"] =
      "host: derived, one core: clock x " +
      std::to_string(int64_t(core.lanes)) + " FP32 lanes x 2 FLOP x " +
      std::to_string(core.fmaUnits) + " FMA unit(s)";
  sources["cpu.vector_width_bits"] = isa.source;
  sources["cpu.vector_registers"] = isa.source;
  sources["cpu.fma_units_per_core"] =
      core.archSource + " (" + std::to_string(core.fmaPipes) + " pipe(s) of " +
      std::to_string(core.pipeBits) +
      " bits: " + std::to_string(core.fmaUnits) + " FMA(s) per cycle at " +
      std::to_string(isa.widthBits) + "-bit vectors)";
  sources["pipeline.max_stages"] =
      "calibration default, as the shipped CPU specs (2 = one tile in "
      "flight ahead)";
  sources["pipeline.sync"] =
      "hwsched convention: CPU caches are coherent; no explicit "
      "inter-stage synchronization";
  sources["pipeline.units.load"] =
      core.archSource + "; load-to-use latency assumed 5 cycles (L1 hit)";
  sources["pipeline.units.vector"] = core.archSource;
  sources["cost_weights"] =
      "calibration default, as the shipped CPU specs (1.0 for "
      "cache_pressure, bandwidth_saved and recompute; recompute_limit 16)";
}

llvm::Expected<std::string> hwsched::buildHostSpecJson(const HostFacts &facts) {
  llvm::Expected<VectorIsa> isa = vectorIsaOf(facts);
  if (!isa)
    return isa.takeError();
  HostCore core = describeHostCore(facts, *isa);
  json doc;
  setHostFigures(doc, facts, *isa, core);
  setHostSources(doc["sources"], facts, *isa, core);
  return doc.dump(2);
}

llvm::Expected<std::pair<std::string, std::string>> hwsched::getHostSpecText() {
  llvm::Expected<HostFacts> facts = detectHost();
  if (!facts)
    return facts.takeError();
  llvm::Expected<std::string> text = buildHostSpecJson(*facts);
  if (!text)
    return text.takeError();
  return std::make_pair("host (" + facts->cpuName + ", detected)",
                        std::move(*text));
}
