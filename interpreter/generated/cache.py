"""Compiled generated code, kept in this process by the hash of its source.

The same ruleset with the same options writes the same Python, so a scenario file, a test
suite or a simulation that loads the same rules again and again compiles each piece once.

Nothing is kept on disk.  A disk cache would read code objects back from files and run
them, so a file planted where it keeps them (its names are computable for any source)
would run as this user; making that safe takes a private folder, checks of owner, mode
and kind of every file, and a keyed checksum binding each file to its source.  It would
save the compilation of the one large module of a program: 30 to 60 ms at the start of a
run (31 to 60 ms for the shipped rulesets; a run takes 0.3 to 0.9 s), nothing per game,
since simulate's workers are forked after the program is built.  That does not pay.
"""
from __future__ import annotations

import hashlib

_MEMORY: dict = {}
_MEMORY_LIMIT = 20_000       # compiled pieces kept in this process


def compiled(source: str, filename: str, mode: str = "exec"):
    """The code object of `source` (a module, or with mode "eval" an expression), compiled
    at most once per content in this process."""
    key = hashlib.sha256(f"{mode}\0{filename}\0{source}".encode()).hexdigest()
    code = _MEMORY.get(key)
    if code is None:
        code = compile(source, filename, mode)
        if len(_MEMORY) >= _MEMORY_LIMIT:
            _MEMORY.pop(next(iter(_MEMORY)))
        _MEMORY[key] = code
    return code
