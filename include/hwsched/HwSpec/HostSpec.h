//===- HostSpec.h - The `host` target: a spec of this machine ---*- C++ -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// The target `host` is a CPU spec built at run time from the machine that
// runs the op: the vector ISA from LLVM's host CPU name and features, caches
// from sysfs (or cpuid on x86 where sysfs has none), the cores this process
// may run on from its affinity mask and the sysfs topology. The result is
// ordinary spec JSON, validated by the same loader as a file, whose `sources`
// say where each figure came from ("host: sysfs cache/index2/size"), so
// `transform.hwsched.query_spec { explain }` can show it.
//
// Detection can be redirected for tests and for what-if runs:
//   HWSCHED_HOST_CPU       an LLVM CPU name ("znver3", "neoverse-v1"); the
//                          simulated CPU starts without features;
//   HWSCHED_HOST_FEATURES  "+avx2,+fma,-avx512f" (LLVM -mattr spelling): the
//                          features of the simulated CPU, or, without
//                          HWSCHED_HOST_CPU, changes to the real host's;
//   HWSCHED_HOST_SYSFS     a directory laid out like /sys/devices/system/cpu
//                          (`online`, `cpuN/cache/indexI/*`,
//                          `cpuN/topology/thread_siblings_list`,
//                          `cpuN/cpufreq/cpuinfo_max_freq`): the machine's
//                          caches, cores and clock come from it alone
//                          (neither cpuid, /proc/cpuinfo nor the affinity
//                          mask are read).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_HWSPEC_HOSTSPEC_H
#define HWSCHED_HWSPEC_HOSTSPEC_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hwsched {

/// The reserved target name of the detected machine.
constexpr llvm::StringLiteral kHostTarget = "host";

/// One detected figure and where it came from, in the words `sources` and
/// `explain` print ("host: sysfs cache/index2/size (1024K)").
struct HostFigure {
  int64_t value = 0;
  std::string source;
};

/// What the machine told us, before it is turned into a spec.
struct HostFacts {
  /// LLVM's name of the CPU ("znver3", "sapphirerapids", "neoverse-v2").
  std::string cpuName;
  /// Enabled features, LLVM spelling ("avx2", "fma", "neon", "sve").
  std::vector<std::string> features;
  /// Where the name and the features came from.
  std::string isaSource;
  /// Per-core caches (bytes), the L3 instance this process's first CPU
  /// belongs to, the cores sharing it, the cache line.
  HostFigure l1d, l2, l3, l3SharingCores, cacheLine;
  /// Cores (not SMT threads) this process may run on.
  HostFigure cores;
  /// Maximum clock in MHz.
  HostFigure clockMhz;

  bool hasFeature(llvm::StringRef feature) const;
};

/// Reads the machine, or what the HWSCHED_HOST_* variables say instead. Bad
/// override values and unreadable or malformed detection data are errors
/// naming the variable or file; figures the machine does not expose are
/// assumed, with a source that says so.
llvm::Expected<HostFacts> detectHost();

/// The spec JSON for `facts`: vector width and registers from the ISA, FMA
/// pipes and latencies from a table of known microarchitectures (or an
/// assumption, said in the source), caches, cores and clock as detected.
/// Errors when the features name no vector ISA hwsched knows.
llvm::Expected<std::string> buildHostSpecJson(const HostFacts &facts);

/// detectHost + buildHostSpecJson, with the label the loader uses as the
/// spec's path in messages: "host (znver5, detected)".
llvm::Expected<std::pair<std::string, std::string>> getHostSpecText();

} // namespace hwsched

#endif // HWSCHED_HWSPEC_HOSTSPEC_H
