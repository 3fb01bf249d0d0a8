"""interpret diff: what differs between two rulesets, rule by rule, not line by line."""
from __future__ import annotations

import io
import pathlib

from interpreter.cli.main import run

RULESETS = pathlib.Path(__file__).parent.parent / "rulesets"
HEARTS2 = RULESETS / "hearts2.yaml"


def _call(*argv):
    out, err = io.StringIO(), io.StringIO()
    return run(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def _variant(tmp_path, *edits) -> str:
    text = HEARTS2.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "variant.yaml"
    path.write_text(text)
    return str(path)


def test_the_same_rules_written_otherwise_show_no_difference(tmp_path):
    path = _variant(tmp_path, ("# Hearts for two players", "# reworded comment"),
                    ('  heart: "card.suit == \'H\'"', "  heart: \"card.suit   ==   'H'\"  # spaced out"))
    code, out, _ = _call("diff", str(HEARTS2), path)
    assert code == 0 and "the same rules" in out


def test_a_house_rule_shows_only_what_it_changes(tmp_path):
    path = _variant(tmp_path,
                    ("name: hearts2", "name: black_maria"),
                    ('    points: "13 if card.special else 1 if card.heart else 0"',
                     '    points: "13 if card.special else 10 if card.rank == \'A\' and card.suit == \'S\' else 1 if card.heart else 0"'),
                    ("    - set: {dealer: dealer.left}", "    - log: next hand\n    - set: {dealer: dealer.left}"))
    code, out, _ = _call("diff", str(HEARTS2), path)
    lines = [line.strip() for line in out.splitlines()]
    assert code == 0 and lines[0].endswith("4 differences")
    assert "name: hearts2 -> black_maria" in lines
    assert "card attribute points: AS 0 -> 10" in lines
    assert "flow round:" in lines and "+ {log: next hand}" in lines and any(line.startswith("after {log: {en: '{p} scores {p.hand_points} this hand") for line in lines)
    assert not any("option" in line or "variable" in line for line in lines)


def test_options_variables_and_triggers_added_removed_or_changed(tmp_path):
    path = _variant(tmp_path,
                    ("    choices: [100, 50, 150, 200]\n    default: 100", "    choices: [100, 50, 150, 200]\n    default: 50"),
                    ("  match_winner: {type: player, initial: null}\n", "  match_winner: {type: player, initial: null}\n  moons: 0\n"),
                    ("  hand_points: 0\n", "  hand_points: 1\n"),
                    ("    params: [p]\n    expr: \"all(p.hand, c => c.heart)\"",
                     "    params: [p]\n    expr: \"all(p.hand, c => c.heart or c.special)\""))
    code, out, err = _call("diff", str(HEARTS2), path)
    assert code == 0, err
    assert "option target_score: default 100 -> 50" in out
    assert "variable moons added: 0" in out
    assert "player variable hand_points: 0 -> 1" in out
    assert "function only_hearts expr: all(p.hand, c => c.heart) -> all(p.hand, c => c.heart or c.special)" in out


def test_a_broken_ruleset_is_reported_as_validate_reports_it(tmp_path):
    path = _variant(tmp_path, ("zone: stock\n", "zone: stok\n"))
    code, _, err = _call("diff", str(HEARTS2), path)
    assert code == 1 and "unknown zone 'stok'" in err and "variant.yaml:" in err
