"""Stage 1: read a YAML file into plain data plus a table of source positions.

PyYAML's safe composer gives nodes with marks; we build plain dicts and lists from
them ourselves so that every value (and every mapping key) keeps its line and
column, keyed by its path.  Later stages report problems by path and ask the
`Source` where that path sits in the file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml
from yaml.constructor import SafeConstructor

from .errors import Problem, RulesetError

Path = tuple


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2 booleans: only true/false, so that keys
    and values such as `on`, `no` or `yes` stay strings."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool",
                              re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


@dataclass
class Source:
    """Where each path of the loaded data came from."""
    file: str
    values: dict = field(default_factory=dict)   # path -> (line, col, style)
    keys: dict = field(default_factory=dict)     # path -> (line, col) of the mapping key

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
            return line + 1, col  # block scalars: the first line of the text
        return line, col + offset

    def problem(self, path: Path, message: str, key: bool = False, offset: int | None = None) -> Problem:
        if offset is not None:
            line, col = self.in_text(path, offset)
        else:
            line, col = self.at(path, key)
        return Problem(self.file, line, col, message)


class _Builder:
    def __init__(self, source: Source):
        self.source = source
        self.constructor = SafeConstructor()
        self.problems: list[Problem] = []

    def build(self, node, path: Path):
        mark = node.start_mark
        style = getattr(node, "style", None)
        self.source.values[path] = (mark.line + 1, mark.column + 1, style)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self.constructor.construct_object(node, deep=True)

    def _mapping(self, node, path):
        result = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self._error(key_node, "YAML merge keys ('<<') are not supported; repeat the keys instead")
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self._error(key_node, "a mapping key must be a plain value")
                continue
            key = self.constructor.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, float, bool)):
                key = str(key)
            if key in result:
                self._error(key_node, f"duplicate key '{key}'")
            kmark = key_node.start_mark
            self.source.keys[path + (key,)] = (kmark.line + 1, kmark.column + 1)
            result[key] = self.build(value_node, path + (key,))
        return result

    def _error(self, node, message):
        m = node.start_mark
        self.problems.append(Problem(self.source.file, m.line + 1, m.column + 1, message))


def load_text(text: str, file: str = "<string>"):
    """Parse YAML text safely; return (data, Source) or raise RulesetError."""
    source = Source(file)
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = e.problem or e.context or "invalid YAML"
        raise RulesetError([Problem(file, line, col, f"YAML syntax error: {what}")]) from None
    except yaml.YAMLError as e:
        raise RulesetError([Problem(file, 0, 0, f"YAML error: {e}")]) from None
    if node is None:
        raise RulesetError([Problem(file, 1, 1, "the file is empty")])
    builder = _Builder(source)
    data = builder.build(node, ())
    if builder.problems:
        raise RulesetError(builder.problems)
    return data, source


def load_file(path: str):
    """Read and parse a YAML file; unreadable files are problems too."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise RulesetError([Problem(path, 0, 0, f"cannot read file: {getattr(e, 'strerror', None) or e}")]) from None
    return load_text(text, path)
