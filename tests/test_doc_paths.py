"""Every file or folder the docs name exists in the repository: a reader who follows a path
in README.md or docs/ finds it (issue 27: the docs named a folder outside the repository)."""
from __future__ import annotations

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
# The folders of the repository a path may start from (and the package's own, and in the
# wheel the folders pyproject.toml maps into it: interpreter/rulesets is rulesets/).
TOP = {"interpreter", "rulesets", "schema", "tests", "examples", "docs", "bench", ".ci", "..",
       "source", "lang", "check", "backend", "generated", "runtime", "play", "cli", "api", "envs", "data"}
OUTPUTS = {"hearts2.py", "my_hearts2.py"}      # what the docs' commands write (compile -o, a reference)
WHEEL = {"interpreter/rulesets": "rulesets", "interpreter/examples": "examples", "interpreter/docs": "docs",
         "interpreter/schema": "schema"}
PATH = re.compile(r"(?<![\w./-])((?:\.\./|[\w.-]+/)+[\w.*-]*|[\w-]+\.(?:py|lark))(?![\w/])")
MODULES = {p.name for p in (ROOT / "interpreter").rglob("*.py")} | {p.name for p in ROOT.glob("*/*.py")}


def _named_paths(doc: pathlib.Path):
    """Paths of the repository in inline code and in the command lines of code blocks: a
    module's file name, or a path from one of its folders (what a command writes, DIR/rows.csv,
    and words with a slash, en/fr, are not)."""
    text = doc.read_text(encoding="utf-8")
    pieces = re.findall(r"`([^`\n]+)`", text) + re.findall(r"```sh\n(.*?)```", text, re.S)
    for piece in pieces:
        for path in PATH.findall(piece):
            if "/" not in path or path.split("/")[0] in TOP:
                yield path


def _exists(path: str, doc: pathlib.Path) -> bool:
    if path.startswith("../"):
        return (doc.parent / path).resolve().is_relative_to(ROOT) and (doc.parent / path).exists()
    for wheel, repo in WHEEL.items():
        if path == wheel or path.startswith(wheel + "/"):
            path = repo + path[len(wheel):]
    if "/" not in path:                                # a module's file name
        return path in OUTPUTS or path in MODULES or any(ROOT.rglob(path))
    bases = (ROOT, ROOT / "interpreter", ROOT / "docs", doc.parent)
    if "*" in path:
        return any(any(base.glob(path)) for base in bases)
    module = re.fullmatch(r"(.+)\.\w+", path)        # play/statistics.summary: a module's function
    return any((base / path).exists() or (module is not None and (base / f"{module[1]}.py").exists())
               for base in bases)


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_path_a_doc_names_is_in_the_repository(doc):
    missing = sorted({p for p in _named_paths(doc) if not _exists(p, doc)})
    assert not missing, f"{doc.relative_to(ROOT)} names what is not in the repository: {missing}"
