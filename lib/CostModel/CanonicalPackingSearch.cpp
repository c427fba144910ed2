//===- CanonicalPackingSearch.cpp - Exact allocation packing --------------===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#include "hwsched/CostModel/CanonicalPackingSearch.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace hwsched;

const char *hwsched::toString(PackingVerdict verdict) {
  switch (verdict) {
  case PackingVerdict::Fits:
    return "fits";
  case PackingVerdict::Infeasible:
    return "infeasible";
  case PackingVerdict::OutOfBudget:
    return "out of budget";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// PackingStepBudget
//===----------------------------------------------------------------------===//

PackingStepBudget::PackingStepBudget(uint64_t steps, uint64_t timeMs)
    : stepLimit(steps) {
  if (timeMs != 0)
    deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(timeMs);
}

bool PackingStepBudget::charge(uint64_t steps) {
  // The count stops at the limit: the work of the node that crosses it is
  // not finished, and "N of M steps" never reads N > M.
  if (steps >= stepLimit - std::min(stepsUsed, stepLimit)) {
    stepsUsed = stepLimit;
    return false;
  }
  stepsUsed += steps;
  if (deadline && !deadlinePassed && stepsUsed >= nextClockCheck) {
    // About a tenth of a millisecond of search between looks at the clock.
    nextClockCheck = stepsUsed + (uint64_t(1) << 16);
    deadlinePassed = std::chrono::steady_clock::now() >= *deadline;
  }
  return !deadlinePassed;
}

PackingStepBudget PackingStepBudget::slice(uint64_t steps) const {
  PackingStepBudget part(std::min(steps, remaining()));
  part.deadline = deadline;
  part.deadlinePassed = deadlinePassed;
  return part;
}

void PackingStepBudget::absorb(const PackingStepBudget &slice) {
  charge(slice.used());
  deadlinePassed |= slice.deadlinePassed;
}

void PackingDecision::print(llvm::raw_ostream &os) const {
  os << toString(verdict) << " " << capacity << " B";
  if (verdict == PackingVerdict::Fits)
    os << ": peak " << peak << " B";
  os << ", " << steps << " steps, " << nodes << " nodes, " << restarts
     << " restarts";
}

//===----------------------------------------------------------------------===//
// Search
//===----------------------------------------------------------------------===//

namespace {
constexpr uint64_t kUnplaced = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kNoMin = std::numeric_limits<uint64_t>::max();

/// Maximum over a range of sections of a value that changes by range
/// additions (the unplaced bytes of each section). A segment tree over a
/// power-of-two number of leaves whose inner nodes keep the maximum of their
/// children plus the additions recorded at the node itself, so nothing is
/// pushed down: additions walk up from the leaves, the whole range is the
/// root, and a part is read from the root down.
class RangeAddMaxTree {
public:
  void build(const std::vector<int64_t> &values) {
    count = static_cast<int>(values.size());
    leaves = 1;
    while (leaves < count)
      leaves *= 2;
    best.assign(2 * leaves, 0);
    pending.assign(leaves, 0);
    for (int i = 0; i < count; ++i)
      best[leaves + i] = values[i];
    for (int node = leaves - 1; node >= 1; --node)
      best[node] = std::max(best[2 * node], best[2 * node + 1]);
  }
  /// Adds `delta` to the sections [lo, hi].
  void add(int lo, int hi, int64_t delta) {
    int l = lo + leaves, r = hi + leaves + 1;
    int l0 = l, r0 = r - 1;
    for (; l < r; l >>= 1, r >>= 1) {
      if (l & 1)
        apply(l++, delta);
      if (r & 1)
        apply(--r, delta);
    }
    rebuild(l0);
    rebuild(r0);
  }
  /// The maximum over the sections [lo, hi].
  int64_t max(int lo, int hi) const {
    if (lo == 0 && hi == count - 1)
      return best[1];
    return max(1, 0, leaves - 1, lo, hi);
  }

private:
  void apply(int node, int64_t delta) {
    best[node] += delta;
    if (node < leaves)
      pending[node] += delta;
  }
  void rebuild(int node) {
    for (node >>= 1; node >= 1; node >>= 1)
      best[node] = std::max(best[2 * node], best[2 * node + 1]) + pending[node];
  }
  int64_t max(int node, int lo, int hi, int from, int to) const {
    if (from <= lo && hi <= to)
      return best[node];
    int mid = lo + (hi - lo) / 2;
    int64_t m = std::numeric_limits<int64_t>::min();
    if (from <= mid)
      m = std::max(m, max(2 * node, lo, mid, from, to));
    if (to > mid)
      m = std::max(m, max(2 * node + 1, mid + 1, hi, from, to));
    return m + pending[node];
  }

  int count = 0, leaves = 1;
  std::vector<int64_t> best, pending;
};

/// The buffers of one search, in section terms. Sections are the end points
/// of intervals where a maximal set of buffers is live: the buffers live at
/// one are live together, every program point's live set is contained in
/// that of a section, and a buffer covers a contiguous run of sections.
struct SearchProblem {
  explicit SearchProblem(const std::vector<PackingItem> &items,
                         const std::vector<size_t> &ids) {
    n = static_cast<int>(ids.size());
    size.resize(n);
    align.resize(n);
    width.resize(n);
    lo.resize(n);
    hi.resize(n);
    std::vector<int64_t> ends;
    ends.reserve(n);
    for (int i = 0; i < n; ++i) {
      const PackingItem &item = items[ids[i]];
      size[i] = getFootprint(item);
      align[i] = std::max<uint64_t>(item.alignment, 1);
      width[i] = item.end - item.start + 1;
      ends.push_back(item.end);
    }
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    // Keep only the end points where a maximal set of buffers is live: one
    // with no start since the previous end point sees a subset of what was
    // live there. (Two buffers that meet in time still share a kept
    // section, as in any interval graph; a payload with one op per load
    // otherwise has a section per buffer, each a few buffers smaller than
    // the last.)
    std::vector<int64_t> starts;
    starts.reserve(n);
    for (int i = 0; i < n; ++i)
      starts.push_back(items[ids[i]].start);
    std::sort(starts.begin(), starts.end());
    size_t kept = 0;
    for (size_t k = 0; k < ends.size(); ++k) {
      auto next = std::upper_bound(starts.begin(), starts.end(),
                                   k == 0 ? std::numeric_limits<int64_t>::min()
                                          : ends[k - 1]);
      if (next != starts.end() && *next <= ends[k])
        ends[kept++] = ends[k];
    }
    ends.resize(kept);
    numSections = static_cast<int>(ends.size());
    for (int i = 0; i < n; ++i) {
      const PackingItem &item = items[ids[i]];
      lo[i] = static_cast<int>(
          std::lower_bound(ends.begin(), ends.end(), item.start) -
          ends.begin());
      hi[i] = static_cast<int>(
                  std::upper_bound(ends.begin(), ends.end(), item.end) -
                  ends.begin()) -
              1;
    }
    // Section members (CSR), and where each buffer's run of sections
    // starts in per-(buffer, section) arrays.
    spanBegin.assign(n + 1, 0);
    for (int i = 0; i < n; ++i)
      spanBegin[i + 1] = spanBegin[i] + (hi[i] - lo[i] + 1);
    memberBegin.assign(numSections + 1, 0);
    for (int i = 0; i < n; ++i)
      for (int s = lo[i]; s <= hi[i]; ++s)
        ++memberBegin[s + 1];
    for (int s = 0; s < numSections; ++s)
      memberBegin[s + 1] += memberBegin[s];
    members.resize(memberBegin[numSections]);
    std::vector<uint32_t> fill(memberBegin.begin(), memberBegin.end() - 1);
    for (int i = 0; i < n; ++i)
      for (int s = lo[i]; s <= hi[i]; ++s)
        members[fill[s]++] = i;
    // Neighbours (CSR): two buffers meet in time when their section runs
    // intersect. Sweep in order of first section keeping the open runs.
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return lo[a] < lo[b]; });
    std::vector<std::vector<int>> lists(n);
    std::vector<int> open;
    for (int i : order) {
      size_t kept = 0;
      for (int j : open) {
        if (hi[j] < lo[i])
          continue;
        open[kept++] = j;
        lists[i].push_back(j);
        lists[j].push_back(i);
      }
      open.resize(kept);
      open.push_back(i);
    }
    nbrBegin.assign(n + 1, 0);
    for (int i = 0; i < n; ++i)
      nbrBegin[i + 1] = nbrBegin[i] + static_cast<uint32_t>(lists[i].size());
    nbr.reserve(nbrBegin[n]);
    for (std::vector<int> &list : lists) {
      std::sort(list.begin(), list.end());
      nbr.insert(nbr.end(), list.begin(), list.end());
    }
  }

  int n = 0;
  int numSections = 0;
  std::vector<uint64_t> size, align;
  std::vector<int64_t> width;
  std::vector<int> lo, hi;
  std::vector<uint32_t> memberBegin, nbrBegin, spanBegin;
  std::vector<int> members, nbr;
};

/// Static orders that break ties between buffers at the same offset and
/// decide which branch comes first. Letters, most significant first, larger
/// first: W = lifetime (program points), L = lifetime in coarse buckets (a
/// third of an octave: equal within 26%), A = area (bytes x lifetime), C =
/// sections spanned, a = bytes x sections, O = buffers met in time, T = the
/// largest sum of bytes live in one of the buffer's sections, Z = size, S =
/// earlier start, E = later end; then lower index. TWA and TAW are MiniMalloc's
/// and read the time scale (on its benchmarks' own times they solve every
/// problem); C and a measure lifetimes in sections and O counts neighbours,
/// which stay the same when the same problem comes as a payload with one op per
/// access (where W changes and TWA/TAW alone solve 4 of MiniMalloc's 11; TOC is
/// the only order we found that solves E there). TLZ is TWA made robust to
/// that change: one op per access stretches or shrinks lifetimes, but rarely
/// by more than a bucket, so buffers of about the same lifetime still go
/// largest first; it is the order that solves MiniMalloc's I as a payload
/// (3.6 M steps alone; none of the other eight did within 2^34). The sweeps in
/// time win on problems cut from a full rectangle (where T says nothing). Which
/// order finds a packing quickly varies from problem to problem with no pattern
/// we could see (the search's run time is heavy-tailed), hence the round
/// robin.
constexpr const char *kOrders[] = {"TWA", "TAW", "TCA", "TOC", "TaC",
                                   "CaT", "SZ",  "EZ",  "TLZ"};

enum class Outcome { Found, NotFound, Aborted };

struct Partition {
  /// Sections [first, last] and the unplaced buffers inside them.
  int first = 0, last = 0;
  std::vector<int> unplaced;
};

class CanonicalSearch {
public:
  CanonicalSearch(const SearchProblem &problem, uint64_t capacity,
                  PackingStepBudget &budget)
      : p(problem), capacity(capacity), budget(budget) {
    int n = p.n;
    offset.assign(n, kUnplaced);
    solution.assign(n, 0);
    minOffset.assign(n, 0);
    excludedAt.assign(n, kNoMin);
    rank.assign(n, 0);
    total.assign(p.numSections, 0);
    for (int i = 0; i < n; ++i)
      for (int s = p.lo[i]; s <= p.hi[i]; ++s)
        total[s] += static_cast<int64_t>(p.size[i]);
    totals.build(total);
    sectionMin.assign(p.numSections, 0);
    sectionMinCount.assign(p.numSections, 0);
    // A section gets dirty at most once per placement.
    dirty.resize(p.numSections);
    live = p.members;
    liveCount.resize(p.numSections);
    slot.resize(p.spanBegin[n]);
    for (int s = 0; s < p.numSections; ++s) {
      sectionMinCount[s] = liveCount[s] =
          p.memberBegin[s + 1] - p.memberBegin[s];
      for (uint32_t m = p.memberBegin[s]; m < p.memberBegin[s + 1]; ++m) {
        int j = live[m];
        slot[p.spanBegin[j] + (s - p.lo[j])] = m;
      }
    }
    cut.assign(std::max(p.numSections - 1, 0), 0);
    for (int i = 0; i < n; ++i)
      for (int s = p.lo[i]; s < p.hi[i]; ++s)
        ++cut[s];
    for (int s = 0; s < p.numSections; ++s)
      if (total[s] == 0)
        sectionMin[s] = kNoMin;
  }

  /// The independent groups at the start (no buffer spans a zero cut).
  std::vector<Partition> rootPartitions() const {
    std::vector<Partition> parts;
    std::vector<int> byFirst(p.n);
    std::iota(byFirst.begin(), byFirst.end(), 0);
    std::stable_sort(byFirst.begin(), byFirst.end(),
                     [&](int a, int b) { return p.lo[a] < p.lo[b]; });
    for (int i : byFirst) {
      if (parts.empty() || p.lo[i] > parts.back().last) {
        parts.emplace_back();
        parts.back().first = p.lo[i];
        parts.back().last = p.hi[i];
      }
      parts.back().last = std::max(parts.back().last, p.hi[i]);
      parts.back().unplaced.push_back(i);
    }
    return parts;
  }

  /// One depth-first search of `part` with the static order `order` and at
  /// most `nodeLimit` nodes.
  Outcome run(Partition &part, const char *order, uint64_t nodeLimit) {
    currentOrder = order;
    setRanks(part, order);
    nodesLeft = nodeLimit;
    outOfBudget = false;
    return search(part, 0, -1);
  }

  bool budgetSpent() const { return outOfBudget; }
  uint64_t nodes = 0;
  std::vector<uint64_t> solution;

private:
  void setRanks(const Partition &part, const char *order) {
    std::vector<int> ids = part.unplaced;
    // (From the totals tree: a loop over each buffer's sections costs more
    // than the search itself on long-lived buffers.)
    maxTotal.resize(p.n);
    for (int i : ids)
      maxTotal[i] = totals.max(p.lo[i], p.hi[i]);
    work += ids.size() * 4;
    auto key = [&](int i, char c) -> double {
      switch (c) {
      case 'W':
        return static_cast<double>(p.width[i]);
      case 'L':
        return std::floor(3.0 * std::log2(static_cast<double>(p.width[i])));
      case 'A':
        return static_cast<double>(p.width[i]) * static_cast<double>(p.size[i]);
      case 'T':
        return static_cast<double>(maxTotal[i]);
      case 'Z':
        return static_cast<double>(p.size[i]);
      case 'C':
        return static_cast<double>(p.hi[i] - p.lo[i] + 1);
      case 'a':
        return static_cast<double>(p.hi[i] - p.lo[i] + 1) *
               static_cast<double>(p.size[i]);
      case 'O':
        return static_cast<double>(p.nbrBegin[i + 1] - p.nbrBegin[i]);
      case 'S':
        return -static_cast<double>(p.lo[i]);
      case 'E':
        return static_cast<double>(p.hi[i]);
      default:
        return 0;
      }
    };
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) {
      for (const char *c = order; *c; ++c) {
        double ka = key(a, *c), kb = key(b, *c);
        if (ka != kb)
          return ka > kb;
      }
      return a < b;
    });
    for (size_t r = 0; r < ids.size(); ++r)
      rank[ids[r]] = static_cast<int>(r);
  }

  /// Charges the work done since the last node and counts this one.
  bool enterNode() {
    ++nodes;
    if (nodesLeft == 0)
      return false;
    --nodesLeft;
    uint64_t spent = work + 1;
    work = 0;
    if (!budget.charge(spent)) {
      outOfBudget = true;
      return false;
    }
    return true;
  }

  Outcome search(Partition &part, uint64_t current, int lastRank) {
    if (!enterNode())
      return Outcome::Aborted;
    std::vector<int> &list = part.unplaced;
    if (list.empty())
      return Outcome::Found;
    // No buffer may go at or above the top of another resting at its
    // minimum offset (that one would fit the gap below: dominance).
    uint64_t minHeight = kNoMin;
    for (int j : list)
      minHeight = std::min(minHeight, minOffset[j] + p.size[j]);
    size_t base = candidates.size();
    for (size_t k = 0; k < list.size(); ++k) {
      int j = list[k];
      uint64_t m = minOffset[j];
      if (m < current || m >= minHeight ||
          (m == current && rank[j] <= lastRank) || excludedAt[j] == m)
        continue;
      candidates.push_back({j, static_cast<int>(k)});
    }
    work += 2 * list.size();
    std::sort(candidates.begin() + base, candidates.end(),
              [&](const Candidate &a, const Candidate &b) {
                uint64_t ma = minOffset[a.id], mb = minOffset[b.id];
                if (ma != mb)
                  return ma < mb;
                return rank[a.id] < rank[b.id];
              });
    Outcome result = Outcome::NotFound;
    size_t end = candidates.size();
    Undo exclusions = mark();
    for (size_t c = base; c < end; ++c) {
      Candidate cand = candidates[c];
      uint64_t at = minOffset[cand.id];
      Undo undo;
      bool hatless = true;
      bool ok = place(part, cand, at, undo, hatless);
      Outcome outcome = Outcome::NotFound;
      if (ok)
        outcome = descend(part, cand.id, at);
      unplace(part, cand, undo);
      if (outcome != Outcome::NotFound) {
        result = outcome;
        break;
      }
      // Nothing unplaced meets this buffer: placing another first cannot
      // help the rest, so its siblings fail as well.
      if (hatless)
        break;
      // The later siblings place something else first at `at` or above, so
      // this buffer is never at `at` below them (canonical order): it rests
      // on a buffer placed later. Its sections then have less room; when
      // one can no longer hold its unplaced buffers, every later sibling
      // fails too (a level where no buffer can cover some point and no
      // bytes are to spare).
      if (!exclude(cand.id, at))
        break;
    }
    undoTo(exclusions);
    candidates.resize(base);
    return result;
  }

  struct Candidate {
    int id;
    /// Position in the partition's unplaced list.
    int position;
  };
  /// Trail marks to undo one placement.
  struct Undo {
    size_t offsetTrail = 0, countTrail = 0, rescanTrail = 0, excludeTrail = 0;
  };
  Undo mark() const {
    return {offsetTrail.size(), countTop, rescanTrail.size(),
            excludeTrail.size()};
  }

  /// Raises the minimum offset of unplaced buffer `j` from `at` to the next
  /// aligned offset without making that offset a place for it (it must rest
  /// on a buffer placed later); returns false when an inference rule shows
  /// that no completion exists. Undone by undoTo.
  bool exclude(int j, uint64_t at) {
    uint64_t raised = alignUpTo(at + 1, p.align[j]);
    excludeTrail.push_back({j, excludedAt[j]});
    excludedAt[j] = raised;
    offsetTrail.push_back({j, at});
    minOffset[j] = raised;
    if (raised + p.size[j] > capacity)
      return false;
    dirtyEnd = dirty.data();
    leave(j, at);
    return rescan();
  }

  /// Removes `j` (minimum offset `oldMin` until now) from the count of its
  /// sections' buffers at their lowest minimum offset; a section whose
  /// count drops to 0 becomes dirty.
  void leave(int j, uint64_t oldMin) {
    int first = p.lo[j], last = p.hi[j];
    size_t span = last - first + 1;
    if (countTrail.size() < countTop + span)
      countTrail.resize(2 * (countTop + span));
    const uint64_t *mins = sectionMin.data();
    uint32_t *counts = sectionMinCount.data();
    int *out = countTrail.data() + countTop;
    for (int s = first; s <= last; ++s) {
      if (mins[s] != oldMin)
        continue;
      *out++ = s;
      if (--counts[s] == 0)
        *dirtyEnd++ = s;
    }
    countTop = out - countTrail.data();
    work += span;
  }

  /// Temporal inference on the dirty sections: the unplaced buffers of a
  /// section stack above the lowest of their minimum offsets. (Placed
  /// buffers have minimum offset "unplaced", the largest value.)
  bool rescan() {
    const uint64_t *offsets = minOffset.data();
    for (const int *d = dirty.data(); d != dirtyEnd; ++d) {
      int s = *d;
      uint64_t lowest = kNoMin;
      uint32_t count = 0;
      const int *m = live.data() + p.memberBegin[s];
      const int *end = m + liveCount[s];
      for (; m != end; ++m) {
        uint64_t v = offsets[*m];
        if (v < lowest) {
          lowest = v;
          count = 1;
        } else if (v == lowest) {
          ++count;
        }
      }
      work += liveCount[s];
      rescanTrail.push_back({s, sectionMin[s]});
      sectionMin[s] = lowest;
      sectionMinCount[s] = lowest == kNoMin ? 0 : count;
      if (lowest != kNoMin &&
          lowest + static_cast<uint64_t>(total[s]) > capacity)
        return false;
    }
    return true;
  }

  /// Restores the minimum offsets, section minima and exclusions recorded
  /// since `undo`.
  void undoTo(const Undo &undo) {
    // Rescans came after every decrement of their placement: undo them
    // first (a rescanned section had count 0), then the decrements.
    while (rescanTrail.size() > undo.rescanTrail) {
      sectionMin[rescanTrail.back().first] = rescanTrail.back().second;
      sectionMinCount[rescanTrail.back().first] = 0;
      rescanTrail.pop_back();
    }
    for (size_t k = countTop; k > undo.countTrail; --k)
      ++sectionMinCount[countTrail[k - 1]];
    countTop = undo.countTrail;
    while (offsetTrail.size() > undo.offsetTrail) {
      minOffset[offsetTrail.back().first] = offsetTrail.back().second;
      offsetTrail.pop_back();
    }
    while (excludeTrail.size() > undo.excludeTrail) {
      excludedAt[excludeTrail.back().first] = excludeTrail.back().second;
      excludeTrail.pop_back();
    }
  }

  /// Places buffer `cand.id` at `at`; returns false when an inference rule
  /// shows the branch is dead. The placement is always undone by unplace.
  bool place(Partition &part, const Candidate &cand, uint64_t at, Undo &undo,
             bool &hatless) {
    int i = cand.id;
    std::vector<int> &list = part.unplaced;
    list[cand.position] = list.back();
    list.pop_back();
    offset[i] = at;
    solution[i] = at;
    undo = mark();
    int64_t bytes = static_cast<int64_t>(p.size[i]);
    // Out of the total and the unplaced members of each of its sections
    // (swapped to the end of the section's unplaced run; unplace only
    // lengthens the run again).
    uint32_t *slots = &slot[p.spanBegin[i]] - p.lo[i];
    for (int s = p.lo[i]; s <= p.hi[i]; ++s) {
      total[s] -= bytes;
      uint32_t from = slots[s];
      uint32_t last = p.memberBegin[s] + --liveCount[s];
      int other = live[last];
      live[from] = other;
      slot[p.spanBegin[other] + (s - p.lo[other])] = from;
      live[last] = i;
      slots[s] = last;
    }
    totals.add(p.lo[i], p.hi[i], -bytes);
    work += p.hi[i] - p.lo[i] + 1;

    // The lowest minimum offset of each section's unplaced buffers, and
    // how many buffers hold it: a section is looked at again only when the
    // last of them leaves it (placed here, or raised).
    dirtyEnd = dirty.data();
    minOffset[i] = kUnplaced;
    leave(i, at);
    uint64_t top = at + p.size[i];
    bool ok = true;
    for (uint32_t e = p.nbrBegin[i]; e < p.nbrBegin[i + 1]; ++e) {
      int j = p.nbr[e];
      if (offset[j] != kUnplaced)
        continue;
      hatless = false;
      uint64_t align = p.align[j];
      uint64_t raised = align <= 1 ? top : (top + align - 1) / align * align;
      uint64_t oldMin = minOffset[j];
      // A buffer excluded from its minimum offset (see exclude) may rest
      // on this one there.
      if (excludedAt[j] == oldMin && raised >= oldMin) {
        excludeTrail.push_back({j, excludedAt[j]});
        excludedAt[j] = kNoMin;
      }
      if (raised <= oldMin)
        continue;
      offsetTrail.push_back({j, oldMin});
      minOffset[j] = raised;
      // Spatial inference: this buffer can no longer go anywhere.
      if (raised + p.size[j] > capacity) {
        ok = false;
        break;
      }
      leave(j, oldMin);
    }
    work += p.nbrBegin[i + 1] - p.nbrBegin[i];
    if (ok)
      ok = rescan();
    // Everything still to place goes at or above `at` and the buffers of a
    // section stack.
    if (ok && static_cast<uint64_t>(
                  std::max<int64_t>(totals.max(part.first, part.last), 0)) +
                      at >
                  capacity)
      ok = false;
    return ok;
  }

  void unplace(Partition &part, const Candidate &cand, const Undo &undo) {
    int i = cand.id;
    undoTo(undo);
    int64_t bytes = static_cast<int64_t>(p.size[i]);
    for (int s = p.lo[i]; s <= p.hi[i]; ++s) {
      total[s] += bytes;
      ++liveCount[s];
    }
    totals.add(p.lo[i], p.hi[i], bytes);
    offset[i] = kUnplaced;
    minOffset[i] = solution[i];
    std::vector<int> &list = part.unplaced;
    list.push_back(list[cand.position]);
    list[cand.position] = i;
  }

  /// After placing `i` at `at`: continue in `part`, or, when `i` was the
  /// last buffer joining groups of the rest, solve each group on its own.
  Outcome descend(Partition &part, int i, uint64_t at) {
    splits.clear();
    for (int s = p.lo[i]; s < p.hi[i]; ++s)
      if (--cut[s] == 0 && s >= part.first && s < part.last)
        splits.push_back(s);
    work += p.hi[i] - p.lo[i];
    Outcome outcome;
    if (splits.empty()) {
      outcome = search(part, at, rank[i]);
    } else {
      std::sort(splits.begin(), splits.end());
      std::vector<Partition> groups(splits.size() + 1);
      for (size_t g = 0; g < groups.size(); ++g) {
        groups[g].first = g == 0 ? part.first : splits[g - 1] + 1;
        groups[g].last = g == splits.size() ? part.last : splits[g];
      }
      for (int j : part.unplaced) {
        size_t g = std::upper_bound(splits.begin(), splits.end(), p.lo[j] - 1) -
                   splits.begin();
        groups[g].unplaced.push_back(j);
      }
      work += part.unplaced.size();
      outcome = Outcome::Found;
      for (Partition &group : groups) {
        if (group.unplaced.empty())
          continue;
        // Each group gets its own static order (the section totals have
        // changed since the root), restored for the siblings afterwards.
        std::vector<int> saved;
        saved.reserve(group.unplaced.size());
        for (int j : group.unplaced)
          saved.push_back(rank[j]);
        setRanks(group, currentOrder);
        outcome = search(group, 0, -1);
        for (size_t k = 0; k < saved.size(); ++k)
          rank[group.unplaced[k]] = saved[k];
        if (outcome != Outcome::Found)
          break;
      }
    }
    for (int s = p.lo[i]; s < p.hi[i]; ++s)
      ++cut[s];
    return outcome;
  }

  const SearchProblem &p;
  uint64_t capacity;
  PackingStepBudget &budget;
  std::vector<uint64_t> offset, minOffset, sectionMin;
  std::vector<int> rank, cut, splits, dirty;
  std::vector<int64_t> total;
  RangeAddMaxTree totals;
  /// Undo records: raised minimum offsets (buffer, old value), sections
  /// whose count of buffers at the minimum dropped by one, and sections
  /// rescanned (section, old minimum; their count was 0).
  std::vector<std::pair<int, uint64_t>> offsetTrail;
  std::vector<int> countTrail;
  size_t countTop = 0;
  std::vector<std::pair<int, uint64_t>> rescanTrail;
  std::vector<uint32_t> sectionMinCount;
  /// Where the sections made dirty by the current placement end.
  int *dirtyEnd = nullptr;
  /// Per buffer, the minimum offset it was raised to by exclude (no place
  /// for it unless a buffer placed later ends there), else kNoMin; and the
  /// undo records (buffer, old value).
  std::vector<uint64_t> excludedAt;
  std::vector<std::pair<int, uint64_t>> excludeTrail;
  /// Per section, its members with the unplaced ones first (`liveCount` of
  /// them), and per (buffer, section of its span) its position there.
  std::vector<int> live;
  std::vector<uint32_t> liveCount, slot;
  std::vector<Candidate> candidates;
  const char *currentOrder = "";
  std::vector<int64_t> maxTotal;
  uint64_t nodesLeft = 0;
  uint64_t work = 0;
  bool outOfBudget = false;
};
} // namespace

PackingDecision hwsched::decidePacking(const std::vector<PackingItem> &items,
                                       uint64_t capacity,
                                       PackingStepBudget &budget) {
  PackingDecision decision;
  decision.capacity = capacity;
  uint64_t stepsBefore = budget.used();
  std::vector<size_t> ids;
  for (size_t i = 0; i < items.size(); ++i) {
    uint64_t bytes = getFootprint(items[i]);
    if (bytes > capacity) {
      decision.verdict = PackingVerdict::Infeasible;
      return decision;
    }
    if (bytes != 0)
      ids.push_back(i);
  }
  if (computePackingLowerBound(items).bytes > capacity) {
    decision.verdict = PackingVerdict::Infeasible;
    return decision;
  }
  decision.offsets.assign(items.size(), 0);
  if (ids.empty()) {
    decision.verdict = PackingVerdict::Fits;
    return decision;
  }

  // Building the neighbour lists is work too (on 10,000 buffers with
  // hundreds live at once, more than the default search budget): count the
  // pairs first (a buffer meets those starting before it ends, less those
  // ending before it starts) and answer "out of budget" without building
  // when they alone exceed what is left, so a large problem asked many
  // questions stops in time.
  {
    std::vector<int64_t> starts, ends;
    for (size_t i : ids) {
      starts.push_back(items[i].start);
      ends.push_back(items[i].end);
    }
    std::sort(starts.begin(), starts.end());
    std::sort(ends.begin(), ends.end());
    uint64_t pairs = 0;
    for (size_t i : ids)
      pairs += (std::upper_bound(starts.begin(), starts.end(), items[i].end) -
                starts.begin()) -
               (std::lower_bound(ends.begin(), ends.end(), items[i].start) -
                ends.begin());
    // (A pair costs about as much as 64 search steps to build.)
    if (!budget.charge(64 * (pairs + ids.size()))) {
      decision.verdict = PackingVerdict::OutOfBudget;
      decision.offsets.clear();
      decision.steps = budget.used() - stepsBefore;
      return decision;
    }
  }
  SearchProblem problem(items, ids);
  CanonicalSearch search(problem, capacity, budget);
  decision.verdict = PackingVerdict::Fits;
  for (Partition &part : search.rootPartitions()) {
    // Round robin over the static orders with a node limit that doubles: a
    // limit reached only means "try another order"; a search that ends
    // below its limit has seen every canonical packing.
    uint64_t nodeLimit = 2 * static_cast<uint64_t>(part.unplaced.size());
    Outcome outcome = Outcome::Aborted;
    while (outcome == Outcome::Aborted && !budget.exhausted()) {
      for (const char *order : kOrders) {
        ++decision.restarts;
        outcome = search.run(part, order, nodeLimit);
        if (outcome != Outcome::Aborted || search.budgetSpent() ||
            budget.exhausted())
          break;
      }
      nodeLimit *= 2;
    }
    if (outcome == Outcome::Found)
      continue;
    decision.verdict = outcome == Outcome::NotFound
                           ? PackingVerdict::Infeasible
                           : PackingVerdict::OutOfBudget;
    break;
  }
  decision.nodes = search.nodes;
  decision.steps = budget.used() - stepsBefore;
  if (decision.verdict != PackingVerdict::Fits) {
    decision.offsets.clear();
    return decision;
  }
  for (int i = 0; i < problem.n; ++i) {
    decision.offsets[ids[i]] = search.solution[i];
    decision.peak =
        std::max(decision.peak, search.solution[i] + problem.size[i]);
  }
  return decision;
}
