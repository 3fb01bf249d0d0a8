"""Simultaneous choices: a window in which several players each choose, on the same state,
without learning what the others chose, before any choice has an effect.

The checker writes a choice made together (`choose` with `together`) as plain steps around
one choice (check/steps.py):

    open                          the record: who chooses, in order
    while more to choose:         (the local KEY + '?')
        enter                     the first without a choice is current
        choose ...                (otherwise: skip)
        keep                      the names the choice bound, kept in the record
    while more to reveal:         (the local KEY + '!')
        reveal                    the next kept choice: its player current, its names bound
        ... the step's `do`
        again                     more to reveal? (a player put out meanwhile is not)
    close                         the player current before the window is again

The record is plain data in the locals of the steps it runs in (KEY, a name no ruleset can
write, '#seal' and a number; ChoiceSpec.window names it):
[order, entries, current before, index asked, cards, names' values before], an entry being
None (not chosen yet), 0 (done: revealed, or nothing was legal) or the list of the values its
names were bound to; `cards` says per name whether it may hold cards.  The names the choice
binds are given back their values from before the window after each choice (the next chooser's
options and prompt must not read the last one's) and once it is over.

While the window is open its scope is on s.scopes: ('window', ...) while they choose,
('reveal', ...) while `do` runs.  An end_turn, end_round or end_game that would leave it (from
a procedure or a trigger `do` runs: the checker refuses one written in `do`) is a rules error
(vm.unwind), and so is a decision while the choices are being revealed (`decided_in_reveal`):
a bot deciding there would imagine the later choices as they are.  Nothing of it is in any seat's view, and
an imagined deal forgets the choices of every other seat still sealed (`forget`): the window
asks them again there, after the seat's own, so that a bot's play-outs never read them.
"""
from __future__ import annotations

def _flags(s, l, k, rec) -> None:
    """Whether some are still to choose (KEY?) and to be revealed (KEY!: not a player put out
    meanwhile, by an earlier player's `do`)."""
    entries, out = rec[1], s.out
    l[k + "?"] = None in entries
    l[k + "!"] = any(e.__class__ is list and not out[p] for p, e in zip(rec[0], entries))


def open_window(k: str, players, cards: tuple, names: tuple):
    def open_(s, l):
        order = [p for p in dict.fromkeys(players(s, l)) if not s.out[p]]    # each once, in order
        rec = l[k] = [order, [None] * len(order), s.current, None, list(cards), [l.get(n) for n in names]]
        _flags(s, l, k, rec)
        s.scopes.append(("window", len(s.frames), -1, len(s.requests)))
    return open_


def enter(k: str):
    def enter_(s, l):
        rec = l[k]
        i = rec[1].index(None)
        rec[3] = i
        s.current = rec[0][i]
    return enter_


def keep(k: str, names: tuple):
    def keep_(s, l):
        rec = l[k]
        i = rec[3]
        if rec[1][i] is None:               # (after `skip` the entry is done already)
            rec[1][i] = [l.get(n) for n in names]
        _restore(l, names, rec)
        _flags(s, l, k, rec)
    return keep_


def _restore(l, names, rec) -> None:
    for n, v in zip(names, rec[5]):
        l[n] = v


def skip(k: str):
    def skip_(s, l):
        rec = l[k]
        rec[1][rec[3]] = 0
        _flags(s, l, k, rec)
    return skip_


def reveal(k: str, names: tuple):
    def reveal_(s, l):
        rec = l[k]
        entries = rec[1]
        if s.scopes[-1][0] == "window":
            s.scopes[-1] = ("reveal",) + tuple(s.scopes[-1][1:])
        out = s.out
        i = next(j for j, e in enumerate(entries) if e.__class__ is list and not out[rec[0][j]])
        s.current = rec[0][i]
        for n, v in zip(names, entries[i]):
            l[n] = v
        entries[i] = 0
        _flags(s, l, k, rec)
    return reveal_


def again(k: str):
    """After a player's `do`: whether another is to be revealed (one may have been put out)."""
    def again_(s, l):
        _flags(s, l, k, l[k])
    return again_


def close(k: str, names: tuple):
    def close_(s, l):
        rec = l[k]
        s.current = rec[2]
        _restore(l, names, rec)
        for suffix in ("", "?", "!"):
            l.pop(k + suffix, None)
        s.scopes.pop()                      # the window's: the scopes `do` opened are closed
    return close_


def decided_in_reveal(s) -> bool:
    """Whether a decision is pending while a window's choices are being revealed."""
    return any(scope[0] == "reveal" for scope in s.scopes)


def records(locals_: dict, keys) -> list:
    """(key, record) of each window open in these locals."""
    return [(k, locals_[k]) for k in keys if k in locals_]


def forget(s, locals_: dict, keys, seat: int) -> None:
    """Forget the choices other seats have made in a window still choosing: an imagined
    deal `s` asks them again (the seat cannot know them)."""
    for k, rec in records(locals_, keys):
        if not locals_.get(k + "?"):
            continue                        # all chosen: the choices are being revealed
        order, entries = rec[0], rec[1]
        for i, e in enumerate(entries):
            if e.__class__ is list and order[i] != seat:
                entries[i] = None
        _flags(s, locals_, k, rec)


def rename(locals_: dict, keys, many) -> None:
    """Rename the cards that the kept choices hold (`many`: a card or list of cards -> its
    fresh name), as an imagined deal renames every other name of a hidden card."""
    for _, rec in records(locals_, keys):
        cards = rec[4]
        for e in rec[1] + [rec[5]]:
            if e.__class__ is list:
                for j, holds in enumerate(cards):
                    if holds:
                        e[j] = many(e[j])


def waiting_seats(locals_: dict, key: str) -> list:
    """The players of the window `key` who have still to choose: the one asked now first,
    then the others in order."""
    rec = locals_.get(key)
    if rec is None:
        return []
    asked = rec[3]
    rest = [p for i, (p, e) in enumerate(zip(rec[0], rec[1])) if e is None and i != asked]
    return ([rec[0][asked]] if asked is not None and rec[1][asked] is None else []) + rest
