"""A simulation's figures drawn (matplotlib, the optional 'plot' extra): each variant's win
shares with their 95% intervals, and the spread of game length and of final scores; the
legend gives each variant's rounds a game, named as the game names them ("9.4 hands a game")."""
from __future__ import annotations

from .reports import num, rounds


def plot(path, runs: list, format: str | None = None) -> None:
    """Draw `runs` [(name, report, rows)] into `path` (.png, .svg or .pdf), or into an open
    binary file in `format` ('png', 'svg', 'pdf')."""
    import matplotlib
    matplotlib.use("Agg")               # files only: no screen is needed
    import matplotlib.pyplot as plt

    scored = any(row["scores"] for _, _, rows in runs for row in rows)
    fig, axes = plt.subplots(1, 3 if scored else 2, figsize=(15 if scored else 11, 5.2), constrained_layout=True)
    _win_shares(axes[0], runs)
    _lengths(axes[1], runs)
    if scored:
        _scores(axes[2], runs)
    handles, labels = axes[0].get_legend_handles_labels()     # one legend for every panel, below them
    fig.legend(handles, labels, loc="outside lower center", ncol=min(4, len(labels)), fontsize="small")
    title = runs[0][1]["ruleset"]
    games = runs[0][1]["games"]
    fig.suptitle(f"{title}: {games} games per variant" if len(runs) > 1 else f"{title}: {games} games")
    fig.savefig(path, dpi=120, format=format)
    plt.close(fig)


def _win_shares(ax, runs):
    n = runs[0][1]["players"]
    width = 0.8 / len(runs)
    for i, (name, report, _) in enumerate(runs):
        xs = [p + (i - (len(runs) - 1) / 2) * width for p in range(n)]
        values = [100 * e["value"] for e in report["win_share"]]
        below = [100 * (e["value"] - e["low"]) for e in report["win_share"]]
        above = [100 * (e["high"] - e["value"]) for e in report["win_share"]]
        ax.bar(xs, values, width, yerr=[below, above], capsize=3, label=_legend(name, report))
    even = report["fairness"]["even_share"]
    if even is not None:
        ax.axhline(100 * even, color="grey", linestyle="--", linewidth=1, label="even share")
    ax.set_xticks(range(n), [f"Player {p + 1}" for p in range(n)], rotation=45 if n > 6 else 0)
    ax.set_ylabel("wins (%), with 95% interval")
    ax.set_title("Win share per seat")


def _legend(name, report) -> str:
    """A variant as the legend names it: with its rounds a game."""
    played = report["rounds"]["value"]
    return name if played is None else f"{name} ({num(played)} {rounds(report)} a game)"


def _lengths(ax, runs):
    import numpy as np
    lengths = [row["decisions"] for _, _, rows in runs for row in rows]
    lo, hi = max(1, min(lengths)), max(lengths)
    wide = hi > 20 * lo                 # variants that differ by orders of magnitude: a log scale
    bins = np.geomspace(lo, hi + 1, 41) if wide else 40
    for name, _, rows in runs:
        ax.hist([row["decisions"] for row in rows], bins=bins, histtype="step", linewidth=1.5, label=name)
    if wide:
        ax.set_xscale("log")
    ax.set_xlabel("decisions in a game" + (" (log scale)" if wide else ""))
    ax.set_ylabel("games")
    ax.set_title("Game length")


def _scores(ax, runs):
    """Box plots of the final scores: one group per seat, one colour per variant (as in the
    win-share bars)."""
    n, k = runs[0][1]["players"], len(runs)
    colors = [f"C{i % 10}" for i in range(k)]          # the colours the bars of the first panel take
    width = 0.8 / k
    for i, (name, _, rows) in enumerate(runs):
        data = [[row["scores"][p] for row in rows if row["scores"]] for p in range(n)]
        positions = [p + (i - (k - 1) / 2) * width for p in range(n)]
        box = ax.boxplot(data, positions=positions, widths=width * 0.9, patch_artist=True, manage_ticks=False)
        for patch in box["boxes"]:
            patch.set_facecolor(colors[i])
            patch.set_alpha(0.6)
    ax.set_xticks(range(n), [f"Player {p + 1}" for p in range(n)], rotation=45 if n > 6 else 0)
    ax.set_ylabel("final score")
    ax.set_title("Final scores")
