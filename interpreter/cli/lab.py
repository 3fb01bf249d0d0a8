"""`interpret simulate` and `interpret compare`: the designer's laboratory at the command line.

Both load and check every ruleset and variant first (a bad one stops the command with its
file:line:col before any game is played), show a progress bar on a terminal, print the
report (or --json), and write what was asked: one row per game (--csv, --jsonl), a plot
(--plot) and an HTML page (--report).  Ctrl-C prints what the games played so far say.
"""
from __future__ import annotations

import argparse
import json
import os

from ..errors import UsageError
from ..pipeline import load_program
from ..lab.compare import compare
from ..lab.reports import comparison_lines, report_lines
from ..lab.simulation import Interrupted, simulate
from ..lab import outputs
from ..lab.html_report import write_report
from ..shown import printable
from ..targets import OutputFailed, program_files, write_file
from .terminal import warnings_note, whole_number


def add_run_arguments(p: argparse.ArgumentParser, cores: int) -> None:
    """What simulate and compare share: how many games, by whom, and where the results go."""
    p.add_argument("--games", type=whole_number, default=200, help="games to play (of each variant; default 200)")
    p.add_argument("--players", type=whole_number, help="number of players, where the ruleset allows a range")
    p.add_argument("--seed", type=whole_number, default=0, help="seed of the first game; game k uses seed + k")
    p.add_argument("--mc-seats", type=whole_number, nargs="*", default=[], metavar="SEAT",
                   help="seats played by the mc bot (the others by random bots)")
    p.add_argument("--ismcts-seats", type=whole_number, nargs="*", default=[], metavar="SEAT",
                   help="seats played by the ismcts bot (tree search on imagined deals)")
    p.add_argument("--bot", choices=["random", "mc", "ismcts"], default="random",
                   help="who plays every seat not named by --mc-seats or --ismcts-seats: random bots (default), "
                        "the mc bot or the ismcts bot")
    p.add_argument("--playouts", type=whole_number, default=20, help="play-outs per option for the mc bot")
    p.add_argument("--iterations", type=whole_number, default=400, help="iterations a decision for the ismcts bot")
    p.add_argument("--jobs", type=whole_number, default=cores, metavar="N",
                   help=f"worker processes sharing the games (default: every core, here {cores}); "
                        "the report is the same for any N")
    p.add_argument("--json", action="store_true", help="print the report as JSON (docs/simulation.md gives its shape)")
    p.add_argument("--csv", metavar="FILE", help="write one row per game: seed, winners, scores, length, statistics")
    p.add_argument("--jsonl", metavar="FILE", help="write one JSON line per game")
    p.add_argument("--plot", metavar="FILE", help="draw win shares and the spread of length and scores (.png, .svg or .pdf; "
                                                  "needs the 'plot' extra: pip install 'card-interpreter[plot]')")
    p.add_argument("--report", metavar="DIR", help="write an HTML page with the tables and plots into DIR")
    p.add_argument("--progress", choices=["auto", "on", "off"], default="auto",
                   help="a progress bar on stderr (auto: when stderr is a terminal)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games on a Ray cluster: 'auto' (RAY_ADDRESS or a running local one), "
                        "'ray://HOST:10001', or 'local' (start one here with --jobs CPUs); the report is the same. "
                        "Needs the 'cluster' extra: pip install 'card-interpreter[cluster]'")


def simulate_parser(cores: int) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="interpret simulate",
                                description="Play many games between bots and report how they end: wins per seat "
                                            "with 95% intervals, draws, scores, length and the ruleset's statistics.")
    p.add_argument("ruleset", help="a ruleset file, an overlay, or a shipped game's name")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="set a table convention (see 'interpret options RULESET')")
    add_run_arguments(p, cores)
    return p


def compare_parser(cores: int) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="interpret compare",
        description="Play a ruleset and its variants on the same seeds and say what each variant changes, "
                    "with 95% intervals. A variant is the base with --option settings, a --variant, or another "
                    "ruleset file.",
        epilog="example: interpret compare rulesets/ninety_nine.yaml --option empty_draw_pile=reshuffle")
    p.add_argument("base", help="the ruleset the variants are compared with")
    p.add_argument("variants", nargs="*", metavar="VARIANT.yaml", help="other ruleset files, each a variant")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="the base with these settings is a variant (all --option together make one)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE[,NAME=VALUE...]",
                   help="a variant of its own: the base with these settings (repeat for more)")
    p.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE",
                   help="settings of the base itself (and of every variant built on it)")
    add_run_arguments(p, cores)
    return p


def parse_options(pairs, flag="--option") -> dict:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"{flag} needs NAME=VALUE, got '{pair}'")
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def _seats(args, program) -> tuple[list, list]:
    """(mc seats, ismcts seats): those named, and with --bot the rest."""
    named = set(args.mc_seats) | set(args.ismcts_seats)
    rest = [s for s in range(1, program.player_count(args.players) + 1) if s not in named]
    return (args.mc_seats + (rest if args.bot == "mc" else []),
            args.ismcts_seats + (rest if args.bot == "ismcts" else []))


def lab_backend(args) -> str:
    """--backend, or the simulations' default (native where Numba is installed)."""
    from .. import pipeline
    return args.backend or pipeline.simulation_backend()


def native_note(args, programs, stderr) -> None:
    """Where the native back end plays: asked for by name, its kernel compiles whatever the
    number of games; where it cannot play, one line says why (when it was asked for, or the
    run is long enough that it would have played)."""
    from ..lab.simulation import NATIVE_GAMES
    for program in programs:
        if getattr(program, "backend", None) != "native":
            continue
        if program.native is not None:
            program.native.asked = args.backend == "native"
            if program.native_playouts is not None:
                program.native_playouts.asked = args.backend == "native"
        elif args.backend == "native" or args.games >= NATIVE_GAMES:
            print(f"native playouts: {program.native_reason}; the generated Python plays {program.name}", file=stderr)


def failed_note(programs, stderr) -> None:
    """One line for a kernel Numba could not compile (lab.simulation.compiled): the generated
    Python played instead, the same games."""
    for program in programs:
        reason = getattr(program, "native_failed", None)
        if reason:
            print(f"native playouts: {reason}; the generated Python played {program.name}", file=stderr)


def run_simulate(args, stdout, stderr) -> int:
    program = load_program(args.ruleset, parse_options(args.option), backend=lab_backend(args))
    native_note(args, [program], stderr)
    outputs.check_targets(args, [program])
    note = warnings_note(program, args.ruleset)
    if note:
        print(note, file=stderr)
    mc, ismcts = _seats(args, program)
    rows = []
    report, interrupted = _played(
        args, stderr, args.games, lambda seen: simulate(
            program, args.games, args.players, args.seed, mc, args.playouts, args.jobs,
            on_row=lambda row: (rows.append(row), seen()), cluster=_cluster(args),
            ismcts_seats=ismcts, iterations=args.iterations))
    failed_note([program], stderr)
    _print(args, report, report_lines(report), stdout)
    write_all(args, [(program.name, report, rows)], None, stderr)
    return _ended(interrupted, stderr)


def run_compare(args, stdout, stderr) -> int:
    variants = load_variants(args)
    native_note(args, [program for _, program in variants], stderr)
    outputs.check_targets(args, [program for _, program in variants])
    for line in doubts(variants):
        print(line, file=stderr)
    paths = [args.base] * (len(variants) - len(args.variants)) + list(args.variants)
    for note in dict.fromkeys(warnings_note(program, path) for (_, program), path in zip(variants, paths)):
        if note:
            print(note, file=stderr)
    mc, ismcts = _seats(args, variants[0][1])
    rows = [[] for _ in variants]
    result, interrupted = _played(
        args, stderr, args.games * len(variants), lambda seen: compare(
            variants, args.games, args.players, args.seed, mc, args.playouts, args.jobs,
            on_row=lambda index, row: (rows[index].append(row), seen()), cluster=_cluster(args),
            ismcts_seats=ismcts, iterations=args.iterations))
    failed_note([program for _, program in variants], stderr)
    common = result["games"]
    runs = [(run["variant"], run["report"], rows[i][:common]) for i, run in enumerate(result["runs"])]
    _print(args, result, comparison_lines(result), stdout)
    write_all(args, runs, result, stderr)
    return _ended(interrupted, stderr)


def _played(args, stderr, total: int, play) -> tuple:
    """(result, interrupted) of play(seen), with a progress bar that seen() moves on; Ctrl-C
    gives the result of the games played so far."""
    bar = outputs.progress(args.progress, total, stderr)
    try:
        return play(bar.update), False
    except Interrupted as e:
        return e.report, True
    finally:
        bar.close()


def _ended(interrupted: bool, stderr) -> int:
    if interrupted:
        print("interrupted", file=stderr)
        return 130
    return 0


def _cluster(args):
    """The connected Ray module when --cluster is given (checked before any game is played)."""
    if not args.cluster:
        return None
    from ..lab.cluster import connect
    return connect(args.cluster, args.jobs)


def load_variants(args) -> list:
    """[(name, Program)]: the base, then each variant, every one checked before a game is
    played, all built by the back end of --backend."""
    def loaded(path, options):
        return load_program(path, options, backend=lab_backend(args))
    base_options = parse_options(args.base_option, "--base-option")
    variants = [("base" + (f" ({_named(base_options)})" if base_options else ""), loaded(args.base, base_options))]
    if args.option:
        options = parse_options(args.option)
        variants.append((_named(options), loaded(args.base, {**base_options, **options})))
    for spec in args.variant:
        options = parse_options([x for x in spec.split(",") if x.strip()], "--variant")
        if not options:
            raise UsageError("--variant needs NAME=VALUE[,NAME=VALUE...]")
        variants.append((_named(options), loaded(args.base, {**base_options, **options})))
    for path in args.variants:
        variants.append((path, loaded(path, base_options)))
    if len(variants) < 2:
        raise UsageError("give a variant to compare: --option NAME=VALUE, --variant NAME=VALUE,... or a ruleset file")
    return variants


def doubts(variants: list) -> list[str]:
    """What may not be meant: a variant that is another game, or the same as the base or
    as another variant (the same ruleset text and options)."""
    out, seen = [], {}
    base = variants[0][1]
    for name, program in variants:
        key = ("\n".join(program.lines), tuple(sorted(program.options.items())))
        if key in seen:
            out.append(f"warning: {name} is the same ruleset with the same options as {seen[key]}")
        seen.setdefault(key, name)
        if program.name != base.name and not (set(program_files(program)) & set(program_files(base))):
            out.append(f"warning: {name} is the ruleset '{program.name}', the base is '{base.name}'")
    return out


def _named(options: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items())


def _print(args, result, lines, stdout) -> None:
    if args.json:
        print(json.dumps(result, ensure_ascii=False), file=stdout)
    else:
        for line in lines:
            print(printable(line), file=stdout)      # a statistic's label stays on its line


def write_all(args, runs: list, comparison, note) -> None:
    """Write every output asked for, and say where on `note` (stderr: stdout may be JSON).
    Each is tried even when another could not be written (a full disk): those that failed
    are said, and the last raised (the report is printed already).  With no game played to
    its end (Ctrl-C early) there is nothing to draw."""
    if not any(rows for _, _, rows in runs) and (args.plot or args.report):
        print("no game was finished: no plot, no report", file=note)
        args.plot = args.report = None
    csv, jsonl, plot, report = outputs.targets_of(args)
    failures = []
    for output, write, said in (
            (csv, lambda: outputs.write_csv(csv, runs), "rows"),
            (jsonl, lambda: outputs.write_jsonl(jsonl, runs), "rows"),
            (plot, lambda: _plot(plot, runs), "plot"),
            (report, lambda: write_report(report, runs, comparison), "report")):
        if not output.path:
            continue
        try:
            written = write()
            print(f"{said}: {written or output.path}", file=note)
        except OutputFailed as e:
            failures.append(e)
    for e in failures[:-1]:
        print(f"interpret: {e}", file=note)
    if failures:
        raise failures[-1]


def _plot(output, runs) -> None:
    from ..lab.plots import plot           # matplotlib: only when a plot is asked for
    write_file(output, lambda f: plot(f, runs, os.path.splitext(output.path)[1][1:].lower()), binary=True)
