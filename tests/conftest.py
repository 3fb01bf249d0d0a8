"""Helpers that let tests read like the rules: a table with a stacked deck and scripted moves."""
from __future__ import annotations

import atexit
import os
import pathlib
import re
import shutil
import tempfile

import pytest
import yaml

# Tests leave nothing in the user's home or cache: matplotlib's font cache (and anything
# else that honours these) goes to a folder of this run's own, in the system's temp folder.
_SCRATCH = tempfile.mkdtemp(prefix="card-interpreter-tests-")
os.environ["MPLCONFIGDIR"] = os.path.join(_SCRATCH, "matplotlib")
os.environ["XDG_CACHE_HOME"] = os.path.join(_SCRATCH, "cache")
if os.environ.get("CARD_INTERPRETER_TEST_CACHE"):      # CI: one private folder of its own for all its runs,
    os.environ["XDG_CACHE_HOME"] = os.environ["CARD_INTERPRETER_TEST_CACHE"]    # so each kernel compiles once
atexit.register(shutil.rmtree, _SCRATCH, True)

import interpreter
from interpreter import pipeline
from interpreter.source.shipped import examples_dirs, shipped_dirs


def _kept_programs(load):
    """pipeline.load_program, keeping what it builds from the package's own files (shipped
    rulesets, example house rules) by their content, options, language and back end: a
    program is read-only (each game's state is its own), building one takes a good part of
    a second, and hundreds of tests (and the commands they run) load the same few.  Any
    other file, a test's own, is loaded afresh every time; a file with problems raises
    them every time."""
    kept: dict = {}
    ours = tuple(str(d.resolve()) + os.sep for d in shipped_dirs() + examples_dirs())

    def load_program(path, options=None, lang=None, backend=pipeline.DEFAULT_BACKEND):
        where = os.path.realpath(str(path))
        if not where.startswith(ours) or not os.path.isfile(where):
            return load(path, options, lang, backend)
        try:
            key = (where, pathlib.Path(where).read_bytes(), tuple(sorted((options or {}).items())), lang, backend)
            hash(key)
        except TypeError:
            return load(path, options, lang, backend)
        if key not in kept:
            kept[key] = load(path, options, lang, backend)
        return kept[key]
    return load_program


pipeline.load_program = interpreter.load_program = _kept_programs(pipeline.load_program)

from interpreter import apply, labels, load_program, new_game
from interpreter.runtime.engine import refresh
from interpreter.playing.agents import Decision, FirstAgent

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"


def ruleset(name: str) -> str:
    return str(RULESETS / f"{name}.yaml")


QUICK_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)     # libyaml: a ruleset as plain data, quickly


def fuzz_examples(n: int) -> int:
    """How many examples a fuzz test tries: `n` in the default run, a contributor's quick
    check before each commit; FUZZ_SCALE times as many where it is set (CI's slow run sets 4)."""
    return n * max(1, int(os.environ.get("FUZZ_SCALE", "1")))


def option_variants(path: str):
    """(option, choice, program) for every choice of every option of a ruleset file: the file
    is read and checked against the schema once, and only checked and built per choice."""
    from interpreter.pipeline import compile_ruleset
    from interpreter.source.overlay import load_rules
    data, source = load_rules(str(path))
    for option, spec in load_program(str(path)).option_specs.items():
        for choice in spec["choices"]:
            yield option, choice, compile_ruleset(data, source, {option: str(choice)})


class Table:
    """One game under test: stack the deck, make moves by label, read the state by name."""

    def __init__(self, game: str, stack=(), options=None, seed: int = 0, players=None, stacks=None):
        self.program = load_program(ruleset(game), options or {})
        self.state = new_game(self.program, seed=seed, players=players,
                              stacks=stacks if stacks is not None else ([list(stack)] if stack else None))

    # -- reading --------------------------------------------------------------
    def legal(self) -> list[str]:
        return labels(self.program, self.state)

    @property
    def deciding(self) -> int:
        return self.state.pending[0]

    def var(self, name):
        return self.state.vars[name]

    def pvar(self, name, seat):
        return self.state.pvars[name][seat]

    def zone(self, name, seat=None) -> list[str]:
        z = self.state.zones[name]
        cards = z[seat] if seat is not None else z
        return [self.program.deck.display[c] for c in cards]

    def text(self) -> str:
        return "\n".join(e["text"] for e in self.state.log if e.get("text"))

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def winners(self) -> list[int]:
        return self.state.result["winners"]

    @property
    def scores(self):
        return self.state.result["scores"]

    # -- acting ---------------------------------------------------------------
    def refresh(self) -> "Table":
        """Recompute the pending choice after a test edited the state."""
        refresh(self.program, self.state)
        return self

    def play(self, *moves: str) -> "Table":
        """Make each move by its label; fail loudly when a move is not legal."""
        for move in moves:
            legal = self.legal()
            assert move in legal, f"{move!r} is not legal; legal: {legal}"
            apply(self.program, self.state, legal.index(move))
        return self

    def play_until(self, cond, limit: int = 5000) -> "Table":
        """First-legal moves until cond(table) holds."""
        for _ in range(limit):
            if cond(self):
                return self
            apply(self.program, self.state, FirstAgent().choose(Decision(self.program, self.state)))
        raise AssertionError("never reached")

    def play_out(self, agent=None, limit: int = 100_000) -> "Table":
        agent = agent or FirstAgent()
        n = 0
        while not self.state.over:
            apply(self.program, self.state, agent.choose(Decision(self.program, self.state)))
            n += 1
            assert n < limit
        return self


@pytest.fixture
def table():
    return Table


@pytest.fixture(autouse=True)
def records_in_tmp(tmp_path, monkeypatch):
    """Games with a person are recorded automatically: keep those records out of $HOME."""
    monkeypatch.setenv("CARD_INTERPRETER_RECORDS", str(tmp_path / "records"))


def messages(text: str) -> str:
    """Problem messages without the quoted source lines and carets that follow each."""
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("    "))


def value_paths(node, path=()):
    """Every path into loaded YAML data (mapping keys and list indexes), the root first."""
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from value_paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from value_paths(v, path + (i,))


def unseen_cards(game_state, seat: int) -> set:
    """The ids of the cards `seat` may not see anywhere now (an API GameState): the cards of
    the whole table less every card its own view shows."""
    def ids(view):
        for cards in view["zones"].values():
            for part in (cards if cards and isinstance(cards[0], list) else [cards]):
                yield from (c for c in part if c is not None)
    return set(ids(game_state.view(None))) - set(ids(game_state.view(seat)))


def quoted(text: str) -> set:
    """Every word quoted in a drawing of the table ('QS'): how it names a card."""
    return set(re.findall(r"'([^']*)'", text))


def texts_in(value) -> set:
    """Every text held in a JSON value, keys aside: how an observation names a card."""
    if isinstance(value, dict):
        return set().union(*map(texts_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(texts_in, value)) if value else set()
    return {value} if isinstance(value, str) else set()
