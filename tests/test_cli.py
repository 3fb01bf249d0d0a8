"""The `interpret` command, called in-process through cli.run with StringIO streams."""
from __future__ import annotations

import io
import json

from conftest import ruleset
from interpreter.cli import run


def call(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_play_hearts2_prints_an_account_and_the_result():
    code, out, err = call(ruleset("hearts2"), "--seed", "3")
    assert code == 0 and err == ""
    assert "seed 3" in out.splitlines()[0]
    assert "leads" in out and "takes the trick" in out and "♣" in out
    assert "in all" in out                                  # running totals
    assert out.strip().splitlines()[-1].startswith("Result: Player")


def test_same_seed_prints_the_same_game():
    assert call(ruleset("hearts2"), "--seed", "11")[1] == call(ruleset("hearts2"), "--seed", "11")[1]


def test_without_a_seed_one_is_chosen_and_printed():
    code, out, _ = call(ruleset("ninety_nine"))
    assert code == 0 and " - seed " in out.splitlines()[0]


def test_option_switches_a_convention_and_is_announced():
    code, out, _ = call(ruleset("ninety_nine"), "--seed", "1", "--option", "loss_threshold=exceed")
    assert code == 0 and "house rules: loss_threshold=exceed" in out


def test_unknown_option_lists_the_valid_ones():
    code, _, err = call(ruleset("ninety_nine"), "--option", "los_threshold=exceed")
    assert code == 2 and "did you mean 'loss_threshold'" in err and "Traceback" not in err


def test_bad_option_value_lists_the_choices():
    code, _, err = call(ruleset("ninety_nine"), "--option", "loss_threshold=sometimes")
    assert code == 2 and "reach, exceed" in err


def test_wrong_player_count_is_a_clear_error():
    code, _, err = call(ruleset("hearts2"), "--players", "3")
    assert code == 2 and "is for 2 players, not 3" in err


def test_human_sees_their_hand_and_numbered_moves_and_bad_input_asks_again():
    moves = "\n".join(["0", "nonsense", "99"] + ["1"] * 400) + "\n"
    code, out, err = call(ruleset("ninety_nine"), "--seed", "5", "--human", "1", "--bot", "random", stdin=moves)
    assert code == 0, err
    assert "your hand:" in out and "  1. play" in out
    assert out.count("Please type a number") >= 3
    assert "Result:" in out


def test_human_account_hides_the_other_players_cards():
    code, out, _ = call(ruleset("hearts2"), "--seed", "2", "--human", "1", "--bot", "random", stdin="1\n" * 2000)
    assert "(to you) you are dealt" in out
    assert "(to Player 2)" not in out
    # Player 2's deal is never printed to Player 1
    assert out.count("you are dealt") == out.count("(to you) you are dealt")


def test_input_ending_early_saves_the_game_and_says_how_to_resume():
    code, out, err = call(ruleset("hearts2"), "--seed", "2", "--human", "1", "--bot", "random", stdin="1\n")
    assert code == 2 and "input ended" in out and "interpret resume" in out and "Traceback" not in err


def test_options_command_lists_conventions_with_defaults():
    code, out, _ = call("options", ruleset("hearts2"))
    assert code == 0 and "match_tie = play_on" in out and "* play_on" in out and "sudden_death" in out


def test_validate_shipped_rulesets():
    code, out, _ = call("validate", ruleset("hearts2"), ruleset("ninety_nine"))
    assert code == 0 and out.count(": ok") == 2


def test_language_option_changes_the_title():
    code, out, _ = call(ruleset("hearts2"), "--seed", "1", "--lang", "el", "--quiet")
    assert code == 0
    code, out, _ = call(ruleset("hearts2"), "--seed", "1", "--lang", "el")
    assert "Καρδιές" in out.splitlines()[0]


def test_unknown_language_is_a_clear_error():
    code, _, err = call(ruleset("hearts2"), "--lang", "fr")
    assert code == 2 and "en, el" in err


def test_the_installed_command_works_from_any_folder(tmp_path):
    """The schema and grammar ship inside the package: the console script needs no checkout."""
    import shutil
    import subprocess
    import pytest
    exe = shutil.which("interpret")
    if exe is None:
        pytest.skip("the interpret command is not installed")
    done = subprocess.run([exe, "validate", ruleset("hearts2")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "hearts2.yaml: ok" in done.stdout
    done = subprocess.run([exe, ruleset("ninety_nine"), "--seed", "1", "--quiet"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("Result:")


def test_simulate_reports_win_shares_draws_and_scores():
    code, out, _ = call("simulate", ruleset("gnav2"), "--games", "30")
    assert code == 0 and "30 games between random bots" in out and "Player 2: wins" in out and "draws" in out


def test_simulate_json_with_a_house_rule():
    import json
    code, out, _ = call("simulate", ruleset("ninety_nine"), "--games", "20", "--json",
                        "--option", "loss_threshold=exceed")
    r = json.loads(out)
    assert code == 0 and r["options"] == {"loss_threshold": "exceed"}
    assert abs(sum(e["value"] for e in r["win_share"]) + r["draws"]["value"] - 1) < 1e-6


def test_mc_bots_play_a_whole_game_and_resume_knows_them(tmp_path):
    import json
    rec = tmp_path / "mc.json"
    code, out, _ = call(ruleset("ninety_nine"), "--seed", "2", "--bot", "mc", "--playouts", "2", "--record", str(rec))
    assert code == 0 and "Result:" in out
    assert json.loads(rec.read_text(encoding="utf-8"))["bot"] == {"kind": "mc", "playouts": 2}
    assert call("replay", str(rec))[0] == 0


def test_simulate_with_an_mc_seat():
    code, out, _ = call("simulate", ruleset("gnav2"), "--games", "3", "--mc-seats", "1", "--playouts", "2")
    assert code == 0 and "random bots, the mc bot in seat 1" in out
    code, out, _ = call("simulate", ruleset("gnav2"), "--games", "2", "--bot", "mc", "--playouts", "2")
    assert code == 0 and "2 games between mc bots (2 play-outs an option)" in out


def test_a_person_may_ask_for_help_the_table_again_or_a_hint():
    code, out, _ = call(ruleset("ninety_nine"), "--seed", "3", "--human", "1", "--bot", "random", stdin="?\nhint\nview\n" + "1\n" * 300)
    assert code == 0
    assert "'hint' asks the planning bot" in out
    assert "hint: play " in out
    assert out.count("-- your turn, Player 1 --") >= 2


def test_playouts_out_of_range_is_a_usage_error():
    code, _, err = call(ruleset("gnav2"), "--bot", "mc", "--playouts", "1000000000")
    assert code == 2 and "--playouts must be 1 to 1000" in err


def test_a_log_that_cannot_be_written_is_a_usage_error(tmp_path):
    code, _, err = call(ruleset("gnav2"), "--log", str(tmp_path), "--quiet")
    assert code == 2 and "cannot write the log" in err
    code, _, err = call(ruleset("gnav2"), "--log", str(tmp_path / "no" / "x.jsonl"), "--quiet")
    assert code == 2 and "cannot write the log" in err


def test_seats_out_of_range_are_usage_errors(tmp_path):
    assert call(ruleset("gnav2"), "--players", "0")[0] == 2
    code, _, err = call(ruleset("gnav2"), "--log", str(tmp_path / "x.jsonl"), "--view", "9")
    assert code == 2 and "--view 9" in err
    code, _, err = call("simulate", ruleset("gnav2"), "--games", "1", "--mc-seats", "0")
    assert code == 2 and "--mc-seats 0" in err


def test_a_file_with_thousands_of_problems_shows_the_first_hundred(tmp_path):
    f = tmp_path / "many.yaml"
    f.write_text("".join(f"key{i}: 1\n" for i in range(500)), encoding="utf-8")
    code, out, _ = call("validate", str(f))
    lines = [line for line in out.splitlines() if line.startswith(str(f))]     # not the quoted lines
    assert code == 1 and len(lines) == 101 and lines[-1].endswith("more problems")


def test_a_seed_a_record_could_not_hold_is_a_usage_error():
    code, _, err = call(ruleset("gnav2"), "--seed", str(10 ** 18))
    assert code == 2 and "--seed must be 0 to" in err
    assert call(ruleset("gnav2"), "--seed", "-1")[0] == 2


def test_simulation_is_a_library_function_too():
    from interpreter import load_program
    from interpreter.lab.simulation import simulate
    report = simulate(load_program(ruleset("gnav2")), games=5, seed=3)
    shares = [e["value"] for e in report["win_share"]]
    assert report["games"] == 5 and report["seeds"] == [3, 7] and abs(sum(shares) + report["draws"]["value"] - 1) < 1e-6
    code, out, _ = call("simulate", ruleset("gnav2"), "--games", "5", "--seed", "3", "--json")
    assert json.loads(out)["win_share"] == report["win_share"]
