"""A batch of random games as arrays (interpreter.lab.batch, docs/api.md "Batches of games"):
row k is simulate's game k, whichever back end plays it, nulls are NaN, a per-round statistic
is a table padded with NaN, and a bad request is a UsageError."""
from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy")

from interpreter import load_program  # noqa: E402
from interpreter.errors import UsageError  # noqa: E402
from interpreter.lab.batch import playouts  # noqa: E402
from interpreter.lab.simulation import game_row  # noqa: E402
from interpreter.native.program import native_installed  # noqa: E402
from interpreter.playing.agents import Seating  # noqa: E402


def nan_or(v):
    return math.nan if v is None else float(v)


def assert_rows_are_simulates(batch, program, seed):
    for k in range(len(batch)):
        row = game_row(program, batch.players, seed + k, Seating())
        assert batch.seeds[k] == seed + k
        assert sorted(np.flatnonzero(batch.winners[k])) == sorted(row["winners"])
        assert batch.decisions[k] == row["decisions"] and batch.rounds[k] == row["rounds"]
        if batch.scores is not None:
            np.testing.assert_array_equal(batch.scores[k], [nan_or(v) for v in row["scores"]])
        for name, v in row["stats"].items():
            got = batch.stats[name][k]
            if isinstance(v, list):
                assert np.all(np.isnan(got[len(v):]))
                got = got[:len(v)]
                v = [nan_or(x) for x in v]
            else:
                v = nan_or(v)
            np.testing.assert_array_equal(got, v)


def test_each_row_of_a_batch_is_the_game_simulate_plays_from_its_seed():
    program = load_program("rulesets/hearts2.yaml", backend="generated")
    batch = playouts(program, 40, seed=7)
    assert batch.backend == "generated" and len(batch) == 40
    assert batch.stats["moons"].ndim == 2 and batch.stats["overtime"].shape == (40,)
    assert_rows_are_simulates(batch, program, 7)


def test_a_batch_takes_a_shipped_name_options_and_players():
    batch = playouts("gnav", 20, players=5, options={"double_fool_award": "spared_only"}, backend="generated")
    assert batch.players == 5 and batch.winners.shape == (20, 5)
    program = load_program("rulesets/gnav.yaml", {"double_fool_award": "spared_only"}, backend="generated")
    assert_rows_are_simulates(batch, program, 0)


@pytest.mark.parametrize("games, seed", [(0, 0), (-3, 0), (2.5, 0), (True, 0), (10, -1), (10, "x")])
def test_a_batch_that_cannot_be_played_says_why(games, seed):
    with pytest.raises(UsageError):
        playouts("war", games, seed=seed, backend="generated")


@pytest.mark.extras
@pytest.mark.skipif(not native_installed(), reason="needs the native extra (Numba)")
def test_a_native_batch_has_the_same_arrays_as_the_generated_pythons():
    native = playouts("hearts2", 600, seed=3, backend="native")
    python = playouts("hearts2", 600, seed=3, backend="generated")
    assert native.backend == "native" and native.reason is None
    for name in ("seeds", "winners", "decisions", "rounds"):
        np.testing.assert_array_equal(getattr(native, name), getattr(python, name))
    np.testing.assert_array_equal(native.scores, python.scores)
    for name in python.stats:
        np.testing.assert_array_equal(native.stats[name], python.stats[name])


@pytest.mark.extras
@pytest.mark.skipif(not native_installed(), reason="needs the native extra (Numba)")
def test_a_ruleset_the_kernel_does_not_cover_is_batched_in_python_with_the_reason(tmp_path):
    from test_native import NESTED          # (every shipped ruleset is covered)
    uncovered = tmp_path / "sums.yaml"
    uncovered.write_text(NESTED.replace('"count(plans(player(0).hand))"', '"count(sums(player(0).hand, c => c.value, 6))"'),
                         encoding="utf-8")
    batch = playouts(str(uncovered), 5, backend="native")
    assert batch.backend == "generated" and "does not cover" in batch.reason


@pytest.mark.extras
@pytest.mark.skipif(not native_installed(), reason="needs the native extra (Numba)")
def test_a_kernel_numba_cannot_compile_is_batched_in_python_with_the_reason(monkeypatch):
    from interpreter.native.program import Kernel

    def refused(self):
        raise TypeError("Numba could not type this kernel")
    monkeypatch.setattr(Kernel, "compiled", refused)
    batch = playouts("war", 5, backend="native")
    assert batch.backend == "generated" and "could not be compiled" in batch.reason
    assert (batch.decisions == playouts("war", 5, backend="generated").decisions).all()
