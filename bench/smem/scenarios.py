"""Allocation scenarios for the on-chip packing benchmark.

A scenario is a list of buffers (start, end, size, align): inclusive program
points over a linear program order, bytes, offset alignment. Hand-written
scenarios model real kernels; generated ones are random with a fixed seed.
"""

import random

KB = 1024


def hand_written():
    """Kernel-shaped cases (name, buffers)."""
    cases = []
    # The chain TVM/IREE over-estimate: A overlaps B, B overlaps C, A and C
    # disjoint; repeated as a staircase.
    cases.append(("chain3", [(0, 2, 32 * KB, 16), (1, 4, 16 * KB, 16),
                             (3, 5, 32 * KB, 16)]))
    stair = []
    for i in range(12):
        stair.append((2 * i, 2 * i + 3, (8 + 4 * (i % 3)) * KB, 16))
    cases.append(("staircase12", stair))
    # Pipelined GEMM: 3-stage rings of A and B tiles live across the main
    # loop, the C tile from the prologue to the epilogue, a reduction scratch
    # in the epilogue, a transpose buffer for the store.
    cases.append(("gemm-pipelined", [
        (2, 40, 3 * 128 * 32 * 2, 128),   # A ring (3 x 128x32 f16)
        (2, 40, 3 * 32 * 128 * 2, 128),   # B ring
        (0, 1, 128 * 128 * 4, 16),        # C init staging
        (41, 44, 128 * 4 * 4, 16),        # reduction scratch
        (45, 48, 128 * 129 * 4, 16),      # padded transpose for the store
        (41, 48, 128 * 4, 16),            # bias / scale vector
    ]))
    # Attention block: Q tile live throughout, K/V tiles per step, softmax
    # scratch, output tile late.
    attn = [(0, 30, 64 * 64 * 2, 16)]
    for step in range(4):
        s = 2 + 7 * step
        attn.append((s, s + 3, 64 * 64 * 2, 16))          # K tile
        attn.append((s + 2, s + 6, 64 * 64 * 2, 16))      # V tile
        attn.append((s + 3, s + 4, 64 * 64 * 4, 16))      # S = QK^T
        attn.append((s + 4, s + 5, 64 * 4, 16))           # row max/sum
    attn.append((29, 31, 64 * 64 * 4, 16))                # O tile
    cases.append(("attention", attn))
    # Reduction tree: scratch halves each level, all short lived.
    red = [(0, 20, 4 * KB, 16)]
    size = 32 * KB
    for level in range(6):
        red.append((level * 3 + 1, level * 3 + 4, size, 16))
        size //= 2
    cases.append(("reduction-tree", red))
    # Mixed alignments and odd sizes (sub-word types, vectors).
    mixed = []
    rng = random.Random(7)
    for i in range(24):
        s = rng.randrange(0, 40)
        mixed.append((s, s + rng.randrange(1, 10), rng.choice([3, 7, 10, 24, 100, 1000, 4100]),
                      rng.choice([1, 2, 4, 8, 16, 64, 128])))
    cases.append(("mixed-align", mixed))
    return cases


def random_intervals(n, seed, program=None, size_lo=64, size_hi=64 * KB,
                     mean_len=None, align_choices=(16,)):
    """Uniform starts, exponential lifetimes, log-uniform sizes."""
    rng = random.Random(seed)
    program = program or 4 * n
    mean_len = mean_len or max(2, program // 20)
    out = []
    for _ in range(n):
        s = rng.randrange(0, program)
        length = int(rng.expovariate(1.0 / mean_len))
        e = min(program - 1, s + length)
        size = int(round(2 ** rng.uniform(size_lo.bit_length() - 1,
                                          size_hi.bit_length() - 1)))
        out.append((s, e, size, rng.choice(align_choices)))
    return out


def nested_loops(n, seed):
    """Loop nests: buffers allocated in an outer body live across inner
    loops; inner buffers are short. Lifetimes nest like real kernels."""
    rng = random.Random(seed)
    out = []
    t = 0

    def body(depth, budget):
        nonlocal t
        while budget > 0 and len(out) < n:
            if depth < 3 and rng.random() < 0.3:
                start = t
                keep = rng.randrange(2, 5)
                idx = len(out)
                for _ in range(keep):
                    out.append([t, t, rng.choice([1, 2, 4, 8, 16]) * KB, 16])
                t += 1
                used = body(depth + 1, rng.randrange(3, 12))
                for j in range(idx, min(idx + keep, len(out))):
                    out[j][1] = t
                t += 1
                budget -= used + 2
            else:
                length = rng.randrange(1, 4)
                out.append([t, t + length, rng.choice([256, 512, 1024, 2048, 4096]), 16])
                t += rng.randrange(1, 3)
                budget -= 1
        return 1

    while len(out) < n:
        body(0, n)
    return [tuple(b) for b in out[:n]]


def chains(n, seed):
    """Overlapping chains of different sizes (the case group-sum handles
    worst): long runs of pairwise overlaps with a few long-lived buffers."""
    rng = random.Random(seed)
    out = []
    t = 0
    while len(out) < n:
        if rng.random() < 0.05:
            out.append((t, t + rng.randrange(20, 200), rng.choice([4, 8, 16]) * KB, 16))
        size = rng.choice([1, 2, 4, 8, 12, 16, 24, 32]) * KB
        out.append((t, t + 2, size, 16))
        t += 2
    return out[:n]


def generated(sizes=(100, 1000)):
    cases = []
    for n in sizes:
        for seed in range(3):
            cases.append((f"random-{n}-s{seed}", random_intervals(n, 1000 * n + seed)))
        cases.append((f"random-mixalign-{n}", random_intervals(
            n, 77 + n, size_lo=4, size_hi=16 * KB, align_choices=(1, 4, 16, 32, 128))))
        cases.append((f"loops-{n}", nested_loops(n, 5 + n)))
        cases.append((f"chains-{n}", chains(n, 11 + n)))
    return cases
