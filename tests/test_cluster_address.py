"""A --cluster address Ray cannot reach is one line, not a traceback (found beyond issue 25's
list).  Apart from tests/test_cluster.py, whose local Ray instance would answer any address."""
from __future__ import annotations

import io
import pathlib

import pytest

from interpreter.cli import run

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.extras
RULESETS = pathlib.Path(__file__).parent.parent / "rulesets"


@pytest.mark.parametrize("address", ["bogus", "ray://127.0.0.1:1"])
def test_an_address_ray_cannot_reach_is_one_line_not_a_traceback(address):
    if ray.is_initialized():
        pytest.skip("a Ray instance of another test is running: it answers any address")
    err = io.StringIO()
    code = run(["simulate", str(RULESETS / "war.yaml"), "--games", "2", "--cluster", address],
               stdout=io.StringIO(), stderr=err)
    assert code == 2 and f"--cluster {address}: Ray could not connect" in err.getvalue()
    assert "Traceback" not in err.getvalue()
