"""Compiled kernels kept on disk, so that a ruleset's kernel compiles once (about 10 s) and
loads in well under a second after that.

Numba keeps what it compiled beside the module's file (`__pycache__`, pickled), and reads it
back to run: a file planted there would run.  So the cache is held to docs/security.md's
rules: one private folder (`$XDG_CACHE_HOME/card-interpreter/native`, made 0700, used only
when it is a real folder owned by this user that nobody else may write to), each kernel in a
folder named by the hash of its source, the module's file read back and compared with the
source before it is imported, and every file Numba wrote bound to it by an HMAC (a key of 32
random bytes kept 0600 in the folder): a file the manifest does not name or that does not
match it, a link, anything not a regular file or larger than MAX_FILE, and the kernel's
folder is removed and the kernel compiled afresh.  Where no such folder can be had, the
kernel compiles in memory, as before."""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import shutil
import stat

MAX_FILE = 64 << 20         # bytes of one cached file
MANIFEST = "manifest.json"


def root() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "card-interpreter", "native")


def private(path: str) -> bool:
    """Make `path` (0700) if it is not there; whether it is a folder of ours alone."""
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def _regular(path: str) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and st.st_size <= MAX_FILE


def _read(path: str) -> bytes | None:
    """A regular file's bytes (never following a link, never more than MAX_FILE), or None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE:
            return None
        with os.fdopen(fd, "rb") as f:
            fd = None
            return f.read(MAX_FILE + 1)
    finally:
        if fd is not None:
            os.close(fd)


def _write(path: str, data: bytes) -> None:
    """A new file (0600) beside `path`, renamed over it."""
    tmp = f"{path}.{secrets.token_hex(6)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _key(folder: str) -> bytes | None:
    path = os.path.join(folder, "key")
    key = _read(path)
    if key is not None and len(key) == 32:
        return key
    if os.path.lexists(path):
        return None
    try:
        _write(path, secrets.token_bytes(32))
    except OSError:
        return None
    return _read(path)


class Entry:
    """One kernel's folder: its module file and what Numba wrote beside it."""

    def __init__(self, source: str):
        self.source = source.encode()
        self.folder = self.module = self.key = None
        top = root()
        if not (private(os.path.dirname(os.path.dirname(top))) and private(os.path.dirname(top))
                and private(top)):
            return
        self.key = _key(top)
        if self.key is None:
            return
        folder = os.path.join(top, hashlib.sha256(self.source).hexdigest()[:40])
        if not private(folder):
            return
        self.folder, self.module = folder, os.path.join(folder, "kernel.py")

    @property
    def usable(self) -> bool:
        return self.folder is not None

    def _compiled_files(self) -> list:
        cache = os.path.join(self.folder, "__pycache__")
        if not os.path.lexists(cache):
            return []
        if not private(cache):
            raise ValueError("not a private folder")
        return sorted(os.path.join("__pycache__", f) for f in os.listdir(cache))

    def _mac(self, name: str) -> str | None:
        data = _read(os.path.join(self.folder, name))
        return None if data is None else hmac.new(self.key, data, hashlib.sha256).hexdigest()

    def sound(self) -> bool:
        """Whether what Numba compiled is here and bound to the key (nothing is changed)."""
        try:
            return self._sound()
        except (OSError, ValueError):
            return False

    def warm(self) -> bool:
        """Whether what Numba compiled is here and sound (if anything is not, the folder is
        emptied, for a fresh compile); the module's file is (re)written as the source."""
        sound = self.sound()
        if not sound:
            shutil.rmtree(self.folder, ignore_errors=True)
            if not private(self.folder):
                self.folder = None
                return False
            _write(self.module, self.source)
        return sound

    def _sound(self) -> bool:
        manifest = _read(os.path.join(self.folder, MANIFEST))
        if manifest is None or _read(self.module) != self.source:
            return False
        macs = json.loads(manifest)
        files = self._compiled_files()
        if not files or sorted(macs) != files:
            return False
        return all(_regular(os.path.join(self.folder, f)) and hmac.compare_digest(self._mac(f) or "", mac)
                   for f, mac in macs.items())

    def seal(self) -> None:
        """Bind every file Numba wrote to the key, once the kernel has compiled."""
        try:
            cache = os.path.join(self.folder, "__pycache__")
            st = os.lstat(cache)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
                return
            os.chmod(cache, 0o700)          # Numba makes it by the umask: ours alone, as the rest
            macs = {f: self._mac(f) for f in self._compiled_files()}
            if all(macs.values()):
                _write(os.path.join(self.folder, MANIFEST), json.dumps(macs).encode())
        except (OSError, ValueError):
            pass
