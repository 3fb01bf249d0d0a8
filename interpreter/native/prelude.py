"""The run-time helpers every kernel's source begins with, as text: the game's random
numbers (SplitMix64, drawn as runtime/state.Rng draws them, so that a seed deals the same
cards here as in the Python back ends), the shuffle, the seat to the left, and moving cards
in zones held as rows of one array with their counts.

They are written in the small part of Python that Numba compiles: int64 values throughout,
uint64 only inside the generator, arrays for zones.  Kept as text and compiled with each
kernel (no module of ours imports numba: the extra is optional)."""
from __future__ import annotations

PRELUDE = '''
import numpy as np
from numba import njit, int64, uint64

NULL = -(1 << 62)
U30, U27, U31 = uint64(30), uint64(27), uint64(31)
GOLDEN = uint64(0x9E3779B97F4A7C15)
MIX1 = uint64(0xBF58476D1CE4E5B9)
MIX2 = uint64(0x94D049BB133111EB)
TOP = uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=False)
def rng_next(R, i):
    z = R[i] + GOLDEN
    R[i] = z
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@njit(cache=False)
def below(R, i, n):
    return int64(rng_next(R, i) % uint64(n))


@njit(cache=False)
def seeded(seed):
    return (uint64(seed) * GOLDEN) ^ uint64(0x5DEECE66D)


@njit(cache=False)
def shuffle(R, Z, ZN, z):
    """Rng.shuffle: Fisher-Yates taking several indexes from each 64-bit draw; `room` is
    2**64 (full) until the first division, which uint64 cannot hold."""
    x = uint64(0)
    room = uint64(0)
    full = False
    for i in range(ZN[z] - 1, 0, -1):
        n = uint64(i + 1)
        if not full and room < (n << uint64(20)):
            x = rng_next(R, 0)
            full = True
        j = int64(x % n)
        x = x // n
        if full:
            room = TOP // n
            if TOP % n == n - uint64(1):
                room += uint64(1)
            full = False
        else:
            room = room // n
        t = Z[z, i]
        Z[z, i] = Z[z, j]
        Z[z, j] = t


@njit(cache=False)
def subsets_count(n, lo, hi):
    """How many choices of lo to hi of n elements (values.subsets_of's limit), stopping once past
    a limit no game reaches (so that it never overflows)."""
    total = 0
    for k in range(lo, hi + 1):
        c = 1
        for i in range(k):
            c = c * (n - i) // (i + 1)
            if c > 1 << 40:
                return 1 << 40
        total += c
        if total > 1 << 40:
            return 1 << 40
    return total


@njit(cache=False)
def next_seat(OUT, n, p, step):
    q = (p + step) % n
    if not OUT[q]:
        return q
    q = p
    for _ in range(n):
        q = (q + step) % n
        if not OUT[q]:
            return q
    return p


@njit(cache=False)
def swap_rows(Z, ZN, a, b):
    """effects.swap: the two zones' cards exchanged."""
    for i in range(max(ZN[a], ZN[b])):
        t = Z[a, i]
        Z[a, i] = Z[b, i]
        Z[b, i] = t
    t = ZN[a]
    ZN[a] = ZN[b]
    ZN[b] = t


@njit(cache=False)
def undo_journal(Z, ZN, JR, JC, JN, every, want):
    """effects.undo_journal: the journal's entries (those tagged `want`, unless `every`)
    taken back, latest first; returns the entries kept (at the front of JR, in their order)
    and the work charged."""
    work = JN
    for i in range(JN - 1, -1, -1):
        if not every and JR[i, 3] != want:
            continue
        a, b = JR[i, 1], JR[i, 2]
        if JR[i, 0] == 0:
            work += ZN[a] + ZN[b]
            swap_rows(Z, ZN, a, b)
        else:
            work += JR[i, 5] * (ZN[b] + 1)
            for j in range(JR[i, 4] + JR[i, 5] - 1, JR[i, 4] - 1, -1):
                if take_out(Z, ZN, b, JC[j]):
                    put(Z, ZN, a, JC[j], False)
        JR[i, 0] = -1
    kept = 0
    for i in range(JN):
        if JR[i, 0] != -1:
            for c in range(6):
                JR[kept, c] = JR[i, c]
            kept += 1
    return kept, work


@njit(cache=False)
def take_out(Z, ZN, z, c):
    """Remove card c from zone z, keeping the order; False if it is not there."""
    k = ZN[z]
    for i in range(k):
        if Z[z, i] == c:
            for j in range(i, k - 1):
                Z[z, j] = Z[z, j + 1]
            ZN[z] = k - 1
            return True
    return False


@njit(cache=False)
def put(Z, ZN, z, c, bottom):
    k = ZN[z]
    if bottom:
        for j in range(k, 0, -1):
            Z[z, j] = Z[z, j - 1]
        Z[z, 0] = c
    else:
        Z[z, k] = c
    ZN[z] = k + 1


@njit(cache=False)
def sort_zone(Z, ZN, z, keys):
    """A stable sort of zone z by keys (one per card, in the zone's order): insertion sort,
    as zones are small."""
    k = ZN[z]
    for i in range(1, k):
        c, key = Z[z, i], keys[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            Z[z, j + 1] = Z[z, j]
            keys[j + 1] = keys[j]
            j -= 1
        Z[z, j + 1] = c
        keys[j + 1] = key
'''
