"""Where a command may write: the one place every output (--record, --log, --csv, --jsonl,
--plot, --report, compile -o, the record a game is resumed from) is checked and written.

A user's files are their data.  Before any game is played an output is refused when it
names something that is not a regular file (a folder where a file is meant, a device, a
FIFO, a socket), a link to nothing, a file in a folder that does not exist or cannot be
written, a file the command reads (the ruleset, the rulesets it extends, the record being
resumed), or a file another output of the same command writes.  A link is followed: one to
a regular file is written through (the file it names is replaced, the link stays), one to
anything else is refused like what it names.

A whole file is written beside its target and renamed over it, so that a write that fails
(a full disk) leaves the file as it was, and nothing that is not a regular file is ever
replaced: the target is looked at again just before the rename.  A file written as it goes
(the --log of a game) is opened without blocking and used only when the opened thing is a
regular file.  A failure after the work is an OutputFailed: one line, and the caller keeps
what was computed.
"""
from __future__ import annotations

import os
import secrets
import stat
from dataclasses import dataclass

from .errors import InterpreterError, Problem, UsageError, format_problem


class OutputFailed(InterpreterError):
    """An output could not be written after the work was done (a full disk, a folder
    removed meanwhile): what was computed is kept elsewhere, this says what was not written."""


@dataclass(frozen=True)
class Output:
    """One thing a command writes: `flag` is how the user named it ('--csv', or '' for the
    record being resumed), `what` how a message calls it, `inside` the names a folder output
    (--report DIR) writes into its folder."""
    flag: str
    path: str
    what: str = "it"
    inside: tuple = ()

    def label(self) -> str:
        return f"{self.flag} {self.path}" if self.flag else str(self.path)


def refused(output: Output, reason: str) -> UsageError:
    """A usage error naming the output (control characters in the name shown escaped)."""
    return UsageError(format_problem(Problem(output.label(), 0, 0, f"cannot write {output.what}: {reason}")))


def failed(output: Output, e: BaseException) -> OutputFailed:
    """The error of a write that failed after the work, naming the output and the system's reason."""
    reason = getattr(e, "reason", None) or getattr(e, "strerror", None) or str(e)
    return OutputFailed(format_problem(Problem(output.label(), 0, 0, f"cannot write {output.what}: {reason}")))


def program_files(program) -> list[str]:
    """The files a program's rules were read from: the ruleset, then each base it extends."""
    source = program.rules[1] if program.rules else None
    parts = getattr(source, "parts", None)
    files = [f for _, f, _ in parts] if parts else [program.file]
    return list(dict.fromkeys(os.path.abspath(f) for f in files if f))


def ruleset_reads(program) -> list[tuple[str, str]]:
    """(path, what it is) of each file a program's rules were read from, for a refusal: the
    ruleset, each base it extends, and the prose of its rules (rules_file)."""
    files = program_files(program)
    reads = [(f, "the ruleset this command reads" if i == 0 else "a ruleset it extends") for i, f in enumerate(files)]
    if getattr(program, "rules_path", ""):
        reads.append((os.path.abspath(program.rules_path), "the rules file this ruleset names"))
    return reads


def check_outputs(outputs, reads=()) -> None:
    """Refuse (UsageError) the first output that may not be written; `reads` holds (path,
    what it is) of each file the command reads.  Nothing is opened or created here."""
    seen: dict[str, Output] = {}
    for output in outputs:
        if output.path:
            reason = _refusal(output.path, folder=bool(output.inside))
            if reason:
                raise refused(output, reason)
            files = [os.path.join(output.path, name) for name in output.inside] or [output.path]
            for file in files:
                reason = _file_refusal(output, file, reads, seen)
                if reason:
                    raise refused(output, reason)


def _file_refusal(output: Output, file, reads, seen: dict) -> str | None:
    """Why one file an output writes may not be written: a file of a folder output that is
    not a regular file, a file the command reads, a file another output writes."""
    reason = (_refusal(file) if output.inside and os.path.lexists(file) else None) or _read_by_command(file, reads)
    if reason and output.inside:                # which of the folder's files: "DIR/index.html is a FIFO ..."
        reason = f"{file} {reason[3:]}" if reason.startswith("it ") else f"{file}: {reason}"
    other = seen.setdefault(_key(file), output)
    if not reason and other is not output:
        reason = f"{other.label()} writes {os.path.basename(file) if output.inside else 'it'} too"
    return reason


def _key(path) -> str:
    return os.path.normcase(os.path.realpath(path))


def _read_by_command(path, reads) -> str | None:
    try:
        mine = os.stat(path)
    except (OSError, ValueError):
        return None
    for file, what in reads:
        try:
            if os.path.samestat(mine, os.stat(file)):
                return f"it is {what}"
        except (OSError, ValueError):
            continue
    return None


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (a named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refusal(path, folder: bool = False) -> str | None:
    """Why `path` may not be written (a file, or with `folder` a folder to write into), or None."""
    path = os.fspath(path)
    try:
        st = os.stat(path)                 # through links: what would be written
    except FileNotFoundError:
        if os.path.islink(path):
            return "it is a link to a file that does not exist"
        if not folder and path.endswith(("/", os.sep)):
            return "it names a folder, not a file"
        return _folder_refusal(os.path.dirname(os.path.abspath(path)))
    except NotADirectoryError:
        return _folder_refusal(os.path.dirname(os.path.abspath(path)))
    except ValueError:
        return "it is not a file name (a NUL character)"
    except OSError as e:
        return e.strerror or "it cannot be looked at"
    if folder:
        if not stat.S_ISDIR(st.st_mode):
            return "it is a file, not a folder" if stat.S_ISREG(st.st_mode) else f"it is {_kind(st.st_mode)}, not a folder"
        return None if os.access(path, os.W_OK | os.X_OK) else "the folder cannot be written"
    if not stat.S_ISREG(st.st_mode):
        kind = _kind(st.st_mode)
        return f"it is {kind}, not a file" if kind == "a folder" else f"it is {kind}, not a regular file"
    if not os.access(path, os.W_OK):
        return "it cannot be written (no permission)"
    return _folder_refusal(os.path.dirname(os.path.realpath(path)))


def _folder_refusal(folder: str) -> str | None:
    """Why a file cannot be made in `folder` (its temporary copy is made there), or None."""
    try:
        st = os.stat(folder)
    except (OSError, ValueError):
        return f"no such folder {folder}"
    if not stat.S_ISDIR(st.st_mode):
        return f"{folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} cannot be written"
    return None


def make_folder(output: Output) -> None:
    """Make a folder output's folder (its parent was checked to exist); OutputFailed if it cannot."""
    try:
        os.mkdir(output.path)
    except FileExistsError:
        if not os.path.isdir(output.path):
            raise failed(output, OSError(0, "it is not a folder")) from None
    except (OSError, ValueError) as e:
        raise failed(output, e) from None


def write_file(output: Output, write, path=None, binary: bool = False, private: bool = False) -> None:
    """Write a whole file: `write(f)` fills a new file beside the target, which then replaces
    it, unless the target has become something else than a regular file.  `path` is a file
    of a folder output (default: the output's own path); `private` makes a new file readable
    by its owner only (a record: it holds the seed that fixes every deal).  The file keeps the
    permissions of the one it replaces.  OutputFailed when it cannot be written, and then the
    old file is as it was and no temporary file is left."""
    target = os.path.realpath(os.fspath(path if path is not None else output.path))
    try:
        folder = os.path.dirname(target)
        try:
            old = os.stat(target)
            mode = stat.S_IMODE(old.st_mode)
        except FileNotFoundError:
            old, mode = None, None
        if old is not None and not stat.S_ISREG(old.st_mode):
            raise OSError(0, f"it is {_kind(old.st_mode)}, not a regular file")
        tmp, fd = _temporary(folder, 0o600 if private else 0o666)
        try:
            with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8", "newline": ""})) as f:
                if mode is not None:
                    os.chmod(tmp, mode)
                write(f)
            _still_a_file(target)
            os.replace(tmp, target)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except (OSError, ValueError) as e:
        raise failed(output, e) from None


def _temporary(folder: str, mode: int):
    """(name, descriptor) of a new file in `folder`, made with `mode` less the umask."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        name = os.path.join(folder, f".interpret-{secrets.token_hex(6)}.tmp")
        try:
            return name, os.open(name, flags, mode)
        except FileExistsError:
            continue
    raise OSError(0, "no temporary file could be made beside it")


def _still_a_file(target: str) -> None:
    """Just before the rename: the target is absent or a regular file (not a link, a FIFO,
    a device or a folder put there since it was checked)."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        raise OSError(0, f"it is {_kind(st.st_mode) if not stat.S_ISLNK(st.st_mode) else 'a link'} now, "
                         f"not a regular file")


def write_text(output: Output, text: str, private: bool = False) -> None:
    """Write `text` as the whole file (write_file)."""
    write_file(output, lambda f: f.write(text), private=private)


def open_output(output: Output):
    """A text file to write as the command goes (a game's --log), opened without blocking (a
    FIFO put there would wait for a reader) and used only when it is a regular file; then
    emptied.  UsageError when it cannot be (this is before any game is played)."""
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | \
        getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(output.path, flags, 0o666)
    except (OSError, ValueError) as e:
        raise refused(output, getattr(e, "strerror", None) or str(e)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise refused(output, f"it is {_kind(st.st_mode)}, not a regular file")
        os.ftruncate(fd, 0)
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "w", encoding="utf-8")
    except BaseException as e:
        os.close(fd)
        if isinstance(e, OSError):
            raise refused(output, e.strerror or str(e)) from None
        raise
