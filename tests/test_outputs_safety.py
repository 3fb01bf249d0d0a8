"""A user's files are their data: an output never replaces an input or anything that is not a
regular file, a write that fails after the games keeps what they computed, and one record is
played by one game at a time (issue 25, items 6-8; docs/limits.md, "Outputs").

Nothing here could damage a system file if a promise were broken: a device is a stand-in
made in a temporary folder, /dev/full is only named where the old code opened it (never
renamed over it), and a FIFO is only named in a process run with a time limit, so that a
command that opened it would fail the test instead of hanging it."""
from __future__ import annotations

import io
import json
import os
import pathlib
import shutil
import signal
import stat
import subprocess
import sys
import time

import pytest

from interpreter.cli import run
from interpreter.playing import records

ROOT = pathlib.Path(__file__).resolve().parent.parent
NINETY_NINE = ROOT / "rulesets" / "ninety_nine.yaml"
TIME_LIMIT = 60               # seconds for one command in its own process
FULL = pathlib.Path("/dev/full")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")


def call(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    code = run([str(a) for a in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def interpret(tmp_path, *argv, file_size=None, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL):
    """`interpret ARGV` in a process of its own (at most TIME_LIMIT seconds); with
    `file_size`, no file it writes may grow past that many bytes (a disk that fills up)."""
    limit = f"import resource; resource.setrlimit(resource.RLIMIT_FSIZE, ({file_size}, {file_size})); " \
        if file_size else ""
    code = f"import sys; sys.argv[0] = 'interpret'; {limit}from interpreter.cli import main; main()"
    env = dict(os.environ, INTERPRETER_CACHE=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, "-c", code, *map(str, argv)], cwd=ROOT, env=env, stdin=stdin,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=TIME_LIMIT)


def mine(tmp_path) -> pathlib.Path:
    """A user's own ruleset."""
    path = tmp_path / "mine.yaml"
    shutil.copy(NINETY_NINE, path)
    return path


def a_person_s_record(tmp_path) -> pathlib.Path:
    """The record of a game with a person, interrupted after one decision."""
    rec = tmp_path / "game.json"
    code, out, _ = call(mine(tmp_path), "--seed", 2, "--human", 1, "--bot", "random", "--plain", "--record", rec, stdin="1\n")
    assert code == 2 and "decisions saved" in out
    return rec


def writers(target):
    """Every option that writes a file, each aimed at `target`."""
    return [("--record", ["--seed", 1, "--quiet", "--record", target]),
            ("--log", ["--seed", 1, "--quiet", "--log", target]),
            ("--csv", ["simulate", "--games", 3, "--jobs", 1, "--csv", target]),
            ("--jsonl", ["simulate", "--games", 3, "--jobs", 1, "--jsonl", target]),
            ("--plot", ["simulate", "--games", 3, "--jobs", 1, "--plot", target]),
            ("-o", ["compile", "-o", target])]


def command(ruleset, argv) -> list:
    """The command line of writers(): the ruleset after the command word."""
    return ([argv[0], ruleset] + argv[1:]) if argv[0] in ("simulate", "compile") else [ruleset] + argv


def no_game_was_played(out: str) -> bool:
    return "Result:" not in out and "wins" not in out


# -- item 6: what an output may name ------------------------------------------------------

@pytest.mark.parametrize("flag", ["--record", "--log", "--csv", "--jsonl", "-o"])
def test_an_output_naming_the_ruleset_being_played_is_refused_and_the_ruleset_kept(tmp_path, flag):
    rules = mine(tmp_path)
    before = rules.read_bytes()
    argv = dict(writers(rules))[flag]
    code, out, err = call(*command(rules, argv))
    assert code == 2 and f"{flag} {rules}: cannot write" in err and "it is the ruleset this command reads" in err
    assert rules.read_bytes() == before and no_game_was_played(out)


def test_an_output_naming_a_base_of_the_overlay_is_refused(tmp_path):
    base = mine(tmp_path)
    house = tmp_path / "house.yaml"
    house.write_text("extends: mine.yaml\nname: house\ntitle: A house rule\n", encoding="utf-8")
    before = base.read_bytes()
    for argv in (["--seed", 1, "--quiet", "--record", base], ["simulate", house, "--games", 2, "--csv", base]):
        argv = argv if argv[0] == "simulate" else [house] + argv
        code, _, err = call(*argv)
        assert code == 2 and "it is a ruleset it extends" in err, err
    assert base.read_bytes() == before


def test_a_link_to_the_ruleset_or_a_second_name_of_it_is_refused(tmp_path):
    rules = mine(tmp_path)
    before = rules.read_bytes()
    (tmp_path / "link.yaml").symlink_to(rules)
    os.link(rules, tmp_path / "hard.yaml")
    for other in (tmp_path / "link.yaml", tmp_path / "hard.yaml"):
        code, _, err = call(rules, "--seed", 1, "--quiet", "--record", other)
        assert code == 2 and "it is the ruleset this command reads" in err, err
    assert rules.read_bytes() == before and (tmp_path / "link.yaml").is_symlink()


@needs_fifo
@pytest.mark.parametrize("flag", ["--record", "--log", "--csv", "--jsonl", "--plot", "-o"])
def test_a_fifo_is_refused_before_it_is_opened(tmp_path, flag):
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    done = interpret(tmp_path, *command(mine(tmp_path), dict(writers(fifo))[flag]))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{flag} {fifo}: cannot write" in done.stderr and "it is a FIFO (a named pipe), not a regular file" \
        in done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and no_game_was_played(done.stdout)


def test_a_device_is_never_replaced_by_a_record(tmp_path):
    """A stand-in for /dev/null or /dev/full: a device node of our own (made as root only)."""
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o600, os.makedev(1, 7))
    except (OSError, AttributeError):
        pytest.skip("no device nodes may be made here")
    code, out, err = call(mine(tmp_path), "--seed", 1, "--quiet", "--record", device)
    assert code == 2 and "it is a device, not a regular file" in err and no_game_was_played(out)
    assert stat.S_ISCHR(os.lstat(device).st_mode)


@needs_full
@pytest.mark.parametrize("flag", ["--log", "--csv", "--jsonl", "-o"])
def test_a_device_is_refused_before_any_game(tmp_path, flag):
    code, out, err = call(*command(mine(tmp_path), dict(writers(FULL))[flag]))
    assert code == 2 and f"{flag} {FULL}: cannot write" in err and "it is a device, not a regular file" in err
    assert no_game_was_played(out)


@pytest.mark.parametrize("flag", ["--record", "--log", "--csv", "--jsonl", "--plot", "-o"])
def test_a_folder_where_a_file_is_meant_is_refused(tmp_path, flag):
    folder = tmp_path / "taken.png"
    folder.mkdir()
    code, out, err = call(*command(mine(tmp_path), dict(writers(folder))[flag]))
    assert code == 2 and "it is a folder, not a file" in err and no_game_was_played(out)
    assert folder.is_dir() and not any(folder.iterdir())


@pytest.mark.parametrize("flag", ["--record", "--log", "--csv", "--jsonl", "--plot", "-o"])
def test_a_file_in_a_missing_folder_or_under_a_file_is_refused(tmp_path, flag):
    rules = mine(tmp_path)
    for target in (tmp_path / "missing" / "x.png", rules / "x.png"):
        code, out, err = call(*command(rules, dict(writers(target))[flag]))
        assert code == 2 and ("no such folder" in err or "is not a folder" in err), err
        assert no_game_was_played(out)


def test_a_report_folder_under_a_file_or_that_is_a_file_is_refused(tmp_path):
    rules = mine(tmp_path)
    for target, why in ((rules / "sub", "is not a folder"), (rules, "it is a file, not a folder"),
                        (tmp_path / "missing" / "report", "no such folder")):
        code, out, err = call("simulate", rules, "--games", 2, "--report", target)
        assert code == 2 and f"--report {target}: cannot write the report: " in err and why in err, err
        assert out == ""


@needs_fifo
def test_a_report_folder_holding_a_fifo_is_refused(tmp_path):
    folder = tmp_path / "report"
    folder.mkdir()
    os.mkfifo(folder / "index.html")
    done = interpret(tmp_path, "simulate", mine(tmp_path), "--games", 2, "--jobs", 1, "--report", folder)
    assert done.returncode == 2 and done.stdout == ""
    assert f"{folder / 'index.html'} is a FIFO (a named pipe), not a regular file" in done.stderr
    assert stat.S_ISFIFO(os.lstat(folder / "index.html").st_mode)


def test_a_link_to_nothing_is_refused_and_a_link_to_a_file_is_written_through(tmp_path):
    rules = mine(tmp_path)
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere" / "x.json")
    code, _, err = call(rules, "--seed", 1, "--quiet", "--record", tmp_path / "dangling.json")
    assert code == 2 and "it is a link to a file that does not exist" in err

    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "game.json").write_text("old", encoding="utf-8")
    (tmp_path / "link.json").symlink_to(kept / "game.json")
    assert call(rules, "--seed", 1, "--quiet", "--record", tmp_path / "link.json")[0] == 0
    assert (tmp_path / "link.json").is_symlink()
    assert json.loads((kept / "game.json").read_text(encoding="utf-8"))["result"] is not None
    assert sorted(p.name for p in kept.iterdir()) == ["game.json"]       # no temporary file left


@pytest.mark.parametrize("argv, said", [
    (["simulate", "{rules}", "--games", 2, "--csv", "{x}", "--jsonl", "{x}"], "--csv {x} writes it too"),
    (["{rules}", "--seed", 1, "--quiet", "--record", "{x}", "--log", "{x}"], "--record {x} writes it too"),
    (["simulate", "{rules}", "--games", 2, "--csv", "{d}/rows.csv", "--report", "{d}"], "writes rows.csv too"),
])
def test_two_outputs_naming_one_file_are_refused(tmp_path, argv, said):
    rules, x, d = mine(tmp_path), tmp_path / "x.out", tmp_path / "d"
    d.mkdir()
    code, out, err = call(*[str(a).format(rules=rules, x=x, d=d) for a in argv])
    assert code == 2 and said.format(x=x) in err and no_game_was_played(out)
    assert not x.exists() and not any(d.iterdir())


def test_resume_refuses_a_log_that_is_the_record_being_resumed(tmp_path):
    rec = a_person_s_record(tmp_path)
    before = rec.read_bytes()
    code, _, err = call("resume", rec, "--plain", "--log", rec, stdin="1\n" * 200)
    assert code == 2 and "it is the record being resumed" in err and rec.read_bytes() == before


# -- item 7: a write that fails after the games keeps what they computed --------------------

@pytest.mark.skipif(sys.platform == "win32", reason="needs resource limits")
def test_rows_that_fill_the_disk_keep_the_report_the_other_rows_and_the_old_file(tmp_path):
    """A disk that fills up (no file may grow past 4,000 bytes): the JSON lines do not fit, the
    CSV does.  The report is printed, the CSV written, the old JSON lines file left as it was,
    one line says what was not written, no temporary file is left, and the exit code is 1."""
    rows_csv, rows_jsonl = tmp_path / "rows.csv", tmp_path / "rows.jsonl"
    rows_jsonl.write_text("yesterday's rows\n", encoding="utf-8")
    done = interpret(tmp_path, "simulate", mine(tmp_path), "--games", 40, "--jobs", 1,
                     "--csv", rows_csv, "--jsonl", rows_jsonl, file_size=4000)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "40 games" in done.stdout and "Player 1" in done.stdout
    assert f"interpret: --jsonl {rows_jsonl}: cannot write the rows: File too large" in done.stderr
    assert len(rows_csv.read_text(encoding="utf-8").splitlines()) == 41
    assert rows_jsonl.read_text(encoding="utf-8") == "yesterday's rows\n"
    assert not list(tmp_path.glob(".interpret-*"))


@pytest.mark.skipif(sys.platform == "win32", reason="needs resource limits")
def test_a_report_that_fills_the_disk_is_one_line_and_the_report_is_printed(tmp_path):
    folder = tmp_path / "report"
    done = interpret(tmp_path, "simulate", mine(tmp_path), "--games", 300, "--jobs", 1, "--report", folder,
                     file_size=4000)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "300 games" in done.stdout
    assert f"interpret: --report {folder}: cannot write the report: File too large" in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="needs resource limits")
def test_compiled_code_that_fills_the_disk_is_one_line_and_the_old_file_stays(tmp_path):
    code_py = tmp_path / "code.py"
    code_py.write_text("# yesterday's code\n", encoding="utf-8")
    done = interpret(tmp_path, "compile", mine(tmp_path), "-o", code_py, file_size=4000)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == f"interpret: -o {code_py}: cannot write the code: File too large\n"
    assert code_py.read_text(encoding="utf-8") == "# yesterday's code\n"


@pytest.mark.skipif(sys.platform == "win32", reason="needs resource limits")
def test_a_log_that_fills_the_disk_keeps_the_game_its_result_and_its_record(tmp_path):
    rec, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    done = interpret(tmp_path, mine(tmp_path), "--seed", 1, "--plain", "--record", rec, "--log", log,
                     file_size=8000)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "Result: Player 1 wins. (seed 1, 39 decisions)" in done.stdout
    assert done.stderr == f"interpret: --log {log}: cannot write the log: File too large\n"
    assert json.loads(rec.read_text(encoding="utf-8"))["result"]["decisions"] == 39


@needs_full
def test_a_full_standard_output_is_one_line_on_stderr(tmp_path):
    with open(FULL, "w") as full:                    # written to, never replaced
        done = interpret(tmp_path, "list", stdout=full)
    assert done.returncode == 1
    assert done.stderr == "interpret: the standard output: cannot write it: No space left on device\n"


@needs_full
def test_a_full_standard_output_still_writes_the_files(tmp_path):
    rows = tmp_path / "rows.csv"
    with open(FULL, "w") as full:
        done = interpret(tmp_path, "simulate", mine(tmp_path), "--games", 20, "--jobs", 1, "--csv", rows,
                         stdout=full)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "cannot write it: No space left on device" in done.stderr
    assert len(rows.read_text(encoding="utf-8").splitlines()) == 21


def test_a_closed_pipe_ends_quietly_and_the_game_keeps_its_record(tmp_path):
    """`interpret ... | head`: the reader has gone; the game is played to its end and recorded."""
    rec = tmp_path / "game.json"
    read, write = os.pipe()
    os.close(read)
    try:
        done = interpret(tmp_path, mine(tmp_path), "--seed", 1, "--plain", "--record", rec, stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(rec.read_text(encoding="utf-8"))["result"]["decisions"] == 39


# -- item 8: one game at a time from a record ------------------------------------------------

def test_a_record_being_played_is_refused_to_a_second_game(tmp_path):
    rec = a_person_s_record(tmp_path)
    before = rec.read_bytes()
    with records.playing(str(rec)):          # another process, as far as the lock can tell: its own open file
        code, _, err = call("resume", rec, "--plain", stdin="1\n" * 200)
        assert code == 1 and f"interpret: {rec}: another interpret (process {os.getpid()}) is playing" in err
        code, out, err = call(mine(tmp_path), "--seed", 1, "--quiet", "--record", rec)
        assert code == 1 and "is playing a game from this record" in err and no_game_was_played(out)
    assert rec.read_bytes() == before


@pytest.mark.parametrize("kind", ["link", "fifo", "folder"])
def test_a_lock_that_is_not_a_regular_file_refuses_the_game_instead_of_playing_unlocked(tmp_path, kind):
    rec = a_person_s_record(tmp_path)
    lock = tmp_path / f".{rec.name}.lock"
    {"link": lambda: os.symlink(tmp_path / "elsewhere", lock), "fifo": lambda: os.mkfifo(lock),
     "folder": lock.mkdir}[kind]()
    before = rec.read_bytes()
    code, _, err = call("resume", rec, "--plain", stdin="1\n" * 200)
    assert code == 1 and "the record cannot be locked" in err
    assert rec.read_bytes() == before


def test_the_lock_is_released_however_the_game_ends(tmp_path):
    rec = a_person_s_record(tmp_path)
    lock = tmp_path / f".{rec.name}.lock"
    for stdin, code_wanted in (("", 2), ("1\n" * 500, 0), ("", 2)):      # input ends; played to the end; over
        code, _, _ = call("resume", rec, "--plain", stdin=stdin)
        assert code == code_wanted and not lock.exists()
        with records.playing(str(rec)):
            assert lock.exists()
    assert not lock.exists()


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or sys.platform == "win32", reason="needs POSIX signals")
def test_two_resumes_at_once_the_second_is_refused_and_ctrl_c_frees_the_record(tmp_path):
    rec = a_person_s_record(tmp_path)
    lock = tmp_path / f".{rec.name}.lock"
    env = dict(os.environ, INTERPRETER_CACHE=str(tmp_path / "cache"))
    first = subprocess.Popen([sys.executable, "-c", "from interpreter.cli import main; main()", "resume", str(rec),
                              "--plain"], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + TIME_LIMIT
        while not lock.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lock.exists(), "the first resume never held the record"
        second = interpret(tmp_path, "resume", rec, "--plain")
        assert second.returncode == 1 and "Traceback" not in second.stderr
        assert f"{rec}: another interpret (process {first.pid}) is playing a game from this record" in second.stderr
        time.sleep(0.5)                              # the first waits for its person's move
        first.send_signal(signal.SIGINT)
        out, _ = first.communicate(timeout=TIME_LIMIT)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert first.returncode == 130 and "decisions saved" in out and not lock.exists()
    third = interpret(tmp_path, "resume", rec, "--plain")
    assert third.returncode == 2 and "decisions saved" in third.stdout      # not refused: its input ended


@needs_fifo
def test_a_whole_file_is_never_renamed_over_something_put_there_after_the_check(tmp_path):
    """The target is looked at again just before the rename: a FIFO made there while the
    file was being written stays a FIFO, the write fails in one line, no temporary file is left."""
    from interpreter.targets import Output, OutputFailed, write_file
    target = tmp_path / "rows.csv"
    output = Output("--csv", str(target), "the rows")

    def write(f):
        f.write("seed\n")
        os.mkfifo(target)                           # someone else, in the middle of the write
    with pytest.raises(OutputFailed, match="a FIFO .* not a regular file"):
        write_file(output, write)
    assert stat.S_ISFIFO(os.lstat(target).st_mode) and sorted(p.name for p in tmp_path.iterdir()) == ["rows.csv"]


def test_a_replaced_file_keeps_its_permissions_and_a_new_record_is_private(tmp_path):
    rules, rows, rec = mine(tmp_path), tmp_path / "rows.csv", tmp_path / "game.json"
    rows.write_text("old\n", encoding="utf-8")
    rows.chmod(0o640)
    assert call("simulate", rules, "--games", 2, "--jobs", 1, "--csv", rows)[0] == 0
    assert stat.S_IMODE(rows.stat().st_mode) == 0o640 and rows.read_text(encoding="utf-8") != "old\n"
    assert call(rules, "--seed", 1, "--quiet", "--record", rec)[0] == 0
    assert os.name == "nt" or stat.S_IMODE(rec.stat().st_mode) == 0o600     # it holds the seed


def test_a_records_folder_that_is_a_file_is_refused_before_a_person_plays(tmp_path, monkeypatch):
    """A game with a person is recorded in the records folder: one that cannot be made is said
    before the first deal, not after the person's first move."""
    taken = tmp_path / "records"
    taken.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setenv("CARD_INTERPRETER_RECORDS", str(taken))
    code, out, err = call(mine(tmp_path), "--seed", 2, "--human", 1, "--bot", "random", "--plain", stdin="1\n" * 200)
    assert code == 2 and f"{taken} is not a folder" in err and "your turn" not in out
    assert taken.read_text(encoding="utf-8") == "not a folder\n"
