"""The `interpret` command.  `run(argv, ...)` returns an exit code so tests call it directly."""
from __future__ import annotations

import argparse
import json
import secrets
import sys

from ..pipeline import load_program
from ..play.agents import HumanAgent, MonteCarloAgent, RandomAgent
from ..errors import InterpreterError, Problem, RulesetError, UsageError, format_problem
from ..play import records
from ..limits import MAX_NUMBER, MAX_PLAYOUTS
from ..messages import msg
from ..runtime.engine import entry_for, view
from ..play.simulation import report_lines, simulate
from ..play.table import play
from .terminal import result_line, view_printer

COMMANDS = ("validate", "options", "play", "replay", "resume", "scenario", "simulate")


def main() -> None:
    records.interrupt_on_termination()   # SIGTERM, SIGHUP (a closed terminal): like Ctrl-C, the record is kept
    try:
        code = run(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:          # e.g. `interpret ... | head`
        code = 0
        try:
            sys.stdout = None
        except Exception:
            pass
    except KeyboardInterrupt:        # a signal after run() had returned
        code = 130
    sys.exit(code)


def run(argv, stdin=None, stdout=None, stderr=None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    argv = list(argv)
    command = argv.pop(0) if argv and argv[0] in COMMANDS else "play"
    parser = _parser(command)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:            # argparse has printed its message
        return int(e.code or 0)
    playouts = getattr(args, "playouts", 1)
    if not 1 <= playouts <= MAX_PLAYOUTS:
        print(f"interpret: error: --playouts must be 1 to {MAX_PLAYOUTS}, not {playouts}", file=stderr)
        return 2
    seed = getattr(args, "seed", None)
    if seed is not None and not 0 <= seed < MAX_NUMBER:     # a record must be able to hold it
        print(f"interpret: error: --seed must be 0 to {MAX_NUMBER - 1}, not {seed}", file=stderr)
        return 2
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
            from ..play.scenario import run_scenarios
            return run_scenarios(args.files, stdout)
        if command == "simulate":
            return _simulate(args, stdout)
        return _play(args, stdin, stdout, stderr)
    except KeyboardInterrupt:
        print("\ninterrupted", file=stderr)
        return 130
    except InterpreterError as e:
        return _report(e, stderr)


def _report(e: InterpreterError, out) -> int:
    """Print an error of ours; return the exit code (2 for a usage error, else 1).  Each is
    text format_problem made: a Problem's, or the message of an error without one."""
    if isinstance(e, RulesetError):
        _print_problems(e.problems, out)
        return 1
    if isinstance(e, UsageError):
        print(f"interpret: error: {e}", file=out)
        return 2
    print(f"interpret: {e}", file=out)       # a RulesError shows its Problem: the ruleset's line and caret
    return 1


def _parser(command):
    if command == "validate":
        p = argparse.ArgumentParser(prog="interpret validate", description="Check ruleset files and report every problem.")
        p.add_argument("files", nargs="+", metavar="FILE")
        return p
    if command == "options":
        p = argparse.ArgumentParser(prog="interpret options", description="List a ruleset's table conventions.")
        p.add_argument("ruleset")
        return p
    if command == "replay":
        p = argparse.ArgumentParser(prog="interpret replay",
                                    description="Replay a game record and check that it reaches the same result.")
        p.add_argument("file")
        return p
    if command == "resume":
        p = argparse.ArgumentParser(prog="interpret resume", description="Continue an interrupted game from its record.")
        p.add_argument("file")
        p.add_argument("--log", metavar="FILE.jsonl", help="write every event as one JSON line")
        p.add_argument("--view", type=int, metavar="SEAT", help="with --log: only what SEAT could see")
        return p
    if command == "simulate":
        p = argparse.ArgumentParser(prog="interpret simulate",
                                    description="Play many games between random bots and report how they end: "
                                                "wins per seat, draws, scores, length. Handy to see what a house rule changes.")
        p.add_argument("ruleset")
        p.add_argument("--games", type=int, default=200)
        p.add_argument("--players", type=int)
        p.add_argument("--seed", type=int, default=0, help="seed of the first game; game k uses seed + k")
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
        p.add_argument("--json", action="store_true")
        p.add_argument("--mc-seats", type=int, nargs="*", default=[], metavar="SEAT",
                       help="seats played by the mc bot (the others by random bots)")
        p.add_argument("--playouts", type=int, default=20, help="play-outs per option for the mc bot")
        return p
    if command == "scenario":
        p = argparse.ArgumentParser(prog="interpret scenario", description="Run scenario files and check their expectations.")
        p.add_argument("files", nargs="+", metavar="FILE")
        return p
    p = argparse.ArgumentParser(
        prog="interpret",
        description="Play a card game written as a YAML ruleset. Other commands: "
                    "'interpret validate FILE...', 'interpret options RULESET', 'interpret replay RECORD', "
                    "'interpret resume RECORD', 'interpret scenario FILE...', 'interpret simulate RULESET'.")
    p.add_argument("ruleset", help="the ruleset file, e.g. rulesets/hearts2.yaml")
    p.add_argument("--seed", type=int, help="random seed; the same seed and moves replay the same game")
    p.add_argument("--players", type=int, help="number of players, where the ruleset allows a range")
    p.add_argument("--human", type=int, action="append", default=[], metavar="SEAT",
                   help="seat a person at the terminal in SEAT (1 is the first seat); repeatable")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="set a table convention (see 'interpret options RULESET')")
    p.add_argument("--lang", help="language of the account, e.g. en")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--record", metavar="FILE", help="write a record of the game (games with a person are always recorded)")
    p.add_argument("--log", metavar="FILE.jsonl", help="write every event as one JSON line")
    p.add_argument("--view", type=int, metavar="SEAT", help="with --log: only what SEAT could see")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object instead of the account")
    _bot_arguments(p)
    return p


def _bot_arguments(p):
    p.add_argument("--bot", choices=["random", "mc"], default="random",
                   help="the bots: random, or mc (plays each option out on imagined deals; slower, stronger)")
    p.add_argument("--playouts", type=int, default=20, help="with --bot mc: play-outs per option")


def _bot(args, seed: int, seat: int):
    if getattr(args, "bot", "random") == "mc":
        return MonteCarloAgent(seed * 1000 + seat + 1, playouts=max(1, args.playouts))
    return RandomAgent(seed * 1000 + seat + 1)


def _validate(args, stdout, stderr) -> int:
    from ..pipeline import check_file
    bad = 0
    for path in args.files:
        problems = check_file(path)
        if problems:
            bad += 1
            _print_problems(problems, stdout)
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
    program = load_program(args.ruleset)
    if not program.option_specs:
        print(f"{program.name} has no options", file=stdout)
    for name, spec in program.option_specs.items():
        print(f"{name} = {spec['default']}   ({spec['description']})", file=stdout)
        explain = spec.get("explain") or {}
        for choice in spec["choices"]:
            mark = "*" if choice == spec["default"] else " "
            note = f": {explain[str(choice)]}" if str(choice) in explain else ""
            print(f"   {mark} {choice}{note}", file=stdout)
    return 0


def _parse_options(pairs) -> dict:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"--option needs NAME=VALUE, got '{pair}'")
        name, value = pair.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def _play(args, stdin, stdout, stderr) -> int:
    program = load_program(args.ruleset, _parse_options(args.option), args.lang)
    n = program.player_count(args.players)
    for seat in args.human:
        if not 1 <= seat <= n:
            raise UsageError(f"--human {seat}: seats are numbered 1 to {n}")
    humans = {seat - 1 for seat in args.human}
    seed = args.seed if args.seed is not None else _new_seed(bool(humans))
    kinds = ["human" if i in humans else "bot" for i in range(n)]
    record = path = None
    if args.record or humans:
        bot = {"kind": args.bot, "playouts": args.playouts} if args.bot == "mc" else {"kind": "random"}
        record = records.new_record(program, args.ruleset, seed, n, kinds, bot=bot)
        path = args.record or records.default_path(program.name)
    table = _Table(program, n, seed, kinds, args, stdin, stdout, record, path)
    return table.run(prefix=())


def _new_seed(person: bool) -> int:
    """A short seed for bots' games (easy to quote); one no one can search for when a person
    plays, since the first hand shown would otherwise pin it down among a million."""
    return secrets.randbelow(MAX_NUMBER if person else 1_000_000)


def _resume(args, stdin, stdout, stderr) -> int:
    record = records.load(args.file)
    program, changed = records.program_of(record)
    if changed:
        print(f"warning: {record['ruleset']['file']} changed since this game was recorded", file=stderr)
    if record.get("result") is not None:
        raise UsageError(f"{args.file}: this game is already over ({len(record['decisions'])} decisions)")
    args.quiet = getattr(args, "quiet", False)
    bot = record.get("bot") or {"kind": "random"}
    args.bot, args.playouts = bot.get("kind", "random"), bot.get("playouts", 20)
    table = _Table(program, record["players"], record["seed"], record["agents"], args, stdin, stdout,
                   record, args.file)
    records.bot_catch_up(record, program, table.agents)
    table.say(msg(program.lang, "resuming", n=len(record["decisions"])))
    return table.run(prefix=[d["index"] for d in record["decisions"]])


def _replay(args, stdout, stderr) -> int:
    record = records.load(args.file)
    program, changed = records.program_of(record)
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
        print(result_line(s, program.lang), file=stdout)
    return 0


class _Table:
    """One game at the terminal: its agents, its account, its record and its logs."""

    def __init__(self, program, n, seed, kinds, args, stdin, stdout, record, record_path):
        self.program, self.n, self.seed, self.kinds = program, n, seed, kinds
        self.args, self.stdin, self.stdout = args, stdin, stdout
        self.record, self.record_path = record, record_path
        self.quiet = getattr(args, "quiet", False) or getattr(args, "json", False)
        humans = [i for i, k in enumerate(kinds) if k == "human"]
        self.viewer = humans[0] if len(humans) == 1 else (-1 if humans else None)
        adviser = MonteCarloAgent(seed + 7, playouts=10)
        self.agents = [HumanAgent(view_printer(program, self.say), self.ask, self.say, hint=adviser.choose,
                                  lang=program.lang)
                       if k == "human" else _bot(args, seed, seat) for seat, k in enumerate(kinds)]
        self.log_view = _log_view(args, humans, n)
        self.log_file = _open_log(args.log) if getattr(args, "log", None) else None

    def say(self, text):
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt_text):
        self.stdout.write(prompt_text)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line

    def run(self, prefix) -> int:
        p = self.program
        lang = p.lang
        names = ", ".join(f"{p.player_name.format(seat=i + 1)} ({msg(lang, 'you' if k == 'human' else 'bot')})"
                          for i, k in enumerate(self.kinds))
        changed = {k: v for k, v in p.options.items() if v != p.option_specs[k]["default"]}
        if not self.quiet:
            # with a person at the table the seed stays unsaid until the end: it fixes every deal
            seed = "" if "human" in self.kinds else f" - {msg(lang, 'seed')} {self.seed}"
            self.say(f"{p.title} ({p.name}){seed} - {names}")
            if changed:
                self.say(msg(lang, "house_rules") + ": " + ", ".join(f"{k}={v}" for k, v in changed.items()))
            if self.record_path and "human" in self.kinds:
                self.say(msg(lang, "recorded", path=self.record_path))
        try:
            s = play(p, self.agents, seed=self.seed, players=self.n, stacks=self.record and self.record.get("stacks"),
                     on_log=self.on_log, on_decision=self.on_decision if self.record else None, prefix=prefix)
        except (KeyboardInterrupt, EOFError) as e:
            if self.record is not None:
                records.save(self.record, self.record_path)
                print(f"\ngame interrupted ({'input ended' if isinstance(e, EOFError) else 'Ctrl-C or a signal'}); "
                      f"{len(self.record['decisions'])} decisions saved. "
                      f"Continue with: interpret resume {self.record_path}", file=self.stdout)
            else:
                print("\ngame interrupted", file=self.stdout)
            return 130 if isinstance(e, KeyboardInterrupt) else 2
        except InterpreterError:
            if self.record is not None:          # a crash in the rules loses no decision either
                records.save(self.record, self.record_path)
            raise
        finally:
            if self.log_file:
                try:
                    self.log_file.close()
                except OSError as e:
                    raise UsageError(f"--log {self.args.log}: cannot write it: {e.strerror or e}") from None
        if self.record is not None:
            records.note_result(self.record, s)
            records.save(self.record, self.record_path)
        if getattr(self.args, "json", False):
            print(json.dumps(_json_result(p, s), ensure_ascii=False), file=self.stdout)
        else:
            self.say(result_line(s, p.lang))
        return 0

    def on_decision(self, s):
        records.note_decision(self.record, s)
        if "human" in self.kinds:
            records.save(self.record, self.record_path)

    def on_log(self, entries):
        if self.log_file:
            for e in entries:
                shown = entry_for(e, self.log_view)
                if shown is not None:
                    try:
                        self.log_file.write(json.dumps(shown, ensure_ascii=False) + "\n")
                    except OSError as e:
                        raise UsageError(f"--log {self.args.log}: cannot write it: {e.strerror or e}") from None
        if self.quiet:
            return
        for e in entries:
            shown = entry_for(e, self.viewer)
            text = shown and shown.get("text")
            to = e.get("to")
            if text:
                if to is not None:
                    lang = self.program.lang
                    prefix = msg(lang, "to_you") if self.viewer is not None else \
                        msg(lang, "to_player", name=self.program.player_name.format(seat=to + 1))
                    text = prefix + " " + text
                self.say(text)


def _open_log(path: str):
    try:
        return open(path, "w", encoding="utf-8")
    except (OSError, ValueError) as e:
        raise UsageError(f"--log {path}: cannot write it: {getattr(e, 'strerror', None) or e}") from None


def _log_view(args, humans: list, n: int):
    """The seat whose view a --log file shows.  With people at the table the log may
    show only a person's view (by default the only person's): a full log would show
    them the other hands while they play."""
    view = getattr(args, "view", None)
    if view is not None and not 1 <= view <= n:
        raise UsageError(f"--view {view}: seats are numbered 1 to {n}")
    seat = None if view is None else view - 1
    if not getattr(args, "log", None) or not humans:
        return seat
    if seat is None and len(humans) == 1:
        return humans[0]
    if seat not in humans:
        raise UsageError("with a person at the table, --log shows only what a person may see: "
                         f"add --view with a person's seat ({', '.join(str(h + 1) for h in humans)})")
    return seat


def _json_result(program, s) -> dict:
    out = records.result_summary(s)
    out["ruleset"] = program.name
    out["winner_names"] = [s.names[w] for w in out["winners"]]
    shown = view(program, s, None)          # the game is over: every variable may be read
    for section, name, _ in program.shown:
        out[name] = shown["vars"][name] if section == "variables" else shown["players"][name]
    return out


def _simulate(args, stdout) -> int:
    program = load_program(args.ruleset, _parse_options(args.option))
    report = simulate(program, args.games, args.players, args.seed, args.mc_seats, args.playouts)
    if args.json:
        print(json.dumps(report, ensure_ascii=False), file=stdout)
    else:
        for line in report_lines(report):
            print(line, file=stdout)
    return 0
