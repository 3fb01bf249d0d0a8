"""Seat balance: between two random bots, neither seat of hearts2 should be favoured.

hearts2 is symmetric between its seats: the first dealer is random, the deal alternates,
and the holder of the opening club leads whatever the seat.  So over many seeded random
matches each seat's share of wins must lie within the 99% binomial interval of one half.
(A moon award that swapped back when seat 1 shot gave seat 2 about 58%.)

The matches are played by `interpret simulate` itself; 2000 of them take a few seconds.
"""
from __future__ import annotations

import io
import json
import math

from conftest import ruleset
from interpreter.cli import run

GAMES = 2000


def binomial_interval(n: int, level: float = 0.99) -> tuple[int, int]:
    """[lo, hi]: the number of successes in n fair trials lies in it with probability at least `level`
    (exact: each tail outside it holds at most (1 - level) / 2)."""
    tail = (1 - level) / 2
    total, lo = 0, 0
    for k in range(n + 1):
        total += math.comb(n, k)
        if total / 2 ** n > tail:
            lo = k
            break
    return lo, n - lo                                  # symmetric for p = 1/2


def test_binomial_interval_for_2000_fair_trials():
    assert binomial_interval(GAMES) == (942, 1058)     # 47.1% .. 52.9% of the matches


def test_hearts2_seats_win_equally_often_between_random_bots():
    out = io.StringIO()
    assert run(["simulate", ruleset("hearts2"), "--games", str(GAMES), "--seed", "0", "--json"], stdout=out) == 0
    report = json.loads(out.getvalue())
    assert report["games"] == GAMES and report["draws"]["value"] == 0
    assert report["fairness"]["differ"] == []
    lo, hi = binomial_interval(GAMES)
    for seat, share in enumerate(e["value"] for e in report["win_share"]):
        assert lo <= round(share * GAMES) <= hi, (f"seat {seat + 1} wins {share:.1%} of {GAMES} matches; "
                                                  f"the 99% interval of one half is {lo / GAMES:.1%}..{hi / GAMES:.1%}")
