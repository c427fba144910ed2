//===- pack_bench.cpp - Time the allocation packer on interval files ------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Usage: hwsched-pack-bench [--capacity B] [--fit-steps N] [--search-steps N]
//                           FILE [REPEAT]
// FILE holds cases:
//   case NAME N
//   START END SIZE ALIGN      (N lines, inclusive program points, bytes)
// For each case prints one line:
//   NAME N LOWER_BOUND PEAK STRATEGY EXACT OPTIMAL VERIFIED MILLISECONDS
//   STEPS PROVEN_BOUND FITS
// where MILLISECONDS is the best of REPEAT runs (default 3) of packAllocations
// with the given options (the library's defaults otherwise; capacity 0 means
// none), STEPS the exact search's steps, PROVEN_BOUND the best lower bound
// known (raised where the search proved a peak impossible) and FITS 1 when
// the peak is within the capacity.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/AllocationPacking.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace hwsched;

int main(int argc, char **argv) {
  PackingOptions options;
  int arg = 1;
  for (; arg + 1 < argc && std::strncmp(argv[arg], "--", 2) == 0; arg += 2) {
    uint64_t value = std::stoull(argv[arg + 1]);
    if (!std::strcmp(argv[arg], "--capacity"))
      options.capacity = value;
    else if (!std::strcmp(argv[arg], "--fit-steps"))
      options.fitSteps = value;
    else if (!std::strcmp(argv[arg], "--search-steps"))
      options.searchSteps = value;
    else {
      std::cerr << "unknown option " << argv[arg] << "\n";
      return 2;
    }
  }
  if (arg >= argc) {
    std::cerr << "usage: hwsched-pack-bench [--capacity B] [--fit-steps N] "
                 "[--search-steps N] FILE [REPEAT]\n";
    return 2;
  }
  std::ifstream in(argv[arg]);
  if (!in) {
    std::cerr << "cannot open " << argv[arg] << "\n";
    return 2;
  }
  int repeat = arg + 1 < argc ? std::stoi(argv[arg + 1]) : 3;
  std::string word, name;
  size_t n;
  while (in >> word) {
    if (word != "case" || !(in >> name >> n)) {
      std::cerr << "malformed input near '" << word << "'\n";
      return 2;
    }
    std::vector<PackingItem> items(n);
    for (PackingItem &item : items)
      in >> item.start >> item.end >> item.size >> item.alignment;
    if (!in) {
      std::cerr << "malformed case " << name << "\n";
      return 2;
    }
    PackingResult result;
    double best = 1e300;
    for (int r = 0; r < repeat; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      result = packAllocations(items, options);
      auto t1 = std::chrono::steady_clock::now();
      best = std::min(
          best, std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    bool ok = verifyPacking(items, result.offsets);
    std::printf("%s %zu %llu %llu %s %d %d %d %.3f %llu %llu %d\n",
                name.c_str(), n, (unsigned long long)result.lowerBound.bytes,
                (unsigned long long)result.peak, result.strategy.c_str(),
                result.searchedComponents ? 1 : 0, result.provedOptimal ? 1 : 0,
                ok ? 1 : 0, best, (unsigned long long)result.searchSteps,
                (unsigned long long)result.provenBound,
                result.fitsCapacity() ? 1 : 0);
    std::fflush(stdout);
  }
  return 0;
}
