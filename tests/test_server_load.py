"""The server's load benchmark (bench/server_load.py) runs: a smoke test at two tables and a few
moves, not a timing."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("aiohttp")
pytestmark = pytest.mark.extras

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "server_load.py"


def bench(tmp_path, *args):
    env = {**os.environ, "HOME": str(tmp_path), "CARD_INTERPRETER_RECORDS": str(tmp_path / "records"),
           "TMPDIR": str(tmp_path)}
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_load_benchmark_plays_its_tables_and_reports_moves_latency_and_memory(tmp_path):
    done = bench(tmp_path, "--tables", "2", "--moves", "12", "--json", str(tmp_path / "load.json"))
    assert done.returncode == 0, done.stderr
    figures = json.loads((tmp_path / "load.json").read_text())
    assert figures["tables"] == 2 and figures["game"] == "hearts2"
    assert figures["moves"] >= 12 and figures["moves_per_s"] > 0 and figures["tables_stuck"] == 0
    lat = figures["latency_ms"]
    assert 0 < lat["p50"] <= lat["p99"] <= lat["max"]
    assert figures["server_rss_kib"]["before"] > 0 and "kib_per_table" in figures
    assert f"moves:    {figures['moves']} " in done.stdout and "p99" in done.stdout and "KiB per table" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["load.json"]      # the server's folder is gone


def test_the_load_benchmark_refuses_to_write_its_figures_over_an_input(tmp_path):
    done = bench(tmp_path, "--tables", "1", "--moves", "1", "--json", str(SCRIPT))
    assert done.returncode == 2
    assert "cannot write the figures: it is this script" in done.stderr and "Traceback" not in done.stderr
