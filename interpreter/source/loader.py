"""Stage 1: read a YAML file into plain data plus a table of source positions.

PyYAML's safe composer gives nodes with marks; we build plain dicts and lists from
them ourselves so that every value (and every mapping key) keeps its line and
column, keyed by its path.  Later stages report problems by path and ask the
`Source` where that path sits in the file.

The loader reads YAML 1.2 (core schema): booleans are only true/false, numbers are
decimal, 0o octal or 0x hex (`1:0`, `0b11`, `1_000` and dates stay strings), and
only the core tags (!!str, !!int, !!float, !!bool, !!null, !!seq, !!map) exist.
Every resource is bounded (`limits.py`): a file is a regular file of at most
MAX_FILE_BYTES, read without trusting its size; nesting, aliases, strings, lists,
mappings and numbers are checked while the file is composed and built, and each
excess is a positioned problem.

A file that another file names (an overlay's base, a scenario's or a record's ruleset)
is read by `load_named`, which quotes nothing of it unless it loads as a ruleset.
"""
from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import yaml
from yaml.events import AliasEvent, MappingStartEvent, SequenceStartEvent

from ..errors import InterpreterError, Problem, RulesetError
from ..limits import (MAX_ALIAS_EXPANSION, MAX_ALIASES, MAX_FILE_BYTES, MAX_KEYS, MAX_LIST, MAX_NESTING,
                     MAX_NUMBER, MAX_NUMBER_TEXT, MAX_STRING, MAX_VALUES)

Path = tuple

_CORE = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = (_CORE + t for t in ("str", "int", "float", "bool", "null"))
SEQ, MAP, MERGE = _CORE + "seq", _CORE + "map", _CORE + "merge"

# YAML 1.2 core schema, https://yaml.org/spec/1.2.2/#1032-tag-resolution
_NULL_RX = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL_RX = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT_RX = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT_RX = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                       r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
# What YAML forbids in a stream (the same set PyYAML's reader refuses).
_NON_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]")
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_BOUND = f"10^{len(str(MAX_NUMBER)) - 1}" if str(MAX_NUMBER).strip("0") == "1" else str(MAX_NUMBER)
TOO_LARGE = f"a number too large: numbers must lie between -{_BOUND} and {_BOUND}"


class _LimitError(Exception):
    """A limit reached while composing: the composer stops there."""

    def __init__(self, mark, message):
        super().__init__(message)
        self.mark, self.message = mark, message


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2 core resolution and bounded composition.

    The composer is recursive: it stops at MAX_NESTING levels, before Python's
    stack does.  Each node notes its size and depth with aliases expanded, so that
    aliases (and an alias inside the node it names) cannot multiply the data."""

    def __init__(self, stream):
        super().__init__(stream)
        self._open = 0            # collections being composed around the current node
        self._aliases = 0
        self._expanded = 0
        self._values = 0

    def _count(self, parent):
        """One more item in `parent`, a list or a mapping (a key and a value count one each)."""
        parent.count = getattr(parent, "count", 0) + 1
        if isinstance(parent, yaml.SequenceNode) and parent.count > MAX_LIST:
            raise _LimitError(parent.start_mark, f"a list with more than {MAX_LIST} items")
        if isinstance(parent, yaml.MappingNode) and parent.count > 2 * MAX_KEYS:
            raise _LimitError(parent.start_mark, f"a mapping with more than {MAX_KEYS} entries")

    def compose_node(self, parent, index):
        if parent is not None:
            self._count(parent)
        if self.check_event(AliasEvent):
            event = self.peek_event()
            target = self.anchors.get(event.anchor)
            if target is not None:
                self._alias(event, target)
            return super().compose_node(parent, index)
        collection = self.check_event(SequenceStartEvent, MappingStartEvent)
        if collection and self._open >= MAX_NESTING:
            raise _LimitError(self.peek_event().start_mark,
                              f"lists and mappings are nested more than {MAX_NESTING} levels deep")
        self._values += 1
        if self._values > MAX_VALUES:
            raise _LimitError(self.peek_event().start_mark, f"more than {MAX_VALUES} values in one file")
        self._open += collection
        try:
            node = super().compose_node(parent, index)
        finally:
            self._open -= collection
        if isinstance(node, yaml.ScalarNode):
            node.size, node.depth = 1, 0
        else:
            children = [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else node.value
            node.size = 1 + sum(c.size for c in children)
            node.depth = 1 + max((c.depth for c in children), default=0)
        return node

    def _alias(self, event, target):
        self._aliases += 1
        if self._aliases > MAX_ALIASES:
            raise _LimitError(event.start_mark, f"more than {MAX_ALIASES} aliases in one file")
        if not hasattr(target, "size"):
            raise _LimitError(event.start_mark, f"the alias '*{_short(event.anchor)}' is inside the value it "
                                                f"names, which would make that value endless")
        self._expanded += target.size
        if self._expanded > MAX_ALIAS_EXPANSION:
            raise _LimitError(event.start_mark, f"aliases expand to more than {MAX_ALIAS_EXPANSION} values "
                                                f"in one file")
        if self._open + target.depth > MAX_NESTING:
            raise _LimitError(event.start_mark, f"with this alias expanded, lists and mappings are nested more "
                                                f"than {MAX_NESTING} levels deep")


_Loader.yaml_implicit_resolvers = {}
for _tag, _rx, _first in ((NULL, _NULL_RX, ["~", "n", "N", ""]), (BOOL, _BOOL_RX, list("tTfF")),
                          (INT, _INT_RX, list("-+0123456789")), (FLOAT, _FLOAT_RX, list("-+.0123456789")),
                          (MERGE, re.compile(r"^<<$"), ["<"])):
    _Loader.add_implicit_resolver(_tag, _rx, _first)


@dataclass
class Source:
    """Where each path of the loaded data came from."""
    file: str
    values: dict = field(default_factory=dict)   # path -> (line, col, style)
    keys: dict = field(default_factory=dict)     # path -> (line, col) of the mapping key
    lines: list = field(default_factory=list)    # the file's lines, to show where a problem is
    shipped_bases: bool = False                  # an overlay's bases are shipped rulesets only (an upload's)

    def at(self, path: Path, key: bool = False) -> tuple[int, int]:
        """The position of `path`, or of its nearest ancestor that has one."""
        path = tuple(path)
        table = self.keys if key else self.values
        while path:
            if path in table:
                return table[path][:2]
            if key:
                table = self.values
                key = False
                continue
            path = path[:-1]
        return self.values.get((), (1, 1, None))[:2]

    def in_text(self, path: Path, offset: int) -> tuple[int, int]:
        """The position of character `offset` inside the string at `path`."""
        line, col, style = self.values.get(tuple(path), (0, 0, None))
        if not line:
            return self.at(path)
        if style in ("'", '"'):
            return line, col + 1 + offset
        if style in ("|", ">"):
            return self._in_block(line, style, offset) or (line + 1, col)
        return line, col + offset

    def _in_block(self, line: int, style: str, offset: int) -> tuple[int, int] | None:
        """The position of character `offset` of a block scalar whose indicator (`|`, `>`) is
        on `line`: its text is its lines, the block's indentation taken off, each ended by a
        break (literal), or joined by a space where a line follows a line (folded: an empty
        line stands for the break it ends).  None if the offset lies past the block."""
        left, indent, after_empty = offset, None, False
        for i, raw in enumerate(self.lines[line:]):
            if not raw.strip():
                if indent is not None and (style == "|" or after_empty):
                    left -= 1
                after_empty = True
                continue
            margin = len(raw) - len(raw.lstrip(" "))
            if indent is None:
                indent = margin
            if margin < indent:
                return None             # the block ended
            if left < len(raw) - indent:
                return line + 1 + i, indent + left + 1
            left -= len(raw) - indent + 1
            after_empty = False
        return None

    def problem(self, path: Path, message: str, key: bool = False, offset: int | None = None,
                end: int | None = None, hint: str | None = None) -> Problem:
        """A Problem at `path` (its key with `key`), at character `offset` of its text when
        given; `end` (an offset too) makes it a span, when the text sits on one line."""
        path = tuple(path)
        end_col = None
        if offset is not None:
            line, col = self.in_text(path, offset)
            if end is not None:
                end_line, end_col = self.in_text(path, end)
                if end_line != line or end_col <= col + 1:
                    end_col = None
        else:
            line, col = self.at(path, key)
        return Problem(self.file, line, col, message, self.line_text(line), end=end_col, hint=hint, path=path)

    def problem_at(self, line: int, col: int, message: str) -> Problem:
        return Problem(self.file, line, col, message, self.line_text(line))

    def line_text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""


class _Builder:
    def __init__(self, source: Source):
        self.source = source
        self.problems: list[Problem] = []

    def build(self, node, path: Path):
        mark = node.start_mark
        style = getattr(node, "style", None)
        self.source.values[path] = (mark.line + 1, mark.column + 1, style)
        if isinstance(node, yaml.MappingNode):
            if node.tag != MAP:
                self._error(node, f"unknown tag '{_shown_tag(node.tag)}' (a mapping takes none)")
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != SEQ:
                self._error(node, f"unknown tag '{_shown_tag(node.tag)}' (a list takes none)")
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self.scalar(node)

    def scalar(self, node):
        """The value of a scalar under the YAML 1.2 core schema, or None with a problem."""
        tag, text = node.tag, node.value
        if tag == STR:
            if len(text) > MAX_STRING:
                self._error(node, f"a string longer than {MAX_STRING} characters")
                return ""
            return text
        if tag == NULL and _NULL_RX.match(text):
            return None
        if tag == BOOL and _BOOL_RX.match(text):
            return text.lower() == "true"
        if tag in (INT, FLOAT) and len(text) > MAX_NUMBER_TEXT:
            self._error(node, TOO_LARGE if tag == INT and _INT_RX.match(text)
                        else f"a number written with more than {MAX_NUMBER_TEXT} characters")
            return 0
        if tag == INT and _INT_RX.match(text):
            value = int(text[2:], 8) if text[:2] == "0o" else int(text[2:], 16) if text[:2] == "0x" else int(text)
            if abs(value) >= MAX_NUMBER:
                self._error(node, TOO_LARGE)
                return 0
            return value
        if tag == FLOAT and _FLOAT_RX.match(text):
            if "inf" in text.lower() or "nan" in text.lower():
                self._error(node, "a number that is not finite (.inf and .nan are not allowed)")
                return 0.0
            value = float(text)
            if not abs(value) < MAX_NUMBER:
                self._error(node, TOO_LARGE)
                return 0.0
            return value
        if tag in (NULL, BOOL, INT, FLOAT):
            kind = {NULL: "empty (null)", BOOL: "true or false", INT: "a whole number", FLOAT: "a number"}[tag]
            self._error(node, f"the value tagged '{_shown_tag(tag)}' is not {kind}")
            return None
        if tag == MERGE:
            return "<<"
        self._error(node, f"unknown tag '{_shown_tag(tag)}'")
        return None

    def _mapping(self, node, path):
        result = {}
        for key_node, value_node in node.value:
            if key_node.tag == MERGE:
                self._error(key_node, "YAML merge keys ('<<') are not supported; repeat the keys instead")
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self._error(key_node, "a mapping key must be a plain value")
                continue
            key = self.scalar(key_node)
            if not isinstance(key, (str, int, float, bool)):
                key = str(key)
            if key in result:
                self._error(key_node, f"duplicate key '{_short(key)}'")
            kmark = key_node.start_mark
            self.source.keys[path + (key,)] = (kmark.line + 1, kmark.column + 1)
            result[key] = self.build(value_node, path + (key,))
        return result

    def _error(self, node, message):
        m = node.start_mark
        self.problems.append(self.source.problem_at(m.line + 1, m.column + 1, message))


def _shown_tag(tag: str) -> str:
    return _short("!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag)


def _short(text, n: int = 40) -> str:
    text = str(text)
    return text if len(text) <= n else text[:n] + "..."


def _line_col(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of character `index`, counting line breaks as YAML does."""
    line, start = 1, 0
    for m in _BREAK.finditer(text, 0, index):
        line, start = line + 1, m.end()
    return line, index - start + 1


def load_text(text: str, file: str = "<string>"):
    """Parse YAML text safely; return (data, Source) or raise RulesetError."""
    data, source, problems = _built(text, file)
    if problems:
        raise RulesetError(problems)
    return data, source


def _built(text: str, file: str):
    """(data, Source, the problems found while building the data).  What stops the data
    from being built at all (a control character, a syntax error, a limit, an empty file)
    raises RulesetError, its `why` saying in general terms what the file is not."""
    bad = _NON_PRINTABLE.search(text)
    if bad:
        line, col = _line_col(text, bad.start())
        raise _unbuilt([Problem(file, line, col, f"control character U+{ord(bad.group()):04X} is not "
                                                 f"allowed in YAML (write it as an escape in a quoted string)")],
                       "it is not YAML")
    source = Source(file, lines=_BREAK.split(text))
    try:
        node = yaml.compose(text, Loader=_Loader)
    except _LimitError as e:
        raise _unbuilt([source.problem_at(e.mark.line + 1, e.mark.column + 1, e.message)],
                       "it goes past a limit on what a file may hold (docs/limits.md)") from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = e.problem or e.context or "invalid YAML"
        raise _unbuilt([source.problem_at(line, col, f"YAML syntax error: {what}")], "it is not YAML") from None
    except (yaml.YAMLError, RecursionError):
        raise _unbuilt([Problem(file, 0, 0, "not valid YAML")], "it is not YAML") from None
    if node is None:
        raise _unbuilt([Problem(file, 1, 1, "the file is empty")], "it is empty")
    builder = _Builder(source)
    data = builder.build(node, ())
    return data, source, builder.problems


def _unbuilt(problems, why: str) -> RulesetError:
    e = RulesetError(problems)
    e.why = why
    return e


class FileRefused(InterpreterError):
    """A file that is not read at all (missing, not a regular file, too large), or, `read`,
    one that was read and is not of the kind expected (`load_named`).  `reason` says why in
    general terms, quoting nothing of the file.  The stages turn it into a Problem at the
    place that named the file (`about`)."""

    def __init__(self, reason: str, missing: bool = False, read: bool = False):
        super().__init__(reason)
        self.reason, self.missing, self.read = reason, missing, read

    def about(self, shown: str) -> str:
        """What is wrong with the file named `shown` where a ruleset was expected."""
        if self.read:
            return f"'{shown}' is not a ruleset: {self.reason}"
        if self.missing:
            return f"the ruleset file '{shown}' does not exist"
        return f"the ruleset file '{shown}' cannot be read: {self.reason}"

    @property
    def hint(self) -> str | None:
        return "interpret validate on that file says why" if self.read else None


def read_bytes(path: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The content of a regular file of at most `limit` bytes, or FileRefused.

    The file is opened without blocking (a FIFO would wait for a writer), its kind and
    size are checked on the open descriptor, and at most limit + 1 bytes are read, so
    a file that grows or lies about its size (/proc) is still refused."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as e:
        raise FileRefused(getattr(e, "strerror", None) or "cannot open it",
                          missing=isinstance(e, FileNotFoundError)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise FileRefused("it is a directory")
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused("it is not a regular file (a device, a pipe or a socket)")
        if st.st_size > limit:
            raise FileRefused(f"it is larger than {_size(limit)} ({st.st_size} bytes)")
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise FileRefused(f"it is larger than {_size(limit)}")
        return b"".join(chunks)
    except OSError as e:
        raise FileRefused(e.strerror or "cannot read it") from None
    finally:
        os.close(fd)


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n} bytes"


def decode(data: bytes, file: str) -> str:
    """UTF-8 text (a leading byte-order mark dropped); invalid bytes are a positioned problem."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode("utf-8")
        line, col = _line_col(before, len(before))
        raise _unbuilt([Problem(file, line, col, "the file is not UTF-8 text: invalid byte "
                                                 f"0x{data[e.start]:02X}")], "it is not UTF-8 text") from None


def load_file(path: str):
    """Read and parse a YAML file; unreadable files are problems too."""
    try:
        data = read_bytes(path)
    except FileRefused as e:
        raise RulesetError([Problem(path, 0, 0, f"cannot read file: {e.reason}")]) from None
    return load_text(decode(data, path), path)


# -- a file that another file names ----------------------------------------------------------
# An overlay's `extends:`, a scenario's `ruleset:`, a record's `ruleset.file` name a file that
# may be anyone's: AWS credentials, a .env, /proc/self/status.  Such a file is read here, and
# only here, under the limits of any file; until it loads as the kind expected, nothing of it
# may be quoted (not a line, a key, an alias, a tag or a value): what is wrong is said in
# general terms, at the place that named it.  A file named on the command line is the user's
# own and is read with `load_file`, every problem at its line.

KINDS = ("ruleset", "overlay")
PROSE = (".md", ".markdown", ".txt")      # a ruleset's rules_file: shown whole, so known by its name


def load_named(path: str, kinds: tuple = KINDS):
    """(data, Source) of the file at `path`, named by another file, when it loads as one of
    `kinds`; FileRefused otherwise, its reason quoting nothing of the file.  A file of the
    kind whose YAML has problems (a duplicate key, a tag) is ours: RulesetError with them."""
    raw = read_bytes(path)
    try:
        data, source, problems = _built(decode(raw, path), path)
    except RulesetError as e:
        raise FileRefused(getattr(e, "why", "it is not YAML"), read=True) from None
    if not any(_looks_like(data, kind) for kind in kinds):
        raise FileRefused("it is not a mapping of a ruleset's keys (name:, deck:, ...) or an overlay's (extends:)",
                          read=True)
    if problems:
        raise RulesetError(problems)
    return data, source


def _looks_like(data, kind: str) -> bool:
    """Whether loaded data has the top-level shape of `kind`: a mapping of the schema's keys
    for it, with the keys it requires (an overlay: `extends`, and the keys of a ruleset or an
    overlay)."""
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        return False
    keys, required = _top_keys(kind)
    if kind == "overlay":
        keys |= _top_keys("ruleset")[0]
    return set(data) <= keys and all(k in data for k in required)


@lru_cache(maxsize=None)
def _top_keys(kind: str) -> tuple[frozenset, tuple]:
    """The top-level keys of `kind` that its schema knows, and those it requires."""
    text = resources.files("interpreter").joinpath("data", f"{kind}.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    return frozenset(schema.get("properties", ())), tuple(schema.get("required", ()))


def read_prose(path: str) -> str:
    """The text of a file of prose that a ruleset names (`rules_file`), which is shown whole
    (interpret rules, '?' at the table): only a Markdown or text file by its name (PROSE),
    under the limits of any file; FileRefused otherwise, RulesetError if it is not UTF-8."""
    if not (is_prose(path) and is_prose(os.path.realpath(path))):    # a link named rules.md may name any file
        raise FileRefused(f"it is not a Markdown or text file ({', '.join(PROSE)})")
    return decode(read_bytes(path), path)


def is_prose(name: str) -> bool:
    return str(name).lower().endswith(PROSE)
