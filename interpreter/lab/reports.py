"""Simulation and comparison reports as a person reads them: each number with its 95%
interval, and plain sentences for what differs beyond chance and what does not."""
from __future__ import annotations


import math


def pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def num(x) -> str:
    """A number alone: three significant figures, or one decimal from 100 on."""
    if x is None:
        return "n/a"
    if abs(x) >= 100:
        return f"{x:.1f}"
    return _clean(f"{x:.3g}")


def _clean(text: str) -> str:
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text     # no "-0.0"


def digits(e: dict, scale: float = 1) -> int:
    """Decimals that show an estimate as precisely as its interval allows (the first figure
    of the interval's half width), at least one."""
    lo, hi = e["low"], e["high"]
    half = (hi - lo) * scale / 2 if lo is not None else 0
    if half <= 0:
        return 1
    return max(1, min(6, -math.floor(math.log10(half))))


def parts(e: dict, scale: float = 1) -> tuple:
    """(value, low, high) as texts with the same decimals; low and high None without an interval."""
    if e["low"] is None:
        return num(e["value"] * scale), None, None
    d = digits(e, scale)
    f = lambda x: _clean(f"{x * scale:.{d}f}")      # noqa: E731
    return f(e["value"]), f(e["low"]), f(e["high"])


def interval(e: dict, share: bool = False) -> str:
    """'50.5% [48.3, 52.7]' or '246.2 [244.1, 248.3]' (no interval below two values)."""
    if e["value"] is None:
        return "n/a"
    v, lo, hi = parts(e, 100 if share else 1)
    unit = "%" if share else ""
    return f"{v}{unit}" if lo is None else f"{v}{unit} [{lo}, {hi}]"


def seat_name(p: int) -> str:
    return f"Player {p}"


def rounds(report: dict, many: bool = True) -> str:
    """What the game calls its rounds, as the report's English says it: the ruleset's
    `round_name` ("hands", "battles"), "rounds" where it has none or it is not written in
    plain letters (an English plural cannot be made of it)."""
    name = str(report.get("round_name") or "")
    if not name or not all(c.isascii() and (c.isalpha() or c in " -") for c in name):
        return "rounds" if many else "round"
    if not many:
        return name
    if name.endswith(("s", "x", "z", "ch", "sh")):
        return name + "es"
    if name.endswith("y") and name[-2:-1] not in tuple("aeiou"):
        return name[:-1] + "ies"
    return name + "s"


def bots(report: dict) -> str:
    """Who played: the bot of most seats, then the others by seat ('random bots, the mc bot
    in seat 2'; 'mc bots (20 play-outs an option), the ismcts bot in seat 1')."""
    n = report["players"]
    mc, ismcts = report["mc_seats"], report.get("ismcts_seats") or []
    randoms = [s for s in range(1, n + 1) if s not in mc and s not in ismcts]
    groups = [("random", randoms), ("mc", mc), ("ismcts", ismcts)]
    budget = {"random": "", "mc": f" ({report.get('playouts')} play-outs an option)",
              "ismcts": f" ({report.get('iterations')} iterations a decision)"}
    main = max(groups, key=lambda g: len(g[1]))[0]
    return ", ".join([f"{main} bots{budget[main]}"] +
                     [f"the {kind} bot in {_seats(seats)}" for kind, seats in groups if seats and kind != main])


def _seats(seats) -> str:
    return f"seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))}"


def report_lines(report: dict, speed: bool = True) -> list[str]:
    """The report of one run (simulation.report); `speed`: with its games/s line."""
    g, n, first = report["games"], report["players"], report["seeds"][0]
    seeds = (f"seed {first}" if g == 1 else f"seeds {first}-{report['seeds'][1]}") if g else "no game finished"
    head = (f"{report['ruleset']}: {g} game{'' if g == 1 else 's'} between {bots(report)}, {n} players, {seeds}"
            + (f", house rules {report['options']}" if report["options"] else ""))
    lines = [head + ("" if report.get("complete", True) else " (interrupted: the games played so far)")]
    lines.append("  95% intervals in brackets")
    for p in range(n):
        score = f", mean score {interval(report['mean_score'][p])}" if report["mean_score"] else ""
        lines.append(f"  {seat_name(p + 1)}: wins {interval(report['win_share'][p], True)}{score}")
    for team in report.get("teams") or ():
        lines.append(f"  {team['name']} ({_seats(team['seats'])}): wins {interval(team['win_share'], True)}")
    lines.append(f"  draws {interval(report['draws'], True)}")
    lines.append("  " + fairness_sentence(report))
    lines.append(f"  length: {interval(report['decisions'])} decisions, {interval(report['rounds'])} {rounds(report)} a game")
    for name, st in report["statistics"].items():
        lines.append("  " + statistic_line(st, report))
    jobs = report.get("jobs", 1)
    if speed and report.get("games_per_s"):
        lines.append(f"  {report['games_per_s']} games/s" + (f" ({jobs} processes)" if jobs > 1 else ""))
    return lines


def fairness_sentence(report: dict) -> str:
    f = report["fairness"]
    if f["even_share"] is None:
        return "Too few games to say whether the seats differ."
    even = pct(f["even_share"])
    if not f["differ"]:
        return f"No seat wins more or less often than an even share ({even}) beyond chance."
    parts = []
    for p in f["differ"]:
        share = report["win_share"][p - 1]["value"]
        parts.append(f"{seat_name(p)} wins {'more' if share > f['even_share'] else 'less'} often "
                     f"({pct(share)})")
    return f"The seats differ beyond chance: {'; '.join(parts)} than an even share ({even})."


def statistic_line(st: dict, report: dict) -> str:
    """'moons: 4.1% of hands [3.5, 4.8], 0.32 a game' and the like (the rounds named as the
    game of `report` names them)."""
    share = st["kind"] == "share"
    if st["value"] is None:
        return f"{st['label']}: never measured"
    value, lo, hi = parts(st, 100 if share else 1)
    per_round = st["per"] == "round"
    unit = (f"% of {rounds(report)}" if share else f" a {rounds(report, many=False)}") if per_round \
        else ("% of games" if share else "")
    what = value + unit + (f" [{lo}, {hi}]" if lo is not None else "")
    if per_round:
        return f"{st['label']}: {what}; {num(st['per_game']['value'])} a game"
    return f"{st['label']}: {what}"


# -- comparisons -----------------------------------------------------------------------------
def comparison_lines(comparison: dict) -> list[str]:
    """compare's report: each variant's own figures, then what it changes against the base."""
    base = comparison["runs"][0]
    lines = [f"{base['report']['ruleset']}: {comparison['games']} games per variant on the same seeds "
             f"{comparison['seeds'][0]}-{comparison['seeds'][1]} (common random numbers), {comparison['players']} players"
             + ("" if comparison.get("complete", True) else " (interrupted: the games played so far)")]
    for run in comparison["runs"]:
        lines.append("")
        lines.append(f"{run['variant']}:")
        lines.extend("  " + line for line in report_lines(run["report"], speed=False)[1:])
    for d in comparison["differences"]:
        lines.append("")
        lines.append(f"{d['variant']} against {comparison['runs'][0]['variant']} (difference, 95% interval):")
        lines.append("  " + corrected(d))
        lines.extend("  " + s for s in difference_sentences(d, comparison["players"], base["report"]))
    return lines


def corrected(d: dict) -> str:
    """How many figures a variant's differences compare, and that chance is taken into account."""
    m = d.get("compared", 0)
    if m < 2:
        return f"{m} figure{'' if m == 1 else 's'} compared."
    return (f"{m} figures compared, corrected for chance (Holm): a variant that changes nothing shows "
            f"a difference in at most 1 run in 20.")


def difference_sentences(d: dict, n: int, report: dict) -> list[str]:
    """A sentence per figure of a variant's differences (the rounds named as the game of
    `report`, the base's, names them)."""
    def shift(*args, **kw):
        return _shift(*args, compared=d.get("compared", 0), **kw)
    out = []
    for p in range(n):
        out.append(shift(f"{seat_name(p + 1)} wins", d["win_share"][p], share=True,
                         more="more often", less="less often"))
    out.append(shift("Draws happen", d["draws"], share=True, more="more often", less="less often"))
    if d["mean_score"]:
        for p in range(n):
            out.append(shift(f"{seat_name(p + 1)}'s mean score:", d["mean_score"][p], more="higher", less="lower"))
    out.append(shift("Games last", d["decisions"], unit=" decisions", more="longer", less="shorter"))
    out.append(shift(f"{rounds(report).capitalize()} a game:", d["rounds"], more="more", less="fewer"))
    for name, st in d["statistics"].items():
        share = st["kind"] == "share"
        per_round = f" (per {rounds(report, many=False)})" if st["per"] == "round" else ""
        out.append(shift(st["label"] + per_round + ":", st, share=share, more="more often" if share else "more",
                         less="less often" if share else "less"))
    return out


def _shift(subject: str, e: dict, share=False, unit="", more="more", less="less", compared=0) -> str:
    """A plain sentence for a difference: its size and direction with the interval of that
    size, or that it is within chance (its interval holds zero, or it does not survive the
    correction for the `compared` figures: statistics.holm), or that nothing changed at all."""
    v, lo, hi = e["value"], e["low"], e["high"]
    sized, subject = subject, subject.rstrip(":")
    if v is None:
        return f"{subject}: not measured in both"
    u = " points" if share else unit
    if v == 0 and (lo is None or lo == hi == 0):
        return f"{subject}: no change"
    inside = lo is None or lo <= 0 <= hi
    if not e.get("differs", not inside):
        value, a, b = parts(e, 100 if share else 1)
        sign = "+" if v > 0 else ""
        span = f" [{a}, {b}]" if a is not None else ""
        many = "" if inside else f", as chance gives among {compared} figures compared"
        return f"{subject}: no difference beyond chance ({sign}{value}{u}{span}{many})"
    size, a, b = parts({"value": abs(v), "low": lo if v > 0 else -hi, "high": hi if v > 0 else -lo},
                       100 if share else 1)
    return f"{sized} {size}{u} {more if v > 0 else less} [{a}, {b}]"
