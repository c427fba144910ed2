//===- pack_bench.cpp - Time the allocation packer on interval files ------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Usage: hwsched-pack-bench FILE [REPEAT]
// FILE holds cases:
//   case NAME N
//   START END SIZE ALIGN      (N lines, inclusive program points, bytes)
// For each case prints one line:
//   NAME N LOWER_BOUND PEAK STRATEGY EXACT OPTIMAL VERIFIED MILLISECONDS
// where MILLISECONDS is the best of REPEAT runs (default 3) of packAllocations.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/AllocationPacking.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace hwsched;

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: hwsched-pack-bench FILE [REPEAT]\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "cannot open " << argv[1] << "\n";
    return 2;
  }
  int repeat = argc > 2 ? std::stoi(argv[2]) : 3;
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
      result = packAllocations(items);
      auto t1 = std::chrono::steady_clock::now();
      best = std::min(
          best, std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    bool ok = verifyPacking(items, result.offsets);
    std::printf("%s %zu %llu %llu %s %d %d %d %.3f\n", name.c_str(), n,
                (unsigned long long)result.lowerBound.bytes,
                (unsigned long long)result.peak, result.strategy.c_str(),
                result.searchedComponents ? 1 : 0, result.provedOptimal ? 1 : 0,
                ok ? 1 : 0, best);
  }
  return 0;
}
