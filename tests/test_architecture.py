"""The pipeline's shape (design rule 2): each stage its own package, later stages never
import earlier ones, no import cycles, and the run-time stage loads no parser."""
from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).parent.parent / "interpreter"

# What each part may import, besides itself and the shared modules (errors, limits, messages).
SHARED = {"errors", "limits", "messages", "shown", "targets"}
ALLOWED = {
    "source": set(),
    "lang": set(),
    "check": {"source", "lang"},
    "closures": {"lang", "runtime"},
    "generated": {"lang", "runtime", "closures"},      # closures: the layout it writes, the closures it falls back on
    "native": {"lang", "runtime", "closures", "generated"},    # generated: the Program beside its kernel
    "runtime": set(),
    "pipeline": {"source", "lang", "check", "closures", "generated", "native", "runtime"},
    "playing": {"pipeline", "source", "lang", "check", "closures", "runtime"},
    "lab": {"pipeline", "source", "lang", "check", "closures", "runtime", "playing"},
    "authoring": {"pipeline", "source", "lang", "check", "closures", "runtime", "playing"},
    "cli": {"pipeline", "source", "lang", "check", "closures", "runtime", "playing", "lab", "authoring", "server"},
    "server": {"pipeline", "source", "lang", "check", "closures", "runtime", "playing", "authoring", "lab"},
    "api": {"pipeline", "source", "lang", "runtime"},
    "envs": {"api", "playing", "runtime"},
}


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: pathlib.Path) -> set[str]:
    """The modules of ours that `path` imports, anywhere in it (also inside functions)."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if not target.startswith("interpreter"):
                continue
            for alias in node.names:        # `from . import x` may name a module
                full = f"{target}.{alias.name}"
                found.add(full if module_path(full) else target)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("interpreter")}
    return found - {module_name(path)}


def module_path(name: str):
    base = PACKAGE.parent.joinpath(*name.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.exists():
            return p
    return None


def part_of(name: str) -> str:
    """`interpreter.check.deck` -> 'check'; `interpreter.errors` -> 'errors'."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "interpreter"


GRAPH = {module_name(p): imports(p) for p in PACKAGE.rglob("*.py")}


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if part_of(m) in ALLOWED))
def test_each_stage_imports_only_the_stages_before_it(module):
    part = part_of(module)
    wrong = sorted(m for m in GRAPH[module]
                   if part_of(m) not in SHARED | ALLOWED[part] | {part})
    assert not wrong, f"{module} imports {wrong}"


def test_the_shared_modules_import_nothing_of_ours_but_each_other():
    for name in SHARED:
        assert GRAPH[f"interpreter.{name}"] <= {f"interpreter.{m}" for m in SHARED - {name}}, name


def test_there_are_no_import_cycles():
    cycles = []

    def visit(node, path, on_path, done):
        if node in on_path:
            cycles.append(path[path.index(node):] + [node])
            return
        if node in done:
            return
        on_path.add(node)
        for nxt in sorted(GRAPH.get(node, ())):
            visit(nxt, path + [node], on_path, done)
        on_path.discard(node)
        done.add(node)

    done = set()
    for module in sorted(GRAPH):
        visit(module, [], set(), done)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("module", ["interpreter.runtime", "interpreter.runtime.engine",
                                    "interpreter.playing.agents", "interpreter"])
def test_the_run_time_stage_loads_neither_lark_nor_jsonschema(module):
    code = (f"import sys, {module}; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'lark', 'jsonschema', 'yaml'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_validating_builds_no_run_time_code(monkeypatch):
    """`interpret validate` runs the checker only: no Program, no closure, for a valid ruleset
    or a broken one.  (A shipped ruleset has no warning either: they are held to --strict.)"""
    import interpreter.closures.expressions as closures
    import interpreter.pipeline as pipeline
    from interpreter.authoring.validation import check_file

    def refuse(*args, **kwargs):
        raise AssertionError("validating built run-time code")
    monkeypatch.setattr(pipeline, "build_program", refuse)
    monkeypatch.setattr(closures.Closures, "fn", refuse)
    monkeypatch.setattr(closures.Closures, "code", refuse)
    root = PACKAGE.parent
    for path in sorted((root / "rulesets").glob("*.yaml")):
        assert check_file(str(path)) == [], path.name
    for path in sorted((root / "tests" / "broken").glob("*.yaml")):
        assert check_file(str(path)), path.name


def test_the_recursion_limit_is_raised_in_one_documented_place_only():
    """limits.deep_enough_stack is the one process-wide setting the interpreter changes."""
    setters = [str(p.relative_to(PACKAGE)) for p in sorted(PACKAGE.rglob("*.py"))
               if "setrecursionlimit" in p.read_text(encoding="utf-8")]
    assert setters == ["limits.py"]
    assert "PYTHON_STACK" in (PACKAGE.parent / "docs" / "limits.md").read_text(encoding="utf-8")
