"""`rules_file` is shown whole, so only prose is read (a Markdown or text file by its name):
`interpret rules` and `?` at the table printed /etc/passwd or ~/.aws/credentials for a
ruleset that named them (found beyond issue 25's list, in its item 9's class)."""
from __future__ import annotations

import io

import pytest

from interpreter.cli.main import run
from interpreter.play.validation import check_file

MINI = """name: mini
players: 2
rules_file: {name}
deck: {{cards: [a, b], zone: stock}}
zones: {{stock: {{}}}}
flow: {{round: [end_game]}}
result: {{winners: "[]"}}
"""


@pytest.mark.parametrize("name", ["/etc/passwd", "../.aws/credentials", "secrets/.env", "config.json"])
def test_a_rules_file_that_is_not_prose_is_never_shown(tmp_path, name):
    (tmp_path / ".aws").mkdir()
    (tmp_path / ".aws" / "credentials").write_text("aws_secret_access_key = SECRET123\n", encoding="utf-8")
    folder = tmp_path / "games"
    folder.mkdir()
    f = folder / "mini.yaml"
    f.write_text(MINI.format(name=name), encoding="utf-8")
    assert check_file(str(f)) == []                 # the game plays; its rules are not shown
    out, err = io.StringIO(), io.StringIO()
    assert run(["rules", str(f)], stdout=out, stderr=err) == 0
    assert "is not shown: it is not a Markdown or text file" in out.getvalue()
    assert "SECRET123" not in out.getvalue() + err.getvalue() and "root:" not in out.getvalue()


def test_a_rules_file_of_prose_beside_the_ruleset_is_shown(tmp_path):
    (tmp_path / "mini.md").write_text("Each player takes a card.\n", encoding="utf-8")
    f = tmp_path / "mini.yaml"
    f.write_text(MINI.format(name="mini.md"), encoding="utf-8")
    out = io.StringIO()
    assert run(["rules", str(f)], stdout=out, stderr=io.StringIO()) == 0
    assert "Each player takes a card." in out.getvalue()
