"""What a person at the terminal reads as the game goes: the account (each line as the
viewer may see it), a header at each round and a summary at its end, and the table
before each of their decisions.

Two screens with one interface: `RichScreen` draws the table as a layout with colours
(rich), for a terminal; `PlainScreen` writes plain lines, for pipes, logs and screen
readers.  Both draw from the viewer's view and the account as the viewer may see it.
"""
from __future__ import annotations

from ..messages import msg
from ..playing.table_view import Groups, layout
from ..runtime.engine import entry_for
from ..runtime.events import event_for
from .terminal import view_printer


class PlainScreen:
    """Plain lines: the account, '-- hand 2 --' at each round, the round's changes at its end."""

    def __init__(self, program, say, viewer):
        self.program, self.say, self.viewer = program, say, viewer
        self.lang = program.lang
        self.round_no = 0
        self.round_events = []              # typed events of the round so far, as the viewer sees them
        self.table = view_printer(program, say)

    def account(self, entries) -> None:
        for e in entries:
            kind = e["type"]
            if kind == "round":
                self.round_no = e["number"]
                self.round_events = []
                self.round_header()
                continue
            seen = event_for(self.program, e, self.viewer)
            if seen is not None:
                self.round_events.append(seen)
            if kind == "round_end":
                self.round_summary()
                continue
            self.line(e)

    def line(self, e) -> None:
        shown = entry_for(e, self.viewer)
        text = shown and shown.get("text")
        if not text:
            return
        to = e.get("to")
        if to is not None:
            prefix = msg(self.lang, "to_you") if self.viewer is not None else \
                msg(self.lang, "to_player", name=self.program.seat_name(to))
            text = prefix + " " + text
        self.say(text)

    def round_name(self) -> str:
        return f"{self.program.round_name or msg(self.lang, 'round')} {self.round_no}"

    def round_header(self) -> None:
        self.say(f"-- {self.round_name()} --")

    def round_summary(self) -> None:
        lines = round_summary_lines(self.program, self.round_events)
        if lines:
            self.say(f"-- {msg(self.lang, 'round_over', round=self.round_name())}: " + "; ".join(lines) + " --")


def round_summary_lines(program, events) -> list[str]:
    """The round's end in short: the cards shown and each shown value that changed."""
    lang = program.lang
    labels = {name: label for _, name, label in program.shown}
    out = []
    shown = list(dict.fromkeys(n for e in events if e["type"] == "reveal" for n in e["names"]))   # once each
    if shown:
        out.append(f"{msg(lang, 'revealed')} {' '.join(shown)}")
    for e in events:
        if e["type"] == "score" and "change" in e:         # numbers: what was won or lost
            who = program.seat_name(e["seat"] - 1) + " " if "seat" in e else ""
            change = e.get("change")
            delta = f" ({'+' if change > 0 else ''}{_number(change)})" if change else ""
            out.append(f"{who}{labels.get(e['variable'], e['variable'])} {_number(e['before'])} → {_number(e['after'])}{delta}")
    return out


def _number(v):
    return int(v) if isinstance(v, float) and v == int(v) else v


class RichScreen(PlainScreen):
    """The table as a layout with colours: a rule at each round, a panel of the table before
    each of the person's decisions, a panel of what changed at the round's end."""

    def __init__(self, program, console, viewer, names):
        from .drawing import Text
        self.console = console
        super().__init__(program, self._say, viewer)
        self.names = names
        self.Text = Text
        self.table = self.draw
        self.groups = Groups(program.deck.ids)

    def account(self, entries) -> None:
        self.groups.note(entries)
        super().account(entries)

    def _say(self, text):
        self.console.print(self.Text(text))

    def round_header(self) -> None:
        from rich.rule import Rule
        self.console.print()
        self.console.print(Rule(self.Text(f"{self.program.title} · {self.round_name()}", style="bold")))

    def round_summary(self) -> None:
        from rich.panel import Panel
        lines = round_summary_lines(self.program, self.round_events)
        if lines:
            title = msg(self.lang, "round_over", round=self.round_name())
            self.console.print(Panel(self.Text.lines(lines), title=self.Text(title), expand=False,
                                     border_style="cyan"))

    def draw(self, decision) -> None:
        from .drawing import table_panel
        lay = layout(self.program, decision.view, decision.seat, self.names, self.groups, self.round_no)
        self.console.print()
        self.console.print(table_panel(lay, self.lang))
