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

from conftest import fuzz_examples, messages, value_paths
from interpreter import limits
from interpreter.playing import records
from interpreter.targets import OutputFailed
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
    code, out, _ = call(ROOT / "rulesets" / "ninety_nine.yaml", "--seed", 3, "--human", 1, "--bot", "random", "--record", rec,
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
                          str(ROOT / "rulesets" / "gnav.yaml"), "--human", "1", "--bot", "random", "--players", "20", "--seed", str(seed)],
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


@pytest.mark.fuzz
@settings(max_examples=fuzz_examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
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


# -- a file that is not ours, however it is named -----------------------------------------
# Files a user has lying about, each with what must never be echoed from it.  Each is named
# as a ruleset every way a file can be: by an overlay's `extends:` (and an overlay's overlay),
# by a scenario's `ruleset:`, by a record's `ruleset.file` (directly, or through an overlay).

FOREIGN = {
    "aws_credentials": ("[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"
                        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
                        ("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI", "aws_access_key_id", "aws_secret", "[default]")),
    ".env": ("DB_USER=admin\nDB_PASSWORD=s3cr3t-env-pass\n", ("DB_PASSWORD", "s3cr3t", "DB_USER", "admin")),
    "config.json": ('{\n  "auths": {\n    "https://index.docker.io/v1/": {\n'
                    '      "auth": "dXNlcjpzZWNyZXRkb2NrZXJwYXNz"\n    }\n  }\n}\n',
                    ("dXNlcjpzZWNyZXRkb2NrZXJwYXNz", "auths", "index.docker.io")),
    "anchors.yaml": ("base: &secretanchor {user: deploy}\ncopy: *secretanchor\ntoken: !vaulttag s3cr3t-tag-value\n",
                     ("secretanchor", "vaulttag", "s3cr3t-tag", "deploy", "token")),
    "undefined_alias.yaml": ("token: *undefinedsecretalias\n", ("undefinedsecretalias", "token")),
    "duplicate_key.yaml": ("password: first-s3cr3t\npassword: second-s3cr3t\n", ("password", "s3cr3t")),
    "named.yaml": ("name: production\npassword: hunter2-db\n", ("hunter2-db", "password", "production")),
    "flow_list.yaml": ("[ghp_s3cr3tTokenValue, {db: pass}]\n", ("ghp_s3cr3t", "pass")),
    "/proc/self/status": (None, ("Name:", "python", "Umask", "TracerPid")),
}


def _foreign_file(tmp_path, name):
    text, secrets = FOREIGN[name]
    if text is None:
        if not os.path.exists(name):
            pytest.skip(f"no {name} here")
        return name, secrets
    path = tmp_path / "foreign" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path), secrets


def _record_naming(tmp_path, ruleset_file, name="rec"):
    record = json.loads((HOSTILE / "31_record_names_a_secret.replay.json").read_text(encoding="utf-8"))
    record["ruleset"]["file"] = str(ruleset_file)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def _routes(tmp_path, target):
    """(command, file) calls that reach the file `target` as a ruleset, each way one can."""
    overlay = _write(tmp_path / "house.yaml", f"extends: {json.dumps(str(target))}\nname: house\n")
    twice = _write(tmp_path / "house2.yaml", f"extends: {json.dumps(str(overlay))}\nname: house2\n")
    scenario = _write(tmp_path / "s.yaml", f"ruleset: {json.dumps(str(target))}\nexpect: [{{after: 0}}]\n")
    scenario_ov = _write(tmp_path / "s_ov.yaml", f"ruleset: {json.dumps(str(overlay))}\nexpect: [{{after: 0}}]\n")
    record, record_ov = _record_naming(tmp_path, target), _record_naming(tmp_path, overlay, "rec_ov")
    return [("validate", overlay), ("rules", overlay), ("play", overlay), ("validate", twice), ("play", twice),
            ("scenario", scenario), ("validate", scenario), ("scenario", scenario_ov), ("validate", scenario_ov),
            ("replay", record), ("resume", record), ("validate", record),
            ("replay", record_ov), ("resume", record_ov), ("validate", record_ov)]


@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_a_file_that_is_not_a_ruleset_is_never_quoted_however_it_is_named(tmp_path, name):
    """Named by extends:, by an overlay's overlay, by a scenario or by a record (directly or
    through an overlay), a stranger's file gets one problem at the place that names it:
    that it is not a ruleset, in general terms; not a line, a key, an alias or a value of it."""
    target, secrets = _foreign_file(tmp_path, name)
    for command, naming in _routes(tmp_path, target):
        code, out, elapsed = call(command, naming, "--seed", 1) if command == "play" else call(command, naming)
        assert_clean(code, out, elapsed)
        for secret in secrets:
            assert secret not in out, (command, naming.name, out)
        assert "is not a ruleset" in out, (command, naming.name, out)


def _in_a_subprocess(calls, timeout=60):
    """The output of each (command, file) call, run by a real `interpret` that is killed after
    `timeout` seconds: a call that hangs fails the test instead of hanging it."""
    script = ("import io, json, sys\nfrom interpreter.cli import run\nout = []\n"
              "for argv in json.loads(sys.argv[1]):\n"
              "    o = io.StringIO()\n"
              "    code = run(argv, stdin=io.StringIO(''), stdout=o, stderr=o)\n"
              "    out.append([code, o.getvalue()])\n"
              "print(json.dumps(out))\n")
    argv = [[command, str(f)] + (["--seed", "1"] if command == "play" else []) for command, f in calls]
    p = subprocess.run([sys.executable, "-c", script, json.dumps(argv)], capture_output=True, text=True,
                       timeout=timeout, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_special_file_named_any_way_neither_hangs_nor_is_read(tmp_path):
    """A FIFO, /dev/zero, a link to /dev/zero and a directory, each named as a ruleset every
    way one can, are refused at once, unread."""
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    (tmp_path / "folder.yaml").mkdir()
    calls = []
    for target in (tmp_path / "pipe.yaml", "/dev/zero", tmp_path / "zero.yaml", tmp_path / "folder.yaml"):
        here = tmp_path / f"via_{os.path.basename(str(target))}"
        here.mkdir()
        calls += _routes(here, target)
    start = time.perf_counter()
    results = _in_a_subprocess(calls)
    assert time.perf_counter() - start < 60
    for (command, naming), (code, out) in zip(calls, results):
        assert code != 0 and "Traceback" not in out, (command, naming, out)
        assert any(why in out for why in ("not a regular file", "is a directory", "no ruleset")), (command, out)


def test_a_base_of_ours_reached_by_extends_is_still_shown_at_its_line(tmp_path):
    """The boundary: a base that loads as a ruleset is ours, its mistakes quoted as always."""
    base = _write(tmp_path / "base.yaml", (HOSTILE / "rulesets" / "tiny.yaml").read_text(encoding="utf-8")
                  .replace("zone: stock", "zone: stocks"))
    overlay = _write(tmp_path / "house.yaml", "extends: base.yaml\nname: house\n")
    code, out, _ = call("validate", overlay)
    assert code == 1 and f"{base}:15:9:" in out and "    zone: stocks" in out and "unknown zone 'stocks'" in out


def test_a_base_that_is_not_yaml_is_named_and_not_quoted(tmp_path):
    """A file reached by extends: that does not read as YAML may be a ruleset with a typo or
    anyone's file: it is named, with what to run to see its problems, and nothing of it is quoted."""
    _write(tmp_path / "base.yaml", "name: [tiny\npassword: hunter2\n")
    overlay = _write(tmp_path / "house.yaml", "extends: base.yaml\nname: house\n")
    code, out, _ = call("validate", overlay)
    assert code == 1 and "hunter2" not in out and "[tiny" not in out
    assert out.startswith(f"{overlay}:1:10: 'base.yaml' is not a ruleset: it is not YAML")
    assert "interpret validate" in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_resume_passes_over_special_files_in_the_records_folder(tmp_path):
    """`interpret resume` with no record looks through the records folder: a FIFO or a link to
    /dev/zero there, named like a record, is passed over unread, not waited on or read forever."""
    folder = tmp_path / "records"
    folder.mkdir()
    os.mkfifo(folder / "a-fifo.json")
    (folder / "b-zero.json").symlink_to("/dev/zero")
    env = dict(os.environ, CARD_INTERPRETER_RECORDS=str(folder))
    p = subprocess.run([sys.executable, "-c", "from interpreter.cli import main; main()", "resume"],
                       capture_output=True, text=True, timeout=30, cwd=ROOT, env=env)
    assert p.returncode == 2 and "no unfinished game is recorded" in p.stderr and "Traceback" not in p.stderr


# -- the compiled-code cache: nothing is read back from disk ----------------------------------
# Generated code is compiled once per process and kept in memory only: a code object read
# back from a file would run whatever was planted there, and the disk saved 30 to 60 ms a
# run (generated/cache.py).  Where a disk cache kept its files is computable for any source.

def _where_a_disk_cache_kept(root, source, filename="<t>", mode="exec"):
    """The files a disk cache of compiled code kept for `source`: under INTERPRETER_CACHE,
    and under $XDG_CACHE_HOME/card-interpreter/generated, named by the hash of the source."""
    import hashlib
    tag = f"{sys.implementation.cache_tag}-1"
    name = hashlib.sha256(f"{tag}\0{mode}\0{filename}\0{source}".encode()).hexdigest()[:40] + ".pyc"
    folders = [root / "setting", root / "xdg" / "card-interpreter" / "generated"]
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
    return [folder / name for folder in folders]


def _cache_env(root):
    return {"INTERPRETER_CACHE": str(root / "setting"), "XDG_CACHE_HOME": str(root / "xdg"),
            "HOME": str(root / "home")}


@pytest.mark.parametrize("setting", ["INTERPRETER_CACHE", "XDG_CACHE_HOME"])
def test_a_code_object_planted_where_a_cache_was_is_never_run(tmp_path, monkeypatch, setting):
    import marshal
    from interpreter.generated import cache
    source = "planted = False\n"
    for path in _where_a_disk_cache_kept(tmp_path, source):
        path.write_bytes(marshal.dumps(compile("planted = True\n", "<planted>", "exec")))
    env = _cache_env(tmp_path)
    monkeypatch.delenv("INTERPRETER_CACHE", raising=False)
    monkeypatch.setenv(setting, env[setting])
    monkeypatch.setenv("HOME", env["HOME"])
    monkeypatch.setattr(cache, "_MEMORY", {})
    ns = {}
    exec(cache.compiled(source, "<t>"), ns)
    assert ns["planted"] is False


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_or_a_link_to_dev_zero_where_a_cache_was_is_not_opened(tmp_path):
    """In a real process, killed after 30 s: a FIFO would wait for a writer for ever, a link
    to /dev/zero be read until memory runs out."""
    fifo, zero = "a = 1\n", "b = 2\n"
    for path in _where_a_disk_cache_kept(tmp_path, fifo):
        os.mkfifo(path)
    for path in _where_a_disk_cache_kept(tmp_path, zero):
        path.symlink_to("/dev/zero")
    script = ("from interpreter.generated import cache\nns = {}\n"
              f"exec(cache.compiled({fifo!r}, '<t>'), ns)\nexec(cache.compiled({zero!r}, '<t>'), ns)\n"
              "print(ns['a'] + ns['b'])\n")
    for setting in ("INTERPRETER_CACHE", "XDG_CACHE_HOME"):
        env = dict(os.environ, **{k: v for k, v in _cache_env(tmp_path).items() if k in (setting, "HOME")})
        if setting != "INTERPRETER_CACHE":
            env.pop("INTERPRETER_CACHE", None)
        p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30, cwd=ROOT,
                           env=env)
        assert p.returncode == 0 and p.stdout == "3\n", p.stderr


def _files_under(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("argv", [["gnav2", "--seed", "1", "--quiet"], ["simulate", "hearts2", "--games", "2"]])
def test_a_run_of_a_shipped_game_leaves_nothing_in_the_users_home_or_cache(tmp_path, argv):
    """Under umask 000 too (where a folder would be made world-writable)."""
    home, xdg = tmp_path / "home", tmp_path / "xdg"
    home.mkdir()
    xdg.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("INTERPRETER_CACHE", "CARD_INTERPRETER_RECORDS")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(xdg), PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", "from interpreter.cli import main; main()", *argv],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env, umask=0)
    assert p.returncode == 0, p.stderr
    assert _files_under(home) == [] and _files_under(xdg) == [] and _files_under(tmp_path) == ["home", "xdg"]


@pytest.mark.parametrize("name", ["aws_credentials", ".env", "config.json", "/proc/self/status"])
def test_a_rules_file_that_is_not_prose_is_not_shown(tmp_path, name):
    """`rules_file:` names a file whose text is shown whole (interpret rules, '?' at the table):
    only a Markdown or text file is, by its name (.md, .markdown, .txt); anything else is a
    note that the rules cannot be shown, and nothing of it is read out."""
    target, secrets = _foreign_file(tmp_path, name)
    tiny = (HOSTILE / "rulesets" / "tiny.yaml").read_text(encoding="utf-8")
    plain = _write(tmp_path / "plain.yaml", tiny.replace("name: tiny\n", f"name: tiny\nrules_file: {json.dumps(target)}\n"))
    overlay = _write(tmp_path / "house.yaml", f"extends: {json.dumps(str(HOSTILE / 'rulesets' / 'tiny.yaml'))}\n"
                                              f"rules_file: {json.dumps(target)}\n")
    for ruleset in (plain, overlay):
        code, out, _ = call("rules", ruleset)
        assert code == 0 and "(the rules file" in out, out
        for secret in secrets:
            assert secret not in out, out


def test_a_markdown_rules_file_is_shown(tmp_path):
    _write(tmp_path / "house.md", "# House rules\n\nPlay fast.\n")
    overlay = _write(tmp_path / "house.yaml", f"extends: {json.dumps(str(HOSTILE / 'rulesets' / 'tiny.yaml'))}\n"
                                              "rules_file: house.md\n")
    code, out, _ = call("rules", overlay)
    assert code == 0 and out.rstrip().endswith("# House rules\n\nPlay fast.")
