"""A bug of the interpreter surfaces as a bug, never as the author's rules error: only what the
rules themselves can cause (errors.rules_caused) is reported as a rules error or as a text
that cannot be shown.  Anything else propagates, so that a test meeting it fails with its
traceback; at the command line it is one line asking for a report, with an exit code of its
own, and a game played with a record keeps every decision made before it."""
from __future__ import annotations

import io
import json
import sys

import pytest

from interpreter import pipeline
from interpreter.cli import main, run
from interpreter.errors import RulesFault, rules_caused
from interpreter.lang import values
from interpreter.playing import records
from interpreter.playing.agents import FirstAgent
from interpreter.playing.table import play
from interpreter.runtime import engine, events
from interpreter.runtime.engine import labels, new_game, prompt
from interpreter.runtime.tally import measured

BACKENDS = ("closures", "generated")

# Five rounds of one decision each; {n} and {x} are numbers, shown by values.plain.
RULESET = """name: bugs
players: 2
deck:
  cards: [{id: a}, {id: b}, {id: c}, {id: d}]
  zone: stock
zones:
  stock: {visibility: hidden}
variables:
  x: 0
flow:
  round:
    - turns:
        count: 1
        do:
          - choose: [1, 2]
            as: n
            label: "take {n}"
            prompt: "how many, with {x} taken?"
    - add: {x: 1}
    - log: "{x} taken"
  until: "x >= 5"
result:
  winners: "[]"
"""


def program(backend: str, text: str = RULESET):
    return pipeline.load_program_text(text, "bugs.yaml", backend=backend)


def bug_after(monkeypatch, decisions: int) -> None:
    """From `decisions` decisions on, a function of ours that both back ends call (the account's
    values at a round's start and end) raises a KeyError: a bug of the interpreter."""
    real = events._values

    def broken(s, shown):
        if s.decisions >= decisions:
            raise KeyError("shown")
        return real(s, shown)
    monkeypatch.setattr(events, "_values", broken)


def bug_at_the_end(monkeypatch) -> None:
    """A game's result (the engine computes it as the game ends, in every command) raises a KeyError."""
    def broken(program, s):
        raise KeyError("result")
    monkeypatch.setattr(engine, "result", broken)


def plain_raising(monkeypatch, error: Exception) -> None:
    """How a number reads as text (every label, prompt and log of RULESET shows one) raises `error`."""
    def broken(v):
        raise error
    monkeypatch.setattr(values, "plain", broken)


# -- which faults are the rules' ------------------------------------------------------------------

def _raised(f) -> BaseException:
    try:
        f()
    except BaseException as e:      # the exception itself is what is classified
        return e
    raise AssertionError("nothing was raised")


RULES_CAUSED = {
    "a null in arithmetic": lambda: None + 1,
    "a null as a seat or card": lambda: [0, 1][_null()],
    "a null as a list": lambda: len(None),
    "a null compared": lambda: None < 1,
    "a division by zero": lambda: 1 // 0,
    "a number too large": lambda: 2.0 ** 10000,
    "a count of infinity": lambda: int(float("inf")),
    "a count that is not a number": lambda: int(float("nan")),
    "nesting too deep": lambda: _raise(RecursionError("maximum recursion depth exceeded")),
    "a list too large": lambda: _raise(MemoryError()),
    "a rules error": lambda: _raise(RulesFault("no legal option")),
}
OURS = {
    "a missing key": lambda: {}["k"],
    "a missing attribute": lambda: object().attribute,
    "an attribute of null": lambda: None.attribute,
    "an index out of range": lambda: [][0],
    "an iterator run out": lambda: next(iter([])),
    "a call of null": lambda: _null()(),
    "a text added to a number": lambda: "a" + 1,
    "a value that is not a number": lambda: int("x"),
}


def _raise(e):
    raise e


def _null():
    return None


@pytest.mark.parametrize("what", RULES_CAUSED)
def test_what_the_rules_can_cause_is_a_rules_fault(what):
    assert rules_caused(_raised(RULES_CAUSED[what]))


@pytest.mark.parametrize("what", OURS)
def test_any_other_exception_is_a_bug_of_ours(what):
    assert not rules_caused(_raised(OURS[what]))


# -- while a game runs ----------------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("decisions", [0, 2])
def test_a_bug_while_a_game_runs_is_raised_as_itself_not_as_a_rules_error(monkeypatch, backend, decisions):
    p = program(backend)
    bug_after(monkeypatch, decisions)
    with pytest.raises(KeyError):
        play(p, [FirstAgent(), FirstAgent()], seed=1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bug_in_an_option_label_is_raised_not_shown_as_a_label_that_cannot_be_shown(monkeypatch, backend):
    p = program(backend)
    s = new_game(p, seed=1)
    plain_raising(monkeypatch, KeyError("plain"))
    with pytest.raises(KeyError):
        labels(p, s)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_label_the_rules_cannot_compute_still_says_why(monkeypatch, backend):
    p = program(backend)
    s = new_game(p, seed=1)
    plain_raising(monkeypatch, ZeroDivisionError("division by zero"))
    assert labels(p, s) == ["option 1 (its label cannot be shown: division by zero)",
                            "option 2 (its label cannot be shown: division by zero)"]
    assert prompt(p, s) == "Choose (the question cannot be shown: division by zero)"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bug_in_a_prompt_is_raised_not_shown_as_a_question_that_cannot_be_shown(monkeypatch, backend):
    p = program(backend)
    s = new_game(p, seed=1)
    plain_raising(monkeypatch, KeyError("plain"))
    with pytest.raises(KeyError):
        prompt(p, s)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_bug_in_a_text_of_the_account_is_raised_not_shown_as_a_text_that_cannot_be_shown(monkeypatch, backend):
    p = program(backend)
    s = new_game(p, seed=1)
    plain_raising(monkeypatch, AttributeError("plain"))
    with pytest.raises(AttributeError):
        play(p, [FirstAgent(), FirstAgent()], seed=1)
    monkeypatch.undo()
    plain_raising(monkeypatch, ZeroDivisionError("division by zero"))
    s = play(p, [FirstAgent(), FirstAgent()], seed=1)
    assert {"type": "log", "text": "(a text of the rules cannot be shown: division by zero)", "to": None} in s.log


def test_a_bug_in_a_measured_value_is_raised_not_recorded_as_a_value_the_rules_cannot_compute():
    s = new_game(program("closures"), seed=1)
    assert measured(lambda s_, l_: 1 // 0, s) is None
    with pytest.raises(KeyError):
        measured(lambda s_, l_: {}["k"], s)


NULL_WINNER = RULESET.replace("variables:\n  x: 0\n", "variables:\n  x: 0\n  who: {type: player, initial: \"null\"}\n") \
    .replace('winners: "[]"', 'winners: "[who]"')


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_null_among_the_winners_is_a_rules_error_not_a_crash_of_the_command(tmp_path, backend):
    """The rules' fault, though it shows only once the game is over (where the result is read)."""
    path = tmp_path / "bugs.yaml"
    path.write_text(NULL_WINNER, encoding="utf-8")
    err = io.StringIO()
    assert run([str(path), "--seed", "1", "--backend", backend], stdout=io.StringIO(), stderr=err) == 1
    assert err.getvalue() == "interpret: the result cannot be computed: a winner is null (nobody)\n"


# -- at the command line --------------------------------------------------------------------------

def _write(tmp_path) -> str:
    path = tmp_path / "bugs.yaml"
    path.write_text(RULESET, encoding="utf-8")
    return str(path)


def _main(monkeypatch, capsys, argv) -> tuple[int, str, str]:
    """`interpret ARGV` as the installed command runs it: (exit code, stdout, stderr)."""
    monkeypatch.setattr(records, "interrupt_on_termination", lambda: None)    # this process's signals stay as they are
    monkeypatch.setattr(sys, "argv", ["interpret", *argv])
    with pytest.raises(SystemExit) as ended:
        main()
    out, err = capsys.readouterr()
    return ended.value.code, out, err


REPORT = ("interpret: internal error (KeyError): this is a bug in the interpreter, not in your rules; "
          "please report it with the command and the files it read")


@pytest.mark.parametrize("command", [[], ["simulate", "--games", "2", "--jobs", "1"]])
def test_at_the_command_line_a_bug_is_one_line_asking_for_a_report_with_an_exit_code_of_its_own(
        tmp_path, monkeypatch, capsys, command):
    monkeypatch.delenv("CARD_INTERPRETER_DEBUG", raising=False)
    bug_at_the_end(monkeypatch)
    code, out, err = _main(monkeypatch, capsys, [*command, _write(tmp_path), "--seed", "1"])
    assert code == 70
    assert err == REPORT + " (CARD_INTERPRETER_DEBUG=1 shows where it happened)\n"
    assert "'result'" not in out + err          # the exception's own text is not echoed: it may quote a file


def test_with_card_interpreter_debug_set_a_bug_shows_its_traceback(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CARD_INTERPRETER_DEBUG", "1")
    bug_after(monkeypatch, 0)
    code, _, err = _main(monkeypatch, capsys, [_write(tmp_path), "--seed", "1"])
    assert code == 70
    assert err.startswith("Traceback (most recent call last):") and "KeyError: 'shown'" in err
    assert err.endswith("\n" + REPORT + "\n")


def test_run_lets_a_bug_through_so_that_a_test_meeting_one_fails_with_its_traceback(tmp_path, monkeypatch):
    bug_after(monkeypatch, 0)
    with pytest.raises(KeyError):
        run([_write(tmp_path), "--seed", "1"], stdout=io.StringIO(), stderr=io.StringIO())


def test_a_game_recorded_when_a_bug_stops_it_keeps_every_decision_made_and_replays_to_the_bug(
        tmp_path, monkeypatch, capsys):
    record = tmp_path / "game.json"
    bug_after(monkeypatch, 2)
    code, _, err = _main(monkeypatch, capsys, [_write(tmp_path), "--seed", "1", "--record", str(record)])
    assert code == 70 and err.startswith("interpret: internal error (KeyError)")
    kept = json.loads(record.read_text(encoding="utf-8"))
    assert [d["label"] for d in kept["decisions"]] == ["take 1", "take 1"] and kept["result"] is None
    with pytest.raises(KeyError):               # the bug, replayed
        run(["replay", str(record)], stdout=io.StringIO(), stderr=io.StringIO())
    monkeypatch.undo()                          # once mended, the record replays
    out = io.StringIO()
    assert run(["replay", str(record)], stdout=out, stderr=io.StringIO()) == 0
    assert "replay ok: 2 decisions, an unfinished game, replayed" in out.getvalue()
