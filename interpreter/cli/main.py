"""The `interpret` command.  `run(argv, ...)` returns an exit code so tests call it directly."""
from __future__ import annotations

import argparse
import contextlib
import os
import pathlib
import secrets
import sys
import traceback

from ..errors import (InterpreterError, Problem, RulesetError, UsageError, as_errors, did_you_mean, errors_only,
                      format_problem)
from ..source.shipped import resolve, shipped_path
from ..check.options import allowed, explained
from ..playing import records
from .. import targets
from ..playing.agents import TABLE_BOT
from ..limits import MAX_ITERATIONS, MAX_JOBS, MAX_NUMBER, MAX_PLAYOUTS, MAX_THINK
from ..messages import msg
from ..shown import PrintableStream, printable
from .terminal import result_line, warnings_note, whole_number

COMMANDS = ("validate", "options", "play", "replay", "resume", "scenario", "simulate", "compare", "compile", "diff",
            "new", "list", "schema", "rules", "serve")
RULESET_ARGS = ("ruleset", "base", "a", "b")     # arguments that name a ruleset: a file, or a shipped name


# The exit code of a bug of the interpreter (sysexits.h's EX_SOFTWARE), apart from a problem in
# the rules or the input (1), a usage error (2) and an interruption (130); and the variable
# that shows its traceback.
INTERNAL_ERROR = 70
DEBUG = "CARD_INTERPRETER_DEBUG"


def main() -> None:
    records.interrupt_on_termination()   # SIGTERM, SIGHUP (a closed terminal): like Ctrl-C, the record is kept
    stdout = _Stdout(sys.stdout)
    try:
        code = run(sys.argv[1:], stdout=stdout)
    except KeyboardInterrupt:        # a signal after run() had returned
        code = 130
    except Exception as e:           # neither the rules' doing nor the input's: ours (a game's record is kept)
        code = internal_error(e, sys.stderr)
    stdout.flush()
    sys.exit(stdout.exit_code(code, sys.stderr))


def internal_error(e: Exception, stderr) -> int:
    """Say in one line that `e` is a bug of the interpreter, to be reported (its traceback
    first when $CARD_INTERPRETER_DEBUG is set); INTERNAL_ERROR.  Only the exception's type is
    named: its text may quote a file.  run() lets such an exception through, so a test that
    meets one fails with its traceback."""
    debug = bool(os.environ.get(DEBUG))
    try:
        if debug:
            traceback.print_exception(e, file=stderr)
        print(f"interpret: internal error ({type(e).__name__}): this is a bug in the interpreter, not in your "
              f"rules; please report it with the command and the files it read"
              f"{'' if debug else f' ({DEBUG}=1 shows where it happened)'}", file=stderr)
    except (OSError, ValueError):
        pass
    return INTERNAL_ERROR


class _Stdout:
    """The standard output as the commands write to it, the one place where it failing is
    handled: a full disk (`interpret list > /dev/full`) or a closed pipe (`| head`) does not
    stop the command, whose files are still written; what it prints after that is dropped,
    and the descriptor is pointed at the null device so that Python's own flush at exit
    finds nothing to fail on.  A closed pipe is the reader's choice and ends quietly; any
    other failure is said once on stderr, with exit code 1."""

    def __init__(self, stream):
        self.stream, self.failure = stream, None

    def write(self, text):
        if self.failure is None:
            try:
                return self.stream.write(text)
            except OSError as e:
                self._lost(e)
        return len(text)

    def flush(self):
        if self.failure is None:
            try:
                self.stream.flush()
            except OSError as e:
                self._lost(e)

    def __getattr__(self, name):     # isatty, encoding, fileno ...: the stream's own
        return getattr(self.stream, name)

    def _lost(self, e: OSError) -> None:
        self.failure = e
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def exit_code(self, code: int, stderr) -> int:
        if self.failure is None or isinstance(self.failure, BrokenPipeError):
            return code
        try:
            print(f"interpret: the standard output: cannot write it: {self.failure.strerror or self.failure}",
                  file=stderr)
        except (OSError, ValueError):
            pass
        return code or 1


def run(argv, stdin=None, stdout=None, stderr=None) -> int:
    stdin = stdin or sys.stdin
    stdout = PrintableStream(stdout or sys.stdout)      # no text of a file drives the terminal
    stderr = PrintableStream(stderr or sys.stderr)
    argv = list(argv)
    if argv and argv[0] in ("--version", "-V"):
        print(f"interpret (card-interpreter) {_version()}", file=stdout)
        return 0
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-") and _mistyped_command(argv[0], stderr):
        return 2
    command = argv.pop(0) if argv and argv[0] in COMMANDS else "play"
    parser = _parser(command)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):   # --help, and
            args = parser.parse_args(argv)                  # its errors quote what was typed: escaped
    except SystemExit as e:            # argparse has printed its message
        return int(e.code or 0)
    try:
        _resolve_names(command, args)
    except UsageError as e:
        return _report(e, stderr)
    playouts = getattr(args, "playouts", 1)
    if not 1 <= playouts <= MAX_PLAYOUTS:
        print(f"interpret: error: --playouts must be 1 to {MAX_PLAYOUTS}, not {playouts}", file=stderr)
        return 2
    think = getattr(args, "think", None)
    if think is not None and not 0 < think <= MAX_THINK:
        print(f"interpret: error: --think must be more than 0 and at most {MAX_THINK:g} seconds, not {think:g}",
              file=stderr)
        return 2
    iterations = getattr(args, "iterations", None)
    if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
        print(f"interpret: error: --iterations must be 1 to {MAX_ITERATIONS}, not {iterations}", file=stderr)
        return 2
    jobs = getattr(args, "jobs", 1)
    if not 1 <= jobs <= MAX_JOBS:
        print(f"interpret: error: --jobs must be 1 to {MAX_JOBS}, not {jobs}", file=stderr)
        return 2
    seed = getattr(args, "seed", None)
    if seed is not None and not 0 <= seed < MAX_NUMBER:     # a record must be able to hold it
        print(f"interpret: error: --seed must be 0 to {MAX_NUMBER - 1}, not {seed}", file=stderr)
        return 2
    if command == "list":                 # quick: neither builds nor imports the pipeline
        return _list(stdout)
    if command == "serve":
        return _serve(args, stdout, stderr)
    if command == "schema":
        return _schema(args, stdout)
    from .. import pipeline
    from . import lab
    try:
        if command == "validate":
            return _validate(args, stdout, stderr)
        if command == "options":
            return _options(args, stdout)
        if command == "replay":
            return _replay(args, stdout, stderr)
        if command == "resume":
            return _resume(args, stdin, stdout, stderr)
        if command == "scenario":
            from ..authoring.scenario import run_scenarios
            return run_scenarios(args.files, stdout, args.backend)
        if command == "simulate":
            return lab.run_simulate(args, stdout, stderr)
        if command == "compare":
            return lab.run_compare(args, stdout, stderr)
        if command == "compile":
            return _compile(args, stdout)
        if command == "diff":
            return _diff(args, stdout)
        if command == "new":
            return _new(args, stdout)
        if command == "rules":
            from ..authoring.rules_text import rules_lines
            from .terminal import width_of
            program = pipeline.load_program(args.ruleset, _parse_options(args.option), args.lang)
            print("\n".join(rules_lines(program, width_of(stdout))), file=stdout)
            return 0
        return _play(args, stdin, stdout, stderr)
    except KeyboardInterrupt:
        print("\ninterrupted", file=stderr)
        return 130
    except InterpreterError as e:
        return _report(e, stderr)


def _resolve_names(command, args) -> None:
    """A shipped ruleset (or example house rule) by its name, from any folder."""
    for name in RULESET_ARGS:
        if command != "new" and isinstance(getattr(args, name, None), str):
            setattr(args, name, resolve(getattr(args, name)))
    if command == "compare":
        args.variants = [resolve(v) for v in args.variants]


def _report(e: InterpreterError, out) -> int:
    """Print an error of ours; return the exit code (2 for a usage error, else 1).  Each is
    text format_problem made: a Problem's, or the message of an error without one."""
    if isinstance(e, RulesetError):
        _print_problems(e.problems, out)
        return 1
    if isinstance(e, UsageError):
        print(f"interpret: error: {e}", file=out)
        return 2
    print(f"interpret: {e}", file=out)       # a RulesFault shows its Problem: the ruleset's line and caret
    return 1


def _parser(command):
    p = _command_parser(command)
    if command not in ("validate", "options", "compile", "diff", "new", "list", "schema", "rules", "serve"):
        from .. import pipeline
        lab = command in ("simulate", "compare")
        p.add_argument("--backend", choices=list(pipeline.BACKENDS),
                       default=None if lab else pipeline.DEFAULT_BACKEND,
                       help="how the rules run: 'generated' Python (the default, fastest), 'closures' "
                            "(the reference the generated code is tested against) or 'native' (generated, with "
                            "whole games between random bots played by a Numba kernel; the default of simulate "
                            "and compare where Numba is installed: docs/native.md)")
    return p


def _command_parser(command):
    if command == "compile":
        p = argparse.ArgumentParser(prog="interpret compile",
                                    description="Show the Python that the generated back end writes for a ruleset.")
        p.add_argument("ruleset", help="a ruleset file, an overlay, or a shipped game's name")
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="set a table convention (the code is written for these options)")
        p.add_argument("--lang", help="language of the texts, e.g. en")
        p.add_argument("-o", "--output", metavar="FILE", help="write it to FILE instead of the terminal")
        return p
    if command == "rules":
        p = argparse.ArgumentParser(prog="interpret rules",
                                    description="The rules of a game as a player reads them: players, cards and what "
                                                "tells them apart, zones and who sees them, the conventions in force, "
                                                "then the rules in prose.")
        p.add_argument("ruleset", help="a ruleset file, an overlay, or a shipped game's name")
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="set a table convention before reading")
        p.add_argument("--lang", help="language of the texts, e.g. en")
        return p
    if command == "serve":
        p = argparse.ArgumentParser(prog="interpret serve",
                                    description="Serve the games to browsers: a lobby to make tables, a link per "
                                                "person, bots in the other seats (docs/server.md).")
        p.add_argument("files", nargs="*", metavar="RULESET_OR_OVERLAY",
                       help="rulesets or house rules to offer besides the shipped games")
        p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this "
                                                          "machine only; 0.0.0.0 to share it on a network)")
        p.add_argument("--port", type=whole_number, default=8000, help="the port (default 8000; 0: any free one)")
        p.add_argument("--db", metavar="FILE_OR_URL", help="the SQLite file the tables are kept in (default: "
                                                          "server.sqlite3 in the records folder), or a PostgreSQL "
                                                          "database (postgresql://USER@HOST/DB) that several server "
                                                          "processes share")
        p.add_argument("--allow-uploads", action="store_true",
                       help="let anyone who can open the lobby offer a ruleset or house rule of their own (checked "
                            "as 'interpret validate' checks a file; an uploaded house rule extends shipped rulesets "
                            "only); off by default")
        return p
    if command == "list":
        return argparse.ArgumentParser(prog="interpret list",
                                       description="The games that ship with the package, and the example house rules.")
    if command == "schema":
        p = argparse.ArgumentParser(prog="interpret schema",
                                    description="Where the JSON Schema of each kind of file lies, for an editor's "
                                                "'# yaml-language-server: $schema=PATH' line.")
        p.add_argument("kind", nargs="?", choices=["ruleset", "overlay", "scenario", "record"],
                       help="one kind (default: all four)")
        return p
    if command == "new":
        p = argparse.ArgumentParser(prog="interpret new",
                                    description="Start a house rule: a small file that extends a ruleset and says only "
                                                "what differs (an overlay), ready to edit.")
        p.add_argument("file", help="the new file, e.g. my_hearts.yaml")
        p.add_argument("--from", dest="base", required=True, metavar="RULESET",
                       help="the ruleset it changes: a shipped name (hearts2) or a path")
        return p
    if command == "diff":
        p = argparse.ArgumentParser(prog="interpret diff",
                                    description="What differs between two rulesets, rule by rule: options, cards, "
                                                "zones, variables, functions, steps, triggers, result, statistics.")
        p.add_argument("a", metavar="RULESET_A", help="the ruleset compared from (a file, an overlay or a shipped name)")
        p.add_argument("b", metavar="RULESET_B", help="the ruleset compared to")
        return p
    if command == "validate":
        p = argparse.ArgumentParser(prog="interpret validate", description="Check ruleset files and report every problem.")
        p.add_argument("files", nargs="+", metavar="FILE", help="rulesets, overlays, scenarios or records")
        p.add_argument("--every-option", action="store_true",
                       help="check a ruleset again under each value of each option (the others at their "
                            "defaults): a mistake only one convention reaches is found before anyone plays it")
        p.add_argument("--strict", action="store_true",
                       help="count warnings (a value the checker cannot show is never null) as errors")
        return p
    if command == "options":
        p = argparse.ArgumentParser(prog="interpret options", description="List a ruleset's table conventions.")
        p.add_argument("ruleset", help="a ruleset file, an overlay, or a shipped game's name")
        return p
    if command == "replay":
        p = argparse.ArgumentParser(prog="interpret replay",
                                    description="Replay a game record and check that it reaches the same result.")
        p.add_argument("file", help="the record (a .json file written by --record or a game with a person)")
        return p
    if command == "resume":
        p = argparse.ArgumentParser(prog="interpret resume", description="Continue an interrupted game from its record.")
        p.add_argument("file", nargs="?", help="the record; without it, the latest unfinished game recorded "
                                               "automatically (in ~/.card-interpreter/records)")
        p.add_argument("--log", metavar="FILE.jsonl", help="write every event as one JSON line")
        p.add_argument("--view", type=whole_number, metavar="SEAT", help="with --log: only what SEAT could see")
        p.add_argument("--plain", action="store_true", help="plain lines instead of the drawn table (for pipes and "
                       "screen readers; the default when the output is not a terminal)")
        p.add_argument("--ask-forced", action="store_true",
                       help="ask a person even when only one move is legal (by default it is played for them)")
        return p
    if command == "simulate":
        from . import lab
        return lab.simulate_parser(_cores())
    if command == "compare":
        from . import lab
        return lab.compare_parser(_cores())
    if command == "scenario":
        p = argparse.ArgumentParser(prog="interpret scenario", description="Run scenario files and check their expectations.")
        p.add_argument("files", nargs="+", metavar="FILE", help="scenario files (examples/scenarios has some)")
        return p
    p = argparse.ArgumentParser(
        prog="interpret",
        description="Play a card game written as a YAML ruleset. Other commands: "
                    "'interpret validate FILE...', 'interpret options RULESET', 'interpret replay RECORD', "
                    "'interpret resume RECORD', 'interpret scenario FILE...', 'interpret simulate RULESET', "
                    "'interpret compare RULESET --option NAME=VALUE', 'interpret diff A B', 'interpret new FILE --from RULESET', "
                    "'interpret list', 'interpret schema', 'interpret compile RULESET', 'interpret serve'.")
    p.add_argument("ruleset", help="the ruleset: a file (rulesets/hearts2.yaml, an overlay) or a shipped game's name "
                                   "(hearts2; 'interpret list' shows them)")
    p.add_argument("--seed", type=whole_number, help="random seed; the same seed and moves replay the same game")
    p.add_argument("--players", type=whole_number, help="number of players, where the ruleset allows a range")
    p.add_argument("--human", type=whole_number, action="append", default=[], metavar="SEAT",
                   help="seat a person at the terminal in SEAT (1 is the first seat); repeatable")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="set a table convention (see 'interpret options RULESET')")
    p.add_argument("--lang", help="language of the account, e.g. en")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--record", metavar="FILE", help="write a record of the game (games with a person are always recorded)")
    p.add_argument("--log", metavar="FILE.jsonl", help="write every event as one JSON line")
    p.add_argument("--view", type=whole_number, metavar="SEAT", help="with --log: only what SEAT could see")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object instead of the account")
    p.add_argument("--plain", action="store_true", help="plain lines instead of the drawn table (for pipes and "
                   "screen readers; the default when the output is not a terminal)")
    p.add_argument("--watch", action="store_true", help="bots in every seat, even at a terminal (where a person "
                   "otherwise takes seat 1 when no --human is given), the planning bot unless --bot says otherwise")
    p.add_argument("--ask-forced", action="store_true",
                   help="ask a person even when only one move is legal (by default it is played for them)")
    _bot_arguments(p)
    return p


def _bot_arguments(p):
    p.add_argument("--bot", choices=["random", "mc", "ismcts"],
                   help="the bots in the seats no person takes: random, mc (plays each option out on imagined "
                        "deals) or ismcts (a tree search on imagined deals, the stronger). Default: ismcts when "
                        "a person plays or with --watch (at most %d iterations and %g s a decision), random bots "
                        "otherwise" % (TABLE_BOT["iterations"], TABLE_BOT["seconds"]))
    p.add_argument("--playouts", type=whole_number, default=20, help="with --bot mc: play-outs per option")
    p.add_argument("--iterations", type=whole_number, help="with --bot ismcts: iterations a decision (alone: no "
                                                            "time bound, the same play on every run of a seed)")
    p.add_argument("--think", type=float, metavar="SECONDS",
                   help="with --bot ismcts: think this long a decision (alone: no bound on the iterations; its "
                        "play is then not the same on every run of a seed)")


def bot_asked(args, watched: bool) -> dict:
    """The bots' kind and budget, as a record keeps it: as the command line asks, or by
    default the table's planning bot (TABLE_BOT) where a person plays or --watch shows the
    game, random bots in a game no one watches (a quick run, --json, --quiet, as simulate)."""
    kind = args.bot or ("ismcts" if watched else "random")
    if kind == "mc":
        return {"kind": "mc", "playouts": args.playouts}
    if kind != "ismcts":
        return {"kind": "random"}
    if args.iterations is None and args.think is None:
        return dict(TABLE_BOT)
    return {"kind": "ismcts", **({"iterations": args.iterations} if args.iterations is not None else {}),
            **({"seconds": args.think} if args.think is not None else {})}


def _validate(args, stdout, stderr) -> int:
    from ..authoring.validation import check_file
    bad = 0
    for path in args.files:
        problems = check_file(path, every_option=args.every_option)
        if args.strict:
            problems = as_errors(problems)
        _print_problems(problems, stdout)
        warnings = len(problems) - len(errors_only(problems))
        if warnings < len(problems):
            bad += 1
        elif warnings:
            print(f"{path}: ok, with {warnings} warning{'s' * (warnings > 1)} (--strict counts them as errors)",
                  file=stdout)
        else:
            print(f"{path}: ok", file=stdout)
    return 1 if bad else 0


def _print_problems(problems, out, most: int = 100) -> None:
    """Every problem, up to `most` (a file of ten thousand copies of one mistake says so once)."""
    for p in problems[:most]:
        print(format_problem(p), file=out)
    if len(problems) > most:
        print(format_problem(Problem(problems[0].file, 0, 0, f"... and {len(problems) - most} more problems")), file=out)


def _options(args, stdout) -> int:
    from ..pipeline import load_program
    program = load_program(args.ruleset)

    def say(text):              # a ruleset's text stays on its line
        print(printable(text), file=stdout)
    if not program.option_specs:
        say(f"{program.name} has no options")
    for name, spec in program.option_specs.items():
        say(f"{name} = {spec['default']}   ({spec['description']})")
        if spec.get("type"):
            say(f"     any value: {allowed(spec)}; usual ones:")
        for choice in spec["choices"]:
            mark = "*" if choice == spec["default"] else " "
            line = explained(spec, choice)
            note = f": {line}" if line else ""
            say(f"   {mark} {choice}{note}")
    if program.option_specs:
        print("(* the default; set another with: interpret RULESET --option NAME=VALUE)", file=stdout)
    return 0


def _parse_options(pairs) -> dict:
    from .lab import parse_options
    return parse_options(pairs)


def _play(args, stdin, stdout, stderr) -> int:
    from ..pipeline import load_program
    from .table import TerminalTable, log_output
    program = load_program(args.ruleset, _parse_options(args.option), args.lang, args.backend)
    note = warnings_note(program, args.ruleset)
    if note and not args.quiet:
        print(note, file=stderr)
    n = program.player_count(args.players)
    for seat in args.human:
        if not 1 <= seat <= n:
            raise UsageError(f"--human {seat}: seats are numbered 1 to {n}")
    humans = {seat - 1 for seat in args.human}
    if not humans and not args.watch and not args.quiet and not args.json and _at_terminal(stdin, stdout):
        humans = {0}                    # 'interpret hearts2' at a terminal: you play seat 1 (--watch: bots only)
    seed = args.seed if args.seed is not None else _new_seed(bool(humans))
    kinds = ["human" if i in humans else "bot" for i in range(n)]
    record = path = None
    bot = bot_asked(args, watched=bool(humans) or args.watch)
    if args.record or humans:
        record = records.new_record(program, args.ruleset, seed, n, kinds, bot=bot)
        path = args.record or records.default_path(program.name)
    if path and not args.record:
        records.make_records_folder()
    targets.check_outputs([records.output(path, "--record" if args.record else ""), log_output(args)],
                          targets.ruleset_reads(program))
    with records.playing(path) if path else contextlib.nullcontext():
        table = TerminalTable(program, n, seed, kinds, args, stdin, stdout, record, path, bot)
        return table.run(prefix=())


def _at_terminal(stdin, stdout) -> bool:
    try:
        return stdin.isatty() and stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _new_seed(person: bool) -> int:
    """A short seed for bots' games (easy to quote); one no one can search for when a person
    plays, since the first hand shown would otherwise pin it down among a million."""
    return secrets.randbelow(MAX_NUMBER if person else 1_000_000)


def _resume(args, stdin, stdout, stderr) -> int:
    if args.file is None:
        args.file = records.latest_unfinished()
        if args.file is None:
            raise UsageError("no unfinished game is recorded: give the record to resume")
        print(f"resuming {args.file}", file=stderr)
    targets.check_outputs([records.output(args.file)])       # it is written again as the game goes
    with records.playing(args.file):                         # read once no other game is played from it
        return _resumed(args, stdin, stdout, stderr)


def _resumed(args, stdin, stdout, stderr) -> int:
    from .table import TerminalTable, log_output
    record = records.load(args.file)
    program, changed = records.program_of(record, backend=args.backend)
    if changed:
        print(f"warning: {record['ruleset']['file']} changed since this game was recorded", file=stderr)
    if record.get("result") is not None:
        raise UsageError(f"{args.file}: this game is already over ({len(record['decisions'])} decisions)")
    targets.check_outputs([log_output(args)], targets.ruleset_reads(program) +
                          [(os.path.abspath(args.file), "the record being resumed")])
    args.quiet = getattr(args, "quiet", False)
    table = TerminalTable(program, record["players"], record["seed"], record["agents"], args, stdin, stdout,
                          record, args.file, record.get("bot") or {"kind": "random"})
    records.bot_catch_up(record, program, table.agents)
    table.say(msg(program.lang, "resuming", n=len(record["decisions"])))
    return table.run(prefix=[d["index"] for d in record["decisions"]])


def _replay(args, stdout, stderr) -> int:
    record = records.load(args.file)
    program, changed = records.program_of(record, backend=args.backend)
    try:
        if changed:
            raise records.Divergence(f"the ruleset's content differs from the recorded one "
                                     f"(sha256 {record['ruleset']['sha256'][:12]}...)")
        s = records.replay(record, program)
        records.check_result(record, s)
    except records.Divergence as e:
        print(format_problem(Problem(args.file, 0, 0, f"replay diverges: {e}")), file=stdout)
        return 1
    state = "the same result" if record.get("result") is not None else "an unfinished game, replayed"
    print(f"{args.file}: replay ok: {len(record['decisions'])} decisions, {state}", file=stdout)
    if s.over:
        print(result_line(program, s), file=stdout)
    return 0


def _cores() -> int:
    """simulate's default --jobs: the cores this process may use, within MAX_JOBS."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:           # not on every platform
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_JOBS))


def _new(args, out) -> int:
    from ..authoring.starter import starter_overlay
    text = starter_overlay(args.file, args.base)
    try:
        with open(args.file, "x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        raise UsageError(f"{args.file} exists already: give a new file's name") from None
    except OSError as e:
        raise UsageError(f"cannot write {args.file}: {e.strerror}") from None
    print(f"{args.file}: a house rule on {args.base}; edit it, then: interpret validate {args.file}", file=out)
    return 0


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("card-interpreter")
    except Exception:               # run from a checkout that is not installed
        return "unknown (not installed)"


def _mistyped_command(word: str, stderr) -> bool:
    """A first word that is neither a file nor a shipped game but looks like a command."""
    if os.path.exists(word) or shipped_path(word) or word.endswith((".yaml", ".yml", ".json")):
        return False
    hint = did_you_mean(word, COMMANDS)
    if not hint:
        return False
    print(f"interpret: error: '{word}' is not a command, a ruleset file or a shipped game{hint}", file=stderr)
    return True


def _serve(args, stdout, stderr) -> int:
    """`interpret serve`: the files named are checked as `validate` checks them first."""
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        print("interpret: error: serve needs the optional extra 'server' (aiohttp): "
              "pip install 'card-interpreter[server]'", file=stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"interpret: error: --port must be 0 to 65535, not {args.port}", file=stderr)
        return 2
    from ..authoring.validation import check_file
    from ..pipeline import load_program
    files = [resolve(f) for f in args.files]
    bad = False
    for path in files:
        if _not_a_ruleset(path, stderr):
            bad = True
            continue
        problems = errors_only(check_file(path))
        _print_problems(problems, stderr)
        if not problems:
            try:
                load_program(path)          # a scenario or a record is checked, but is not a game to offer
            except InterpreterError as e:
                _report(e, stderr)
                problems = [e]
        bad = bad or bool(problems)
    if bad:
        return 1
    import sqlite3
    from ..server.serve import serve
    from ..server.store import StoreUnavailable

    def say(text):
        print(text, file=stdout, flush=True)
    try:
        return serve(files, args.host, args.port, args.db, say, uploads=args.allow_uploads)
    except StoreUnavailable as e:
        print(f"interpret: error: {e}", file=stderr)
        return 1
    except sqlite3.Error as e:
        print(f"interpret: error: {args.db or 'the tables database'}: {e}", file=stderr)
        return 1
    except OSError as e:            # a database that cannot be made, or an address already in use
        where = f"the tables' database {e.filename}" if e.filename else f"{args.host}, port {args.port}"
        print(f"interpret: error: cannot use {where}: {e.strerror or e}", file=stderr)
        return 1


def _not_a_ruleset(path: str, stderr) -> bool:
    """A scenario or a record named to `serve`: a file of ours, but not a game to offer."""
    from ..authoring.scenario import is_scenario
    from ..source.loader import load_file
    try:
        data, _ = load_file(path)
    except InterpreterError:
        return False                    # check_file reports it
    if is_scenario(data) or (isinstance(data, dict) and "format" in data and "decisions" in data):
        print(format_problem(Problem(path, 0, 0, "this is a scenario or a game record, not a ruleset: "
                                                 "serve offers rulesets and house rules")), file=stderr)
        return True
    return False


def _list(out) -> int:
    from .catalogue import catalogue_lines
    print("\n".join(catalogue_lines()), file=out)
    return 0


def _schema(args, out) -> int:
    data = pathlib.Path(__file__).resolve().parent.parent / "data"
    for kind in [args.kind] if args.kind else ["ruleset", "overlay", "scenario", "record"]:
        print(f"{kind}: {data / f'{kind}.schema.json'}" if not args.kind else str(data / f"{kind}.schema.json"),
              file=out)
    return 0


def _diff(args, out) -> int:
    """Both files are checked first (a broken one is reported as validate reports it)."""
    from ..authoring.diff import rules_diff
    from ..source.overlay import load_rules
    from ..pipeline import load_program
    a, b = load_program(args.a), load_program(args.b)
    lines = rules_diff(load_rules(args.a)[0], load_rules(args.b)[0], a.deck, b.deck)
    count = sum(1 for line in lines if not line.startswith(" "))
    print(f"{args.a} -> {args.b}: " + (f"{count} difference{'s' if count != 1 else ''}" if lines
                                      else "the same rules"), file=out)
    for line in lines:
        print("  " + line, file=out)
    return 0


def _compile(args, out) -> int:
    from ..pipeline import load_program
    program = load_program(args.ruleset, _parse_options(args.option), args.lang, backend="generated")
    options = ", ".join(f"{k!r}: {v!r}" for k, v in program.options.items()) or "none"
    text = (f"# The generated Python of {program.name!r} ({args.ruleset!r}), options: {options}.\n"
            f"# Each function is an entry of the run loop: it takes the state and returns the next pc\n"
            f"# (-1: a decision is pending or the game is over). Content hash {program.source_hash}.\n\n"
            + program.source)
    if args.output:
        output = targets.Output("-o", args.output, "the code")
        targets.check_outputs([output], targets.ruleset_reads(program))
        targets.write_text(output, text)
        print(f"{args.output}: {len(program.source.splitlines())} lines of Python", file=out)
        return 0
    out.write(text)
    return 0
