"""The designer's laboratory: statistics declared in a ruleset, honest intervals, compare on
common random numbers, and the files a run writes (rows, plot, HTML page)."""
from __future__ import annotations

import csv
import io
import json
import pathlib

import pytest

from interpreter import pipeline
from interpreter.cli.main import run
from interpreter.errors import RulesetError
from interpreter.lab import simulation
from interpreter.lab import statistics
from interpreter.lab.compare import compare

RULESETS = pathlib.Path(__file__).parent.parent / "rulesets"
NINETY_NINE = str(RULESETS / "ninety_nine.yaml")
HEARTS2 = str(RULESETS / "hearts2.yaml")

# Three rounds; a coin decides who wins each; per-round and per-game statistics.
ROUNDS = """name: rounds
players: 2
deck: {cards: [a, b], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  round_no: 0
  heads: 0
  last: "''"
flow:
  round:
    - add: {round_no: 1}
    - choose: [heads, tails]
      as: coin
      by: player(0)
    - set: {last: coin}
    - if: "coin == 'heads'"
      then: [add: {heads: 1}]
  until: "round_no == 3"
statistics:
  round_seen: {per: round, value: round_no}
  heads_now: {per: round, value: "last == 'heads'", label: rounds won by heads}
  all_heads: {value: "heads == 3", label: games of three heads}
  nothing: {value: "null"}
result: {winners: "[player(0)] if heads >= 2 else [player(1)]"}
"""


def _call(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# -- statistics in the ruleset ---------------------------------------------------------------
@pytest.mark.parametrize("backend", list(pipeline.BACKENDS))
def test_a_per_round_statistic_is_measured_once_at_the_end_of_every_round(backend):
    from interpreter import apply, new_game
    from interpreter.runtime.tally import game_values
    program = pipeline.load_program_text(ROUNDS, "rounds.yaml", backend=backend)
    s = new_game(program, seed=1, log=False, tally=True)
    for choice in (0, 1, 0):                    # heads, tails, heads
        apply(program, s, choice)
    values = game_values(program, s)
    assert values["round_seen"] == [1, 2, 3]
    assert values["heads_now"] == [True, False, True]
    assert values["all_heads"] is False and values["nothing"] is None


LATE = """name: late
players: 2
deck: {cards: [a, b], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  round_no: 0
  marked: 0
  coin: 0
flow:
  round:
    - add: {round_no: 1}
    - if: "round_no == 3"
      then: [end_game]
  until: "round_no == 5"
triggers:
  - on: round_end
    do: [set: {marked: round_no}]
statistics:
  marked_then: {per: round, value: marked}
  drawn: {per: round, value: "random([1, 2, 3, 4, 5, 6])"}
result: {winners: "[]"}
"""


@pytest.mark.parametrize("backend", list(pipeline.BACKENDS))
def test_a_round_is_measured_after_its_round_end_triggers_and_a_round_cut_short_when_the_game_ends(backend):
    from interpreter import new_game
    from interpreter.runtime.tally import game_values
    program = pipeline.load_program_text(LATE, "late.yaml", backend=backend)
    s = new_game(program, seed=3, log=False, tally=True)
    assert s.over and s.rounds == 3
    assert game_values(program, s)["marked_then"] == [1, 2, 2]    # the third ended the game before its trigger


@pytest.mark.parametrize("backend", list(pipeline.BACKENDS))
def test_measuring_a_statistic_that_draws_a_random_number_does_not_change_the_game(backend):
    from interpreter import new_game
    text = LATE.replace('marked_then: {per: round, value: marked}', 'marked_then: {per: round, value: marked}')
    text = text.replace("- add: {round_no: 1}", "- add: {round_no: 1, coin: \"random([0, 1])\"}")
    program = pipeline.load_program_text(text, "late.yaml", backend=backend)
    for seed in range(6):
        plain, tallied = new_game(program, seed=seed, log=False), new_game(program, seed=seed, log=False, tally=True)
        assert plain.vars == tallied.vars and plain.rng.state == tallied.rng.state


def test_a_game_played_without_a_tally_plays_the_same_and_measures_nothing_per_round():
    from interpreter import apply, new_game
    program = pipeline.load_program_text(ROUNDS, "rounds.yaml")
    plain, tallied = new_game(program, seed=1, log=False), new_game(program, seed=1, log=False, tally=True)
    for choice in (0, 0, 1):
        apply(program, plain, choice)
        apply(program, tallied, choice)
    assert plain.tally is None and len(tallied.tally) == 3
    assert plain.steps == tallied.steps and plain.result == tallied.result


def test_a_statistic_must_be_a_number_or_true_false_and_its_names_must_exist():
    bad = ROUNDS.replace('all_heads: {value: "heads == 3"', 'all_heads: {value: "[heads]"').replace(
        "round_seen: {per: round, value: round_no}", "round_seen: {per: round, value: round_n}")
    with pytest.raises(RulesetError) as e:
        pipeline.load_program_text(bad, "bad.yaml")
    text = str(e.value)
    assert "bad.yaml:" in text and "a statistic is a number or true/false, but this is a list of numbers" in text
    assert "round_n" in text and "did you mean 'round_no'" in text


def test_the_schema_names_a_statistic_without_a_value_and_an_unknown_per():
    bad = ROUNDS.replace("nothing: {value: \"null\"}", "nothing: {per: hand}")
    with pytest.raises(RulesetError) as e:
        pipeline.load_program_text(bad, "bad.yaml")
    assert "bad.yaml:23:3: missing required key 'value' in 'statistics.nothing'" in str(e.value)
    assert "'hand'; it must be one of 'game', 'round'" in str(e.value)


# -- the intervals ---------------------------------------------------------------------------------
def test_wilson_interval_of_half_of_a_hundred():
    e = statistics.wilson(50, 100)
    assert e["value"] == 0.5 and round(e["low"], 4) == 0.4038 and round(e["high"], 4) == 0.5962


def test_wilson_interval_stays_within_zero_and_one_at_the_edges():
    assert statistics.wilson(0, 30)["low"] == 0 and 0 < statistics.wilson(0, 30)["high"] < 0.12
    assert statistics.wilson(30, 30)["high"] == 1


def test_mean_interval_is_students_t_interval_of_the_mean():
    e = statistics.mean([1, 2, 3, 4, 5])
    assert e["value"] == 3 and round(e["high"] - 3, 4) == round(2.776 * (2.5 ** 0.5) / 5 ** 0.5, 4)
    assert statistics.mean([7])["low"] is None and statistics.mean([])["value"] is None
    big = statistics.mean([0, 1] * 500)         # many values: the normal interval, near enough
    assert abs((big["high"] - 0.5) - 1.96 * (0.25 * 1000 / 999 / 1000) ** 0.5) < 1e-4


def test_a_difference_of_shares_stays_within_minus_one_and_one():
    e = statistics.paired([1.0] * 5 + [0.0], [0.0] * 6, statistics.SHARE)
    assert e["low"] >= -1 and e["high"] <= 1


def test_a_per_round_share_pools_rounds_and_takes_its_spread_from_games():
    e = statistics.pooled([(1, 4), (3, 4), (2, 4)])
    assert e["value"] == 0.5 and e["low"] < 0.5 < e["high"]
    assert statistics.pooled([(2, 4), (2, 4)])["low"] == 0.5      # every game alike: no spread


def test_paired_differences_are_taken_game_by_game():
    e = statistics.paired([1, 2, 3, 4], [2, 3, 4, 5])
    assert e == {"value": 1.0, "low": 1.0, "high": 1.0, "p": 0.0}     # every game 1 more: certain


def test_fairness_names_the_seat_that_wins_more_than_an_even_share():
    uneven = [[1.0, 0.0]] * 600 + [[0.0, 1.0]] * 400
    f = statistics.fairness(uneven, 2)
    assert f["differ"] == [1, 2] and f["even_share"] == 0.5
    even = [[1.0, 0.0]] * 505 + [[0.0, 1.0]] * 495
    assert statistics.fairness(even, 2)["differ"] == []


def test_fairness_counts_draws_and_shared_wins_against_the_games_decided():
    rows = [[0.0, 0.0, 0.0]] * 400 + [[0.5, 0.5, 0.0]] * 300 + [[1 / 3] * 3] * 300
    f = statistics.fairness(rows, 3)            # seat 3 never shares the 300 two-way wins
    assert f["even_share"] == 0.2 and f["differ"] == [1, 2, 3]
    fair = [[0.0, 0.0, 0.0]] * 400 + [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] * 200
    assert statistics.fairness(fair, 3)["differ"] == []


def test_a_per_round_share_never_seen_still_has_an_interval_within_zero_and_one():
    e = statistics.pooled([(0, 10)] * 30, share=True)
    assert e["value"] == 0 and e["low"] == 0 and 0 < e["high"] < 0.02
    e = statistics.pooled([(1, 40), (0, 40), (0, 40)], share=True)
    assert e["low"] >= 0


def test_a_paired_per_round_difference_is_the_difference_of_the_two_ratios():
    base = [{"seed": k, "winners": [], "scores": [], "decisions": 1, "rounds": 1, "stats": {"s": v}}
            for k, v in enumerate([[True, False], [], [True]])]
    variant = [{**r, "stats": {"s": v}} for r, v in zip(base, [[True, True], [True, True, True], [False]])]
    d = statistics.differences(base, variant, 0, [("s", "s", "round")])
    assert abs(d["statistics"]["s"]["value"] - (5 / 6 - 2 / 3)) < 1e-6     # a game without rounds counts too


# -- simulate and compare --------------------------------------------------------------------------
def test_simulate_reports_statistics_with_intervals():
    program = pipeline.load_program(HEARTS2)
    report = simulation.simulate(program, games=30)
    moons = report["statistics"]["moons"]
    assert moons["per"] == "round" and moons["kind"] == "share" and moons["low"] <= moons["value"] <= moons["high"]
    assert moons["measured"] == round(report["rounds"]["value"] * 30)
    gap = report["statistics"]["score_gap"]
    assert gap["kind"] == "mean" and gap["measured"] == 30


def test_compare_plays_every_variant_on_the_same_seeds():
    base = pipeline.load_program(NINETY_NINE)
    same = pipeline.load_program(NINETY_NINE)
    result = compare([("a", base), ("b", same)], games=20, seed=5)
    d = result["differences"][0]
    assert result["seeds"] == [5, 24] and result["complete"]
    assert d["decisions"] == {"value": 0.0, "low": 0.0, "high": 0.0,     # the same rules: the same games,
                              "p": None, "differs": False}
    assert d["compared"] == 0                                               # so nothing to test
    assert all(e["value"] == 0 for e in d["win_share"])


def test_compare_shows_that_the_reshuffle_makes_ninety_nine_last_far_longer():
    code, out, err = _call("compare", NINETY_NINE, "--option", "empty_draw_pile=reshuffle", "--games", "60",
                           "--jobs", "1")
    assert code == 0, err
    assert "60 games per variant on the same seeds 0-59" in out
    assert "empty_draw_pile=reshuffle against base" in out
    lines = out.splitlines()
    longer = [line for line in lines if line.strip().startswith("Games last") and "decisions longer" in line]
    assert longer, out
    assert any("games lost by a player whose hand ran out" in line and "less often" in line for line in lines)


def test_compare_json_has_each_run_and_each_difference():
    code, out, _ = _call("compare", NINETY_NINE, "--variant", "loss_threshold=exceed",
                         "--variant", "empty_draw_pile=reshuffle", "--games", "10", "--json")
    r = json.loads(out)
    assert code == 0 and [x["variant"] for x in r["runs"]] == ["base", "loss_threshold=exceed", "empty_draw_pile=reshuffle"]
    assert [d["variant"] for d in r["differences"]] == ["loss_threshold=exceed", "empty_draw_pile=reshuffle"]
    assert set(r["differences"][0]) >= {"win_share", "draws", "decisions", "rounds", "statistics"}
    assert r["runs"][1]["report"]["options"] == {"loss_threshold": "exceed"}


def test_a_bad_variant_is_refused_before_any_game_is_played(tmp_path, monkeypatch):
    played = []
    monkeypatch.setattr(simulation, "game_row", lambda *a: played.append(a))
    code, _, err = _call("compare", NINETY_NINE, "--option", "empty_draw_pile=reshufle")
    assert code == 2 and "reshufle" in err and "reshuffle" in err
    broken = tmp_path / "broken.yaml"
    broken.write_text(pathlib.Path(NINETY_NINE).read_text().replace("zone: stock\n", "zone: stok\n", 1))
    code, out, err = _call("compare", NINETY_NINE, str(broken))
    assert code == 1 and f"{broken}:" in err and "unknown zone 'stok'" in err
    code, _, err = _call("compare", NINETY_NINE)
    assert code == 2 and "give a variant" in err
    assert played == []


def test_rows_are_written_one_per_game_and_variant(tmp_path):
    rows_csv, rows_jsonl = tmp_path / "rows.csv", tmp_path / "rows.jsonl"
    code, _, err = _call("compare", HEARTS2, "--option", "special_queen=clubs", "--games", "4",
                         "--csv", str(rows_csv), "--jsonl", str(rows_jsonl))
    assert code == 0 and f"rows: {rows_csv}" in err
    table = list(csv.DictReader(rows_csv.open()))
    assert len(table) == 8 and table[0]["variant"] == "base" and table[4]["variant"] == "special_queen=clubs"
    assert {"seed", "winners", "score_1", "score_2", "decisions", "rounds", "moons", "moons_rounds"} <= set(table[0])
    lines = [json.loads(x) for x in rows_jsonl.read_text().splitlines()]
    assert len(lines) == 8 and lines[0]["seed"] == 0 and all(1 <= w <= 2 for w in lines[0]["winners"])
    assert len(lines[0]["statistics"]["moons"]) == lines[0]["rounds"]


def test_an_output_that_cannot_be_written_is_refused_first(tmp_path):
    code, _, err = _call("simulate", HEARTS2, "--games", "2", "--csv", str(tmp_path / "no" / "rows.csv"))
    assert code == 2 and "no such folder" in err
    code, _, err = _call("simulate", HEARTS2, "--games", "2", "--plot", str(tmp_path / "plot.gif"))
    assert code == 2 and ".png" in err


def test_the_html_report_holds_the_tables_and_the_sentences(tmp_path):
    folder = tmp_path / "report"
    code, _, err = _call("compare", NINETY_NINE, "--option", "empty_draw_pile=reshuffle", "--games", "20",
                         "--report", str(folder))
    assert code == 0, err
    page = (folder / "index.html").read_text()
    assert "<table>" in page and "Games last" in page and "decisions longer" in page and "rows.csv" in page
    assert (folder / "rows.csv").exists()


@pytest.mark.extras
def test_the_plot_is_drawn_when_matplotlib_is_installed(tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "plot.png"
    code, _, err = _call("simulate", HEARTS2, "--games", "10", "--plot", str(path))
    assert code == 0 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", err


# -- interruption ------------------------------------------------------------------------------------
def test_an_interrupted_simulation_still_reports_the_games_it_played():
    program = pipeline.load_program(HEARTS2)
    seen = []

    def on_row(row):
        seen.append(row)
        if len(seen) == 5:
            raise KeyboardInterrupt
    with pytest.raises(simulation.Interrupted) as e:
        simulation.simulate(program, games=50, on_row=on_row)
    assert e.value.report["games"] == 5 and e.value.report["complete"] is False


def test_ctrl_c_prints_what_the_games_so_far_say_and_exits_130(monkeypatch):
    real = simulation.game_row

    def game_row(program, n, seed, *rest):
        if seed == 7:
            raise KeyboardInterrupt
        return real(program, n, seed, *rest)
    monkeypatch.setattr(simulation, "game_row", game_row)
    code, out, err = _call("simulate", HEARTS2, "--games", "50", "--jobs", "1", "--backend", "generated")
    assert code == 130 and err.strip() == "interrupted"
    assert "7 games between random bots" in out and "interrupted: the games played so far" in out


def test_compare_gives_the_same_numbers_for_any_number_of_jobs():
    base = pipeline.load_program(HEARTS2)
    variant = pipeline.load_program(HEARTS2, {"special_queen": "clubs"})

    def played(result):
        return [{k: v for k, v in r["report"].items() if k not in ("games_per_s", "jobs")} for r in result["runs"]], \
            result["differences"]
    one = compare([("base", base), ("clubs", variant)], games=16, jobs=1)
    two = compare([("base", base), ("clubs", variant)], games=16, jobs=2)
    assert played(one) == played(two)
