"""A Layout (play/layout.py) drawn with rich: a panel with the game's standing facts,
the shared zones and values, a row per player, and the person's own hand below."""
from __future__ import annotations

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..messages import msg


def table_panel(lay, lang: str):
    parts = []
    if lay.facts:
        parts.append(Text(" · ".join(lay.facts), style="italic"))
    tops = [Text.assemble((f"{label}: ", "bold"), value) for label, value in lay.values]
    tops += [Text.assemble((f"{p.label}: ", "bold"), pile_text(p, lang)) for p in lay.shared]
    if tops:
        parts.append(Text("   ").join(tops))
    parts.append(players_table(lay, lang))
    for p in lay.hand:
        parts.append(Text.assemble((msg(lang, "your_zone", zone=p.label) + ": ", "bold"), pile_text(p, lang, wide=True)))
    title = lay.title + (f" · {lay.round_label}" if lay.round_label else "")
    return Panel(Group(*parts), title=f"[bold]{title}[/]", border_style="green", expand=False)


def players_table(lay, lang: str):
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    t.add_column(msg(lang, "player_col"))
    first = lay.rows[0] if lay.rows else None
    for label, _ in (first.values if first else []):
        t.add_column(label, justify="right")
    for p in (first.piles if first else []):
        t.add_column(p.label)
    for row in lay.rows:
        name = Text(("▶ " if row.to_play else "  ") + row.name + (f" ({msg(lang, 'you')})" if row.you else ""),
                    style=("bold" if row.you else "") + (" dim strike" if row.out else ""))
        t.add_row(name, *[v for _, v in row.values], *[pile_text(p, lang) for p in row.piles])
    return t


def pile_text(p, lang: str, wide: bool = False) -> Text:
    """A pile's cards, each group in brackets when there are several; unseen cards counted."""
    if p.empty:
        return Text("—", style="dim")
    out = Text()
    several = len(p.groups) > 1 and not wide
    for i, group in enumerate(p.groups):
        if i:
            out.append("  " if wide else " ")
        if several:
            out.append("[", style="dim")
        for j, c in enumerate(group):
            if j:
                out.append(" ")
            out.append(c.text, style=c.color or "")
        if several:
            out.append("]", style="dim")
    if p.hidden:
        out.append((" " if p.groups else "") + (msg(lang, "face_down", n=p.hidden) if p.groups
                                                 else msg(lang, "card" if p.hidden == 1 else "cards", n=p.hidden)), style="dim")
    return out
