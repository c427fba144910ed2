//===- PackingTestInstances.h - Allocation problems for unit tests -*- C++ -*-//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//
//
// Instances shared by the packer's unit tests: one whose lower bound no
// packing reaches, and rectangles cut into buffers (optimum known).
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_UNITTESTS_COSTMODEL_PACKINGTESTINSTANCES_H
#define HWSCHED_UNITTESTS_COSTMODEL_PACKINGTESTINSTANCES_H

#include "hwsched/CostModel/AllocationPacking.h"

#include <random>
#include <vector>

namespace hwsched::testing {

/// Eight buffers whose lower bound (9 B, live at point 1 and at point 5) no
/// packing reaches: the optimum is 10 B (checked by enumerating every
/// order of stacking placements). Program points start at `shift`.
inline std::vector<PackingItem> gapInstance(int64_t shift = 0) {
  std::vector<PackingItem> items = {{2, 3, 3, 1}, {6, 6, 3, 1}, {4, 5, 1, 1},
                                    {1, 4, 2, 1}, {1, 5, 2, 1}, {2, 6, 2, 1},
                                    {5, 7, 4, 1}, {1, 1, 4, 1}};
  for (PackingItem &item : items) {
    item.start += shift;
    item.end += shift;
  }
  return items;
}

/// A rectangle of `points` x `bytes` cut at random into `count` buffers
/// (guillotine cuts, bytes in multiples of `grain`), program points from
/// `shift`: every point has exactly `bytes` live, so the optimum is the
/// lower bound.
inline std::vector<PackingItem> cutRectangle(size_t count, unsigned seed,
                                             int64_t points = 1000,
                                             uint64_t bytes = 1 << 20,
                                             uint64_t grain = 1024,
                                             int64_t shift = 0) {
  struct Piece {
    int64_t t0, t1;
    uint64_t b0, b1;
  };
  std::mt19937 rng(seed);
  std::vector<Piece> pieces = {{0, points, 0, bytes}};
  while (pieces.size() < count) {
    size_t k = rng() % pieces.size();
    Piece p = pieces[k];
    bool canTime = p.t1 - p.t0 >= 2, canBytes = (p.b1 - p.b0) / grain >= 2;
    if (!canTime && !canBytes)
      continue;
    if (canTime && (!canBytes || rng() % 2)) {
      int64_t cut = p.t0 + 1 + rng() % (p.t1 - p.t0 - 1);
      pieces[k] = {p.t0, cut, p.b0, p.b1};
      pieces.push_back({cut, p.t1, p.b0, p.b1});
    } else {
      uint64_t cut = p.b0 + grain * (1 + rng() % ((p.b1 - p.b0) / grain - 1));
      pieces[k] = {p.t0, p.t1, p.b0, cut};
      pieces.push_back({p.t0, p.t1, cut, p.b1});
    }
  }
  std::vector<PackingItem> items;
  for (const Piece &p : pieces)
    items.push_back({p.t0 + shift, p.t1 - 1 + shift, p.b1 - p.b0, 1});
  return items;
}

} // namespace hwsched::testing

#endif // HWSCHED_UNITTESTS_COSTMODEL_PACKINGTESTINSTANCES_H
