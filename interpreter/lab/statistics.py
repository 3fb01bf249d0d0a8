"""Honest numbers from many games: each share or mean with its 95% interval, whether the
seats differ beyond chance, and the difference a variant makes, game by game.

A simulation gives one row per game (simulation.game_row): winners, scores, length and the
values of the ruleset's statistics.  `summary(rows, ...)` sums the rows of one ruleset;
`differences(base, variant)` compares two lists of rows played on the same seeds (common
random numbers: the games differ only where the rules do), so that a small effect shows
with far fewer games than two independent runs would need.

Intervals:
- a share of games (wins, draws, a true/false statistic per game): Wilson's score interval;
- a mean over games: the normal interval of the mean (games are independent);
- a share or mean over rounds (a per-round statistic): the pooled ratio over all rounds,
  its interval from the spread between games (rounds of one game are not independent);
- a difference between variants: the mean of the per-game differences on the same seed,
  with the normal interval of that mean (per-round ratios linearised game by game).

A variant's differences are many figures at once (each seat's wins and score, draws,
length, rounds, every statistic): each gets the p-value of its paired t test, and a
figure is called a difference only if it survives Holm's step-down correction across all
the figures compared, so that a variant that changes nothing is said to change something
in at most 5% of comparisons, however many figures there are (`holm`).
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054         # the standard normal's 97.5% point


def estimate(value, low=None, high=None) -> dict:
    """The JSON shape of every number reported with its interval."""
    r = lambda x: None if x is None else round(x, 6)      # noqa: E731
    return {"value": r(value), "low": r(low), "high": r(high)}


def wilson(successes: float, n: float, z: float = Z95) -> dict:
    """A share `successes / n` with Wilson's score interval (good near 0 and 1, and for
    small n, where the plain normal interval is not)."""
    if n == 0:
        return estimate(None)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return estimate(p, max(0.0, centre - half), min(1.0, centre + half))


# Student's t at 97.5% for 1..30 degrees of freedom (beyond: the Cornish-Fisher expansion)
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
       2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
       2.052, 2.048, 2.045, 2.042)


def t_point(z: float, df: int) -> float:
    """Student's t point with `df` degrees of freedom matching the normal point z: a few
    games get the wider interval they need."""
    if z == Z95 and df <= len(T95):
        return T95[df - 1]
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def mean(values, z: float = Z95, bounds=None) -> dict:
    """The mean of independent values with its t interval (none below two values); `bounds`
    (lo, hi) clips it to what the values can be (a difference of shares: -1 to 1)."""
    values = [v for v in values if v is not None]
    n = len(values)
    if n == 0:
        return estimate(None)
    m = math.fsum(values) / n
    if n < 2:
        return estimate(m)
    half = t_point(z, n - 1) * math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1) / n)
    lo, hi = m - half, m + half
    if bounds is not None:
        lo, hi = max(bounds[0], lo), min(bounds[1], hi)
    return estimate(m, lo, hi)


def pooled(per_game, z: float = Z95, share: bool = False) -> dict:
    """The ratio sum(x) / sum(n) over games, where game g contributes x_g (a total over its
    rounds) and n_g (its rounds measured); the interval from the spread between games.  A
    share's interval is Wilson's for the rounds measured shrunk by the design effect (how
    much more rounds of one game agree than independent rounds would): it stays within 0
    and 1, and is not empty when no round (or every round) had the property."""
    per_game = [(x, k) for x, k in per_game if k]
    total = sum(k for _, k in per_game)
    if total == 0:
        return estimate(None)
    r = math.fsum(x for x, _ in per_game) / total
    g = len(per_game)
    if g < 2:
        return wilson(r * total, total, z) if share else estimate(r)
    kbar = total / g
    resid = [(x - r * k) / kbar for x, k in per_game]
    var = math.fsum(e * e for e in resid) / (g - 1) / g
    if share:
        binomial = r * (1 - r) / total
        effect = max(1.0, var / binomial) if binomial > 0 else 1.0
        w = wilson(r * total / effect, total / effect, z)
        return estimate(r, w["low"], w["high"])
    half = z * math.sqrt(var)
    return estimate(r, r - half, r + half)


def _linearised(per_game):
    """Each game's share of the pooled ratio's error, and the ratio: a per-round statistic
    as per-game values whose mean is the ratio (for paired differences); a game with no
    round measured contributes the ratio itself."""
    total = sum(k for _, k in per_game)
    if total == 0:
        return None
    r = math.fsum(x for x, _ in per_game) / total
    kbar = total / len(per_game)
    return [r + (x - r * k) / kbar for x, k in per_game]


# -- one game's row, and the numbers a statistic takes from it -------------------------------
def _numeric(v):
    """A statistic's value as a number (a bool counts 1 or 0); None stays None."""
    if v is None or isinstance(v, (list, dict, str)):
        return None
    return float(v)


def round_totals(values) -> tuple:
    """(sum, count) of the measured values of a per-round statistic in one game."""
    vs = [_numeric(v) for v in values]
    vs = [v for v in vs if v is not None]
    return math.fsum(vs), len(vs)


def kind_of(values) -> str:
    """'share' when every measured value is true/false, else 'mean'."""
    flat = [v for x in values for v in (x if isinstance(x, list) else [x]) if v is not None]
    return "share" if flat and all(isinstance(v, bool) for v in flat) else "mean"


# -- the summary of one run ---------------------------------------------------------------------
def win_shares(rows, n: int) -> list[list[float]]:
    """Per game, each seat's part of the win (a shared win split evenly)."""
    out = []
    for row in rows:
        w = [0.0] * n
        for p in row["winners"]:
            w[p] += 1 / len(row["winners"])
        out.append(w)
    return out


def summary(rows: list, n: int, specs=()) -> dict:
    """Everything a report shows of a list of game rows (see simulation.game_row): shares
    and means with their intervals; `specs` are the ruleset's statistics (name, label, per)."""
    g = len(rows)
    wins = win_shares(rows, n)
    draws = sum(1 for row in rows if not row["winners"])
    out = {
        "win_share": [wilson(sum(w[p] for w in wins), g) for p in range(n)],
        "draws": wilson(draws, g),
        "mean_score": ([mean([row["scores"][p] for row in rows]) for p in range(n)]
                       if rows and rows[0]["scores"] else None),
        "decisions": mean([row["decisions"] for row in rows]),
        "rounds": mean([row["rounds"] for row in rows]),
        "statistics": {},
    }
    out["fairness"] = fairness(wins, n)
    for name, label, per in specs:
        values = [row["stats"].get(name) for row in rows]
        kind = kind_of(values)
        if per == "round":
            totals = [round_totals(v or []) for v in values]
            out["statistics"][name] = {
                "label": label, "per": per, "kind": kind,
                **pooled(totals, share=kind == "share"), "measured": sum(k for _, k in totals),
                "per_game": mean([x for x, _ in totals]),
            }
        else:
            nums = [_numeric(v) for v in values]
            measured = [v for v in nums if v is not None]
            est = wilson(sum(measured), len(measured)) if kind == "share" else mean(measured)
            out["statistics"][name] = {"label": label, "per": per, "kind": kind, **est, "measured": len(measured)}
    return out


def team_shares(rows: list, sides: list) -> list:
    """Each team's share of the games it won whole (every one of its players a winner), with its
    interval: sides are (name, seats) as Program.sides gives them."""
    g = len(rows)
    return [{"name": name, "seats": [p + 1 for p in seats],
             "win_share": wilson(sum(1 for row in rows if row["winners"] and set(seats) <= set(row["winners"])), g)}
            for name, seats in sides]


def fairness(wins: list, n: int) -> dict:
    """Whether a seat wins more or less than an even share of the games nobody drew, beyond
    chance: the exact binomial test of its wins among the decided games (a shared win split
    evenly) against 1/n, each side at 0.05/(2n) (Bonferroni: the n seats together keep at
    most a 5% chance of a false alarm, however few the games; the normal and Wilson
    intervals do not, with few games).  `even_share` is that share of all games (draws
    included), as the report's win shares are."""
    games = len(wins)
    if games < 2 or n < 2:
        return {"even_share": None, "differ": []}
    decided = round(math.fsum(sum(w) for w in wins))    # a game counts 1, or 0 for a draw
    alpha = 0.05 / n
    differ = [p + 1 for p in range(n)
              if decided and _beyond_chance(math.fsum(w[p] for w in wins), decided, 1 / n, alpha)]
    return {"even_share": round(decided / games / n, 6), "differ": differ}


def _beyond_chance(wins: float, games: int, share: float, alpha: float) -> bool:
    """Whether `wins` of `games` is beyond chance for a seat that wins each game with
    probability `share`: the exact two-sided binomial test at level alpha (each tail at
    alpha/2; the Clopper-Pearson interval at 1 - alpha leaves out `share`).  A count with a
    shared win in it is taken at the whole number nearer `share` (never more alarming)."""
    wins = round(wins, 9)
    return (binomial_tail(math.floor(wins), games, share, upper=True) < alpha / 2
            or binomial_tail(math.ceil(wins), games, share, upper=False) < alpha / 2)


def binomial_tail(k: int, n: int, p: float, upper: bool) -> float:
    """P(X >= k) (upper) or P(X <= k) for X ~ Binomial(n, p), 0 < p < 1: the terms summed
    from k away from the middle until they no longer count (the other side's tail taken
    from 1 when k is on the near side), so some tens of standard deviations' worth at most."""
    if (k <= 0) if upper else (k >= n):
        return 1.0
    if (k > n) if upper else (k < 0):
        return 0.0
    if (k <= n * p) if upper else (k >= n * p):
        return max(0.0, 1.0 - binomial_tail(k - 1 if upper else k + 1, n, p, not upper))
    log_p, log_q = math.log(p), math.log1p(-p)
    lg = math.lgamma

    def term(j):
        return math.exp(lg(n + 1) - lg(j + 1) - lg(n - j + 1) + j * log_p + (n - j) * log_q)
    step, mode = (1 if upper else -1), (n + 1) * p
    total, j = 0.0, k
    while 0 <= j <= n:
        t = term(j)
        total += t
        if t < 1e-17 * total and (j > mode if upper else j < mode):
            break                       # past the middle, the terms only get smaller
        j += step
    return min(1.0, total)


# -- two runs on the same seeds -----------------------------------------------------------------
def differences(base: list, variant: list, n: int, specs=(), base_pers=None) -> dict:
    """What the variant changes, game by game on the same seeds: each figure of the summary
    as a difference (variant - base) with its interval.  Statistics are compared where
    both rulesets declare them alike (`specs`: the variant's; `base_pers`: {name: per} of
    the base's)."""
    if [r["seed"] for r in base] != [r["seed"] for r in variant]:
        raise ValueError("the runs were not played on the same seeds")
    wb, wv = win_shares(base, n), win_shares(variant, n)
    out = {
        "win_share": [paired([w[p] for w in wb], [w[p] for w in wv], SHARE) for p in range(n)],
        "draws": paired([float(not r["winners"]) for r in base], [float(not r["winners"]) for r in variant], SHARE),
        "mean_score": ([paired([r["scores"][p] for r in base], [r["scores"][p] for r in variant]) for p in range(n)]
                       if base and base[0]["scores"] and variant[0]["scores"] else None),
        "decisions": paired([r["decisions"] for r in base], [r["decisions"] for r in variant]),
        "rounds": paired([r["rounds"] for r in base], [r["rounds"] for r in variant]),
        "statistics": {},
    }
    for name, label, per in specs:
        if base_pers is not None and base_pers.get(name) != per:
            continue                    # the base does not measure it, or measures it otherwise
        a = [r["stats"].get(name) for r in base]
        b = [r["stats"].get(name) for r in variant]
        kind = kind_of(a + b)
        if per == "round":
            la = _linearised([round_totals(v or []) for v in a])
            lb = _linearised([round_totals(v or []) for v in b])
            if la is None or lb is None:
                continue
            d = paired(la, lb, SHARE if kind == "share" else None)
        else:
            d = paired([_numeric(v) for v in a], [_numeric(v) for v in b], SHARE if kind == "share" else None)
        out["statistics"][name] = {"label": label, "per": per, "kind": kind, **d}
    out["compared"] = holm(list(_figures(out)))
    return out


def _figures(d: dict):
    """Every estimate of a variant's differences, each once."""
    for key in ("win_share", "draws", "mean_score", "decisions", "rounds"):
        value = d[key]
        yield from (value if isinstance(value, list) else [value] if value is not None else [])
    yield from d["statistics"].values()


SHARE = (-1.0, 1.0)         # what a difference of two shares can be


def paired(a: list, b: list, bounds=None) -> dict:
    """The mean of b - a over the games where both are measured, with its interval and `p`:
    the chance of a mean at least as far from zero if the variant changed nothing (the
    paired t test; None below two games, and where no game differs: nothing is tested there)."""
    d = [y - x for x, y in zip(a, b) if x is not None and y is not None]
    p = t_test(d) if any(d) else None
    return {**mean(d, bounds=bounds), "p": None if p is None else float(f"{p:.4g}")}


def t_test(values) -> float | None:
    """The two-sided p-value of Student's t test that the values' mean is zero (1 when
    every value is 0, 0 when they are all one other value); None below two values."""
    n = len(values)
    if n < 2:
        return None
    m = math.fsum(values) / n
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    if var <= 1e-24 * max(1.0, m * m):
        return 1.0 if m == 0 else 0.0
    t = m / math.sqrt(var / n)
    df = n - 1
    return min(1.0, _betainc(df / 2, 0.5, df / (df + t * t)))


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), by its continued fraction
    (Lentz's method, on the side of x where it converges fast)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a, b, x, tiny=1e-300):
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        for aa in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def holm(estimates: list, alpha: float = 0.05) -> int:
    """Mark each estimate (with its `p`) `differs`: whether it is a difference beyond chance
    once every figure compared is taken into account, by Holm's step-down method (the k-th
    smallest p-value of m is held against alpha / (m - k + 1), and the first that fails
    stops the rest), and its interval leaves out zero.  The chance that any figure of a
    variant that changes nothing is called a difference is then at most alpha.  Returns
    how many figures were compared (those with a p-value)."""
    tested = sorted((e for e in estimates if e.get("p") is not None), key=lambda e: e["p"])
    holding = True
    for k, e in enumerate(tested):
        holding = holding and e["p"] <= alpha / (len(tested) - k)
        e["differs"] = holding and e["low"] is not None and (e["low"] > 0 or e["high"] < 0)
    for e in estimates:
        e.setdefault("differs", False)
    return len(tested)
