"""The generated back end as a user meets it: the default that plays games, `--backend` to choose
the closure back end instead, `interpret compile` to read the Python it writes, code
compiled once per content in a process, and faults placed where the ruleset went wrong."""
from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from conftest import ROOT, option_variants, ruleset
from interpreter import load_program, new_game, pipeline
from interpreter.cli import run
from interpreter.generated import cache

RULES = """name: tiny
players: 2
deck:
  cards: [{id: a, rank: 1}, {id: b, rank: 2}, {id: c, rank: 3}, {id: d, rank: 4}]
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
variables:
  seen: {type: "list[player]", initial: "[]"}
  x: 0
functions:
  firsts:
    params: []
    expr: "count(players, p => p.index == 0)"
flow:
  setup:
    - deal: {from: stock, to: hand, count: 2}
  round:
    - for_each: p
      in: players
      do:
        - set: {x: "firsts()"}
        - set: {seen: "seen + [p]"}
    - turns:
        count: 2
        do:
          - choose: current.hand
            as: card
            where: "card.rank > 0"
          - move: {card: card, from: current.hand, to: stock}
  until: "true"
result:
  winners: "seen"
"""


def call(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), stdin=io.StringIO(""), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(RULES, encoding="utf-8")
    return str(path)


# -- what a user sees ------------------------------------------------------------------
def test_games_run_on_generated_code_unless_asked_otherwise():
    assert load_program(ruleset("hearts2")).backend == "generated"
    assert load_program(ruleset("hearts2"), backend="closures").backend == "closures"


def test_backend_flag_plays_the_same_game_on_either_back_end():
    _, generated, _ = call(ruleset("gnav2"), "--seed", "5")
    _, closures, _ = call(ruleset("gnav2"), "--seed", "5", "--backend", "closures")
    assert generated == closures and "Result" in generated


def test_backend_flag_does_not_outlive_its_command():
    call(ruleset("gnav2"), "--seed", "5", "--quiet", "--backend", "closures")
    assert load_program(ruleset("gnav2")).backend == "generated"


# -- the choice of back end: passed down from where it is made, never a setting of the process --
@pytest.fixture
def built(monkeypatch):
    """The back end of every program built from now on (pipeline.build, spied on)."""
    seen, real = [], pipeline.build

    def build(ruleset, backend=pipeline.DEFAULT_BACKEND):
        program = real(ruleset, backend)
        seen.append(program.backend)
        return program
    monkeypatch.setattr(pipeline, "build", build)
    return seen


def test_programs_of_both_back_ends_are_built_side_by_side_in_one_process(tiny):
    closures = load_program(tiny, backend="closures")
    generated = load_program(tiny)
    assert (closures.backend, generated.backend) == ("closures", "generated")
    assert new_game(closures, seed=4).to_dict() == new_game(generated, seed=4).to_dict()
    assert load_program(tiny, backend="closures").backend == "closures"


def test_a_command_run_with_backend_closures_changes_no_default_of_the_library(tiny, monkeypatch):
    """While `simulate --backend closures` runs, a program built by library code that does not
    choose is still built by the generated back end (the choice was once a process-wide switch
    that the command set and restored around itself)."""
    from interpreter.cli import lab
    during, simulate = [], lab.simulate

    def simulated(*args, **kwargs):
        during.append(load_program(tiny).backend)
        return simulate(*args, **kwargs)
    monkeypatch.setattr(lab, "simulate", simulated)
    code, _, err = call("simulate", tiny, "--games", "2", "--jobs", "1", "--backend", "closures")
    assert code == 0, err
    assert during == ["generated"]


def test_an_unknown_back_end_is_a_usage_error_that_names_the_back_ends(tiny):
    from interpreter.api import load_game
    from interpreter.errors import UsageError
    for build in (lambda: load_program(tiny, backend="numba"), lambda: load_game(tiny, backend="numba")):
        with pytest.raises(UsageError, match="no back end 'numba'; choose one of: generated, closures, native"):
            build()


def _scenario(tmp_path, tiny) -> str:
    path = tmp_path / "tiny_scenario.yaml"
    path.write_text(f"ruleset: {tiny}\nexpect:\n  - after: 0\n    that: [\"x == 1\"]\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", ["play", "replay", "scenario", "simulate", "compare"])
def test_every_program_a_command_builds_is_built_by_its_backend(tiny, tmp_path, built, command):
    record = str(tmp_path / "tiny.json")
    argv = {"play": [tiny, "--seed", "1", "--quiet"],
            "replay": ["replay", record],
            "scenario": ["scenario", _scenario(tmp_path, tiny)],
            "simulate": ["simulate", tiny, "--games", "2", "--jobs", "1"],
            "compare": ["compare", tiny, tiny, "--games", "2", "--jobs", "1"]}[command]
    if command == "replay":
        assert call(tiny, "--seed", "1", "--quiet", "--record", record)[0] == 0
        built.clear()
    code, out, err = call(*argv, "--backend", "closures")
    assert code == 0, out + err
    assert built and set(built) == {"closures"}


def test_simulate_with_backend_closures_plays_closures_in_its_forked_workers(tiny, tmp_path, monkeypatch):
    """Forked workers play the program they inherit, built by the back end the command chose:
    each game notes, in a file of its process, the back end of the program it plays."""
    from interpreter.lab import simulation
    if not simulation._can_fork():
        pytest.skip("workers are forked only where the platform can fork")
    game_row = simulation.game_row

    def noted(program, *args):
        with open(tmp_path / f"played-{os.getpid()}", "a", encoding="utf-8") as f:
            f.write(program.backend + "\n")
        return game_row(program, *args)
    monkeypatch.setattr(simulation, "game_row", noted)
    code, _, err = call("simulate", tiny, "--games", "8", "--jobs", "2", "--backend", "closures")
    assert code == 0, err
    notes = {path.name: path.read_text(encoding="utf-8").split() for path in tmp_path.glob("played-*")}
    assert f"played-{os.getpid()}" not in notes and len(notes) == 2          # played by two workers
    assert sum(map(len, notes.values())) == 8 and {b for n in notes.values() for b in n} == {"closures"}


def test_a_cluster_worker_builds_the_back_end_of_the_program_it_was_sent(tiny):
    """A Ray task carries the back end with the rules (cluster.spec_of); the worker builds it."""
    from interpreter.lab import cluster
    for backend in ("closures", "generated"):
        spec = cluster.spec_of(load_program(tiny, backend=backend))
        assert cluster._program(spec).backend == backend


def test_compile_prints_the_generated_python(tiny):
    code, out, _ = call("compile", tiny)
    assert code == 0
    assert out.startswith("# The generated Python of 'tiny'")
    compile(out, "shown", "exec")           # it is Python
    assert "def _at0(s):" in out


def test_compile_writes_a_file_when_asked(tiny, tmp_path):
    target = tmp_path / "tiny.py"
    code, out, _ = call("compile", tiny, "-o", str(target))
    assert code == 0 and str(target) in out
    assert "def _at0(s):" in target.read_text(encoding="utf-8")


def test_compile_reports_a_broken_ruleset_like_validate(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(RULES.replace("card.rank > 0", "card.rnak > 0"), encoding="utf-8")
    code, _, err = call("compile", str(path))
    assert code == 1 and "rnak" in err and "Traceback" not in err


# -- the same game ---------------------------------------------------------------------------
def test_a_function_compiled_in_keeps_its_elements_to_itself(tiny):
    """firsts() counts with `p => ...`; the for_each p around the call must keep its own p
    (the closure back end once let the element overwrite it: seen was [1, 1])."""
    for backend in ("generated", "closures"):
        s = new_game(load_program(tiny, backend=backend), seed=1)
        assert s.vars["seen"] == [0, 1], backend


def test_states_are_the_same_plain_data_on_both_back_ends():
    a, b = load_program(ruleset("hearts2")), load_program(ruleset("hearts2"), backend="closures")
    sa, sb = new_game(a, seed=3), new_game(b, seed=3)
    assert sa.to_dict() == sb.to_dict()


def test_a_game_paused_under_one_back_end_goes_on_under_the_other():
    from interpreter import apply
    from interpreter.runtime.state import State
    a, b = load_program(ruleset("ninety_nine")), load_program(ruleset("ninety_nine"), backend="closures")
    sa, sb = new_game(a, seed=8), new_game(b, seed=8)
    for _ in range(5):
        apply(a, sa, 0)
        apply(b, sb, 0)
    moved = State.from_dict(sa.to_dict())           # saved under generated, resumed under closures
    apply(b, moved, 0)
    apply(b, sb, 0)
    assert moved.to_dict() == sb.to_dict()


# -- faults --------------------------------------------------------------------------------
@pytest.mark.parametrize("where, fault", [
    ("card.rank > x", None),                               # no fault
    ("card.rank // (x - 1) > 0", "28:13: rules error while running this step: division by zero"),
    ("card.rank > 0 and sum([x], n => n // (x - 1)) > 0", "division by zero"),    # in a function of each
])
def test_a_fault_in_a_where_is_told_as_the_closure_back_end_tells_it(tmp_path, where, fault):
    path = tmp_path / "f.yaml"
    path.write_text(RULES.replace("card.rank > 0", where), encoding="utf-8")
    outcomes = []
    for backend in ("generated", "closures"):
        code, out, err = call(str(path), "--seed", "1", "--quiet", "--backend", backend)
        outcomes.append((code, err))
    assert outcomes[0] == outcomes[1]
    if fault:
        assert outcomes[0][0] == 1 and fault in outcomes[0][1]
    else:
        assert outcomes[0] == (0, "")


# -- the cache -------------------------------------------------------------------------------
def test_the_same_source_is_compiled_once_per_process():
    first = cache.compiled("x = 1\n", "<t>")
    assert cache.compiled("x = 1\n", "<t>") is first
    assert cache.compiled("x = 1\n", "<t>", mode="single") is not first


def test_a_new_process_compiles_again_and_plays_the_same(tmp_path):
    """Nothing is kept between processes (tests/test_hostile_files.py: nothing is read back
    from disk): two runs of one game print the same."""
    cmd = [sys.executable, "-c", "from interpreter.cli import main; main()", ruleset("gnav2"), "--seed", "2", "--quiet"]
    first, second = (subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT) for _ in range(2))
    assert first.returncode == second.returncode == 0 and first.stdout == second.stdout


def test_loops_nested_deeper_than_python_allows_run_on_the_closures(tmp_path):
    """Python compiles at most 20 loops inside one another; 28 for_each steps inside one another
    are a valid ruleset: the function that would hold them is left to the closure back end."""
    import yaml
    step = [{"add": {"x": 1}}]
    for i in range(28):
        step = [{"for_each": f"v{i}", "in": "[1, 2]" if i < 3 else "[1]", "do": step}]
    head = RULES.split("functions:")[0]
    path = tmp_path / "deep.yaml"
    path.write_text(head + yaml.safe_dump({"flow": {"round": step, "until": "true"},
                                           "result": {"winners": "[]"}}), encoding="utf-8")
    states = [new_game(load_program(str(path), backend=b), seed=1) for b in ("generated", "closures")]
    assert states[0].vars["x"] == 8
    assert states[0].to_dict() == states[1].to_dict()


# -- small rulesets where the two back ends once differed (tests/backends/) -------------------
BACKENDS = ROOT / "tests" / "backends"


def trace(program, seed):
    """Every state of a game between seeded random players, as JSON-ready data, and how it
    ended (a rules error's text included)."""
    import json
    import random as stdlib_random
    from interpreter import apply
    from interpreter.errors import RulesFault

    def snap(s):
        return json.loads(json.dumps(s.to_dict(), default=repr))
    try:
        s = new_game(program, seed=seed)
    except RulesFault as e:
        return [("error", str(e), snap(e.state) if getattr(e, "state", None) else None)]
    out, pick = [snap(s)], stdlib_random.Random(seed)
    while not s.over and len(out) < 300:
        try:
            apply(program, s, pick.randrange(len(s.pending[1])))
        except RulesFault as e:
            return out + [("error", str(e), snap(s))]
        out.append(snap(s))
    return out


@pytest.mark.parametrize("name", sorted(p.stem for p in BACKENDS.glob("*.yaml")))
def test_both_back_ends_go_through_the_same_states(name):
    """Hoisted reads in a where, faults in a payload, after a random draw, in the turns' own
    bookkeeping, in an if, inside a loop written in; the step limit; lists compared with a
    random draw; requests, procedures, options folded: the same states, errors and messages."""
    path = str(BACKENDS / f"{name}.yaml")
    generated, closures = load_program(path), load_program(path, backend="closures")
    for seed in range(3):
        assert trace(generated, seed) == trace(closures, seed), f"{name}, seed {seed}"


def test_rules_too_large_to_write_as_python_run_on_the_closures(tmp_path):
    """700 loops in a row, each waiting for a decision: writing each entry's code out to the
    next decision would take millions of lines (and Python's recursion), so the generated back
    end goes on by returns past a few hundred lines, and past a total it leaves the ruleset to
    the closure back end: no traceback, the same game, in seconds."""
    import time
    step = """          - while: "x < 0"
            do:
              - choose: "[1, 2]"
                as: v
"""
    path = tmp_path / "many.yaml"
    path.write_text(RULES.split("variables:")[0] + "variables:\n  x: 0\nflow:\n  round:\n    - turns:\n"
                    "        count: 1\n        do:\n" + step * 700 + "  until: \"true\"\nresult:\n  winners: \"[]\"\n",
                    encoding="utf-8")
    start = time.perf_counter()
    program = load_program(str(path))
    assert time.perf_counter() - start < 20
    assert trace(program, 1) == trace(load_program(str(path), backend="closures"), 1)


def test_compile_shows_names_from_the_file_as_quoted_data():
    """An option's name and value may hold line breaks and Python: the header of the code shown
    quotes them (the code itself only ever holds them as quoted data)."""
    code, out, _ = call("compile", str(BACKENDS / "option_names_with_code_in_them.yaml"))
    assert code == 0
    assert not any(line.startswith(("import", "print")) for line in out.splitlines())


def test_every_shipped_ruleset_is_written_as_python_that_compiles_whole():
    """A function Python will not compile is left to the closures, silently (hostile rulesets);
    for the shipped rulesets, and for rulesets written at random, nothing may be left out: a
    fallback there would hide a bug of the generator.  (Under every option value: -m slow.)"""
    import yaml
    import random_rulesets
    from interpreter.pipeline import compile_ruleset
    from interpreter.source.loader import load_text
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        program = load_program(str(path))
        assert program.backend == "generated" and program.left_out == 0, path.stem
    for seed in range(30):
        text = yaml.safe_dump(random_rulesets.write(seed), sort_keys=False, allow_unicode=True)
        data, source = load_text(text, f"random{seed}.yaml")
        program = compile_ruleset(data, source, random_rulesets.options(seed))
        assert program.backend == "generated" and program.left_out == 0, f"random ruleset {seed}"


@pytest.mark.slow
def test_every_seed_game_is_written_as_python_that_compiles_whole_under_every_option_value():
    checked = 0
    for name in ("hearts2", "ninety_nine", "gnav2", "gnav"):
        for option, value, program in option_variants(ruleset(name)):
            assert program.backend == "generated" and program.left_out == 0, (name, option, value)
            checked += 1
    assert checked > 40
