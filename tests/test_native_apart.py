"""Procedures written apart (interpreter/native/apart.py): what a procedure's kernel function
is given and gives back, read from its source.  No Numba needed: these read text."""
from __future__ import annotations

import pathlib

from interpreter.native.apart import apart, names_in

SCALARS = {"CUR", "EX", "STEPS", "W", "G_pot", "G_high"}
ARRAYS = {"Z", "ZN", "P_chips", "G_seen", "B3"}


def body(*lines):
    return ["    " + x for x in lines]


def test_an_augmented_assignment_both_reads_and_sets_its_name():
    read, written = names_in(body("STEPS += 2", "t1 = G_pot"))
    assert {"STEPS", "G_pot"} <= read and {"STEPS", "t1"} <= written


def test_the_scalars_a_procedure_touches_go_in_and_those_it_sets_come_back():
    called = apart("pf1", body("STEPS += 2", "t1 = P_chips[L2_who]", "if t1 == NULL:", "    return BAIL",
                               "G_pot = G_pot + t1"), ["L2_who"], SCALARS, ARRAYS, set())
    assert called.touched == ["G_pot", "STEPS"] and called.changed == ["G_pot", "STEPS"]
    assert called.arrays == ["P_chips"] and called.params == ["L2_who"]


def test_a_procedure_that_sets_a_list_variable_anew_is_written_in():
    assert apart("pf1", body("G_seen = B3[:2].copy()"), [], SCALARS, ARRAYS, set()) is None


def test_a_procedure_reading_a_callers_local_is_written_in():
    assert apart("pf1", body("t1 = L1_p"), [], SCALARS, ARRAYS, set()) is None
    assert apart("pf1", body("t1 = e12"), [], SCALARS, ARRAYS, set()) is None
    assert apart("pf1", body("t1 = own"), [], SCALARS, ARRAYS, {"own"}) is None


def test_the_modules_tables_and_functions_are_not_passed():
    called = apart("pf2", body("t1 = T3[G_high]", "r1, w1, st1 = uf2(t1, Z, ZN)", "W += w1"), [],
                   SCALARS, ARRAYS, set())
    assert called.arrays == ["Z", "ZN"] and called.touched == ["G_high", "W"] and called.changed == ["W"]


def test_a_function_that_makes_lists_is_apart_only_in_a_kernel_written_apart():
    """Written in, a function that makes lists keeps them in arrays made once a game, one per
    place; written apart, each call gives the function arrays of its own (so that two calls'
    lists never share one), and every other kernel is as it was."""
    import re

    from interpreter.native.program import kernel_source
    from interpreter.pipeline import _checked, load_rules_text
    from test_native import LISTS_APART
    ruleset = _checked(*load_rules_text(LISTS_APART, "lists_apart.yaml"), None, None)
    assert "def uf" not in kernel_source(ruleset)
    source = kernel_source(ruleset, apart=True)
    given = {name: len(re.findall(r"\bB\d+\b", params))
             for name, params in re.findall(r"def (uf\d+)\(([^)]*)\)", source)}
    assert sorted(given.values()) == [1, 2, 4]          # high, best (two calls of high), spread (four)
    for function in source.split("@njit"):
        passed = [b for name, args in re.findall(r"= (uf\d+)\(([^)]*)\)", function)
                  for b in re.findall(r"\bB\d+\b", args)]
        assert len(passed) == len(set(passed))


def test_a_procedure_whose_request_restarts_the_turns_is_written_in():
    """gnav's exchange asks for a piece, and a trigger of that request may say restart_turns
    (cat_undo: restart_round): the flag is the caller's turns', so the procedure is written
    in, never apart (where it would set a flag of its own and the turns would go on)."""
    import re

    from interpreter.native.program import kernel_source
    from interpreter.pipeline import _checked, load_rules
    path = pathlib.Path(__file__).resolve().parent.parent / "rulesets" / "gnav.yaml"
    ruleset = _checked(*load_rules(str(path)), {"cat_undo": "restart_round"}, None)
    source = kernel_source(ruleset, apart=True)
    apart_functions = [part for part in source.split("@njit") if re.search(r"def pf\d+\(", part)]
    assert apart_functions and not any("RESTART_" in part for part in apart_functions)
    assert "RESTART_" in source


def test_numbers_are_floats_only_in_a_kernel_that_meets_a_fraction():
    """A ruleset of whole numbers keeps every value an int64, its kernel as it was; one with a
    number that is not whole holds its number variables as float64 (and XS, which passes them
    to procedures apart, and IN, which passes a state to the resumable kernel), its indexes and
    counts whole again before use."""
    from interpreter.generated.program import build_generated
    from interpreter.native.program import kernel_source
    from interpreter.pipeline import _checked, load_rules, load_rules_text
    from test_native import FRACTIONS
    whole = _checked(*load_rules(str(pathlib.Path(__file__).resolve().parent.parent / "rulesets" / "hearts2.yaml")),
                     None, None)
    assert "float64" not in kernel_source(whole) and "int(" not in kernel_source(whole)
    ruleset = _checked(*load_rules_text(FRACTIONS, "fractions.yaml"), None, None)
    for source in (kernel_source(ruleset), kernel_source(ruleset, apart=True)):
        assert "P_chips = np.empty(n, np.float64)" in source and "P_kept = np.empty((n, PCAP), np.int64)" in source
        assert "= int(" in source and "INEXACT = -(1 << 61)" in source
    apart_ = kernel_source(ruleset, apart=True)       # the procedure `pay` apart: pot a float, STEPS whole
    assert "XS = np.empty(2, np.float64)" in apart_ and "G_pot = XS[0]" in apart_ and "STEPS = int(XS[1])" in apart_
    resumable, plan = kernel_source(ruleset, build_generated(ruleset).layout)     # (IN holds their bits)
    assert plan.fractions and "P_chips[:] = IN[" in resumable and "].view(np.float64)" in resumable
