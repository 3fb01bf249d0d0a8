"""Whatever a ruleset file holds, `validate` answers with problems, never a Python error."""
from __future__ import annotations

import copy
import pathlib

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import QUICK_LOADER, fuzz_examples, value_paths
from interpreter import check_file

RULESETS = sorted((pathlib.Path(__file__).parent.parent / "rulesets").glob("*.yaml"))
DATA = {p.stem: yaml.load(p.read_text(encoding="utf-8"), Loader=QUICK_LOADER) for p in RULESETS}
VALUES = st.sampled_from([None, 0, -1, 3, "x", "", "card.value", "1 +", "count(", [], {}, [1, "a"],
                          {"a": 1}, True, "current.hand", "players", "options.nope", "end_turn"])




def _mutate(data, path, action, value):
    if not path:
        return data
    parent = data
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    if action == "delete":
        del parent[last]
    elif action == "rename" and isinstance(parent, dict):
        parent[str(last) + "x"] = parent.pop(last)
    else:
        parent[last] = value
    return data


@pytest.mark.fuzz
@settings(max_examples=fuzz_examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(DATA)), pick=st.integers(0, 10**6),
       action=st.sampled_from(["delete", "rename", "replace"]), value=VALUES)
def test_a_mutated_ruleset_gets_problems_not_a_crash(tmp_path, game, pick, action, value):
    data = copy.deepcopy(DATA[game])
    paths = list(value_paths(data))
    path = paths[pick % len(paths)]
    data = _mutate(data, path, action, value)
    f = tmp_path / "mutant.yaml"
    f.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    problems = check_file(str(f))
    for p in problems:
        assert p.message and str(p).startswith(str(f))


PLAY_VALUES = st.sampled_from([None, 0, -1, 3, 2.5, "x", "", "1 / 0", "top(stock).value", "null", "[]",
                               "current.hand", "players", "end_turn", "end_game", 10**6, True, [], {}])


@pytest.mark.fuzz
@settings(max_examples=fuzz_examples(6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(DATA)), pick=st.integers(0, 10**6),
       action=st.sampled_from(["delete", "replace"]), value=PLAY_VALUES, seed=st.integers(0, 50))
def test_a_mutated_ruleset_plays_replays_and_resumes_without_a_python_error(tmp_path, game, pick, action, value,
                                                                            seed):
    """play (bots, and a person who leaves at once), replay and resume answer with an exit
    code and, on a fault, a message: no Python exception escapes."""
    import io
    from interpreter.cli import run
    data = copy.deepcopy(DATA[game])
    paths = [p for p in value_paths(data) if p[:1] in (("flow",), ("functions",), ("variables",),
                                                     ("player_variables",), ("result",), ("triggers",))]
    data = _mutate(data, paths[pick % len(paths)], action, value)
    if isinstance(data.get("flow"), dict):
        data["flow"]["max_steps"] = 20_000          # a mutant may loop: keep each game short
    f = tmp_path / "mutant.yaml"
    f.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    record = tmp_path / "game.json"
    calls = [[str(f), "--seed", str(seed), "--quiet"],
             [str(f), "--seed", str(seed), "--human", "1", "--bot", "random", "--record", str(record)],
             ["replay", str(record)], ["resume", str(record)]]
    for argv in calls:
        if argv[0] in ("replay", "resume") and not record.exists():
            continue
        out, err = io.StringIO(), io.StringIO()
        code = run(argv, stdin=io.StringIO("1\n1\n"), stdout=out, stderr=err)
        assert isinstance(code, int)
        assert "Traceback" not in out.getvalue() + err.getvalue()
