"""Hostile input: every file an attacker (or an accident) can hand the interpreter gets
`file:line:col: what is wrong`, a non-zero exit, no traceback, no hang, and nothing
quoted from a file that is not ours.

tests/hostile/NAME.* holds small hostile files, each with a golden NAME.err: exactly
what the command prints (stdout, then stderr).  The command is in the name:
`*.scenario.yaml` runs `interpret scenario`, `*.replay.json` `interpret replay`,
`*.resume.json` `interpret resume`, anything else `interpret validate`.  Regenerate
after a deliberate wording change with UPDATE_GOLDEN=1 and review the diff.  The
scenarios and records there name hostile/rulesets/tiny.yaml (records by a path
relative to tests/hostile, where the test runs), or files that are not rulesets:
hostile/secret.txt, /etc/passwd, /dev/zero; nothing of those may be echoed.  Big
hostile files are made here, in a temporary folder, not committed.
"""
from __future__ import annotations

import copy
import io
import json
import os
import pathlib
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import messages, value_paths
from interpreter import limits
from interpreter.play import records
from interpreter.play.targets import OutputFailed
from interpreter.cli import run

ROOT = pathlib.Path(__file__).resolve().parent.parent
HOSTILE = pathlib.Path(__file__).resolve().parent / "hostile"
CASES = sorted(p.name for p in HOSTILE.iterdir() if p.suffix in (".yaml", ".json"))
SECRETS = ("NOT-A-REAL-SECRET", "hunter2", "password", "api_token", "root:")
TIME_LIMIT = 10.0          # seconds for any one hostile file


def command_of(name: str) -> str:
    for suffix, command in ((".scenario.yaml", "scenario"), (".replay.json", "replay"), (".resume.json", "resume")):
        if name.endswith(suffix):
            return command
    return "validate"


def call(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    code = run([str(a) for a in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    elapsed = time.perf_counter() - start
    return code, out.getvalue() + err.getvalue(), elapsed


def assert_clean(code, text, elapsed):
    assert isinstance(code, int) and code != 0, text
    assert "Traceback" not in text and "Error:" not in text, text
    assert elapsed < TIME_LIMIT, f"took {elapsed:.1f} s"
    for secret in SECRETS:
        assert secret not in text, text


def test_the_hostile_corpus_has_files_of_every_kind():
    kinds = {command_of(n) for n in CASES}
    assert kinds == {"validate", "scenario", "replay", "resume"} and len(CASES) >= 30


@pytest.mark.parametrize("name", CASES)
def test_hostile_file_gets_its_golden_problems(name, monkeypatch):
    monkeypatch.chdir(HOSTILE)
    code, text, elapsed = call(command_of(name), name)
    golden = HOSTILE / (name.split(".")[0] + ".err")
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert_clean(code, text, elapsed)
    assert text == golden.read_text(encoding="utf-8")
    for line in text.splitlines():    # file:line:col: message, then the file's own line quoted with a caret
        if line.startswith("    "):
            continue
        file, line_no, col, message = line.split(":", 3)
        assert file == name and int(line_no) >= 1 and int(col) >= 1 and message.strip()


# -- big hostile files, made on the spot --------------------------------------------------

def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("depth", [10_000, 100_000])
def test_deep_nesting_stops_before_the_stack_does(tmp_path, depth):
    block = "".join(" " * k + "k:\n" for k in range(min(depth, 1_000))) + " " * 1_000 + "x"   # indents cost n^2/2
    for i, text in enumerate(["[" * depth + "]" * depth, "{a: " * depth + "}" * depth, "- " * depth + "x", block]):
        f = _write(tmp_path / f"deep{i}.yaml", text + "\n")
        code, out, elapsed = call("validate", f)
        assert_clean(code, out, elapsed)
        line, col, message = messages(out).split(":", 3)[1:]
        assert message == f" lists and mappings are nested more than {limits.MAX_NESTING} levels deep\n"


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    f = tmp_path / "huge.yaml"
    with open(f, "wb") as fh:                         # a sparse 23 MB file: refused by its size alone
        fh.truncate(23 * 1024 * 1024)
    code, out, elapsed = call("validate", f)
    assert_clean(code, out, elapsed)
    assert out == f"{f}: cannot read file: it is larger than 1 MiB ({23 * 1024 * 1024} bytes)\n"
    assert elapsed < 1


def test_a_real_file_of_23_mb_is_refused_quickly(tmp_path):
    f = _write(tmp_path / "big.yaml", "name: x\nlist:\n" + "  - abcdefghijklmnopqrstuv\n" * 900_000)
    code, out, elapsed = call("validate", f)
    assert_clean(code, out, elapsed)
    assert "larger than 1 MiB" in out and elapsed < 1


def test_a_file_just_under_the_size_limit_with_too_many_values_stops_early(tmp_path):
    text = "".join(f"k{i}: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]\n" for i in range(9_000))
    assert len(text) < limits.MAX_FILE_BYTES
    code, out, elapsed = call("validate", _write(tmp_path / "many.yaml", text))
    assert_clean(code, out, elapsed)
    assert f"more than {limits.MAX_VALUES} values in one file" in out


@pytest.mark.parametrize("text, message", [
    ("[" + "0," * 20_000 + "0]", f"a list with more than {limits.MAX_LIST} items"),
    ("".join(f"k{i}: 1\n" for i in range(10_001)), f"a mapping with more than {limits.MAX_KEYS} entries"),
    ("name: '" + "x" * 10_001 + "'", f"a string longer than {limits.MAX_STRING} characters"),
    ("x: " + "1" * 70, "a number too large"),
    ("x: 0." + "1" * 70, f"a number written with more than {limits.MAX_NUMBER_TEXT} characters"),
    ("a: &a [1]\n" + "".join(f"b{i}: *a\n" for i in range(1_001)), f"more than {limits.MAX_ALIASES} aliases"),
])
def test_each_structural_limit_is_a_positioned_problem(tmp_path, text, message):
    f = _write(tmp_path / "limit.yaml", text + "\n")
    code, out, elapsed = call("validate", f)
    assert_clean(code, out, elapsed)
    assert out.startswith(f"{f}:") and message in out
    assert out.split(":")[1].isdigit()


def test_a_fifo_named_by_a_scenario_does_not_block(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "pipe.yaml")
    s = _write(tmp_path / "s.yaml", "ruleset: pipe.yaml\nexpect: [{after: 0}]\n")
    for command, target in (("scenario", s), ("validate", s), ("validate", tmp_path / "pipe.yaml")):
        code, out, elapsed = call(command, target)
        assert_clean(code, out, elapsed)
        assert "not a regular file" in out


def test_a_file_of_ours_still_names_the_wrong_key(tmp_path):
    """The file named on the command line is ours: its unknown keys are named as always."""
    f = _write(tmp_path / "r.yaml", "api_token_typo: 1\n")
    code, out, _ = call("validate", f)
    assert code == 1 and "unknown key 'api_token_typo'" in out


def test_yaml_1_2_scalars(tmp_path):
    """YAML 1.2: base-60, 0b, underscores and dates stay strings; 1e3 is a number; on/no stay strings."""
    from interpreter.source.loader import load_text
    data, _ = load_text("a: 1:0\nb: 0b11\nc: 1_000\nd: 2001-12-14\ne: 1e3\nf: on\ng: 0x1F\nh: 0o17\ni: =\nj: 012\n")
    assert data == {"a": "1:0", "b": "0b11", "c": "1_000", "d": "2001-12-14", "e": 1000.0, "f": "on",
                    "g": 31, "h": 15, "i": "=", "j": 12}


# -- records are written whole, or not at all --------------------------------------------

def _a_record():
    return {"format": records.FORMAT, "decisions": [{"player": 0, "index": 0, "label": "play AX"}] * 50}


def _leftovers(folder):
    return [p.name for p in folder.iterdir() if p.name.startswith((".record-", ".interpret-"))]


@pytest.mark.parametrize("fault, raised", [(KeyboardInterrupt, KeyboardInterrupt), (OSError, OutputFailed),
                                           (TypeError, TypeError)])
def test_a_failed_record_write_leaves_no_temporary_file(tmp_path, monkeypatch, fault, raised):
    path = tmp_path / "g.json"
    records.save(_a_record(), str(path))
    before = path.read_text(encoding="utf-8")

    def broken_replace(src, dst):
        raise fault("disk on fire")
    monkeypatch.setattr(records.os, "replace", broken_replace)
    with pytest.raises(raised):
        records.save(dict(_a_record(), decisions=[]), str(path))
    assert _leftovers(tmp_path) == [] and path.read_text(encoding="utf-8") == before


def test_ctrl_c_during_a_record_write_waits_for_the_record(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    real_replace = os.replace

    def interrupted_replace(src, dst):
        signal.raise_signal(signal.SIGINT)            # Ctrl-C arrives in the middle of the write
        real_replace(src, dst)
    monkeypatch.setattr(records.os, "replace", interrupted_replace)
    with pytest.raises(KeyboardInterrupt):
        records.save(_a_record(), str(path))
    assert _leftovers(tmp_path) == []
    assert len(json.loads(path.read_text(encoding="utf-8"))["decisions"]) == 50
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_record_that_cannot_be_written_is_a_clear_error(tmp_path):
    (tmp_path / "taken").mkdir()
    for target in (tmp_path / "taken", tmp_path / "taken" / "x" / "\0.json"):
        code, out, elapsed = call(ROOT / "rulesets" / "ninety_nine.yaml", "--seed", 3, "--record", target)
        assert_clean(code, out, elapsed)
        assert f"{target}: cannot write the record: " in out.replace("\\x00", "\0")
    assert _leftovers(tmp_path) == [] and _leftovers(tmp_path / "taken") == []


def test_an_interrupted_game_leaves_only_its_record(tmp_path):
    rec = tmp_path / "g.json"
    code, out, _ = call(ROOT / "rulesets" / "ninety_nine.yaml", "--seed", 3, "--human", 1, "--record", rec,
                        stdin="1\n")
    assert code == 2 and "decisions saved" in out
    assert _leftovers(tmp_path) == [] and json.loads(rec.read_text(encoding="utf-8"))["decisions"]


def test_a_signal_during_a_record_write_waits_for_the_record(tmp_path, monkeypatch):
    """SIGTERM and SIGHUP are held during the write like Ctrl-C, then delivered."""
    signums = [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    path = tmp_path / "g.json"
    real_replace = os.replace
    for signum in signums:
        caught = []
        monkeypatch.setattr(records.os, "replace", real_replace)
        def handler(n, frame):
            caught.append(n)
        previous = signal.signal(signum, handler)
        try:
            def signalled_replace(src, dst):
                signal.raise_signal(signum)           # the signal arrives in the middle of the write
                assert caught == []                   # ... and waits
                real_replace(src, dst)
            monkeypatch.setattr(records.os, "replace", signalled_replace)
            records.save(_a_record(), str(path))
            assert caught == [signum]                 # delivered once the record is in place
            assert _leftovers(tmp_path) == [] and len(json.loads(path.read_text(encoding="utf-8"))["decisions"]) == 50
            assert signal.getsignal(signum) is handler
        finally:
            signal.signal(signum, previous)


KILLED_RUNS = 20          # per signal


def _kill_a_game_at_a_random_moment(folder, signum, seed):
    """A real `interpret` at a pipe, with a person in seat 1, sent `signum` a random moment
    into the game; return its exit code, output and errors."""
    env = dict(os.environ, CARD_INTERPRETER_RECORDS=str(folder), PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-c", "from interpreter.cli import main; main()",
                          str(ROOT / "rulesets" / "gnav.yaml"), "--human", "1", "--players", "20", "--seed", str(seed)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=folder)
    try:
        p.stdin.write(b"1\n" * 5000)                  # answers enough for the game; the pipe stays open
        p.stdin.flush()
        p.stdout.readline()                           # the game has started: the handlers are in place
        time.sleep(random.Random(seed).uniform(0.0, 0.25))
        p.send_signal(signum)
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


@pytest.mark.slow                  # about 10 s a signal: 20 real processes, each started, killed and resumed
@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGTERM/SIGHUP to send here")
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_game_killed_at_any_moment_keeps_its_record_and_no_temporary_file(tmp_path, signame):
    """A closed terminal (SIGHUP) or `kill` (SIGTERM) ends a game with a person as Ctrl-C
    does: the record is saved whole, the resume command is printed, no temporary file is
    left, and the record resumes."""
    signum = getattr(signal, signame)
    folders = [tmp_path / f"run{k}" for k in range(KILLED_RUNS)]
    for f in folders:
        f.mkdir()
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda k: _kill_a_game_at_a_random_moment(folders[k], signum, 1000 + k),
                                range(KILLED_RUNS)))
    interrupted = 0
    for folder, (code, out, err) in zip(folders, results):
        assert _leftovers(folder) == [], (signame, out[-500:], err)
        assert "Traceback" not in err and code in (0, 130), (signame, code, err)
        [rec] = list(folder.iterdir())
        record = json.loads(rec.read_text(encoding="utf-8"))
        if code == 0:                                 # the game was over before the signal came
            assert record["result"] is not None
            continue
        interrupted += 1
        assert f"Continue with: interpret resume {rec}" in out
        n = len(record["decisions"])
        assert record["result"] is None and n > 0
        code, text, _ = call("resume", rec)           # goes on to the person's turn (input has ended) or the end
        assert f"resuming after {n} decisions" in text, text
        resumed = json.loads(rec.read_text(encoding="utf-8"))
        assert resumed["decisions"][:n] == record["decisions"]
        if code == 0:                                 # the person was out: the bots played it to the end
            assert resumed["result"] is not None
        else:
            assert code == 2 and "decisions saved" in text, text
        assert _leftovers(folder) == []
    assert interrupted >= KILLED_RUNS // 2, f"only {interrupted} of {KILLED_RUNS} games were signalled in play"


# -- mutated scenarios and records: problems, never a Python error ------------------------

SCENARIOS = sorted((ROOT / "examples" / "scenarios").glob("*.yaml"))
OTHER_VALUES = st.sampled_from([None, 0, -1, 2.0, 2.5, 10 ** 9, 10 ** 17, "x", "", "1:0", [], {}, [1, "a"],
                                {"a": 1}, True, "play AX", "../../rulesets/gnav.yaml", "/dev/zero", [[]], [None],
                                ["bot"] * 3, {"kind": "mc", "playouts": 10 ** 12}])


@pytest.fixture(scope="module")
def a_record(tmp_path_factory):
    rec = tmp_path_factory.mktemp("rec") / "r.json"
    code = run([str(ROOT / "rulesets" / "ninety_nine.yaml"), "--seed", "3", "--record", str(rec)],
               stdout=io.StringIO(), stderr=io.StringIO())
    assert code == 0
    return rec.read_text(encoding="utf-8")




def _mutate_structure(data, pick, value):
    """Replace one value: first a depth, then a path of that depth, so that top-level keys
    (players, seed, options...) are picked as often as the many deep ones."""
    by_depth = {}
    for path in list(value_paths(data))[1:]:
        by_depth.setdefault(len(path), []).append(path)
    if not by_depth:
        return data
    paths = by_depth[sorted(by_depth)[pick % len(by_depth)]]
    path = paths[(pick // len(by_depth)) % len(paths)]
    parent = data
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    return data


def _mutate_text(text, action, pick, char):
    lines = text.splitlines(keepends=True)
    i = pick % max(1, len(text))
    j = pick % max(1, len(lines))
    if action == "delete_char":
        return text[:i] + text[i + 1:]
    if action == "duplicate_char":
        return text[:i] + text[i] * 2 + text[i + 1:]
    if action == "replace_char":
        return text[:i] + char + text[i + 1:]
    if action == "delete_line":
        return "".join(lines[:j] + lines[j + 1:])
    if action == "duplicate_line":
        return "".join(lines[:j + 1] + lines[j:])
    return "".join(lines[:j] + [char * 3 + "\n"] + lines[j + 1:])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 2 * len(SCENARIOS)), how=st.sampled_from(["text", "structure"]), command=st.integers(0, 5),
       action=st.sampled_from(["delete_char", "duplicate_char", "replace_char", "delete_line", "duplicate_line",
                               "replace_line"]),
       pick=st.integers(0, 10 ** 6), char=st.sampled_from(list(":-[]{}&*!|>'\"#%@`,? \t\n0aé\x00\x85")),
       value=OTHER_VALUES)
def test_a_mutated_scenario_or_record_gets_problems_not_a_crash(tmp_path, a_record, which, how, command, action,
                                                               pick, char, value):
    """Half the mutants are of the record, half of a scenario; each runs through one command."""
    if which >= len(SCENARIOS):
        text, name, commands = a_record, "r.json", ("validate", "replay", "resume")
    else:
        text, name, commands = SCENARIOS[which].read_text(encoding="utf-8"), "s.yaml", ("validate", "scenario")
    if how == "text":
        text = _mutate_text(text, action, pick, char)
    else:
        data = _mutate_structure(yaml.safe_load(text), pick, copy.deepcopy(value))
        text = json.dumps(data, ensure_ascii=False) if name == "r.json" else yaml.safe_dump(data, allow_unicode=True)
    f = tmp_path / name
    f.write_text(text.replace("../../rulesets/", str(ROOT / "rulesets") + "/"), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = run([commands[command % len(commands)], str(f)], stdin=io.StringIO(""), stdout=out, stderr=err)
    assert isinstance(code, int)
    assert "Traceback" not in out.getvalue() + err.getvalue()
