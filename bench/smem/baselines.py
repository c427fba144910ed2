"""Two published packing schemes, re-implemented on intervals for comparison.

tvm_free_list: TVM's MergeSharedMemoryAllocations (src/tir/transforms/
  merge_shared_memory_allocations.cc, PlanMemory/FindAlloc): walk program
  points in order; buffers whose last use is before the point go back to a
  free list keyed by size; a new buffer takes the smallest free entry of size
  in [size, 16 * size], else the largest smaller one down to size / 16 (which
  grows to the new size), else a new entry. Entries are laid out one after
  the other; the peak is the sum of the (aligned) entry sizes.
iree_group_sum: IREE's shared-memory packing (analyseAllocsForPacking /
  packAllocs in compiler/src/iree/compiler/Codegen/Transforms/): buffers
  whose lifetimes interfere, transitively, form one alias group; inside a
  group buffers get consecutive offsets, groups share offset 0. The peak is
  the largest group sum. (IREE also gives up entirely on subviews; not
  modelled here.)
"""

import bisect


def align_up(x, a):
    return (x + a - 1) // a * a if a > 1 else x


def footprint(b):
    return align_up(b[2], b[3])


def tvm_free_list(buffers, match_range=16):
    order = sorted(range(len(buffers)), key=lambda i: (buffers[i][0], i))
    by_end = sorted(range(len(buffers)), key=lambda i: (buffers[i][1], i))
    entries = []          # sizes
    free = []             # sorted list of (size, entry id)
    entry_of = {}
    end_ptr = 0
    for i in order:
        start = buffers[i][0]
        while end_ptr < len(by_end) and buffers[by_end[end_ptr]][1] < start:
            j = by_end[end_ptr]
            end_ptr += 1
            if j in entry_of:
                e = entry_of[j]
                bisect.insort(free, (entries[e], e))
        size = footprint(buffers[i])
        pos = bisect.bisect_left(free, (size, -1))
        chosen = None
        if pos < len(free) and free[pos][0] <= size * match_range:
            chosen = pos
        elif pos > 0 and free[pos - 1][0] >= size // match_range:
            chosen = pos - 1
        if chosen is not None:
            _, e = free.pop(chosen)
            entries[e] = max(entries[e], size)
        else:
            e = len(entries)
            entries.append(size)
        entry_of[i] = e
    return sum(align_up(s, 16) for s in entries)


def iree_group_sum(buffers):
    order = sorted(range(len(buffers)), key=lambda i: (buffers[i][0], i))
    best = 0
    group_sum = 0
    group_end = None
    for i in order:
        s, e = buffers[i][0], buffers[i][1]
        if group_end is None or s > group_end:
            best = max(best, group_sum)
            group_sum = 0
            group_end = e
        group_sum = align_up(group_sum, buffers[i][3]) + footprint(buffers[i])
        group_end = max(group_end, e)
    return max(best, group_sum)


def lower_bound(buffers):
    events = []
    for b in buffers:
        events.append((b[0], footprint(b)))
        events.append((b[1] + 1, -footprint(b)))
    events.sort()
    live = best = 0
    i = 0
    while i < len(events):
        p = events[i][0]
        while i < len(events) and events[i][0] == p:
            live += events[i][1]
            i += 1
        best = max(best, live)
    return best
