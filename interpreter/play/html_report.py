"""One HTML page of a simulation or comparison (`--report DIR`): the tables of the text report,
the sentences on what differs, the plot (when matplotlib is installed) and the rows as CSV,
all in DIR so that the folder can be opened, copied or published as it is."""
from __future__ import annotations

import html
import pathlib

from .outputs import plotting_available, write_csv
from .reports import difference_sentences, fairness_sentence, interval, statistic_line

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; line-height: 1.4; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; } td, th { padding: 0.25em 0.8em; border-bottom: 1px solid #eee; }
th { text-align: left; background: #f5f5f5; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.note { color: #666; font-size: 0.9em; } .differs { color: #a40; font-weight: 600; }
img { max-width: 100%; border: 1px solid #eee; }
"""


def write_report(folder: str, runs: list, comparison: dict | None) -> str:
    """Write index.html (and plot.svg, rows.csv) into `folder`; return the page's path."""
    out = pathlib.Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "rows.csv", runs)
    plotted = plotting_available()
    if plotted:
        from .plots import plot
        plot(str(out / "plot.svg"), runs)
    page = out / "index.html"
    page.write_text(_page(runs, comparison, plotted), encoding="utf-8")
    return str(page)


def _e(text) -> str:
    return html.escape(str(text))


def _page(runs, comparison, plotted) -> str:
    first = runs[0][1]
    title = f"{first['ruleset']}: " + (f"{len(runs) - 1} variant(s) compared" if comparison else "simulation")
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>",
             f"<style>{STYLE}</style></head><body>", f"<h1>{_e(title)}</h1>", _setting(first, comparison)]
    if comparison:
        parts.append("<h2>What each variant changes</h2>")
        for d in comparison["differences"]:
            parts.append(f"<h3>{_e(d['variant'])} against {_e(comparison['runs'][0]['variant'])}</h3><ul>")
            for sentence in difference_sentences(d, first["players"]):
                cls = "" if ("no difference" in sentence or "no change" in sentence) else " class='differs'"
                parts.append(f"<li{cls}>{_e(sentence)}</li>")
            parts.append("</ul>")
    if plotted:
        parts.append("<h2>Plots</h2><img src='plot.svg' alt='win shares with 95% intervals, game length and scores'>")
    else:
        parts.append("<p class='note'>No plots: install matplotlib (pip install 'card-interpreter[plot]').</p>")
    for name, report, _ in runs:
        parts.append(f"<h2>{_e(name)}</h2>" + _tables(report))
    parts.append("<p class='note'>Every figure has its 95% interval in brackets. "
                 "<a href='rows.csv'>rows.csv</a> holds one row per game.</p></body></html>")
    return "\n".join(parts)


def _setting(report, comparison) -> str:
    bots = "random bots" + (f", the mc bot in seat(s) {', '.join(map(str, report['mc_seats']))}"
                            if report["mc_seats"] else "")
    games = comparison["games"] if comparison else report["games"]
    same = " per variant, on the same seeds" if comparison else ""
    done = "" if (comparison or report).get("complete", True) else " (interrupted: the games played so far)"
    return (f"<p>{games} games{same} (seeds {report['seeds'][0]}–{report['seeds'][1]}), "
            f"{report['players']} players, {bots}{done}.</p>")


def _tables(report) -> str:
    rows = ["<table><tr><th>seat</th><th>wins</th>" + ("<th>mean score</th>" if report["mean_score"] else "") + "</tr>"]
    for p, share in enumerate(report["win_share"]):
        cls = " class='differs'" if p + 1 in report["fairness"]["differ"] else ""
        score = f"<td class='n'>{_e(interval(report['mean_score'][p]))}</td>" if report["mean_score"] else ""
        rows.append(f"<tr{cls}><td>Player {p + 1}</td><td class='n'>{_e(interval(share, True))}</td>{score}</tr>")
    rows.append("</table>")
    rows.append(f"<p>{_e(fairness_sentence(report))}</p>")
    rows.append("<table>")
    rows.append(f"<tr><td>draws</td><td class='n'>{_e(interval(report['draws'], True))}</td></tr>")
    rows.append(f"<tr><td>decisions a game</td><td class='n'>{_e(interval(report['decisions']))}</td></tr>")
    rows.append(f"<tr><td>rounds a game</td><td class='n'>{_e(interval(report['rounds']))}</td></tr>")
    for st in report["statistics"].values():
        label, _, value = statistic_line(st).partition(": ")
        rows.append(f"<tr><td>{_e(label)}</td><td class='n'>{_e(value)}</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)
