"""A ruleset's texts reach a person as text (issue 25, item 5): an ESC sequence, a bell, a
carriage return, a newline that forges a 'Result:' line or a bidi override is shown as its
escape at the terminal, in the drawn table, in every command's output and in messages."""
from __future__ import annotations

import io
import re

import pytest

from interpreter.cli.main import run
from interpreter.shown import printable

# Double-quoted YAML: \e is ESC, \a BEL, \r CR, \u202e RIGHT-TO-LEFT OVERRIDE.
HOSTILE = r'''name: hostile
title: "Cards\e]0;pwned\a\e[2J"
description: "a game\nResult: forged"
players: 2
player_name: "Seat {seat}\e[8m"
deck:
  cards: ["A\e[31m", "B\u202e"]
  zone: stock
zones: {stock: {visibility: public}, hand: {per_player: true, visibility: owner}}
variables:
  note: {initial: "'\x1b[1mbold'", show: true}
flow:
  round:
    - deal: {from: stock, to: hand, count: 1}
    - log: "a line\nResult: Seat 2 wins\r"
    - choose: "player(0).hand"
      by: player(0)
      as: card
      label: "play {text(card)}\e[?25l"
      prompt: "Pick\e[H"
    - end_game
result: {winners: "[player(0)]"}
'''
DRIVING = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _run(tmp_path, *argv, stdin=""):
    f = tmp_path / "hostile.yaml"
    f.write_text(HOSTILE, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = run([a.replace("RULESET", str(f)) for a in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_printable_escapes_what_drives_a_terminal_and_keeps_the_rest():
    assert printable("a\x1b]0;t\x07b\u202ec\nd é♠") == "a\\x1b]0;t\\x07b\\u202ec\\nd é♠"
    assert printable("one\ntwo\r", newlines=True) == "one\ntwo\\r"


@pytest.mark.parametrize("argv", [
    ["RULESET", "--seed", "1", "--watch", "--bot", "random", "--plain"],
    ["RULESET", "--seed", "1", "--human", "1", "--bot", "random", "--plain"],
    ["RULESET", "--seed", "1", "--quiet"],
    ["rules", "RULESET"],
    ["options", "RULESET"],
    ["simulate", "RULESET", "--games", "3", "--jobs", "1", "--progress", "off"],
    ["diff", "RULESET", "RULESET"],
])
def test_no_text_of_a_ruleset_drives_the_terminal(tmp_path, argv):
    code, out, err = _run(tmp_path, *argv, stdin="1\n1\n")
    assert code in (0, 1), err
    assert not DRIVING.search(out + err), repr(out + err)
    assert "\\x1b" in out or argv[0] in ("options", "diff", "simulate")


def test_a_newline_in_a_log_text_does_not_forge_a_line(tmp_path):
    code, out, _ = _run(tmp_path, "RULESET", "--seed", "1", "--watch", "--bot", "random", "--plain")
    assert code == 0
    assert "a line\\nResult: Seat 2 wins\\r" in out
    assert not any(line.startswith("Result: Seat 2") for line in out.splitlines())


def test_the_drawn_table_shows_a_rulesets_texts_escaped(tmp_path):
    from rich.console import Console
    from interpreter.cli.drawing import Text
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(Text("Cards\x1b]0;pwned\x07"), Text.assemble(("x\x1b[2J", "bold"), "y\r"))
    shown = console.file.getvalue()
    assert "\x1b" not in shown and "\\x1b]0;pwned\\x07" in shown and "x\\x1b[2J" in shown and "y\\r" in shown


@pytest.mark.parametrize("argv", [["rules", "RULESET"], ["options", "RULESET"]])
def test_a_newline_in_a_rulesets_description_does_not_forge_a_line(tmp_path, argv):
    code, out, _ = _run(tmp_path, *argv)
    assert code == 0
    assert not any(line.startswith("Result: forged") for line in out.splitlines())
