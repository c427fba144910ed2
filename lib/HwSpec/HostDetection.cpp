//===- HostDetection.cpp - What the machine running hwsched has -----------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Reads the facts of HostSpec.h from the machine: the ISA from LLVM, caches
// from sysfs (cpuid on x86 when a VM exposes no sysfs cache directory, as
// some hypervisors do), cores from the affinity mask and the sysfs topology.
// Every figure carries the file or instruction it came from, because a user
// who gets a surprising tile size needs to see which number was wrong.
//
//===----------------------------------------------------------------------===//

#include "hwsched/HwSpec/HostSpec.h"

#include "hwsched/Support/Refusal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <map>
#include <set>

#if defined(__linux__)
#include <sched.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HWSCHED_HAVE_CPUID 1
#endif

using namespace hwsched;

static constexpr llvm::StringLiteral kSysfsRoot = "/sys/devices/system/cpu";

static llvm::Error hostError(const llvm::Twine &message) {
  return refuse(nullptr, "host detection: " + message);
}

bool HostFacts::hasFeature(llvm::StringRef feature) const {
  return llvm::is_contained(features, feature.str());
}

static std::optional<std::string> getEnv(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return std::nullopt;
  return std::string(value);
}

/// LLVM CPU and feature names: lower-case letters, digits, '-', '_', '.'.
static bool isIsaName(llvm::StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isDigit(c) || (c >= 'a' && c <= 'z') || c == '-' || c == '_' ||
           c == '.';
  });
}

//===----------------------------------------------------------------------===//
// ISA
//===----------------------------------------------------------------------===//

/// The CPU name and features: LLVM's view of the host, or the simulated CPU
/// of HWSCHED_HOST_CPU, changed by HWSCHED_HOST_FEATURES.
static llvm::Error detectIsa(HostFacts &facts) {
  std::set<std::string> features;
  if (std::optional<std::string> cpu = getEnv("HWSCHED_HOST_CPU")) {
    if (!isIsaName(*cpu))
      return hostError("HWSCHED_HOST_CPU: expected an LLVM CPU name such as "
                       "'znver3' or 'neoverse-v1', got '" +
                       *cpu + "'");
    facts.cpuName = *cpu;
    facts.isaSource = "$HWSCHED_HOST_CPU";
  } else {
    facts.cpuName = llvm::sys::getHostCPUName().str();
    for (const auto &entry : llvm::sys::getHostCPUFeatures())
      if (entry.second)
        features.insert(entry.first().str());
    facts.isaSource = "LLVM host CPU name and features";
  }
  if (std::optional<std::string> list = getEnv("HWSCHED_HOST_FEATURES")) {
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(*list).split(items, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef item : items) {
      item = item.trim();
      if (item.size() < 2 || (item[0] != '+' && item[0] != '-') ||
          !isIsaName(item.drop_front()))
        return hostError(
            "HWSCHED_HOST_FEATURES: expected a comma-separated list of "
            "+feature / -feature in LLVM's spelling (e.g. "
            "'+avx2,+fma,-avx512f'), got '" +
            item + "' in '" + *list + "'");
      if (item[0] == '+')
        features.insert(item.drop_front().str());
      else
        features.erase(item.drop_front().str());
    }
    facts.isaSource += " + $HWSCHED_HOST_FEATURES";
  }
  if (facts.cpuName.empty())
    facts.cpuName = "generic";
  facts.features.assign(features.begin(), features.end());
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// sysfs
//===----------------------------------------------------------------------===//

namespace {
/// The sysfs tree: the real one or $HWSCHED_HOST_SYSFS.
struct Sysfs {
  std::string root;
  bool simulated = false;

  std::string path(const llvm::Twine &relative) const {
    return (root + "/" + relative).str();
  }
  /// The file's text without the trailing newline; std::nullopt when it
  /// does not exist or cannot be read (sysfs files vanish with hot-plug).
  std::optional<std::string> read(const llvm::Twine &relative) const {
    // Streamed: sysfs files claim a size of one page, which getFile would
    // read as text padded with NULs.
    auto buffer = llvm::MemoryBuffer::getFileAsStream(path(relative));
    if (!buffer)
      return std::nullopt;
    return (*buffer)->getBuffer().trim().str();
  }
  /// How a file is named in sources and messages.
  std::string label(const llvm::Twine &relative) const {
    return simulated ? path(relative) : ("sysfs " + relative).str();
  }
};
} // namespace

/// Parses a sysfs CPU list ("0-3,8,10-11").
static std::optional<std::vector<int64_t>> parseCpuList(llvm::StringRef text) {
  std::vector<int64_t> cpus;
  llvm::SmallVector<llvm::StringRef> ranges;
  text.trim().split(ranges, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef range : ranges) {
    auto [lowText, highText] = range.trim().split('-');
    int64_t low = 0, high = 0;
    if (lowText.getAsInteger(10, low) || low < 0)
      return std::nullopt;
    high = low;
    if (!highText.empty() && (highText.getAsInteger(10, high) || high < low))
      return std::nullopt;
    if (high - low > 65536)
      return std::nullopt;
    for (int64_t cpu = low; cpu <= high; ++cpu)
      cpus.push_back(cpu);
  }
  if (cpus.empty())
    return std::nullopt;
  llvm::sort(cpus);
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

/// Parses a sysfs cache size: "48K", "1024K", "32M" or plain bytes.
static std::optional<int64_t> parseSize(llvm::StringRef text) {
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1024;
  else if (text.consume_back("M"))
    scale = 1024 * 1024;
  else if (text.consume_back("G"))
    scale = 1024 * 1024 * 1024;
  int64_t value = 0;
  if (text.getAsInteger(10, value) || value <= 0 ||
      value > (int64_t(1) << 40) / scale)
    return std::nullopt;
  return value * scale;
}

/// The CPUs this process may run on: the simulated machine's `online` list,
/// else the affinity mask.
static llvm::Expected<std::pair<std::vector<int64_t>, std::string>>
detectCpuSet(const Sysfs &sysfs) {
  if (sysfs.simulated) {
    std::optional<std::string> online = sysfs.read("online");
    if (!online)
      return hostError(sysfs.path("online") +
                       ": missing (HWSCHED_HOST_SYSFS must hold the CPU list "
                       "of the simulated machine, e.g. '0-7')");
    std::optional<std::vector<int64_t>> cpus = parseCpuList(*online);
    if (!cpus)
      return hostError(sysfs.path("online") +
                       ": expected a CPU list such as '0-7' or '0,2-3', got '" +
                       *online + "'");
    return std::make_pair(*cpus, sysfs.path("online"));
  }
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    std::vector<int64_t> cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set))
        cpus.push_back(cpu);
    if (!cpus.empty())
      return std::make_pair(cpus, std::string("sched_getaffinity"));
  }
#endif
  std::optional<std::string> online = sysfs.read("online");
  if (std::optional<std::vector<int64_t>> cpus =
          online ? parseCpuList(*online) : std::nullopt)
    return std::make_pair(*cpus, std::string("sysfs online"));
  return std::make_pair(std::vector<int64_t>{0},
                        std::string("not exposed; assumed one CPU"));
}

/// Cores among `cpus`: CPUs with the same thread_siblings_list are SMT
/// threads of one core. Returns the count and the threads per core.
static llvm::Expected<std::pair<int64_t, int64_t>>
countCores(const Sysfs &sysfs, llvm::ArrayRef<int64_t> cpus,
           std::string &source) {
  std::set<std::vector<int64_t>> cores;
  for (int64_t cpu : cpus) {
    std::string file =
        ("cpu" + llvm::Twine(cpu) + "/topology/thread_siblings_list").str();
    std::optional<std::string> text = sysfs.read(file);
    if (!text) {
      source += ", thread siblings not exposed (every CPU counted as a core)";
      return std::make_pair(static_cast<int64_t>(cpus.size()), int64_t(1));
    }
    std::optional<std::vector<int64_t>> siblings = parseCpuList(*text);
    if (!siblings)
      return hostError(sysfs.label(file) +
                       ": expected a CPU list such as '0,64', got '" + *text +
                       "'");
    cores.insert(*siblings);
  }
  int64_t count = static_cast<int64_t>(cores.size());
  int64_t threads = std::max<int64_t>(1, static_cast<int64_t>(cpus.size()) /
                                             std::max<int64_t>(count, 1));
  source += ", " + llvm::Twine(threads).str() +
            " thread(s) per core (topology/thread_siblings_list)";
  return std::make_pair(count, threads);
}

namespace {
/// One cache as sysfs or cpuid describes it.
struct CacheInfo {
  int64_t level = 0;
  std::string type;
  int64_t bytes = 0;
  int64_t sharingCpus = 0;
  int64_t lineBytes = 0;
  /// Where the size, the sharing and the line size came from.
  std::string source, sharingSource, lineSource;
};
} // namespace

/// The caches of `cpu` from sysfs; std::nullopt when the directory is absent.
static llvm::Expected<std::optional<std::vector<CacheInfo>>>
readSysfsCaches(const Sysfs &sysfs, int64_t cpu) {
  std::string dir = ("cpu" + llvm::Twine(cpu) + "/cache").str();
  if (!llvm::sys::fs::is_directory(sysfs.path(dir)))
    return std::nullopt;
  std::vector<CacheInfo> caches;
  for (int index = 0; index < 32; ++index) {
    std::string base = (dir + "/index" + llvm::Twine(index)).str();
    if (!llvm::sys::fs::is_directory(sysfs.path(base)))
      break;
    CacheInfo cache;
    std::optional<std::string> level = sysfs.read(base + "/level");
    std::optional<std::string> type = sysfs.read(base + "/type");
    std::optional<std::string> size = sysfs.read(base + "/size");
    if (!level || !type)
      return hostError(sysfs.label(base) + ": no 'level' or 'type' file");
    if (llvm::StringRef(*level).getAsInteger(10, cache.level) ||
        cache.level < 1 || cache.level > 4)
      return hostError(sysfs.label(base + "/level") +
                       ": expected a cache level 1-4, got '" + *level + "'");
    cache.type = *type;
    if (!size)
      continue; // Some kernels list a level without a size: nothing to use.
    std::optional<int64_t> bytes = parseSize(*size);
    if (!bytes)
      return hostError(sysfs.label(base + "/size") +
                       ": expected a positive size such as '48K' or '32M', "
                       "got '" +
                       *size + "'");
    cache.bytes = *bytes;
    cache.source = sysfs.label(base + "/size") + " (" + *size + ")";
    if (std::optional<std::string> shared =
            sysfs.read(base + "/shared_cpu_list")) {
      std::optional<std::vector<int64_t>> cpus = parseCpuList(*shared);
      if (!cpus)
        return hostError(sysfs.label(base + "/shared_cpu_list") +
                         ": expected a CPU list such as '0-7', got '" +
                         *shared + "'");
      cache.sharingCpus = static_cast<int64_t>(cpus->size());
      cache.sharingSource =
          sysfs.label(base + "/shared_cpu_list") + " (" + *shared + ")";
    }
    if (std::optional<std::string> line =
            sysfs.read(base + "/coherency_line_size")) {
      if (llvm::StringRef(*line).getAsInteger(10, cache.lineBytes) ||
          cache.lineBytes <= 0 || cache.lineBytes > 4096)
        return hostError(sysfs.label(base + "/coherency_line_size") +
                         ": expected a line size in bytes such as '64', got '" +
                         *line + "'");
      cache.lineSource = sysfs.label(base + "/coherency_line_size");
    }
    caches.push_back(std::move(cache));
  }
  return caches;
}

//===----------------------------------------------------------------------===//
// cpuid (x86 hosts whose sysfs has no cache directory)
//===----------------------------------------------------------------------===//

#ifdef HWSCHED_HAVE_CPUID
/// Deterministic cache parameters (Intel leaf 4, AMD leaf 0x8000001D): the
/// same register layout.
static void readCacheLeaf(unsigned leaf, std::vector<CacheInfo> &caches) {
  for (unsigned sub = 0; sub < 16; ++sub) {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    __cpuid_count(leaf, sub, eax, ebx, ecx, edx);
    unsigned type = eax & 31;
    if (type == 0)
      break;
    CacheInfo cache;
    cache.level = (eax >> 5) & 7;
    cache.type = type == 1 ? "Data" : type == 2 ? "Instruction" : "Unified";
    int64_t ways = ((ebx >> 22) & 0x3ff) + 1;
    int64_t partitions = ((ebx >> 12) & 0x3ff) + 1;
    cache.lineBytes = (ebx & 0xfff) + 1;
    int64_t sets = static_cast<int64_t>(ecx) + 1;
    cache.bytes = ways * partitions * cache.lineBytes * sets;
    // An upper bound (addressable IDs), not the count of sharing CPUs.
    cache.sharingCpus = ((eax >> 14) & 0xfff) + 1;
    cache.source = ("cpuid leaf 0x" + llvm::utohexstr(leaf) + " subleaf " +
                    llvm::Twine(sub))
                       .str();
    cache.lineSource = cache.source;
    caches.push_back(std::move(cache));
  }
}

static std::vector<CacheInfo> readCpuidCaches() {
  std::vector<CacheInfo> caches;
  unsigned maxLeaf = __get_cpuid_max(0, nullptr);
  unsigned maxExt = __get_cpuid_max(0x80000000, nullptr);
  if (maxLeaf >= 4)
    readCacheLeaf(4, caches);
  if (caches.empty() && maxExt >= 0x8000001D)
    readCacheLeaf(0x8000001D, caches);
  if (!caches.empty())
    return caches;
  // AMD's legacy leaves: sizes only (some hypervisors hide the leaves above).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (maxExt >= 0x80000005) {
    __cpuid(0x80000005, eax, ebx, ecx, edx);
    if (ecx >> 24)
      caches.push_back({1, "Data", int64_t(ecx >> 24) * 1024, 0,
                        int64_t(ecx & 0xff),
                        "cpuid 0x80000005 ECX[31:24] (L1d " +
                            std::to_string(ecx >> 24) + " KiB)",
                        "", "cpuid 0x80000005 ECX[7:0]"});
  }
  if (maxExt >= 0x80000006) {
    __cpuid(0x80000006, eax, ebx, ecx, edx);
    if (ecx >> 16)
      caches.push_back({2, "Unified", int64_t(ecx >> 16) * 1024, 0,
                        int64_t(ecx & 0xff),
                        "cpuid 0x80000006 ECX[31:16] (L2 " +
                            std::to_string(ecx >> 16) + " KiB)",
                        "", "cpuid 0x80000006 ECX[7:0]"});
    if (edx >> 18)
      caches.push_back(
          {3, "Unified", int64_t(edx >> 18) * 512 * 1024, 0, 0,
           "cpuid 0x80000006 EDX[31:18] (L3 " +
               std::to_string((edx >> 18) / 2) +
               " MiB; AMD reports the processor's L3, whose sharing "
               "this leaf does not give)",
           "", ""});
  }
  return caches;
}
#endif

//===----------------------------------------------------------------------===//
// Putting it together
//===----------------------------------------------------------------------===//

/// The clock: cpufreq's maximum, else /proc/cpuinfo (real host only).
static llvm::Expected<HostFigure> detectClock(const Sysfs &sysfs, int64_t cpu) {
  std::string file =
      ("cpu" + llvm::Twine(cpu) + "/cpufreq/cpuinfo_max_freq").str();
  if (std::optional<std::string> khz = sysfs.read(file)) {
    int64_t value = 0;
    if (llvm::StringRef(*khz).getAsInteger(10, value) || value < 1000 ||
        value > 100000000)
      return hostError(
          sysfs.label(file) +
          ": expected a frequency in kHz such as '3700000', got '" + *khz +
          "'");
    return HostFigure{value / 1000, sysfs.label(file) + " (" + *khz + " kHz)"};
  }
  if (!sysfs.simulated) {
    auto buffer = llvm::MemoryBuffer::getFileAsStream("/proc/cpuinfo");
    if (buffer) {
      llvm::SmallVector<llvm::StringRef> lines;
      (*buffer)->getBuffer().split(lines, '\n');
      for (llvm::StringRef line : lines) {
        auto [key, value] = line.split(':');
        double mhz = 0;
        if (key.trim() == "cpu MHz" && !value.trim().getAsDouble(mhz) &&
            mhz >= 100)
          return HostFigure{static_cast<int64_t>(mhz),
                            "/proc/cpuinfo 'cpu MHz' (" + value.trim().str() +
                                "; the current or nominal clock, boost may "
                                "be higher)"};
      }
    }
  }
  return HostFigure{3000, "not exposed (no cpufreq, no /proc/cpuinfo clock); "
                          "assumed 3.0 GHz"};
}

llvm::Expected<HostFacts> hwsched::detectHost() {
  HostFacts facts;
  if (llvm::Error error = detectIsa(facts))
    return std::move(error);

  Sysfs sysfs;
  if (std::optional<std::string> root = getEnv("HWSCHED_HOST_SYSFS")) {
    if (!llvm::sys::fs::is_directory(*root))
      return hostError("HWSCHED_HOST_SYSFS: '" + *root +
                       "' is not a directory (expected a tree laid out like " +
                       kSysfsRoot + ")");
    sysfs.root = *root;
    sysfs.simulated = true;
  } else {
    sysfs.root = kSysfsRoot.str();
  }

  auto cpuSet = detectCpuSet(sysfs);
  if (!cpuSet)
    return cpuSet.takeError();
  const std::vector<int64_t> &cpus = cpuSet->first;
  std::string coreSource = cpuSet->second + " (" + std::to_string(cpus.size()) +
                           " CPU" + (cpus.size() == 1 ? "" : "s") + ")";
  auto cores = countCores(sysfs, cpus, coreSource);
  if (!cores)
    return cores.takeError();
  facts.cores = {cores->first, "host: " + coreSource};
  int64_t threadsPerCore = cores->second;
  int64_t firstCpu = cpus.front();

  auto sysfsCaches = readSysfsCaches(sysfs, firstCpu);
  if (!sysfsCaches)
    return sysfsCaches.takeError();
  std::vector<CacheInfo> caches;
  if (*sysfsCaches)
    caches = std::move(**sysfsCaches);
#ifdef HWSCHED_HAVE_CPUID
  else if (!sysfs.simulated)
    caches = readCpuidCaches();
#endif
  auto find = [&](int64_t level, bool data) -> const CacheInfo * {
    for (const CacheInfo &cache : caches)
      if (cache.level == level &&
          (data ? cache.type == "Data" || cache.type == "Unified"
                : cache.type == "Unified"))
        return &cache;
    // A level with only a Data cache (no Unified) still holds data.
    for (const CacheInfo &cache : caches)
      if (cache.level == level && cache.type != "Instruction")
        return &cache;
    return nullptr;
  };
  std::string where = sysfs.simulated ? "no cache/ in $HWSCHED_HOST_SYSFS"
                                      : "not in sysfs or cpuid";
  auto figure = [&](const CacheInfo *cache, int64_t assumed,
                    llvm::StringRef what) {
    if (cache)
      return HostFigure{cache->bytes, "host: " + cache->source};
    return HostFigure{assumed, ("host: " + what + " " + where + "; assumed " +
                                llvm::Twine(assumed / 1024) + " KiB")
                                   .str()};
  };
  const CacheInfo *l1 = find(1, /*data=*/true);
  const CacheInfo *l2 = find(2, /*data=*/true);
  const CacheInfo *l3 = find(3, /*data=*/true);
  facts.l1d = figure(l1, 32 * 1024, "L1d");
  facts.l2 = figure(l2, 512 * 1024, "L2");
  // Without an L3 figure, assume 2 MiB per core (typical of server parts).
  facts.l3 = figure(l3, 2 * 1024 * 1024 * facts.cores.value, "L3");
  // cpuid's sharing count is an upper bound (addressable IDs): only sysfs
  // says how many cores really share the L3.
  if (l3 && l3->sharingCpus > 0 && !l3->sharingSource.empty()) {
    facts.l3SharingCores = {
        std::max<int64_t>(1, l3->sharingCpus / threadsPerCore),
        "host: " + l3->sharingSource + ", " + std::to_string(threadsPerCore) +
            " thread(s) per core"};
  } else {
    facts.l3SharingCores = {facts.cores.value,
                            "host: L3 sharing not exposed; assumed shared by "
                            "the cores this process may use"};
  }
  if (l1 && l1->lineBytes > 0)
    facts.cacheLine = {l1->lineBytes, "host: " + l1->lineSource};
  else
    facts.cacheLine = {64, "host: line size not exposed; assumed 64 bytes"};

  auto clock = detectClock(sysfs, firstCpu);
  if (!clock)
    return clock.takeError();
  facts.clockMhz = *clock;
  facts.clockMhz.source = "host: " + facts.clockMhz.source;
  return facts;
}
