"""Run-time effects: each builder takes compiled parts and returns fn(state, locals).

The compiler decides what to build; these closures only do the work, with every
name already resolved, so the game loop does no look-ups by name.
"""
from __future__ import annotations

from ..errors import RulesFault, rules_caused, words
from . import piles
from .state import partners_of
from ..limits import MAX_ACCOUNT, MAX_LIST, MAX_LOG_ENTRIES, MAX_LOG_TEXT, MAX_NUMBER, MAX_STRING, MAX_WORK


def move_card(card, src, dst, bottom: bool):
    def move(s, l):
        c = card(s, l)
        z = src(s, l)
        try:
            z.remove(c)
        except ValueError:
            raise RulesFault("the card to move is not in the zone it should leave") from None
        d = dst(s, l)
        if bottom:
            d.insert(0, c)
        else:
            d.append(c)
        if s.log is not None:
            moved(s, z, d, [c])
    return move


def move_cards(cards, src, dst, bottom: bool):
    def move(s, l):
        chosen = list(cards(s, l))
        z = src(s, l)
        d = dst(s, l)
        charge(s, len(chosen) * (len(z) + 1))
        for c in chosen:
            try:
                z.remove(c)
            except ValueError:
                raise RulesFault("a card to move is not in the zone it should leave") from None
            if bottom:
                d.insert(0, c)
            else:
                d.append(c)
        if s.log is not None:
            moved(s, z, d, chosen)
    return move


def move_top(src, dst, count, bottom: bool):
    def move(s, l):
        z = src(s, l)
        d = dst(s, l)
        n = len(z) if count is None else max(0, min(int(count(s, l)), len(z)))
        charge(s, n)
        taken = z[len(z) - n:][::-1] if s.log is not None and z is not d else None   # in the order they go
        for _ in range(n):
            if bottom:
                d.insert(0, z.pop())
            else:
                d.append(z.pop())
        if taken:
            moved(s, z, d, taken)
    return move


def deal(src, zone_name, count, first, players):
    def deal_(s, l):
        z = src(s, l)
        seats = list(players(s, l)) if players else [p for p in s.players if not s.out[p]]
        if not seats:
            return
        start = first(s, l) if first else seats[0]
        if start in seats:
            i = seats.index(start)
            seats = seats[i:] + seats[:i]
        hands = s.zones[zone_name]
        n = max(0, min(int(count(s, l)), len(z)))
        total = min(n * len(seats), len(z))
        charge(s, total)
        for j in range(total):
            hands[seats[j % len(seats)]].append(z.pop())
        if s.log is not None:
            dealt(s, z, hands, seats, total)
    return deal_


def shuffle(zone):
    def shuffle_(s, l):
        z = zone(s, l)
        charge(s, len(z))
        s.revealed.difference_update(z)
        if s.stacks:
            _stacked(s, z, s.stacks.pop(0))
        else:
            s.rng.shuffle(z)
    return shuffle_


def sort(zone, key, var="card"):
    def sort_(s, l):
        z = zone(s, l)
        charge(s, len(z) * 4)

        def k(c):
            l[var] = c
            return key(s, l)
        z.sort(key=k)
    return sort_


def _stacked(s, z, top_first):
    """Arrange z so that `top_first` lies on top in that order; the rest shuffled below."""
    rest = list(z)
    for c in top_first:
        if c not in rest:
            raise RulesFault("a stacked card is not in the zone being shuffled")
        rest.remove(c)
    s.rng.shuffle(rest)
    z[:] = rest + list(reversed(top_first))


def gather(zone_lists, dst, pile_zones=()):
    """Every card of the zones onto `dst`; the piles of `pile_zones` taken away after."""
    def gather_(s, l):
        d = dst(s, l)
        for get in zone_lists:
            for z in get(s):
                charge(s, len(z))
                if z is not d:
                    if s.log is not None:
                        moved(s, z, d, z)
                    d.extend(z)
                    del z[:]
        for name in pile_zones:
            if not any(d is z for z in s.zones[name]):    # (gathered into one of its piles: kept)
                piles.cleared(s, name)
    return gather_


def new_pile(zone, owner, var):
    """A new pile of zone `zone` for `owner` (a closure, or None: nobody), bound to local `var`."""
    def new_pile_(s, l):
        l[var] = piles.new_pile(s, zone, None if owner is None else owner(s, l))
    return new_pile_


def set_current(value):
    """`set: {current: p}`: the turn is p's from here on, and the next turn follows from p."""
    def set_(s, l):
        p = value(s, l)
        if p is None:
            current_nobody()
        s.current = p
    return set_


def current_nobody():
    raise RulesFault("'current' cannot be set to nobody (null)")


def set_global(name, value, kind=None):
    check = SIZE_CHECKS.get(kind)
    if check is None:
        def set_(s, l):
            s.vars[name] = value(s, l)
    elif kind == "number":
        def set_(s, l):
            v = value(s, l)
            if v is not None and not -MAX_NUMBER < v < MAX_NUMBER:
                too_big(v)
            s.vars[name] = v
    else:
        def set_(s, l):
            s.vars[name] = check(value(s, l))
    return set_


def set_player(name, owner, value, kind=None):
    check = SIZE_CHECKS.get(kind)
    if check is None:
        def set_(s, l):
            s.pvars[name][owner(s, l)] = value(s, l)
    else:
        def set_(s, l):
            s.pvars[name][owner(s, l)] = check(value(s, l))
    return set_


def set_team(name, owner, value, teams, kind=None):
    """`set` of a team variable: the value of the owner and of each of its partners (the
    value computed before the owner, as set_player does)."""
    check = SIZE_CHECKS.get(kind) or (lambda v: v)

    def set_(s, l):
        v = check(value(s, l))
        values, p = s.pvars[name], owner(s, l)
        values[p] = v
        for q in partners_of(teams, s, p):
            values[q] = _list(v) if isinstance(v, list) else v
    return set_


def add_team(name, owner, value, teams):
    """`add` to a team variable: the owner's and each of its partners'."""
    def add(s, l):
        values = s.pvars[name]
        p = owner(s, l)
        v = values[p] + value(s, l)
        if not -MAX_NUMBER < v < MAX_NUMBER:
            too_big(v)
        values[p] = v
        for q in partners_of(teams, s, p):
            values[q] = v
    return add


def set_entry(name, owner, teams, key, value, add: bool, kind=None):
    """`set` (or `add`) of one entry of a map variable: the global `name`, or the player
    variable of `owner` (and of its partners, for a team variable).  A variable's value is
    never changed in place (copies of a state share it): the map is copied, then changed.
    Setting null removes the entry; `add` to an entry the map lacks adds to 0."""
    check = SIZE_CHECKS.get(kind) or (lambda v: v)

    def set_(s, l):
        k = key(s, l)
        if k is None:
            raise RulesFault("a map's key is null here")
        v = value(s, l)
        values, p = (s.vars, name) if owner is None else (s.pvars[name], owner(s, l))
        m = dict(values[p] or {})
        if add:
            v = m.get(k, 0) + v
            if not -MAX_NUMBER < v < MAX_NUMBER:
                too_big(v)
        if v is None:
            m.pop(k, None)
        else:
            m[k] = check(v)
            if len(m) > MAX_LIST:
                raise RulesFault(f"a map grew beyond {MAX_LIST} entries: do the rules grow it without end?")
        values[p] = m
        if teams is not None:
            for q in partners_of(teams, s, p):
                values[q] = m
    return set_


def add_global(name, value):
    def add(s, l):
        v = s.vars[name] + value(s, l)
        if not -MAX_NUMBER < v < MAX_NUMBER:
            too_big(v)
        s.vars[name] = v
    return add


def add_player(name, owner, value):
    def add(s, l):
        values = s.pvars[name]
        p = owner(s, l)
        v = values[p] + value(s, l)
        if not -MAX_NUMBER < v < MAX_NUMBER:
            too_big(v)
        values[p] = v
    return add


def too_big(v):
    """The rules' fault of a number past the limit, or of one that is no number (generated
    code raises it too)."""
    if v != v:
        raise RulesFault("this value is not a number (0/0?)")
    raise RulesFault(f"a number reached the limit of {MAX_NUMBER:.0e}: do the rules grow it without end?")


def _number(v):
    if v is not None and not -MAX_NUMBER < v < MAX_NUMBER:
        too_big(v)
    return v


def _text(v):
    if v is not None and len(v) > MAX_STRING:
        raise RulesFault(f"a text grew longer than {MAX_STRING} characters: do the rules grow it without end?")
    return v


def _list(v):
    """A list value to keep in a variable: a copy, so that a variable set from a zone
    (`set: {y: stock}`) holds the cards as they were, not the zone itself."""
    if v is None:
        return v
    if len(v) > MAX_LIST:
        raise RulesFault(f"a list grew longer than {MAX_LIST} items: do the rules grow it without end?")
    return list(v)


SIZE_CHECKS = {"number": _number, "string": _text, "list": _list}


def reveal(cards, is_list: bool):
    def reveal_(s, l):
        v = cards(s, l)
        shown = [c for c in (v if is_list else [v]) if c is not None]
        charge(s, len(shown))
        s.revealed.update(shown)
        if s.log is not None and shown:
            note(s, {"type": "reveal", "cards": shown})
    return reveal_


def eliminate(player, text: str):
    """Put a player out; `text` announces it, with {name} for the player's name."""
    def eliminate_(s, l):
        p = player(s, l)
        if not s.out[p]:
            s.out[p] = True
            if s.log is not None:
                note(s, {"type": "eliminated", "player": p, "text": text.format(name=s.names[p])})
    return eliminate_


def log(render, to):
    def log_(s, l):
        if s.log is not None:
            text = account_text(s, render, l)
            if text is None:
                return
            if to is None:
                note(s, {"type": "log", "text": text, "to": None})
                return
            try:
                seat = to(s, l)
            except Exception as e:
                if not rules_caused(e):
                    raise
                return          # whom it is for cannot be said: nobody is told
            note(s, {"type": "log", "text": text, "to": seat})
    return log_


def charge(s, n: int) -> None:
    """Count n (>= 0) units of an effect's work against the budget between two decisions
    (limits.MAX_WORK), like the built-ins do: a shuffle of a large zone in an endless
    loop stops there instead of running for an hour."""
    w = s.work = s.work + n
    if w > MAX_WORK:
        raise RulesFault(f"the rules did more than {MAX_WORK:,} units of work between two decisions "
                         "(cards moved, dealt, shuffled, sorted, gathered or revealed): do they loop without end?")


def too_much_work():
    """Stop the game: the built-ins of the expressions (count, sum, filter, ...) have visited
    more elements than the budget between two decisions allows (limits.MAX_WORK)."""
    raise RulesFault(f"the rules did more than {MAX_WORK:,} units of work between two decisions "
                     "(elements visited by count, sum, filter, map, any, in, ...): do functions of "
                     "each element nest too deeply?")


# -- the account ---------------------------------------------------------------------
# A game plays the same whether its account is kept (play) or not (simulate, play-outs):
# its texts draw no random numbers (the compiler forbids random() in texts), spend none
# of the game's work budget, and a text the rules cannot compute is shown as such.  The
# account's own budget (characters written plus work spent on texts) is MAX_ACCOUNT; past
# it, or past MAX_LOG_ENTRIES entries, the account says it stops and stays stopped.

def account_text(s, render, l):
    """The text `render` gives for the account, or None when the account has stopped."""
    if s.logged > MAX_ACCOUNT:
        return None
    saved = s.work
    s.work = 0
    try:
        text = render(s, l)
    except Exception as e:
        if not rules_caused(e):
            raise
        text = f"(a text of the rules cannot be shown: {words(e)})"
    finally:
        s.logged += s.work
        s.work = saved
    if len(text) > MAX_LOG_TEXT:
        text = text[:MAX_LOG_TEXT - 1] + "…"
    s.logged += len(text)
    if s.logged > MAX_ACCOUNT:
        _stop(s)
        return None
    return text


def note(s, entry: dict) -> None:
    """Add an entry to the game's account (kept: s.log is a list), within its limits."""
    if s.logged > MAX_ACCOUNT:
        return
    if len(s.log) >= MAX_LOG_ENTRIES:
        _stop(s)
        return
    s.log.append(entry)


def moved(s, src, dst, cards) -> None:
    """`cards` went from the zone list `src` to the zone list `dst`."""
    if cards and s.logged <= MAX_ACCOUNT:
        s.logged += len(cards)          # the account's budget: a card noted costs like a character
        if s.logged > MAX_ACCOUNT:
            _stop(s)
            return
        note(s, {"type": "move", "from": where(s, src), "to": where(s, dst), "cards": list(cards)})


def dealt(s, src, hands, seats, total) -> None:
    """A deal of `total` cards one at a time round `seats` (a seat may be listed twice): one
    move per seat dealt to, of the cards it got, in the order it got them."""
    n = len(seats)
    got = {}
    for j in range(total):
        got[seats[j % n]] = got.get(seats[j % n], 0) + 1
    for p, k in got.items():
        moved(s, src, hands[p], hands[p][-k:])


def where(s, zone) -> list:
    """[zone name, owner or None] of a zone's list, found by identity; of a pile, [zone name,
    the pile's number]."""
    for name, z in s.zones.items():
        if z is zone:
            return [name, None]
        if z and isinstance(z[0], list):
            for owner, cards in enumerate(z):
                if cards is zone:
                    return [name, s.piles[name][owner][0] if name in s.piles else owner]
    return [None, None]


def _stop(s):
    s.log.append({"type": "log", "text": f"(the account stops here: it holds {MAX_LOG_ENTRIES:,} entries or "
                                         f"{MAX_ACCOUNT:,} characters and units of work)", "to": None})
    s.logged = MAX_ACCOUNT + 1


def nobody_owns(name: str):
    """A player's zone named through a player who is null (nobody): a rules error, not the
    whole table of that zone taken for a shared one."""
    raise RulesFault(f"whose '{name}'? the player named is null (nobody) here")


def zone_at(s, ref):
    """The list of a zone reference (name, owner); owner is None for a shared zone."""
    name, owner = ref
    return s.zones[name] if owner is None else s.zones[name][owner]


def swap(a_ref, b_ref, tag):
    """Exchange the whole contents of two zones; with a tag, note it in the journal."""
    def swap_(s, l):
        ra, rb = a_ref(s, l), b_ref(s, l)
        za, zb = zone_at(s, ra), zone_at(s, rb)
        charge(s, len(za) + len(zb))
        if s.log is not None and za is not zb:
            moved(s, za, zb, za)
            moved(s, zb, za, zb)
        za[:], zb[:] = list(zb), list(za)
        if tag is not None:
            s.journal.append(["swap", list(ra), list(rb), tag(s, l)])
    return swap_


def journal_move(cards, src_ref, dst_ref, tag, is_list: bool):
    """Move cards between two named zones and note the move in the journal."""
    def move(s, l):
        v = cards(s, l)
        chosen = list(v) if is_list else [v]
        rs, rd = src_ref(s, l), dst_ref(s, l)
        zs, zd = zone_at(s, rs), zone_at(s, rd)
        charge(s, len(chosen) * (len(zs) + 1))
        for c in chosen:
            try:
                zs.remove(c)
            except ValueError:
                raise RulesFault("a card to move is not in the zone it should leave") from None
            zd.append(c)
        if s.log is not None:
            moved(s, zs, zd, chosen)
        s.journal.append(["move", chosen, list(rs), list(rd), tag(s, l)])
    return move


_EVERY = object()


def undo_journal(tag):
    """Reverse the journal's entries, latest first (only those with `tag`, if given)."""
    def undo(s, l):
        want = tag(s, l) if tag is not None else _EVERY
        charge(s, len(s.journal))
        kept = []
        for entry in reversed(s.journal):
            if want is not _EVERY and entry[-1] != want:
                kept.append(entry)
                continue
            if entry[0] == "swap":
                za, zb = zone_at(s, entry[1]), zone_at(s, entry[2])
                charge(s, len(za) + len(zb))
                if s.log is not None:
                    moved(s, za, zb, za)
                    moved(s, zb, za, zb)
                za[:], zb[:] = list(zb), list(za)
            else:
                src, dst = zone_at(s, entry[2]), zone_at(s, entry[3])
                charge(s, len(entry[1]) * (len(dst) + 1))
                back = [c for c in reversed(entry[1]) if c in dst]
                for c in back:
                    dst.remove(c)
                    src.append(c)
                if s.log is not None:
                    moved(s, dst, src, back)
        s.journal[:] = list(reversed(kept))
    return undo


def restart_turns(s, l):
    """The innermost turns start again once this turn ends: noted in the locals of the steps
    the turns run in (`#restart`), which the turns read before the next turn."""
    for kind, depth, _, _ in reversed(s.scopes):
        if kind == "turn":
            (s.frames[depth][1] if depth < len(s.frames) else s.locals)["#restart"] = True
            return
    raise RulesFault("restart_turns outside any turn")


def clear_journal(s, l):
    s.journal.clear()


def refuse(s, l):
    if not s.requests:
        raise RulesFault("refuse: no request is open")
    s.requests[-1][2] = "refused"


def redirect(target):
    def redirect_(s, l):
        if not s.requests:
            raise RulesFault("redirect: no request is open")
        rec = s.requests[-1]
        rec[2], rec[3] = "redirect", target(s, l)
    return redirect_
