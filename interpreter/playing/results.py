"""A finished game's result in words, the same at the terminal and at a browser's table: who
won (a team, when the winners are whole teams of the ruleset's `teams`), then the scores (a
team's once, when its players share one)."""
from __future__ import annotations

from ..messages import msg


def winning_teams(program, s) -> list | None:
    """The names of the teams that won, when the winners are exactly whole teams; else None."""
    sides = program.sides(len(s.names), s.names)
    winners = set(s.result["winners"])
    if not sides or not winners:
        return None
    won = [(name, set(seats)) for name, seats in sides if set(seats) <= winners]
    if set().union(*(seats for _, seats in won)) != winners or all(len(seats) == 1 for _, seats in won):
        return None             # (a team of one is its player: "Player 2 wins")
    return [name for name, _ in won]


def result_words(program, s, lang: str) -> str:
    """"Result: North–South win. Scores: North–South 520, East–West 310"."""
    winners, scores, names = s.result["winners"], s.result["scores"], s.names
    teams = winning_teams(program, s)
    if not winners:
        text = msg(lang, "draw")
    elif teams is not None and len(teams) == 1:
        text = msg(lang, "team_wins", team=teams[0])
    elif teams is not None:
        text = msg(lang, "share", names=", ".join(teams))
    elif len(winners) == 1:
        text = msg(lang, "wins", name=names[winners[0]])
    else:
        text = msg(lang, "share", names=", ".join(names[w] for w in winners))
    if scores is not None:
        text += f" {msg(lang, 'scores')}: " + ", ".join(f"{who} {plain_number(v)}" for who, v in scored(program, s))
    return text


def scored(program, s) -> list:
    """(who, score) to say: each team once where its players' scores are the same, else each player."""
    scores = s.result["scores"]
    sides = program.sides(len(s.names), s.names)
    if sides and all(len({scores[p] for p in seats}) == 1 for _, seats in sides):
        return [(name, scores[seats[0]]) for name, seats in sides]
    return [(s.names[p], v) for p, v in enumerate(scores)]


def plain_number(v):
    return int(v) if isinstance(v, float) and v == int(v) else v
