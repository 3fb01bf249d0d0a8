"""One HTML page of a simulation or comparison (`--report DIR`): the tables of the text report,
the sentences on what differs, the plot (when matplotlib is installed) and the rows as CSV,
all in DIR so that the folder can be opened, copied or published as it is."""
from __future__ import annotations

import html
import pathlib

from .outputs import plotting_available, write_csv
from ..targets import Output, make_folder, write_file
from .reports import bots, corrected, difference_sentences, fairness_sentence, interval, rounds, statistic_line
from ..shown import printable

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; line-height: 1.4; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; } td, th { padding: 0.25em 0.8em; border-bottom: 1px solid #eee; }
th { text-align: left; background: #f5f5f5; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.note { color: #666; font-size: 0.9em; } .differs { color: #a40; font-weight: 600; }
img { max-width: 100%; border: 1px solid #eee; }
"""


def write_report(output: Output, runs: list, comparison: dict | None) -> str:
    """Write index.html (and plot.svg, rows.csv) into the folder `output` names (made if it
    is not there; each file written whole, as targets.write_file writes); return the page's path."""
    make_folder(output)
    out = pathlib.Path(output.path)
    write_csv(output, runs, out / "rows.csv")
    plotted = plotting_available()
    if plotted:
        from .plots import plot
        write_file(output, lambda f: plot(f, runs, "svg"), out / "plot.svg", binary=True)
    page = out / "index.html"
    write_file(output, lambda f: f.write(_page(runs, comparison, plotted)), page)
    return str(page)


def _e(text) -> str:
    return html.escape(printable(text))     # a ruleset's text, shown as text: no markup, no control character


def _page(runs, comparison, plotted) -> str:
    first = runs[0][1]
    title = f"{first['ruleset']}: " + (f"{len(runs) - 1} variant(s) compared" if comparison else "simulation")
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>",
             f"<style>{STYLE}</style></head><body>", f"<h1>{_e(title)}</h1>", _setting(first, comparison)]
    if comparison:
        parts.append("<h2>What each variant changes</h2>")
        for d in comparison["differences"]:
            parts.append(f"<h3>{_e(d['variant'])} against {_e(comparison['runs'][0]['variant'])}</h3>")
            parts.append(f"<p class='note'>{_e(corrected(d))}</p><ul>")
            for sentence in difference_sentences(d, first["players"], first):
                cls = "" if ("no difference" in sentence or "no change" in sentence or "not measured" in sentence) \
                    else " class='differs'"
                parts.append(f"<li{cls}>{_e(sentence)}</li>")
            parts.append("</ul>")
    if plotted:
        parts.append("<h2>Plots</h2><img src='plot.svg' alt='win shares with 95% intervals, game length and scores'>")
    else:
        parts.append("<p class='note'>No plots: install matplotlib (pip install 'card-interpreter[plot]').</p>")
    parts.append("<h2>" + ("The variants side by side" if comparison else "The figures") + "</h2>")
    parts.append(_side_by_side(runs))
    parts.append("<p class='note'>Every figure has its 95% interval in brackets. "
                 "<a href='rows.csv'>rows.csv</a> holds one row per game.</p></body></html>")
    return "\n".join(parts)


def _setting(report, comparison) -> str:
    games = comparison["games"] if comparison else report["games"]
    same = " per variant, on the same seeds" if comparison else ""
    done = "" if (comparison or report).get("complete", True) else " (interrupted: the games played so far)"
    return (f"<p>{games} games{same} (seeds {report['seeds'][0]}–{report['seeds'][1]}), "
            f"{report['players']} players, {_e(bots(report))}{done}.</p>")


def _side_by_side(runs) -> str:
    """One table: a row per figure, a column per variant; a seat that wins more or less than
    an even share beyond chance is marked."""
    reports = [report for _, report, _ in runs]
    head = "<tr><th></th>" + "".join(f"<th>{_e(name)}</th>" for name, _, _ in runs) + "</tr>"
    rows = [head]

    def row(label, cells, marks=None):
        marks = marks or [False] * len(cells)
        tds = "".join(f"<td class='n{' differs' if m else ''}'>{_e(c)}</td>" for c, m in zip(cells, marks))
        rows.append(f"<tr><td>{_e(label)}</td>{tds}</tr>")
    for p in range(reports[0]["players"]):
        row(f"Player {p + 1} wins", [interval(r["win_share"][p], True) for r in reports],
            [p + 1 in r["fairness"]["differ"] for r in reports])
    row("draws", [interval(r["draws"], True) for r in reports])
    if any(r["mean_score"] for r in reports):
        for p in range(reports[0]["players"]):
            row(f"Player {p + 1}'s mean score",
                [interval(r["mean_score"][p]) if r["mean_score"] else "" for r in reports])
    row("decisions a game", [interval(r["decisions"]) for r in reports])
    row(f"{rounds(reports[0])} a game", [interval(r["rounds"]) for r in reports])
    names = []
    for r in reports:
        names += [n for n in r["statistics"] if n not in names]
    for name in names:
        label = next(r["statistics"][name]["label"] for r in reports if name in r["statistics"])
        row(label, [statistic_line(r["statistics"][name], r).partition(": ")[2] if name in r["statistics"] else ""
                    for r in reports])
    fair = "".join(f"<li><b>{_e(name)}</b>: {_e(fairness_sentence(report))}</li>" for name, report, _ in runs)
    return "<table>" + "\n".join(rows) + f"</table>\n<ul>{fair}</ul>"
