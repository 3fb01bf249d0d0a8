"""One game at the terminal: the bots and people at the table, the account as it is
printed (each line as the viewer may see it), the record kept decision by decision, and
the --log file."""
from __future__ import annotations

import json

from ..errors import UsageError
from ..messages import msg
from ..playing import records
from .. import targets
from ..authoring.rules_text import rules_lines, summary_lines, wrapped
from ..playing.agents import TABLE_BOT, HumanAgent, bot_named
from ..playing.table import play, result_data
from ..runtime.events import event_for
from ..shown import printable
from .screen import PlainScreen, RichScreen
from .terminal import result_line, width_of


class TerminalTable:
    """One game at the terminal: its agents, its account, its record and its logs."""

    def __init__(self, program, n, seed, kinds, args, stdin, stdout, record, record_path, bot: dict):
        self.program, self.n, self.seed, self.kinds = program, n, seed, kinds
        self.args, self.stdin, self.stdout = args, stdin, stdout
        self.record, self.record_path = record, record_path
        self.quiet = getattr(args, "quiet", False) or getattr(args, "json", False)
        self.width = width_of(stdout) if _is_terminal(stdout) else None     # a pipe keeps whole lines
        humans = [i for i, k in enumerate(kinds) if k == "human"]
        self.viewer = humans[0] if len(humans) == 1 else (-1 if humans else None)
        adviser = bot_named({**TABLE_BOT, "seconds": 2 * TABLE_BOT["seconds"]}, seed + 7)   # asked for: it may take longer
        self.screen = _screen(program, args, stdout, self.say, self.viewer, n)
        self.agents = [HumanAgent(self.screen.table, self.ask, self.say, hint=adviser.choose,
                                  lang=program.lang, rules=self.rules,
                                  ask_forced=getattr(args, "ask_forced", False))
                       if k == "human" else bot_named(bot, seed * 1000 + seat + 1) for seat, k in enumerate(kinds)]
        self.log_view = _log_view(args, humans, n)
        self.log_output = log_output(args)
        self.log_file = targets.open_output(self.log_output) if self.log_output.path else None
        self.log_failure = None             # the --log's write that failed: the game goes on without it

    def say(self, text):
        """One line to the person: whatever the ruleset's texts hold, it stays one line (on a
        terminal wrapped to its width at spaces, never inside a word)."""
        for line in wrapped([printable(text)], self.width):
            print(line, file=self.stdout, flush=True)

    def rules(self, full: bool) -> list[str]:
        """The rules in short ('?') or whole ('rules'), reflowed to the terminal's width."""
        width = self.width or width_of(self.stdout)
        return (rules_lines if full else summary_lines)(self.program, width)

    def ask(self, prompt_text):
        """The prompt, wrapped at spaces as `say` wraps a line; the answer is typed after it."""
        text = printable(prompt_text)
        if self.width:
            text = "\n".join(wrapped([text.rstrip()], self.width)) + (" " if text.endswith(" ") else "")
        self.stdout.write(text)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line

    def run(self, prefix) -> int:
        p = self.program
        lang = p.lang
        names = ", ".join(f"{p.seat_name(i)} ({msg(lang, 'you' if k == 'human' else 'bot')})"
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
        if self.log_file:
            self._write_log(self.header())
        try:
            s = play(p, self.agents, seed=self.seed, players=self.n, stacks=self.record and self.record.get("stacks"),
                     on_log=self.on_log, on_decision=self.on_decision if self.record else None, prefix=prefix)
            if self.log_file:
                self._write_log({"type": "result", **result_data(p, s, self.kinds)})
        except (KeyboardInterrupt, EOFError) as e:
            if self.record is not None:
                records.save(self.record, self.record_path)
                why = msg(lang, "input_ended" if isinstance(e, EOFError) else "ctrl_c")
                print(f"\n{msg(lang, 'interrupted')} ({why}); "
                      + msg(lang, "saved", n=len(self.record["decisions"]), path=self.record_path), file=self.stdout)
            else:
                print("\n" + msg(lang, "interrupted"), file=self.stdout)
            return 130 if isinstance(e, KeyboardInterrupt) else 2
        except Exception:
            if self.record is not None:          # a crash in the rules, or a bug of ours, loses no decision either
                records.save(self.record, self.record_path)
            raise
        finally:
            self._close_log()
        if self.record is not None:
            records.note_result(self.record, s)
            records.save(self.record, self.record_path)
        if getattr(self.args, "json", False):
            print(json.dumps(result_data(p, s, self.kinds), ensure_ascii=False), file=self.stdout)
        else:
            self.say(result_line(p, s))
        if self.log_failure is not None:        # the game, its record and its result are kept; the log is not whole
            raise self.log_failure
        return 0

    def header(self) -> dict:
        """The --log file's first line: which game this is, with what, and who sees it.  With a
        person at the table the seed is left out (it fixes every deal, and the file is on disk
        while the game is played): the result at the end gives it."""
        p = self.program
        seed = {} if "human" in self.kinds else {"seed": self.seed}
        return {"type": "game", "ruleset": p.name, "title": p.title, "sha256": self.record["ruleset"]["sha256"] if self.record else records.ruleset_hash(self.args.ruleset),
                **seed, "options": dict(p.options), "lang": p.lang,
                "players": [{"seat": i + 1, "name": p.seat_name(i), "kind": k}
                            for i, k in enumerate(self.kinds)],
                "view": None if self.log_view is None else self.log_view + 1}

    def _write_log(self, event: dict):
        if self.log_file is None:               # it failed: the rest of the game is not logged
            return
        try:
            self.log_file.write(json.dumps(event, ensure_ascii=False) + "\n")
        except OSError as e:
            self._log_failed(e)

    def _log_failed(self, e: OSError) -> None:
        """Stop writing the log (a full disk): the game is played to its end all the same."""
        self.log_failure = self.log_failure or targets.failed(self.log_output, e)
        log, self.log_file = self.log_file, None
        try:
            log.close()
        except OSError:
            pass

    def _close_log(self) -> None:
        log, self.log_file = self.log_file, None
        if log:
            try:
                log.close()
            except OSError as e:
                self.log_failure = self.log_failure or targets.failed(self.log_output, e)

    def on_decision(self, s, seat, index, label):
        records.note_decision(self.record, seat, index, label)
        if "human" in self.kinds:
            records.save(self.record, self.record_path)

    def on_log(self, entries):
        if self.log_file:
            for e in entries:
                shown = event_for(self.program, e, self.log_view)
                if shown is not None:
                    self._write_log(shown)
        if not self.quiet:
            self.screen.account(entries)


def log_output(args) -> targets.Output:
    """The --log file as an output (targets.py): checked before the game, opened at its start."""
    return targets.Output("--log", getattr(args, "log", None), "the log")


def _screen(program, args, stdout, say, viewer, n):
    """The rich table on a terminal; plain lines for pipes, files, --plain and screen readers."""
    if not getattr(args, "plain", False) and _is_terminal(stdout):
        from rich.console import Console
        names = [program.seat_name(i) for i in range(n)]
        return RichScreen(program, Console(file=getattr(stdout, "raw", stdout), highlight=False), viewer, names)
    return PlainScreen(program, say, viewer)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


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
