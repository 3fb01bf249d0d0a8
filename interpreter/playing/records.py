"""Game records: every decision of a game, to replay it, check it or resume it.

A record is JSON: the ruleset (file, name, content hash), the options, players,
seed, language, who sat where, the stacked deck if any, every decision with its
readable label, and the result once there is one.  It is read back through the
same pipeline as a ruleset (YAML loader with positions, then a JSON Schema), so a
malformed record gets `file:line:col` errors like any other input.
"""
from __future__ import annotations

import dataclasses

import json
import os
import signal
import threading
import secrets
import stat
import time

from .agents import Decision
from .table import result_summary
from .. import targets
from ..runtime.engine import apply, labels, new_game
from ..errors import InterpreterError, Problem, RulesetError, brief, format_problem
from ..limits import MAX_ITERATIONS, MAX_PLAYOUTS
from ..source.loader import FileRefused, load_file, read_bytes
from ..source.overlay import rules_hash

FORMAT = "card-interpreter-record/1"


def ruleset_hash(path: str) -> str:
    """SHA-256 of a ruleset file (read within the limits of every input file); of the combined
    rules for an overlay."""
    return rules_hash(path)


def new_record(program, ruleset_path: str, seed: int, players: int, agents: list, stacks=None,
               bot: dict | None = None) -> dict:
    return {
        "format": FORMAT,
        "ruleset": {"name": program.name, "file": os.path.abspath(ruleset_path),
                    "sha256": ruleset_hash(ruleset_path)},
        "options": dict(program.options), "players": players, "seed": seed, "lang": program.lang,
        "agents": list(agents), "bot": bot or {"kind": "random"}, "stacks": stacks, "decisions": [], "result": None,
    }


def note_decision(record: dict, player: int, index: int, label: str) -> None:
    """Append the decision just made: who chose which option (its label, for a reader)."""
    record["decisions"].append({"player": player, "index": index, "label": label})


def note_result(record: dict, s) -> None:
    record["result"] = result_summary(s)


def save(record: dict, path: str) -> None:
    """Write atomically (targets.write_file), so an interrupted write never leaves half a
    record, nor a temporary file: Ctrl-C, SIGTERM and SIGHUP during the write are held until
    the record is in place, and any failure removes the temporary file.  A new record is
    readable by its owner only: it holds the seed, which fixes every deal."""
    text = json.dumps({k: v for k, v in record.items() if not k.startswith("_")}, ensure_ascii=False, indent=1)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)   # the records folder, the first time
    except (OSError, ValueError):
        pass                                    # the write says why it cannot be made
    with _interrupts_held():
        targets.write_text(output(path), text + "\n", private=True)


def output(path: str, flag: str = "") -> targets.Output:
    """A record as an output: `flag` '--record' when the user named it so."""
    return targets.Output(flag, path, "the record")


class RecordBusy(InterpreterError):
    """A record another process is playing a game from (see `playing`)."""


class playing:
    """Hold a record's lock while a game is played from it, so that a second `interpret
    resume` (or a game with --record to the same file) is refused instead of both playing
    and one finished game being lost.  The lock is a file beside the record (`.NAME.lock`,
    in the folder of the file a link names), locked with flock (msvcrt on Windows) and
    removed when the game ends, however it ends; a process that dies leaves no lock held
    (the system releases it).  Where files cannot be locked (some network folders) the
    game is played unlocked."""

    def __init__(self, path: str):
        real = os.path.realpath(path)
        self.path = path
        self.lock_path = os.path.join(os.path.dirname(real), f".{os.path.basename(real)}.lock")
        self.fd = None

    def __enter__(self):
        try:
            os.makedirs(os.path.dirname(self.lock_path), exist_ok=True)    # the records folder, the first time
        except (OSError, ValueError):
            pass
        while self.fd is None:
            fd = self._open()
            if fd is None and os.path.lexists(self.lock_path):     # a link, FIFO or folder in the lock's place
                raise RecordBusy(format_problem(Problem(
                    self.path, 0, 0, f"the record cannot be locked: {self.lock_path} is not a regular file "
                                     "(remove it, then play again)")))
            if fd is None:
                return self                     # no lock file can be made: the record's write will say why
            try:
                held = _lock(fd)
                if not held:
                    raise RecordBusy(format_problem(Problem(
                        self.path, 0, 0, f"another interpret{_holder(fd)} is playing a game from this record; "
                                         f"wait until it ends (a record is played by one game at a time)")))
                if _same_file(fd, self.lock_path):   # not a lock its last holder removed meanwhile
                    self.fd, fd = fd, None
                    os.ftruncate(self.fd, 0)
                    os.write(self.fd, str(os.getpid()).encode("ascii"))
            except OSError:
                pass                            # the process number is only for the message
            except BaseException:               # refused, or Ctrl-C right now: no lock is left behind
                self.__exit__()
                raise
            finally:
                if fd is not None:
                    os.close(fd)
        return self

    def _open(self):
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | \
            getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        try:
            fd = os.open(self.lock_path, flags, 0o600)
        except (OSError, ValueError):
            return None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        return fd

    def __exit__(self, *exc):
        """Remove the lock file while still holding it (a process waiting to lock it then sees
        that it is gone), then release it."""
        if self.fd is not None:
            try:
                os.unlink(self.lock_path)
            except OSError:
                pass
            _unlock(self.fd)
            os.close(self.fd)                   # releases the lock (flock)
            self.fd = None
        return False


def _lock(fd: int) -> bool:
    """Lock `fd` without waiting; False when another holds it (True where locks do not work)."""
    try:
        import fcntl
    except ImportError:                         # Windows
        try:
            import msvcrt
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except ImportError:
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    except OSError:                             # ENOLCK, EOPNOTSUPP: this folder cannot be locked
        return True


def _unlock(fd: int) -> None:
    """Windows: unlock the byte `_lock` locked before the file is closed (flock needs nothing)."""
    try:
        import msvcrt
    except ImportError:
        return
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    except OSError:
        pass


def _holder(fd: int) -> str:
    """' (process N)': the process that holds a lock, as it wrote itself into the lock file."""
    try:
        text = os.pread(fd, 20, 0).decode("ascii").strip() if hasattr(os, "pread") else ""
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (process {text})" if text.isdigit() else ""


def _same_file(fd: int, path: str) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


# Ctrl-C, `kill` and a closed terminal: each ends a game the same way (see `interrupt_on_termination`).
HELD_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def interrupt_on_termination() -> None:
    """Make SIGTERM and SIGHUP (where the platform has them) raise KeyboardInterrupt like
    Ctrl-C, so a game being played saves its record and says how to resume it.  A signal
    that is ignored (e.g. SIGHUP under nohup) or handled by someone else is left alone."""
    for signum in HELD_SIGNALS:
        if signum == signal.SIGINT:
            continue
        try:
            if signal.getsignal(signum) == signal.SIG_DFL:
                signal.signal(signum, _interrupt)
        except (ValueError, OSError):          # not the main thread, or not allowed here
            pass


class _interrupts_held:
    """Hold SIGINT (Ctrl-C), SIGTERM and SIGHUP for the duration of the block, then deliver
    them.  Only the main thread can install a handler; elsewhere the block runs as it is.
    A signal whose handler was not installed from Python is not touched."""

    def __enter__(self):
        self.caught = []
        self.previous = {}
        if threading.current_thread() is not threading.main_thread():
            return self
        try:
            for signum in HELD_SIGNALS:
                try:
                    if signal.getsignal(signum) is None:
                        continue
                    self.previous[signum] = signal.signal(signum, self._hold)
                except (ValueError, OSError):
                    pass
        except BaseException:                  # a signal came in while the handlers were changed
            self._restore(list(self.previous.items()))
            raise
        return self

    def _hold(self, signum, frame):
        if signum not in self.caught:
            self.caught.append(signum)

    def _restore(self, handlers):
        """Put every handler back, even when a signal let through by the first ones raises."""
        if handlers:
            try:
                signal.signal(*handlers[0])
            finally:
                self._restore(handlers[1:])

    def __exit__(self, *exc):
        handlers, self.previous = list(self.previous.items()), {}
        self._restore(handlers)
        for signum in self.caught:             # now, through the handlers they were meant for
            signal.raise_signal(signum)
        return False


def records_dir() -> str:
    return os.environ.get("CARD_INTERPRETER_RECORDS") or os.path.join(os.path.expanduser("~"), ".card-interpreter", "records")


def latest_unfinished() -> str | None:
    """The newest record in the records folder whose game is not over, or None."""
    folder = records_dir()
    try:
        paths = sorted((os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".json")),
                       key=os.path.getmtime, reverse=True)
    except OSError:
        return None
    for path in paths:
        try:                            # a FIFO or a link to /dev/zero there is refused unread
            if json.loads(read_bytes(path)).get("result") is None:
                return path
        except (FileRefused, ValueError, AttributeError, RecursionError):
            continue                    # not a record we can read: the next one
    return None


def make_records_folder() -> None:
    """Make the records folder if it is not there (a file in its place is refused by the check
    of the record's path, before the game)."""
    try:
        os.makedirs(records_dir(), exist_ok=True)
    except (OSError, ValueError):
        pass


def default_path(name: str) -> str:
    """Where a game with a person at the table is recorded automatically (the name does
    not give the seed away: it fixes every deal)."""
    return os.path.join(records_dir(), f"{name}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}.json")


def load(path: str) -> dict:
    """Read and check a record; raise RulesetError with positions when it is malformed."""
    try:
        data, source = load_file(path)
    except RulesetError as e:           # not even YAML: say what it is not, then why
        raise RulesetError([dataclasses.replace(p, hint="this is not a game record: records are the .json files "
                                                        "interpret writes (--record, or every game with a person)")
                            for p in e.problems]) from None
    from ..check.schema import check          # here: a command that reads no record loads no schema checker
    problems = check(data, source, "record")
    if problems:
        raise RulesetError(problems)
    if data["format"] != FORMAT:
        raise RulesetError([source.problem(("format",), f"unknown record format '{data['format']}' (expected {FORMAT})")])
    data["_source"] = source
    return data


def program_of(record: dict, ruleset_path: str | None = None, backend: str = "generated"):
    """The compiled ruleset of a record, and a note if its file changed since; built by
    `backend` (the command's --backend: a record does not say which back end played it).

    The record must fit its ruleset: options and language, the number of players
    and seats, the bot, the stacked deck; each misfit is a problem at its key."""
    from ..pipeline import check_players, load_named_program
    src = record["_source"]
    path = ruleset_path or record["ruleset"]["file"]
    program = load_named_program(path, path, src, ("ruleset", "file"),
                                 {k: str(v) for k, v in record["options"].items()}, record.get("lang"),
                                 backend=backend)
    problems = check_players(record["players"], program, src, ("players",))
    if not problems and len(record["agents"]) != record["players"]:
        k = len(record["agents"])
        problems.append(src.problem(("agents",), f"'agents' names {k} seat{'' if k == 1 else 's'} for "
                                                 f"{record['players']} players"))
    playouts = (record.get("bot") or {}).get("playouts", 1)
    if playouts > MAX_PLAYOUTS:
        problems.append(src.problem(("bot", "playouts"), f"more than {MAX_PLAYOUTS} play-outs per option"))
    iterations = (record.get("bot") or {}).get("iterations", 1)
    if iterations > MAX_ITERATIONS:
        problems.append(src.problem(("bot", "iterations"), f"more than {MAX_ITERATIONS} iterations a decision"))
    for n, d in enumerate(record["decisions"]):
        if not problems and d["player"] >= record["players"]:
            problems.append(src.problem(("decisions", n, "player"), f"decision {n + 1}: there is no seat "
                                                                    f"{d['player']} among {record['players']} players"))
    if not problems:
        try:
            new_game(program, seed=record["seed"], players=record["players"], stacks=record.get("stacks"), log=False)
        except InterpreterError as e:
            problems.append(src.problem(("stacks",) if record.get("stacks") else ("players",), brief(e)))
    if problems:
        raise RulesetError(problems)
    changed = ruleset_hash(path) != record["ruleset"]["sha256"]
    return program, changed


class Divergence(InterpreterError):
    """The record and the ruleset no longer agree; says where and why."""


def replay(record: dict, program, on_state=None, names=None):
    """Play the recorded decisions again; return the state; raise Divergence at the first mismatch.
    `names`: the players' names, where people chose them (the game server's tables)."""
    s = new_game(program, seed=record["seed"], players=record["players"], stacks=record.get("stacks"), names=names)
    for n, d in enumerate(record["decisions"], 1):
        if s.over:
            raise Divergence(f"decision {n} ('{d['label']}'): the game was already over")
        if s.pending[0] != d["player"]:
            raise Divergence(f"decision {n} ('{d['label']}'): it is Player {s.pending[0] + 1}'s decision, "
                             f"the record says Player {d['player'] + 1}")
        legal = labels(program, s)
        if d["label"] not in legal:
            raise Divergence(f"decision {n} ('{d['label']}') is no longer legal; legal: {', '.join(legal)}")
        i = d["index"]
        if not (i < len(legal) and legal[i] == d["label"]):      # resume plays the index: it must be this move
            named = f"'{legal[i]}'" if i < len(legal) else f"no move (there are {len(legal)})"
            raise Divergence(f"decision {n} ('{d['label']}'): the record's index {i} names {named} here")
        apply(program, s, i)
        if on_state:
            on_state(s, n)
    return s


def check_result(record: dict, s) -> None:
    want = record.get("result")
    if want is None:
        return
    if not s.over:
        raise Divergence(f"after all {len(record['decisions'])} decisions the game is not over, "
                         f"but the record has a result")
    got = result_summary(s)
    for key in ("winners", "scores"):
        if got[key] != want.get(key):
            raise Divergence(f"the result differs: {key} {got[key]} instead of {want.get(key)}")


def bot_catch_up(record: dict, program, agents) -> None:
    """Let bots see the recorded prefix again so their random generators are where they were:
    the random bots (`catches_up`).  A planning bot plans afresh from where the game is: its
    decisions planned again would take as long as the game so far.

    Each decision must still be legal where it was made, with its index matching its
    label: a record that does not fit is a problem at that decision, not a crash."""
    s = new_game(program, seed=record["seed"], players=record["players"], stacks=record.get("stacks"), log=False)
    src = record["_source"]
    for n, d in enumerate(record["decisions"]):
        def wrong(message, n=n):
            return RulesetError([src.problem(("decisions", n), f"decision {n + 1} ('{d['label']}'): {message}")])
        if s.over:
            raise wrong("the game was already over")
        seat = s.pending[0]
        if seat != d["player"]:
            raise wrong(f"it is Player {seat + 1}'s decision, the record says Player {d['player'] + 1}")
        legal = labels(program, s)
        if not d["index"] < len(legal) or legal[d["index"]] != d["label"]:
            raise wrong("it is not the legal move at its index; the record does not fit the ruleset")
        agent = agents[seat]
        if record["agents"][seat] == "bot" and getattr(agent, "catches_up", False):
            agent.choose(Decision(program, s))
        apply(program, s, d["index"])
