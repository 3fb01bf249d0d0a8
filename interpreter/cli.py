"""The `interpret` command.  `run(argv, ...)` returns an exit code so tests call it directly."""
from __future__ import annotations

import argparse
import secrets
import sys

from . import load_program
from .agents import HumanAgent, RandomAgent
from .errors import InterpreterError, RulesError, RulesetError, UsageError, format_problem
from .table import play

COMMANDS = ("validate", "options", "play")


def main() -> None:
    try:
        code = run(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:          # e.g. `interpret ... | head`
        code = 0
        try:
            sys.stdout = None
        except Exception:
            pass
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
    try:
        if command == "validate":
            return _validate(args, stdout, stderr)
        if command == "options":
            return _options(args, stdout)
        return _play(args, stdin, stdout, stderr)
    except RulesetError as e:
        for p in e.problems:
            print(format_problem(p), file=stderr)
        return 1
    except UsageError as e:
        print(f"interpret: error: {e}", file=stderr)
        return 2
    except RulesError as e:
        print(f"interpret: {e}", file=stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=stderr)
        return 130
    except InterpreterError as e:
        print(f"interpret: {e}", file=stderr)
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
    p = argparse.ArgumentParser(
        prog="interpret",
        description="Play a card game written as a YAML ruleset. Other commands: "
                    "'interpret validate FILE...', 'interpret options RULESET'.")
    p.add_argument("ruleset", help="the ruleset file, e.g. rulesets/hearts2.yaml")
    p.add_argument("--seed", type=int, help="random seed; the same seed and moves replay the same game")
    p.add_argument("--players", type=int, help="number of players, where the ruleset allows a range")
    p.add_argument("--human", type=int, action="append", default=[], metavar="SEAT",
                   help="seat a person at the terminal in SEAT (1 is the first seat); repeatable")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="set a table convention (see 'interpret options RULESET')")
    p.add_argument("--lang", help="language of the account, e.g. en")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    return p


def _validate(args, stdout, stderr) -> int:
    from . import check_file
    bad = 0
    for path in args.files:
        problems = check_file(path)
        if problems:
            bad += 1
            for p in problems:
                print(format_problem(p), file=stdout)
        else:
            print(f"{path}: ok", file=stdout)
    return 1 if bad else 0


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
    lo, hi, default = program.players
    n = args.players or default
    if not lo <= n <= hi:
        allowed = str(lo) if lo == hi else f"{lo} to {hi}"
        raise UsageError(f"{program.name} is for {allowed} players, not {n}")
    for seat in args.human:
        if not 1 <= seat <= n:
            raise UsageError(f"--human {seat}: seats are numbered 1 to {n}")
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    humans = {seat - 1 for seat in args.human}
    viewer = next(iter(humans)) if len(humans) == 1 else (-1 if humans else None)

    def say(text):
        print(text, file=stdout, flush=True)

    def ask(prompt_text):
        stdout.write(prompt_text)
        stdout.flush()
        line = stdin.readline()
        if not line:
            raise UsageError("input ended before the game did; the game is abandoned")
        return line

    agents = [HumanAgent(_view_printer(program, say), ask, say) if seat in humans
              else RandomAgent(seed * 1000 + seat + 1) for seat in range(n)]
    names = ", ".join(f"Player {i + 1} ({'you' if i in humans else 'bot'})" for i in range(n))
    changed = {k: v for k, v in program.options.items() if v != program.option_specs[k]["default"]}
    if not args.quiet:
        say(f"{program.title} ({program.name}) - seed {seed} - {names}")
        if changed:
            say("house rules: " + ", ".join(f"{k}={v}" for k, v in changed.items()))

    def on_log(entries):
        if args.quiet:
            return
        for e in entries:
            text = e.get("text")
            to = e.get("to")
            if text and (viewer is None or to in (None, viewer)):
                if to is not None:
                    text = ("(to you) " if viewer is not None else f"(to Player {to + 1}) ") + text
                say(text)

    s = play(program, agents, seed=seed, players=n, on_log=on_log)
    say(_result_line(s))
    return 0


def _result_line(s) -> str:
    winners = s.result["winners"]
    scores = s.result["scores"]
    if not winners:
        text = "Result: a draw."
    elif len(winners) == 1:
        text = f"Result: {s.names[winners[0]]} wins."
    else:
        text = "Result: " + ", ".join(s.names[w] for w in winners) + " share the win."
    if scores is not None:
        text += " Scores: " + ", ".join(f"{s.names[p]} {_num(v)}" for p, v in enumerate(scores))
    return text + f" (seed {s.seed}, {s.decisions} decisions)"


def _num(v):
    return int(v) if isinstance(v, float) and v == int(v) else v


def _view_printer(program, say):
    def show(decision):
        v = decision.view
        seat = decision.seat
        say("")
        say(f"-- your turn, Player {seat + 1} --")
        for section, name in program.shown:
            if section == "variables":
                say(f"  {name}: {_num(v['vars'][name])}")
            else:
                values = v["players"][name]
                say(f"  {name}: " + ", ".join(f"Player {i + 1} {_num(x)}" for i, x in enumerate(values)))
        for name, content in v["zones"].items():
            z = program.zones[name]
            if z.per_player:
                mine = content[seat]
                if mine:
                    say(f"  your {name}: {_cards(program, mine)}")
            elif content and any(c is not None for c in content):
                say(f"  {name}: {_cards(program, content)}")
    return show


def _cards(program, ids) -> str:
    display = dict(zip(program.deck.ids, program.deck.display))
    shown = [display[c] for c in ids if c is not None]
    hidden = sum(1 for c in ids if c is None)
    return " ".join(shown) + (f" (+{hidden} face down)" if hidden else "")
