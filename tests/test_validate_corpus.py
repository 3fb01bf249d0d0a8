"""`interpret validate` on a corpus of broken rulesets, each with its expected messages.

Each tests/broken/NAME.yaml has a golden tests/broken/NAME.err holding exactly what
`interpret validate --strict NAME.yaml` prints (held to --strict: what the checker
cannot prove, a warning by default, counts as an error).  Regenerate after a deliberate wording change
with UPDATE_GOLDEN=1 and review the diff.
"""
from __future__ import annotations

import io
import os
import pathlib

import pytest

from interpreter.cli import run

BROKEN = pathlib.Path(__file__).parent / "broken"
CASES = sorted(p.name for p in BROKEN.glob("*.yaml"))


def test_the_corpus_has_at_least_25_broken_rulesets():
    assert len(CASES) >= 25


@pytest.mark.parametrize("name", CASES)
def test_broken_ruleset_reports_its_problems(name, monkeypatch):
    monkeypatch.chdir(BROKEN)
    out, err = io.StringIO(), io.StringIO()
    code = run(["validate", "--strict", name], stdout=out, stderr=err)
    golden = BROKEN / name.replace(".yaml", ".err")
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out.getvalue(), encoding="utf-8")
    assert code == 1
    assert err.getvalue() == ""
    assert "Traceback" not in out.getvalue()
    assert out.getvalue() == golden.read_text(encoding="utf-8")
    lines = out.getvalue().splitlines()
    for i, line in enumerate(lines):      # file:line:col: message, then the line quoted with a caret
        if line.startswith("    "):
            assert lines[i - 1].startswith("    ") or lines[i - 1].startswith(name)
            continue
        file, line_no, col, message = line.split(":", 3)
        assert file == name and int(line_no) >= 1 and int(col) >= 1 and message.strip()


def test_valid_and_broken_files_together_report_both(monkeypatch):
    root = BROKEN.parent.parent
    out = io.StringIO()
    code = run(["validate", str(root / "rulesets" / "hearts2.yaml"), str(BROKEN / CASES[0])], stdout=out)
    assert code == 1
    assert "hearts2.yaml: ok" in out.getvalue() and CASES[0] in out.getvalue()


def test_missing_file_is_a_clear_error():
    out = io.StringIO()
    assert run(["validate", "no/such/file.yaml"], stdout=out) == 1
    assert out.getvalue().startswith("no/such/file.yaml: cannot read file")
