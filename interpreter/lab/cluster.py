"""Games played on a Ray cluster (the optional 'cluster' extra): the same rows, in the same
order, as on this machine, since each game's seed and bots depend on its number only.

The workers need neither the ruleset nor this package installed: each task carries the
checked rules (an overlay combined with its bases) and the options in force, and Ray ships the `interpreter` package with
the job (runtime_env py_modules).  The cluster's Python needs the core dependencies
(pyyaml, jsonschema, lark), as any Ray job needs its own.  A worker compiles each ruleset
once and keeps it for the next tasks.

    interpret simulate rulesets/hearts2.yaml --games 100000 --cluster auto        # RAY_ADDRESS, or a local cluster
    interpret simulate rulesets/hearts2.yaml --cluster ray://head:10001            # a remote cluster (Ray client)
    interpret simulate rulesets/hearts2.yaml --cluster local --jobs 8              # a Ray instance started here
"""
from __future__ import annotations

import hashlib
import json
import pathlib

from ..errors import UsageError

BLOCK = 64                      # games a task plays: big enough to hide a task's overhead

_compiled = {}                  # in a worker: the programs compiled so far, by the hash of their spec


def available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def connect(address: str, jobs: int):
    """Connect to (or start) the cluster; `address` 'local' starts one here with `jobs` CPUs."""
    if not available():
        raise UsageError("--cluster needs Ray: pip install 'card-interpreter[cluster]'")
    import ray
    package = str(pathlib.Path(__file__).resolve().parent.parent)
    env = {"py_modules": [package]}
    if ray.is_initialized():
        return ray
    kwargs = dict(runtime_env=env, ignore_reinit_error=True, log_to_driver=False, logging_level="ERROR")
    try:
        if address == "local":
            ray.init(num_cpus=jobs, include_dashboard=False, **kwargs)
        else:
            ray.init(address=None if address == "auto" else address, **kwargs)
    except Exception as e:          # Ray's own errors: a bad address, none listening, a missing client
        raise UsageError(f"--cluster {address}: Ray could not connect ({type(e).__name__}: "
                         f"{str(e).splitlines()[0] if str(e) else 'no reason given'}); give 'auto', "
                         "'local' or 'ray://HOST:10001'") from None
    return ray


def spec_of(program) -> dict:
    """What a worker needs to compile the same program: the checked rules (an overlay already
    combined with its bases) with their positions, and the settings."""
    data, source = program.rules
    key = json.dumps([data, sorted(program.options.items()), program.lang, program.backend], sort_keys=True,
                     default=str)
    return {"data": data, "source": source, "options": {k: str(v) for k, v in program.options.items()},
            "lang": program.lang, "backend": program.backend, "hash": hashlib.sha256(key.encode()).hexdigest()}


def _program(spec):
    if spec["hash"] not in _compiled:
        from ..pipeline import compile_ruleset
        _compiled[spec["hash"]] = compile_ruleset(spec["data"], spec["source"], spec["options"], spec["lang"],
                                                  spec["backend"])
    return _compiled[spec["hash"]]


def play_block(spec, first, count, n, seating, game_row):
    """A task: the rows of `count` games from seed `first` (None for a game that failed),
    each played by game_row (simulation.game_row, sent by reference)."""
    program = _program(spec)
    out = []
    for seed in range(first, first + count):
        try:
            out.append(game_row(program, n, seed, seating))
        except Exception:
            out.append(None)            # played again by the caller, who raises its error
    return out


def rows(ray, program, n, games, seed, seating, game_row):
    """Each game's row, in seed order, played by the cluster's workers with game_row; a game
    that failed there is played again here, so that its error is raised as it would be locally."""
    task = ray.remote(play_block)
    spec = ray.put(spec_of(program))
    refs = [task.remote(spec, seed + k, min(BLOCK, games - k), n, seating, game_row)
            for k in range(0, games, BLOCK)]
    try:
        k = 0
        for ref in refs:
            for row in ray.get(ref):
                yield row if row is not None else game_row(program, n, seed + k, seating)
                k += 1
    finally:
        # Ctrl-C or an error: the rest is not wanted, but it is not cancelled either.  Ray
        # (2.x) can abort the driver when a task is cancelled as its result comes in
        # (task_manager.cc, "an unexpected system state"); the blocks left are small, and
        # Ray drops a job's tasks when its driver disconnects.
        refs.clear()
