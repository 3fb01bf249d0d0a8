"""Where a simulation's results go besides the terminal: one row per game as CSV or JSON
lines, a plot, an HTML page, and a progress bar while the games are played.

A run is (name, report, rows): the variant's name, its report (simulation.report) and its
game rows (simulation.game_row).  In the files, seats are numbered from 1, as everywhere a
person reads them.
"""
from __future__ import annotations

import csv
import json
import pathlib

from ..errors import UsageError
from ..targets import Output, check_outputs, ruleset_reads, write_file

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


REPORT_FILES = ("index.html", "rows.csv", "plot.svg")      # what --report DIR writes into DIR


def targets_of(args) -> list:
    """Each file output simulate and compare were asked for, as targets.Output."""
    return [Output("--csv", args.csv, "the rows"), Output("--jsonl", args.jsonl, "the rows"),
            Output("--plot", args.plot, "the plot"), Output("--report", args.report, "the report", REPORT_FILES)]


def check_targets(args, programs) -> None:
    """Refuse, before any game is played, an output that could not be written or must not
    be (targets.check_outputs: not a regular file, a missing folder, a ruleset read)."""
    check_outputs(targets_of(args), [read for p in programs for read in ruleset_reads(p)])
    if args.plot:
        if pathlib.Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
            raise UsageError(f"--plot {args.plot}: the file must end in {', '.join(PLOT_SUFFIXES)}")
        if not plotting_available():
            raise UsageError("--plot needs matplotlib: pip install 'card-interpreter[plot]'")


def plotting_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


class _Silent:
    def update(self, k: int = 1):
        pass

    def close(self):
        pass


def progress(mode: str, total: int, stream):
    """A progress bar with the rate and time left (tqdm) on `stream` when it is a terminal (or
    mode 'on'); otherwise nothing is shown."""
    show = mode == "on" or (mode == "auto" and hasattr(stream, "isatty") and stream.isatty())
    if not show:
        return _Silent()
    from tqdm import tqdm
    return tqdm(total=total, file=stream, unit="game", smoothing=0.1, dynamic_ncols=True)


def _stat_names(runs) -> list:
    """(column, name, per) of every statistic of the runs, in the order first declared; a name
    measured per game by one variant and per round by another gets a column for each."""
    found = []
    for _, report, _ in runs:
        for name, st in report["statistics"].items():
            if (name, st["per"]) not in [(n, p) for _, n, p in found]:
                found.append((name, name, st["per"]))
    names = [n for _, n, _ in found]
    return [(f"{n}_per_{p}" if names.count(n) > 1 else c, n, p) for c, n, p in found]


def _scored(runs) -> bool:
    return any(row["scores"] for _, _, rows in runs for row in rows)


def csv_header(runs, n: int) -> list:
    scores = [f"score_{p + 1}" for p in range(n)] if _scored(runs) else []
    head = ["variant", "seed", "winners"] + scores + ["decisions", "rounds"]
    for column, _, per in _stat_names(runs):
        head += [column, f"{column}_rounds"] if per == "round" else [column]
    return head


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return int(v)
    return int(v) if isinstance(v, float) and v.is_integer() else v


def csv_rows(runs, n: int):
    """Each game as a flat row; a per-round statistic as its total over the game's rounds and
    the number of rounds it was measured in (empty where the variant does not measure it)."""
    names = _stat_names(runs)
    scored = _scored(runs)
    for variant, report, rows in runs:
        measures = {name: st["per"] for name, st in report["statistics"].items()}
        for row in rows:
            scores = (row["scores"] or [""] * n) if scored else []
            out = [variant, row["seed"], " ".join(str(p + 1) for p in row["winners"])] + list(scores)
            out += [row["decisions"], row["rounds"]]
            for _, name, per in names:
                mine = measures.get(name) == per
                v = row["stats"].get(name) if mine else None
                if per == "round":
                    vs = [x for x in (v or []) if x is not None]
                    out += [_cell(sum(vs)) if vs else "", len(vs) if mine else ""]
                else:
                    out.append(_cell(v))
            yield out


def write_csv(output: Output, runs, path=None) -> None:
    """The rows as CSV into `output` (or into `path`, a file of a folder output)."""
    n = runs[0][1]["players"]

    def rows(f):
        w = csv.writer(f)
        w.writerow(csv_header(runs, n))
        w.writerows(csv_rows(runs, n))
    write_file(output, rows, path)


def jsonl_row(variant: str, row: dict) -> dict:
    """A game's row as --jsonl writes it: a whole number written as one (15, not 15.0), as the
    CSV, the table and text() write it, whether a back end held it as an int or a float."""
    return {"variant": variant, "seed": row["seed"], "winners": [p + 1 for p in row["winners"]],
            "scores": [_whole(v) for v in row["scores"]] or None, "decisions": row["decisions"],
            "rounds": row["rounds"],
            "statistics": {k: [_whole(x) for x in v] if isinstance(v, list) else _whole(v) for k, v in row["stats"].items()}}


def _whole(v):
    return int(v) if isinstance(v, float) and v.is_integer() else v


def write_jsonl(output: Output, runs) -> None:
    def rows(f):
        for variant, _, game_rows in runs:
            for row in game_rows:
                f.write(json.dumps(jsonl_row(variant, row), ensure_ascii=False) + "\n")
    write_file(output, rows)
