"""The two back ends side by side: the closure back end (closures/program.py, the reference)
and the generated-Python back end (generated/program.py) must play every game identically.

The generated back end lays out the same instructions as the closure back end (the same
pcs, locals, frames, scopes and step counts), so a state is the same plain data under
either, and a game can be paused under one and continued under the other.  These tests
hold it to that, exactly, by playing the same games under both and comparing:

1. the shipped rulesets, under the defaults and under every value of every option (one
   option changed at a time), seeded random games with the account kept: the pending
   decision, its labels, the whole state (`to_dict()`, the `work` counter included) and the
   new entries of the account after every decision, and the result;
2. copies and imagined deals (`State.copy`, `determinize`) at decisions along the way,
   played on to the end; a game paused under one back end continued under the other; the
   mc bot, which plans on imagined deals;
3. every scenario file the project ships or its tests use, through the scenario runner (and
   the `interpret` command) under each back end, and the golden playthroughs;
4. the rulesets of tests/test_run_time_faults.py: the same exit code, account and error
   (file:line:col and text) under both;
5. small random rulesets written by a generator of the language (steps, expressions,
   procedures, events and triggers), each validated by the checker and played under both.

The default run is a quick subset (under a minute); `-m slow` plays 1,000 games per shipped
ruleset x option value, 2,000 more random rulesets and 600 mutants of the shipped rulesets,
on two worker processes (about six minutes).

Where the back ends once differed (the step limit's position and the steps run past it,
faults in the turns' own bookkeeping, a fault beside an expression, random() drawn again on a
fault, the steps counted before an error), a test keeps the smallest ruleset found; they agree
on all of them now, as on everything else.
"""
from __future__ import annotations

import functools
import inspect
import io
import itertools
import json
import os
import pathlib
import random
import re
import time

import pytest
import yaml

from interpreter import pipeline
from interpreter.cli import run as cli
from interpreter.errors import InterpreterError, RulesFault, RulesetError
from interpreter.pipeline import compile_ruleset
from interpreter.runtime.engine import apply, determinize, labels, new_game, view
from interpreter.runtime.state import Rng, State
from interpreter.source.loader import load_file, load_text

ROOT = pathlib.Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
RULESETS = ("hearts2", "ninety_nine", "gnav2", "gnav")
REFERENCE, GENERATED = "closures", "generated"
BACKENDS = (REFERENCE, GENERATED)


# == playing one game under both back ends ======================================================
@functools.lru_cache(maxsize=None)
def _loaded(name: str):
    """A shipped ruleset's data and source, read once (the schema accepts them)."""
    return load_file(str(ROOT / "rulesets" / f"{name}.yaml"))


@functools.lru_cache(maxsize=None)
def shipped(name: str, option: tuple = ()):
    """(closure program, generated program) of a shipped ruleset; `option` is () for the
    defaults or (name, value).  Each is checked and built on its own."""
    data, source = _loaded(name)
    options = dict([option]) if option else None
    return tuple(compile_ruleset(data, source, options, backend=b) for b in BACKENDS)


def option_values(name: str) -> list[tuple]:
    """() for the defaults, then (option, value) for every value of every option that is
    not its default: one option changed at a time."""
    specs = shipped(name)[0].option_specs
    return [()] + [(opt, str(c)) for opt, spec in specs.items() for c in spec["choices"] if c != spec["default"]]


def differences(a: dict, b: dict, limit: int = 300) -> str:
    """The fields of two state snapshots that differ, each with both values (shortened)."""
    out = []
    for k in a:
        if a[k] != b.get(k):
            out.append(f"{k}: closures {str(a[k])[:limit]} / generated {str(b.get(k))[:limit]}")
    return "; ".join(out)


STEP_LIMIT = "the game took more than"


def outcome(fn):
    """fn()'s value, or the Python exception it raised (its type and text): for what should not
    raise, and may all the same (view() of a card variable that holds a text), alike."""
    try:
        return fn()
    except Exception as e:          # noqa: BLE001 - compared, not hidden
        return ("raised", type(e).__name__, str(e))


def attempt(fn):
    """(value, None) or (None, the message of the RulesFault it raised)."""
    try:
        return fn(), None
    except RulesFault as e:
        return None, str(e)


class Duel:
    """One game played under both back ends with the same decisions.  `check()` compares the
    two games as they stand; `full` compares the whole state and the account at every
    decision, otherwise only what decides the game from here (pending choice, pc, steps,
    random generator, work) until `finish()`, which always compares whole states."""

    def __init__(self, programs, seed: int, players=None, log: bool = True, full: bool = True,
                 what: str = "", states=None):
        self.programs = programs
        self.full = full
        self.what = what or f"seed {seed}, players {players}"
        self.picks = random.Random(seed)
        self.compared = 0
        self.seen = 0               # account entries already compared
        self.errors = [None, None]
        if states is not None:
            self.states = list(states)
        else:
            self.states = [None, None]
            for i, p in enumerate(programs):
                self.states[i], self.errors[i] = attempt(lambda p=p: new_game(p, seed=seed, players=players, log=log))
        self.check()

    @property
    def decisions(self) -> int:
        s = self.states[0]
        return s.decisions if s is not None else 0

    @property
    def over(self) -> bool:
        """The game has ended, by its rules or in a rules error."""
        return self.errors[0] is not None or self.states[0].over

    def where(self) -> str:
        return f"{self.what}, after {self.decisions} decision(s)"

    def check(self):
        a_err, b_err = self.errors
        assert a_err == b_err, f"{self.where()}: the rules error differs:\nclosures:  {a_err}\ngenerated: {b_err}"
        if a_err is not None:
            return
        a, b = self.states
        assert a.pending == b.pending, f"{self.where()}: a different decision is pending: {a.pending} / {b.pending}"
        if self.full:
            self._whole(a, b)
            assert outcome(lambda: labels(self.programs[0], a)) == outcome(lambda: labels(self.programs[1], b)), \
                f"{self.where()}: labels differ"
            if a.pending is not None and a.decisions % 8 == 0:      # what the seat to decide sees
                seat = a.pending[0]
                assert outcome(lambda: view(self.programs[0], a, seat)) == \
                    outcome(lambda: view(self.programs[1], b, seat)), f"{self.where()}: seat {seat}'s view differs"
        else:
            for f in ("pc", "steps", "decisions", "work", "current", "over"):
                assert getattr(a, f) == getattr(b, f), f"{self.where()}: {f} differs"
            assert a.rng.state == b.rng.state, f"{self.where()}: the random generator differs"
        self.compared += 1

    def _whole(self, a, b):
        da, db = a.to_dict(), b.to_dict()
        la, lb = da.pop("log"), db.pop("log")
        assert da == db, f"{self.where()}: the states differ: {differences(da, db)}"
        if la is None or lb is None:
            assert la is lb
            return
        assert len(la) == len(lb) and la[self.seen:] == lb[self.seen:], \
            f"{self.where()}: the account differs: {la[self.seen:][:20]} / {lb[self.seen:][:20]}"
        self.seen = len(la)

    def step(self, index: int | None = None):
        """Both games take the same option: `index`, or one picked by the duel's own generator."""
        a = self.states[0]
        if index is None:
            index = self.picks.randrange(len(a.pending[1]))
        for i, p in enumerate(self.programs):
            s = self.states[i]
            _, self.errors[i] = attempt(lambda p=p, s=s: apply(p, s, index))
        self.check()

    def play(self, limit: int | None = None, each=None):
        """Play on to the end (or `limit` decisions); `each(duel)` runs before every decision."""
        n = 0
        while not self.over and (limit is None or n < limit):
            if each is not None:
                each(self)
            self.step()
            n += 1
        return self.finish()

    def finish(self):
        """Compare the whole states (and results) where the game stands: (result or error, decisions)."""
        if self.errors[0] is not None:
            return ("error", self.errors[0]), self.decisions
        a, b = self.states
        self._whole(a, b)
        assert a.result == b.result, f"{self.where()}: the results differ: {a.result} / {b.result}"
        self.compared += 1
        return ("result", json.dumps(a.result)), self.decisions


# == 1. the shipped rulesets under every option value ============================================
QUICK_SEEDS = 20
GNAV_PLAYERS = {2: QUICK_SEEDS, 4: QUICK_SEEDS, 12: 6}       # gnav at 12 is slow: fewer seeds there
CONFIGS = [(name, option) for name in RULESETS for option in option_values(name)]


def config_id(config) -> str:
    name, option = config
    return f"{name}-{'='.join(option) if option else 'defaults'}"


def seats_and_seeds(name: str, seeds: int):
    if name == "gnav":
        return [(n, min(k, seeds)) for n, k in GNAV_PLAYERS.items()]
    return [(None, seeds)]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_shipped_ruleset_plays_the_same_game_decision_by_decision_under_both_back_ends(config):
    """Seeded random games with the account kept: after every decision the same choice is
    pending with the same labels, the states are the same plain data (`work` included) and
    the account has the same new entries; the results are the same."""
    name, option = config
    programs = shipped(name, option)
    games = 0
    for players, seeds in seats_and_seeds(name, QUICK_SEEDS):
        for seed in range(seeds):
            duel = Duel(programs, seed, players, what=f"{config_id(config)}, players {players}, seed {seed}")
            outcome, _ = duel.play()
            assert outcome[0] == "result", outcome      # a shipped ruleset plays to its end
            games += 1
    assert games >= QUICK_SEEDS


def layout(program) -> dict:
    """What a Program says besides its code: where each step is, the choices, the names that
    hold cards, the step limit; the same under both back ends since their pcs are the same."""
    return {"pcs": len(program.code), "where": program.where, "effect_where": program.effect_where,
            "choices": [(c.var, c.where, c.cards) for c in program.choices], "max_steps": program.max_steps,
            "card_locals": program.card_locals, "card_cursors": program.card_cursors,
            "card_scopes": program.card_scopes, "shown": program.shown, "options": program.options,
            "zones": program.zones, "var_visibility": program.var_visibility,
            "pvar_visibility": program.pvar_visibility, "players": program.players}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_both_back_ends_lay_out_the_same_program(config):
    """The generated code stands for the closure layout instruction for instruction: the same
    number of pcs, the same positions of steps and effects, choices and card names."""
    ref, gen = shipped(*config)
    assert (ref.backend, gen.backend) == BACKENDS
    assert layout(ref) == layout(gen)


SLOW_GAMES = int(os.environ.get("BACKEND_GAMES", 1000))
JOBS = min(2, os.cpu_count() or 1)


def in_parallel(fn, tasks: list) -> list:
    """fn(*task) for every task, shared by JOBS worker processes (forked: what this process has
    built is theirs too); an assertion that fails in a worker fails here."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    if JOBS == 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [fn(*task) for task in tasks]
    with ProcessPoolExecutor(JOBS, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(fn, *zip(*tasks)))


def _quiet_games(name: str, option: tuple, seeds: range) -> tuple:
    """(games, decisions) of seeded games without the account, compared as the slow test says."""
    programs = shipped(name, option)
    games = decisions = 0
    for seed in seeds:
        players = 2 + seed % 19 if name == "gnav" else None
        duel = Duel(programs, seed, players, log=False, full=False,
                    what=f"{config_id((name, option))}, players {players}, seed {seed}")
        outcome, n = duel.play()
        assert outcome[0] == "result", outcome
        games += 1
        decisions += n
    return games, decisions


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_a_thousand_games_per_option_value_end_the_same_under_both_back_ends(name, capsys):
    """SLOW_GAMES (1,000) seeded games per ruleset x option value, without the account: at
    every decision the same choice is pending and the pc, step count, random generator and
    work are the same; at the end the whole states and the results are the same.  gnav is
    played at 2 to 20 players (seed k at 2 + k % 19)."""
    start = time.perf_counter()
    half = SLOW_GAMES // 2
    tasks = [(name, option, seeds) for option in option_values(name)
             for seeds in (range(0, half), range(half, SLOW_GAMES))]
    done = in_parallel(_quiet_games, tasks)
    games, decisions = sum(g for g, _ in done), sum(d for _, d in done)
    assert games == SLOW_GAMES * len(option_values(name))
    with capsys.disabled():
        print(f"\n{name}: {games} games x 2 back ends ({SLOW_GAMES} per option value, "
              f"{len(option_values(name))} option values), {decisions} decisions compared, "
              f"{time.perf_counter() - start:.1f} s on {JOBS} processes")


# == 2. copies, imagined deals, and a game moved from one back end to the other ===================
def _snapshot(s: State) -> dict:
    return s.to_dict()


def _imagined_checks(duel: Duel, every: int, seed: int, limit: int | None = None):
    """At every `every`-th decision: copies are faithful and the same; each seat's imagined
    deal with the same generator is the same; the pending seat's imagined game and the copy
    play on to the same end, or for `limit` decisions (checked as duels of their own)."""
    def each(d: Duel):
        k = d.decisions
        if k % every != every // 2:
            return
        a, b = d.states
        before = json.dumps(_snapshot(a))
        ca, cb = a.copy(), b.copy()
        assert _snapshot(ca) == _snapshot(a) and _snapshot(cb) == _snapshot(b), f"{d.where()}: a copy differs"
        for seat in a.players:
            ia = determinize(d.programs[0], a, seat, Rng(seed * 1000 + k))
            ib = determinize(d.programs[1], b, seat, Rng(seed * 1000 + k))
            assert _snapshot(ia) == _snapshot(ib), \
                f"{d.where()}: seat {seat}'s imagined deal differs: {differences(_snapshot(ia), _snapshot(ib))}"
            if seat == a.pending[0]:
                Duel(d.programs, seed + k, states=(ia, ib), what=f"{d.what}, imagined by seat {seat} at {k}").play(limit)
        Duel(d.programs, seed + k + 1, states=(ca, cb), what=f"{d.what}, a copy at {k}").play(limit)
        assert json.dumps(_snapshot(a)) == before, f"{d.where()}: playing copies on changed the original"
    return each


@pytest.mark.parametrize("name", RULESETS)
def test_copies_and_imagined_deals_are_the_same_and_play_on_the_same_under_both_back_ends(name):
    """The planning bot works on copies and imagined deals: at decisions along seeded games,
    `copy()` and `determinize()` (with the same generator) give the same states under both
    back ends, and the imagined game and the copy play on to the same ends."""
    programs = shipped(name)
    for seed in range(4):
        players = 3 + seed if name == "gnav" else None
        duel = Duel(programs, seed, players, what=f"{name}, seed {seed}")
        duel.play(each=_imagined_checks(duel, 9 if name == "hearts2" else 4, seed))


@pytest.mark.parametrize("name", RULESETS)
def test_a_game_paused_under_one_back_end_continues_the_same_under_the_other(name):
    """A state is plain data with the same layout under both back ends: a game stopped at a
    decision under one back end (a copy, or the state read back from its JSON snapshot, as a
    record resumes it) and continued under the other plays on as if it had never moved."""
    ref, gen = shipped(name)
    for seed in range(3):
        players = 2 + 2 * seed if name == "gnav" else None
        s = new_game(ref, seed=seed, players=players)
        picks = random.Random(seed)
        while not s.over:
            if s.decisions % 5 == 3:
                snapshot = json.dumps(s.to_dict())
                for pair in ((ref, gen), (gen, ref)):
                    # pair[0] goes on with a copy, pair[1] with the state read back from JSON
                    moved = State.from_dict(json.loads(snapshot))
                    Duel(pair, seed + s.decisions, states=(s.copy(), moved),
                         what=f"{name}, seed {seed}, moved at {s.decisions} to {pair[1].backend}").play(limit=40)
            apply(ref, s, picks.randrange(len(s.pending[1])))


@pytest.mark.parametrize("name", RULESETS)
def test_the_planning_bot_plays_the_same_game_under_both_back_ends(name, tmp_path):
    """The mc bot plays each option out on imagined deals (determinize, copies, many short
    games): its whole game, account and event log, is the same under both back ends."""
    outputs = []
    for backend in BACKENDS:
        events = tmp_path / f"{backend}.jsonl"
        argv = [str(ROOT / "rulesets" / f"{name}.yaml"), "--seed", "3", "--bot", "mc", "--playouts", "2",
                "--log", str(events), "--backend", backend]
        if name == "gnav":
            argv += ["--players", "5"]
        out, err = io.StringIO(), io.StringIO()
        code = cli(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
        outputs.append((code, out.getvalue(), err.getvalue(), events.read_text(encoding="utf-8")))
    assert outputs[0][0] == 0, outputs[0][2]
    assert outputs[0] == outputs[1]


# == 3. scenarios, playthroughs and records through the scenario runner and the command ==========
EXAMPLES = sorted((ROOT / "examples" / "scenarios").rglob("*.yaml"))
HOSTILE = TESTS / "hostile"
HOSTILE_SCENARIOS = sorted(HOSTILE.glob("*.scenario.yaml"))
HOSTILE_RECORDS = sorted(p for p in HOSTILE.glob("*.json") if ".replay." in p.name or ".resume." in p.name)


def command(*argv, stdin: str = "", cwd=None) -> tuple:
    """(exit code, stdout, stderr) of `interpret ARGV`, run from `cwd` (default: here)."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        code = cli([str(a) for a in argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


def both_commands(*argv, stdin: str = "", cwd=None) -> tuple:
    """The command under each back end (`--backend` after the sub-command); both must print
    the same and exit alike.  The reference's (code, stdout, stderr)."""
    head, rest = (argv[:1], argv[1:]) if argv[0] in ("scenario", "replay", "resume", "simulate") else ((), argv)
    ref = command(*head, "--backend", REFERENCE, *rest, stdin=stdin, cwd=cwd)
    gen = command(*head, "--backend", GENERATED, *rest, stdin=stdin, cwd=cwd)
    assert ref == gen, f"interpret {' '.join(map(str, argv))} differs:\n--- closures\n{ref}\n--- generated\n{gen}"
    return ref


def scenario_run(path, backend) -> tuple:
    """The scenario runner's whole outcome on the back end named `backend`: each
    expectation's result, the account, and the state the scenario ended in (or the problems
    of a scenario that cannot run)."""
    from interpreter.authoring.scenario import _Run
    try:
        data, source = load_file(str(path))
        r = _Run(str(path), data, source, backend)
        report = r.run()
    except RulesetError as e:
        return ("problems", [str(p) for p in e.problems])
    return ("report", report.results, report.account, r.s.to_dict())


def scenario_under_each_back_end(path) -> list:
    return [scenario_run(path, backend) for backend in BACKENDS]


BROKE_DOWN = "the rules cannot go on"


def assert_scenario_same(path, and_command: bool = False):
    """The scenario's outcome is the same under both back ends (and, if asked, what
    `interpret scenario` prints).  Where the rules broke down the step count is left out:
    the back ends count the steps of a failed run differently (see
    test_the_step_count_after_a_rules_error_is_the_same_under_both_back_ends)."""
    ref, gen = scenario_under_each_back_end(path)
    if ref[0] == gen[0] == "report":
        if any(BROKE_DOWN in text for _, text in ref[1]):
            ref[3].pop("steps"), gen[3].pop("steps")
        assert ref[3] == gen[3], f"{path}: the scenario ends in different states: {differences(ref[3], gen[3])}"
    assert ref == gen, f"{path}: the scenario runner's outcome differs"
    if and_command:
        both_commands("scenario", path)
    return ref


@pytest.mark.parametrize("path", EXAMPLES + HOSTILE_SCENARIOS, ids=lambda p: p.name)
def test_a_shipped_scenario_passes_or_fails_alike_under_both_back_ends(path):
    """Every expectation's result, the account, the state the scenario leaves, and what
    `interpret scenario` prints are the same under both back ends (a scenario edits the state
    and asks the pending question again: a pc that the generated code does not enter by)."""
    outcome = assert_scenario_same(path, and_command=path == EXAMPLES[0])
    if path in EXAMPLES:
        assert outcome[0] == "report" and all(ok for ok, _ in outcome[1]), outcome


def _finished_variants(tmp_path, seeds: int, share: int | None = None):
    """Each example scenario (or every other one, from `share`) with its game played out by
    seeded random bots."""
    for path in EXAMPLES if share is None else EXAMPLES[share::2]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["ruleset"] = str((path.parent / data["ruleset"]).resolve())
        for seed in range(seeds):
            variant = dict(data, finish="random", seed=seed)
            target = tmp_path / f"{path.stem}-{seed}.yaml"
            target.write_text(yaml.safe_dump(variant, allow_unicode=True), encoding="utf-8")
            yield target


@pytest.mark.parametrize("share", [pytest.param(0, id="even"), pytest.param(1, id="odd", marks=pytest.mark.slow)])
def test_example_scenarios_played_out_by_random_bots_end_alike_under_both_back_ends(tmp_path, share):
    """From each example's position the game is played to its end (finish: random): the
    outcome and the final state are the same under both back ends.  Half the examples in
    the default run, the other half with -m slow."""
    n = 0
    for target in _finished_variants(tmp_path, seeds=1, share=share):
        outcome = assert_scenario_same(target)
        assert outcome[0] == "report" and outcome[3]["over"], target
        n += 1
    assert n == len(EXAMPLES[share::2])


def test_the_scenarios_of_the_scenario_tests_read_alike_under_both_back_ends(tmp_path):
    """The scenarios tests/test_scenarios.py writes: one that passes, one that fails, one whose
    rules break down at a decision (the error's file:line:col and text included)."""
    from test_scenarios import BASE, BOOM
    rulesets = str(ROOT / "rulesets")
    (tmp_path / "boom.yaml").write_text(BOOM, encoding="utf-8")
    texts = [BASE, BASE.replace("total == 97", "total == 98"),
             "name: the rules break\nruleset: boom.yaml\nzones: {hand: [[a, b], [c, d]]}\ndecisions: [play a]\n"
             "expect:\n  - after: 0\n    that: [\"x == 2\"]\n  - after: 1\n    that: [\"x == 4\"]\n  - over: true\n"]
    for i, text in enumerate(texts):
        path = tmp_path / f"s{i}.yaml"
        path.write_text(text.replace("RULESETS", rulesets), encoding="utf-8")
        assert_scenario_same(path, and_command=True)
    assert "a number reached the limit" in both_commands("scenario", tmp_path / "s2.yaml")[1]


PLAYTHROUGHS = [("hearts2", 1, None), ("ninety_nine", 2, "total_model=per_player"), ("gnav", 2, "skip_chain=to_bag"),
                ("gnav2", 2, "wild_card_destination=captured")]


@pytest.mark.parametrize("game,seed,option", PLAYTHROUGHS, ids=[f"{g}-{o or 'default'}" for g, _, o in PLAYTHROUGHS])
def test_a_played_game_prints_the_same_account_and_event_log_under_both_back_ends(game, seed, option, tmp_path):
    """`interpret RULESET` between bots: the account, the JSON event log and the record of the
    game are the same under both back ends; the record replays the same under both."""
    outputs = []
    for backend in BACKENDS:
        argv = [f"rulesets/{game}.yaml", "--seed", seed, "--log", tmp_path / f"{backend}.jsonl",
                "--record", tmp_path / f"{backend}.json", "--backend", backend]
        argv += (["--option", option] if option else []) + (["--players", "5"] if game == "gnav" else [])
        outputs.append(command(*argv, cwd=ROOT) + ((tmp_path / f"{backend}.jsonl").read_text(encoding="utf-8"),))
    assert outputs[0][0] == 0 and outputs[0] == outputs[1]
    records = [json.loads((tmp_path / f"{b}.json").read_text(encoding="utf-8")) for b in BACKENDS]
    for r in records:
        r.pop("date", None), r.pop("started", None), r.pop("finished", None)
    assert records[0] == records[1]
    code, out, _ = both_commands("replay", tmp_path / f"{REFERENCE}.json")
    assert code == 0, out


@pytest.mark.parametrize("path", HOSTILE_RECORDS, ids=lambda p: p.name)
def test_a_hostile_record_is_refused_alike_under_both_back_ends(path):
    """The hostile records of tests/hostile, replayed or resumed under each back end."""
    kind = "replay" if ".replay." in path.name else "resume"
    both_commands(kind, path.name, stdin="1\n" * 5, cwd=HOSTILE)


# == 4. rules that fail while a game runs ========================================================
import test_run_time_faults as faults          # noqa: E402  (its rulesets are written by its tests)


def _fault_cases():
    """(test function, its arguments after tmp_path) for every test of test_run_time_faults,
    one per parametrized case."""
    for name, fn in sorted(vars(faults).items()):
        if not name.startswith("test_") or not callable(fn):
            continue
        params = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
        names = [n for m in params for n in m.args[0].split(",")]
        for values in itertools.product(*(m.args[1] for m in params)):
            yield pytest.param(fn, dict(zip(names, values)), id=f"{name}[{','.join(map(str, values))[:40]}]")


FAULT_CASES = list(_fault_cases())
SLOW_FAULTS = ("endless_log", "large_deck", "large_lists", "negative_count", "with_or_without_its_account")
RECORD_NAME = re.compile(r"[\w.-]+-\d{8}-\d{6}-[0-9a-f]+\.json")     # a game with a person is recorded
SPEED = re.compile(r"\"games_per_s\": [\d.]+|[\d.]+ games/s")        # how fast simulate ran


def _steady(text: str) -> str:
    """Output without what differs from run to run: record names, speeds."""
    return SPEED.sub("SPEED", RECORD_NAME.sub("RECORD.json", text))




def _fault_param(c):
    """A case of test_run_time_faults, marked slow where it is slow."""
    marks = [pytest.mark.slow] if any(w in c.id for w in SLOW_FAULTS) else []
    return pytest.param(*c.values, id=c.id, marks=marks)


@pytest.mark.parametrize("case,kwargs", [_fault_param(c) for c in FAULT_CASES])
def test_a_rules_error_at_run_time_reads_the_same_under_both_back_ends(case, kwargs, tmp_path, monkeypatch):
    """Each test of test_run_time_faults runs with every `interpret` it calls made under both
    back ends: the exit code, the account and the error (file:line:col, text, the quoted
    line and caret) must be the same; the test's own assertions then run on the output.  The
    slowest (large decks, endless accounts) run with -m slow."""
    calls = []

    def under_both(argv, stdin=None, stdout=None, stderr=None):
        argv = list(argv)
        head = 1 if argv and argv[0] in ("scenario", "replay", "resume", "simulate") else 0
        if argv and argv[0] in ("validate", "options", "compile"):
            return cli(argv, stdin=stdin, stdout=stdout, stderr=stderr)
        given = stdin.getvalue() if stdin is not None else ""
        outputs = []
        for backend in BACKENDS:
            out, err = io.StringIO(), io.StringIO()
            code = cli(argv[:head] + ["--backend", backend] + argv[head:], stdin=io.StringIO(given),
                       stdout=out, stderr=err)
            outputs.append((code, out.getvalue(), err.getvalue()))
        same = [tuple(_steady(x) if isinstance(x, str) else x for x in o) for o in outputs]
        assert same[0] == same[1], f"interpret {argv} differs:\n--- closures\n{outputs[0]}\n--- generated\n{outputs[1]}"
        calls.append(outputs[0])
        for stream, text in ((stdout, outputs[0][1]), (stderr, outputs[0][2])):
            if stream is not None:
                stream.write(text)
        return outputs[0][0]

    monkeypatch.setattr(faults, "run", under_both)
    params = inspect.signature(case).parameters
    case(**({"tmp_path": tmp_path} if "tmp_path" in params else {}), **kwargs)
    if not calls:
        pytest.skip("the test only validates: no game is played")


def test_every_run_time_fault_test_is_compared():
    """The list above is made from test_run_time_faults itself: a new fault test is compared too."""
    assert len(FAULT_CASES) >= 25


def precondition(holds: bool, what: str):
    """What a test of a known difference takes for granted: if it does not hold, the test
    fails for real (its xfail expects only the AssertionError of the difference itself)."""
    if not holds:
        pytest.fail(f"not as expected: {what}")


def _error_under_each_back_end(text: str) -> list[str]:
    """The rules error a ruleset's first run ends in, under each back end."""
    messages = []
    for backend in BACKENDS:
        program = pipeline.load_program_text(text, text.split()[1] + ".yaml", backend=backend)
        with pytest.raises(RulesFault) as e:
            new_game(program, seed=0)
        messages.append(str(e.value))
    return messages


LOOP = """name: loop
players: 2
deck: {cards: [a, b], zone: stock}
zones: {stock: {visibility: hidden}}
variables: {x: 0}
flow:
  max_steps: 1000
  round:
    - while: "true"
      do:
        - add: {x: 0}
result: {winners: "[]"}
"""


def test_the_step_limit_is_reported_at_the_same_step_under_both_back_ends():
    """An endless loop stops at max_steps with the position of a step: the same one under
    both back ends, loop.yaml:9:7 (`- while: "true"`), though the generated code runs that loop
    written in, returning to the run loop only near the limit."""
    ref, gen = _error_under_each_back_end(LOOP)
    precondition("more than 1000 steps" in ref, ref)
    assert ref == gen


PAST_THE_LIMIT = """name: past
players: 2
deck: {cards: [a, b], zone: stock}
zones: {stock: {visibility: hidden}}
variables: {x: 0}
flow:
  max_steps: 3
  round:
    - add: {x: 1}
    - if: "x > 0"
      then:
        - add: {x: 1}
    - set: {x: "x // 0"}
result: {winners: "[]"}
"""


def test_no_step_runs_past_the_step_limit_under_either_back_end():
    """The step limit stops a run before the step beyond it: whatever that step would do (here
    a division by zero) is not done, nor reported: 'the game took more than 3 steps' at
    past.yaml:10:11 under both back ends."""
    ref, gen = _error_under_each_back_end(PAST_THE_LIMIT)
    precondition("more than 3 steps" in ref, ref)
    assert "more than 3 steps" in gen


NULL_TURN = """name: nextseat
players: 2
deck: {cards: [a, b], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  nobody: {type: player, initial: null}
flow:
  round:
    - turns:
        count: 2
        do:
          - choose: [go]
          - turns:
              first: nobody
              do: [log: never]
          - log: after
result: {winners: "[]"}
"""
NULL_IN_ORDER = NULL_TURN.replace("""    - turns:
        count: 2
        do:
          - choose: [go]
          - turns:
              first: nobody
              do: [log: never]
          - log: after""", """    - turns:
        order: "[player(0), nobody]"
        do:
          - choose: [go]
          - log: played""")


@pytest.mark.parametrize("text,reference", [(NULL_TURN, "nextseat.yaml:10:9"), (NULL_IN_ORDER, "nextseat.yaml:10:9")],
                         ids=["next-seat-of-null", "null-in-order"])
def test_a_fault_in_passing_the_turn_is_reported_at_the_turns_under_both_back_ends(text, reference):
    """Passing the turn on from a null `current` (the inner turns started at nobody) or to a null
    in an `order` faults at the turns step, nextseat.yaml:10:9, under both back ends (the
    generated code notes the turns' own bookkeeping as a place of its own)."""
    messages = []
    for backend in BACKENDS:
        program = pipeline.load_program_text(text, "nextseat.yaml", backend=backend)
        s = new_game(program)
        with pytest.raises(RulesFault) as e:
            apply(program, s, 0)
        messages.append(str(e.value))
    precondition(messages[0].startswith(reference + ": rules error"), messages[0])
    assert messages[0] == messages[1]


REDRAW = """name: redraw
players: 2
deck: {cards: [a, b], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  x: {type: number, initial: null}
flow:
  round:
    - add: {x: "10 // random([0, 1, 2, 3])"}
result: {winners: "[]"}
"""




OWNER_NULL = """name: owner
players: 2
deck: {cards: [{id: a, value: 1}, {id: b, value: 2}], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  who: {type: player, initial: null}
player_variables:
  score: 0
flow:
  round:
    - add: {who.score: "who.score + 1"}
result: {winners: "[]"}
"""
CHOICE_FROM_NULL = OWNER_NULL.replace("""    - add: {who.score: "who.score + 1"}""", """    - choose: hand_of_nobody
      as: x
      by: player(0)
      where: x.value > 1""").replace("""player_variables:
  score: 0""", """  hand_of_nobody: {type: "list[card]", initial: null}""")


@pytest.mark.parametrize("text", [OWNER_NULL, CHOICE_FROM_NULL], ids=["add-to-nobody", "choose-from-null"])
def test_a_fault_beside_an_expression_is_reported_alike_under_both_back_ends(text):
    """Both rulesets fail with a null, at owner.yaml:11:12 and owner.yaml:10:7: 'a value was null
    (nobody, or no card) where one was needed (...)'.  `add: {who.score: "who.score + 1"}` with
    who null fails indexing the scores by null, before the value added is computed (random
    ruleset 10631 with max_steps 200 found it); `choose: hand_of_nobody` with a `where` fails
    iterating over null, before any option is tried: neither is the fault of the expression
    beside it, which the generated back end must not compute again to name."""
    ref, gen = _error_under_each_back_end(text)
    precondition(ref.startswith(("owner.yaml:11:12:", "owner.yaml:10:7:")) and "a value was null" in ref, ref)
    assert ref == gen




def test_a_fault_after_a_random_draw_is_reported_for_that_draw_under_both_back_ends():
    """x is null: adding 10 // random(...) to it fails; which error depends only on the one draw
    the game made (seeds 1, 3, 9 and 10 of 12 differ)."""
    programs = [pipeline.load_program_text(REDRAW, "redraw.yaml", backend=b) for b in BACKENDS]
    for seed in range(12):
        messages = [attempt(lambda p=p: new_game(p, seed=seed))[1] for p in programs]
        assert messages[0] == messages[1], f"seed {seed}"




def test_the_step_count_after_a_rules_error_is_the_same_under_both_back_ends():
    """A state after a rules error is the same as far as it goes: BOOM (test_scenarios) squares x
    until it passes the number limit at its first decision's run."""
    from test_scenarios import BOOM
    states = []
    for backend in BACKENDS:
        program = pipeline.load_program_text(BOOM, "boom.yaml", backend=backend)
        s = new_game(program, seed=0)
        with pytest.raises(RulesFault, match="a number reached the limit"):
            apply(program, s, 0)
        states.append(s.to_dict())
    assert states[0] == states[1], differences(*states)


# == 5. random rulesets written by a generator of the language ===================================
import random_rulesets         # noqa: E402  (tests/random_rulesets.py)

Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def random_programs(seed: int, schema: bool = False, max_steps: int = 20_000):
    """(closure program, generated program) of random ruleset `seed` under its options
    (random_rulesets.options), or the checker's problems (a list of texts) when it does not
    validate.  The checker runs once per back end, each on the ruleset read from its YAML text
    (so positions are real file:line:col); the schema check, which the generator's shapes
    always pass, runs only when `schema` is asked (it is half the cost of a small ruleset)."""
    text = yaml.dump(random_rulesets.write(seed, max_steps), Dumper=Dumper, allow_unicode=True, sort_keys=False)
    data, source = load_text(text, f"random{seed}.yaml")
    try:
        if schema:
            pipeline._check_schema(data, source)
        options = random_rulesets.options(seed)
        return tuple(compile_ruleset(data, source, options, backend=b) for b in BACKENDS), text
    except RulesetError as e:
        return [p.message for p in e.problems], text


def random_duels(seed: int, games: int, limit: int, log: bool = True, schema: bool = False,
                 max_steps: int = 20_000) -> tuple:
    """Play `games` seeded games of random ruleset `seed` under both back ends, compared at
    every decision (see Duel), rules errors included (the step limit's too); (valid, {outcome
    kind: count}, decisions, comparisons).  The first game also checks copies and imagined
    deals every fourth decision."""
    programs, text = random_programs(seed, schema, max_steps)
    if isinstance(programs, list):
        return False, {}, 0, 0
    assert layout(programs[0]) == layout(programs[1]), f"random ruleset {seed}: the layouts differ"
    kinds, decisions, compared = {}, 0, 0
    lo, hi, _ = programs[0].players
    for game in range(games):
        players = lo + game % (hi - lo + 1)
        duel = Duel(programs, game, players, log=log, full=log,
                    what=f"random ruleset {seed} (tests/random_rulesets.write({seed})), players {players}, "
                         f"seed {game}")
        try:
            outcome, n = duel.play(limit=limit, each=_imagined_checks(duel, 4, game, limit=10) if game == 0 else None)
        except AssertionError as e:
            raise AssertionError(f"{e}\n--- the ruleset:\n{text}") from None
        kind = outcome[0] if outcome[0] == "result" or duel.over else "cut"
        if kind == "error":
            kind = "error: " + outcome[1].split("rules error while running this step: ")[-1].split("\n")[0][:50]
        kinds[kind] = kinds.get(kind, 0) + 1
        decisions += n
        compared += duel.compared
    return True, kinds, decisions, compared


RANDOM_QUICK = range(0, 50)        # the default run; -m slow plays RANDOM_SLOW too
RANDOM_SLOW = range(1000, 2500)    # (2,000 took 373 s of CI's 30 minutes on 2 cores)


def _random_chunk(seeds, games, limit, log, schema) -> tuple:
    """random_duels over `seeds`, summed: (valid rulesets, {outcome: count}, decisions, comparisons)."""
    valid = decisions = compared = 0
    kinds = {}
    for seed in seeds:
        ok, k, n, c = random_duels(seed, games, limit, log, schema)
        valid += ok
        decisions += n
        compared += c
        for name, count in k.items():
            kinds[name] = kinds.get(name, 0) + count
    return valid, kinds, decisions, compared


def _random_report(seeds, games, limit, log, schema, capsys, label, parallel=False):
    start = time.perf_counter()
    chunks = [seeds[i:i + 50] for i in range(0, len(seeds), 50)] if parallel else [seeds]
    valid = decisions = compared = 0
    kinds = {}
    for v, k, n, c in in_parallel(_random_chunk, [(s, games, limit, log, schema) for s in chunks]) \
            if parallel else [_random_chunk(seeds, games, limit, log, schema)]:
        valid, decisions, compared = valid + v, decisions + n, compared + c
        for name, count in k.items():
            kinds[name] = kinds.get(name, 0) + count
    total = len(seeds)
    with capsys.disabled():
        ends = ", ".join(f"{v} {k}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])[:8])
        print(f"\n{label}: {valid}/{total} random rulesets valid, {sum(kinds.values())} games, {decisions} "
              f"decisions, {compared} comparisons, {time.perf_counter() - start:.1f} s"
              f"{f' on {JOBS} processes' if parallel else ''}; ends: {ends}")
    return valid, kinds


def test_random_rulesets_play_the_same_under_both_back_ends(capsys):
    """50 random rulesets (tests/random_rulesets.py), three seeded games each with the account
    kept, compared at every decision as the shipped rulesets are; games that end in a rules
    error must end in the same error.  The generator must stay useful: most of what it
    writes validates, and the games end in every way (a result, a rules error)."""
    valid, kinds = _random_report(RANDOM_QUICK, 3, 60, True, False, capsys, "quick")
    assert valid >= 0.9 * len(RANDOM_QUICK)
    assert kinds.get("result", 0) >= len(RANDOM_QUICK) and any(k.startswith("error") for k in kinds)


@pytest.mark.slow
def test_many_more_random_rulesets_play_the_same_under_both_back_ends(capsys):
    """1,500 more random rulesets, the schema checked too, five games each (to 200 decisions)."""
    valid, kinds = _random_report(RANDOM_SLOW, 5, 200, True, True, capsys, "slow", parallel=True)
    assert valid >= 0.9 * len(RANDOM_SLOW)


def test_the_generator_writes_rulesets_the_schema_accepts():
    """The quick run leaves the schema out (it is half the cost): it accepts what the generator writes."""
    for seed in range(10):
        text = yaml.dump(random_rulesets.write(seed), Dumper=Dumper, allow_unicode=True, sort_keys=False)
        data, source = load_text(text, f"random{seed}.yaml")
        pipeline._check_schema(data, source)


def _small_limit(seed: int) -> int:
    return random.Random(seed).choice([30, 60, 100, 200, 400])


def test_random_rulesets_reach_a_small_step_limit_at_the_same_decision_under_both_back_ends(capsys):
    """With max_steps of 30 to 400 many games stop at the step limit, somewhere in the middle
    of a run: both back ends stop in the same decision, with the same states before it and the
    same error, at the same step."""
    limited = 0
    for seed in range(30):
        ok, kinds, _, _ = random_duels(seed, 2, 60, max_steps=_small_limit(seed))
        limited += sum(v for k, v in kinds.items() if STEP_LIMIT in k)
    assert limited >= 15


# -- mutants of the shipped rulesets ---------------------------------------------------------------
MUTANT_VALUES = [None, 0, -1, 3, 2.5, "", "1 / 0", "null", "[]", "current.hand", "players", "end_turn", "end_game",
                 "end_round", True, 10 ** 6]


@functools.lru_cache(maxsize=None)
def _plain(name: str) -> dict:
    return yaml.safe_load((ROOT / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8"))


def mutant(k: int) -> tuple:
    """(ruleset name, data): a shipped ruleset with one value in its flow, functions,
    procedures, triggers, variables or result replaced (mostly by another expression of the
    same ruleset, so that the types often still fit) or deleted."""
    from conftest import value_paths
    r = random.Random(k)
    name = r.choice(RULESETS)
    data = json.loads(json.dumps(_plain(name)))
    parts = ("flow", "functions", "procedures", "triggers", "variables", "player_variables", "result")
    paths = [p for p in value_paths(data) if len(p) > 1 and p[0] in parts]
    texts = [v for p in paths if isinstance(v := _at(data, p), str)]
    path = r.choice(paths)
    parent = _at(data, path[:-1])
    action = r.choice(["expression", "expression", "expression", "value", "delete"])
    if action == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = r.choice(texts) if action == "expression" else r.choice(MUTANT_VALUES)
    data["flow"]["max_steps"] = 50_000
    return name, data


def _at(data, path):
    for p in path:
        data = data[p]
    return data


def _mutant_chunk(ks) -> tuple:
    """(valid mutants, games, outcomes) of mutants `ks`, each played three times under both back ends."""
    valid = games = 0
    kinds = {}
    for k in ks:
        name, data = mutant(k)
        text = yaml.dump(data, Dumper=Dumper, allow_unicode=True, sort_keys=False)
        data, source = load_text(text, f"mutant{k}.yaml")
        try:
            pipeline._check_schema(data, source)
            programs = tuple(compile_ruleset(data, source, None, backend=b) for b in BACKENDS)
        except (RulesetError, InterpreterError):
            continue
        valid += 1
        for seed in range(3):
            players = 3 + seed if name == "gnav" else None
            duel = Duel(programs, seed, players, what=f"mutant({k}) of {name}, seed {seed}")
            outcome, _ = duel.play(limit=300)
            kind = outcome[0] if duel.over else "cut"
            kinds[kind] = kinds.get(kind, 0) + 1
            games += 1
    return valid, games, kinds


@pytest.mark.slow
def test_mutants_of_the_shipped_rulesets_play_the_same_under_both_back_ends(capsys):
    """600 mutants of the shipped rulesets (one value replaced or deleted); those the checker
    accepts play three games each under both back ends, compared at every decision: big
    rulesets with their requests, triggers and procedures, broken in small ways."""
    start = time.perf_counter()
    done = in_parallel(_mutant_chunk, [(range(i, i + 50),) for i in range(0, 600, 50)])
    valid, games = sum(v for v, _, _ in done), sum(g for _, g, _ in done)
    kinds = {}
    for _, _, k in done:
        for name, count in k.items():
            kinds[name] = kinds.get(name, 0) + count
    with capsys.disabled():
        print(f"\nmutants: {valid}/600 valid, {games} games ({kinds}), {time.perf_counter() - start:.1f} s")
    assert valid >= 100


# == stopping at every point: scenarios' run_to under both back ends ==========================
def _every_point(program) -> dict:
    """run_to's form of every point of a program: pc -> the spans the flow must come through."""
    spans = {}
    for pcs in program.points.values():
        for pc, span in pcs:
            spans.setdefault(pc, []).append(span)
    return spans


def _stops(program, seed: int, decisions: int = 60) -> tuple:
    """A seeded game of random choices stopped at every point of the rules (engine.run_to, as
    a scenario stops): each stop's pc, where the flow came from and the whole state; and how
    many times the generated code ran a function whole between two stops."""
    import random
    from interpreter.runtime import engine
    ran = [0]
    fast = engine._unstopped(program, _every_point(program))

    def counted(fn):
        def run(s):
            ran[0] += 1
            return fn(s)
        return run
    saved = dict(fast)
    fast.update({pc: counted(fn) for pc, fn in saved.items()})
    try:
        spans, pick, out = _every_point(program), random.Random(seed), []
        s = engine.new_game(program, seed=seed, start=False)
        came = None
        for _ in range(decisions):
            while s.pending is None and not s.over:
                out.append((s.pc, came, _snapshot(s)))
                came = engine.run_to(program, s, spans)
            if s.over:
                break
            came = engine.apply(program, s, pick.randrange(len(s.pending[1])), spans)
        return out, ran[0]
    finally:
        fast.update(saved)


@pytest.mark.parametrize("name", ["hearts2", "ninety_nine", "gnav2", "gnav", "war", "crazy_eights", "go_fish"])
def test_a_game_stopped_at_every_point_stops_alike_under_both_back_ends(name):
    """What a scenario sees where it stops the rules (Program.points): the generated back end
    runs its functions between the points (those that may pass none, Program.reach) and the
    closure instructions elsewhere, and stops where the closures stop, in the same states."""
    closures, generated = shipped(name)
    for seed in range(3):
        ref, _ = _stops(closures, seed)
        gen, ran = _stops(generated, seed)
        assert len(ref) > 10
        for k, (a, b) in enumerate(zip(ref, gen)):
            assert a[:2] == b[:2], f"{name} seed {seed}: stop {k} is at {b[:2]}, the closures' at {a[:2]}"
            assert a[2] == b[2], f"{name} seed {seed}, stop {k}: {differences(a[2], b[2])}"
        assert len(ref) == len(gen)
        assert ran > 0, f"{name}: the generated code never ran between two points"
