"""Compiled generated code, kept by the hash of its source (as Python keeps __pycache__).

The same ruleset with the same options writes the same Python, so its compiled form is kept:
in this process (a scenario file, a test suite or a simulation loads the same rules again and
again) and on disk, in the user's cache folder, for the next process.  The disk is an
optimisation only: a folder that cannot be written, or a file that cannot be read back, is
passed over and the source compiled again.  INTERPRETER_CACHE=0 turns the disk cache off;
INTERPRETER_CACHE=/some/dir puts it there.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
import types

_MEMORY: dict = {}
_MEMORY_LIMIT = 20_000       # compiled pieces kept in this process
_TAG = f"{sys.implementation.cache_tag}-1"     # the Python that compiled it, and our format


def compiled(source: str, filename: str, disk: bool = True, mode: str = "exec"):
    """The code object of `source` (a module), compiled at most once per content (`disk`:
    kept on disk too; small pieces are kept in memory only)."""
    key = hashlib.sha256(f"{_TAG}\0{mode}\0{filename}\0{source}".encode()).hexdigest()
    code = _MEMORY.get(key)
    if code is not None:
        return code
    folder = _folder() if disk else None
    path = os.path.join(folder, key[:40] + ".pyc") if folder else None
    code = _read(path) if path else None
    if code is None:
        code = compile(source, filename, mode)
        if path:
            _write(path, code)
    if len(_MEMORY) >= _MEMORY_LIMIT:
        _MEMORY.pop(next(iter(_MEMORY)))
    _MEMORY[key] = code
    return code


def _folder() -> str | None:
    setting = os.environ.get("INTERPRETER_CACHE", "")
    if setting == "0":
        return None
    if setting:
        return setting
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "card-interpreter", "generated")


def _read(path):
    try:
        with open(path, "rb") as f:
            code = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return code if isinstance(code, types.CodeType) else None


def _write(path, code) -> None:
    """Written whole or not at all (a temporary file renamed), so that another process never
    reads half a file."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(marshal.dumps(code))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass
