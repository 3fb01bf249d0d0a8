"""A Layout (playing/table_view.py) drawn with rich: a panel with the game's standing facts,
the shared zones and values, a row per player, and the person's own hand below.

Every text of a ruleset reaches rich as a Text, never as markup: a title such as
'Game [/b]' is shown as written.  A card's colour that rich cannot read is ignored."""
from __future__ import annotations

from rich import box
from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.style import Style
from rich.errors import StyleSyntaxError
from rich.text import Text as RichText

from ..messages import msg
from ..shown import printable


class Text(RichText):
    """rich's Text of a text made printable (interpreter/shown.py): a ruleset's ESC, CR or
    newline is shown as its escape, never sent to the terminal."""

    def __init__(self, text: str = "", *args, **kwargs):
        super().__init__(printable(text), *args, **kwargs)

    def append(self, text, style=None):
        return super().append(printable(text) if isinstance(text, str) else text, style)

    @classmethod
    def lines(cls, texts) -> RichText:
        """Texts, each made printable, one per line."""
        return RichText("\n").join(cls(t) for t in texts)


def table_panel(lay, lang: str):
    parts = []
    if lay.facts:
        parts.append(Text(" · ".join(lay.facts), style="italic"))
    tops = Table.grid(padding=(0, 2))
    tops.add_column(style="bold")
    tops.add_column()
    for label, value in lay.values:
        tops.add_row(Text(label + ":"), Text(value))
    for p in lay.shared:
        tops.add_row(Text(p.label + ":"), pile_cell(p, lang))
    if tops.row_count:
        parts.append(tops)
    parts.append(players_table(lay, lang))
    for p in lay.hand:
        parts.append(Text.assemble((msg(lang, "your_zone", zone=p.label) + ": ", "bold"), cards_text(p.groups, lang)))
    title = lay.title + (f" · {lay.round_label}" if lay.round_label else "")
    return Panel(Group(*parts), title=Text(title, style="bold"), border_style="green")


def players_table(lay, lang: str):
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    t.add_column(Text(msg(lang, "player_col")), no_wrap=True)
    first = lay.rows[0] if lay.rows else None
    for label, _ in (first.values if first else []):
        t.add_column(Text(label), justify="right")
    for p in (first.piles if first else []):
        t.add_column(Text(p.label))
    for row in lay.rows:
        lines = [("▶ " if row.to_play else "  ") + row.name + (f" ({msg(lang, 'you')})" if row.you else "")]
        if row.team:
            lines.append(f"  {row.team}")       # each line made printable, the break between them kept
        name = Text.lines(lines)
        name.stylize(("bold" if row.you else "") + (" dim strike" if row.out else ""))
        t.add_row(name, *[Text(v) for _, v in row.values], *[pile_cell(p, lang) for p in row.piles])
    return t


def pile_cell(p, lang: str):
    """A pile as a cell: its groups in brackets when there are several or they hold more than
    one card (a trick), laid out so that a line breaks between groups, never inside one;
    the cards it cannot see counted."""
    if p.empty:
        return Text("—", style="dim")
    unseen = msg(lang, "face_down", n=p.hidden) if p.groups else msg(lang, "card" if p.hidden == 1 else "cards", n=p.hidden)
    items = [group_text(g, len(p.groups) > 1 or len(g) > 1) for g in p.groups]
    if p.hidden:
        items.append(Text(unseen, style="dim"))
    return items[0] if len(items) == 1 else Columns(items, padding=(0, 1))


def group_text(group, bracket: bool) -> Text:
    out = Text("[", style="dim") if bracket else Text()
    out.append_text(cards_text([group], None))
    if bracket:
        out.append("]", style="dim")
    return out


def cards_text(groups, lang) -> Text:
    """Cards in their colours, groups apart."""
    out = Text()
    for i, group in enumerate(groups):
        if i:
            out.append("  ")
        for j, c in enumerate(group):
            if j:
                out.append(" ")
            out.append(c.text, style=style_of(c.color))
    return out


def style_of(color) -> str:
    """The deck's `color` of a card as a rich style, or none when rich cannot read it."""
    if not isinstance(color, str) or not color:
        return ""
    try:
        Style.parse(color)
    except StyleSyntaxError:
        return ""
    return color
