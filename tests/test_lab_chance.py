"""What the lab calls a difference is one beyond chance, at the level it says (issue 26,
items 14 and 15): fair seats are flagged in at most 5% of runs, however few the games, and
a variant that changes nothing is flagged in at most 5% of comparisons, however many
figures are compared; a real difference is still found."""
from __future__ import annotations

import io
import itertools
import math

import pytest

from interpreter import pipeline
from interpreter.cli.main import run
from interpreter.play import simulation, statistics

# The winner is drawn at random, every seat alike: a game fair by construction.
LOTTERY = """name: lottery
players: {min: 2, max: 4, default: 3}
deck: {cards: [a], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  winner: {type: player, initial: null}
flow:
  round:
    - set: {winner: "random(players)"}
    - end_game
result: {winners: "[winner] if winner != null else []"}
"""


def _rows_of_counts(counts) -> list:
    """The win shares of games whose winners are seat 1 counts[0] times, seat 2 counts[1]..."""
    n = len(counts)
    return [[1.0 if p == seat else 0.0 for p in range(n)] for seat, c in enumerate(counts) for _ in range(c)]


def _false_alarm_rate(n: int, games: int) -> float:
    """The exact chance that fair seats are said to differ after `games` decided games: the
    verdict taken on every way the wins can fall, each weighed by its multinomial chance."""
    rate = 0.0
    for head in itertools.product(range(games + 1), repeat=n - 1):
        counts = (*head, games - sum(head))
        if counts[-1] >= 0 and statistics.fairness(_rows_of_counts(counts), n)["differ"]:
            rate += math.exp(math.lgamma(games + 1) - sum(math.lgamma(c + 1) for c in counts) - games * math.log(n))
    return rate


# -- item 14: whether the seats differ -----------------------------------------------------------
def test_two_wins_in_twenty_among_three_seats_is_within_chance():
    assert statistics.fairness(_rows_of_counts((2, 9, 9)), 3)["differ"] == []


@pytest.mark.parametrize("n, games", [(2, k) for k in (5, 9, 20, 33, 60)] + [(3, k) for k in (3, 10, 20, 30)]
                         + [(4, k) for k in (6, 12, 18, 20)])
def test_fair_seats_are_said_to_differ_in_at_most_five_percent_of_runs(n, games):
    assert _false_alarm_rate(n, games) <= 0.05


def test_a_seat_that_wins_far_more_than_its_share_is_found():
    assert statistics.fairness(_rows_of_counts((16, 2, 2)), 3)["differ"] == [1]
    assert statistics.fairness(_rows_of_counts((150, 100, 50)), 3)["differ"] == [1, 3]


def test_the_exact_binomial_tail_is_the_sum_of_its_terms():
    for n, p, k in [(20, 1 / 3, 2), (20, 1 / 3, 13), (7, 0.5, 0), (300, 0.25, 90)]:
        upper = math.fsum(math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1))
        assert abs(statistics.binomial_tail(k, n, p, upper=True) - upper) < 1e-12
        lower = math.fsum(math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(0, k + 1))
        assert abs(statistics.binomial_tail(k, n, p, upper=False) - lower) < 1e-12


def test_runs_of_twenty_games_of_a_lottery_flag_its_seats_in_at_most_five_percent_of_runs():
    program = pipeline.load_program_text(LOTTERY, "lottery.yaml")
    rows = []
    simulation.simulate(program, games=300 * 20, players=3, on_row=rows.append)
    runs = [rows[k:k + 20] for k in range(0, len(rows), 20)]
    flagged = sum(1 for run_rows in runs if statistics.fairness(statistics.win_shares(run_rows, 3), 3)["differ"])
    assert len(runs) == 300 and flagged <= 0.05 * 300


def test_simulate_says_no_seat_differs_for_a_fair_lottery(tmp_path):
    f = tmp_path / "lottery.yaml"
    f.write_text(LOTTERY, encoding="utf-8")
    out = io.StringIO()
    assert run(["simulate", str(f), "--games", "20", "--seed", "0", "--progress", "off"], stdout=out) == 0
    assert "No seat wins more or less often than an even share" in out.getvalue()
