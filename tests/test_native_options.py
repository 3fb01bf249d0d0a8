"""The native kernel (interpreter/native/) folds a ruleset's options into the code it writes:
for every covered shipped ruleset, every option and every listed value other than the
default (for an option with free values, the usual ones listed), it must play the same
1,000 seeded games as the generated Python.  Each value is a kernel compiled of its own
(seconds to minutes each), so the whole sweep takes hours: it runs only where
CARD_INTERPRETER_NATIVE_OPTIONS is set, e.g.
    CARD_INTERPRETER_NATIVE_OPTIONS=1 pytest tests/test_native_options.py -m slow -n 0 -k hearts2"""
from __future__ import annotations

import os
import time

import pytest

from interpreter import load_program
from interpreter.native.program import native_installed
from interpreter.pipeline import load_rules
from test_native import SHIPPED, assert_same_games, covered

SWEEP = bool(os.environ.get("CARD_INTERPRETER_NATIVE_OPTIONS"))
pytestmark = [pytest.mark.slow, pytest.mark.extras,
              pytest.mark.skipif(not native_installed(), reason="needs the native extra (Numba)"),
              pytest.mark.skipif(not SWEEP, reason="compiles a kernel per option value, hours in all: "
                                                   "set CARD_INTERPRETER_NATIVE_OPTIONS=1 to run it")]


def other_values():
    """(path, option, value) for each value but the default of each option of each covered
    shipped ruleset; worked out only for the sweep, as finding what is covered takes seconds."""
    for path in SHIPPED if SWEEP else ():
        if covered(path):
            for option, spec in (load_rules(path)[0].get("options") or {}).items():
                for value in spec["choices"]:
                    if value != spec["default"]:
                        yield pytest.param(path, option, value,
                                           id=f"{os.path.basename(path)[:-5]}-{option}={value}")


@pytest.mark.parametrize("path,option,value", list(other_values()) or [pytest.param("", "", "", id="sweep")])
def test_the_kernel_plays_each_option_as_the_generated_python_does(path, option, value, record_property):
    if not covered(path, {option: value}):
        pytest.skip(f"the kernel does not cover {option}={value}")
    program = load_program(path, backend="native", options={option: value})
    assert program.native is not None, program.native_reason
    start = time.perf_counter()
    program.native.compiled()
    record_property("compile_seconds", round(time.perf_counter() - start, 1))
    assert_same_games(program, 1000)
