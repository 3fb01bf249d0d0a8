"""`interpret validate`: every problem of a file, whichever kind of file it is of ours
(a ruleset, a scenario or a record of a game)."""
from __future__ import annotations

from ..errors import Problem, RulesetError
from ..pipeline import check_ruleset_data
from ..source.loader import load_file
from ..source.overlay import combine
from .records import load as load_record, program_of
from .scenario import check_file as check_scenario, is_scenario


def check_file(path: str) -> list[Problem]:
    """Every problem of a ruleset, scenario or record file (empty when it is valid)."""
    try:
        data, source = load_file(path)
    except RulesetError as e:
        return e.problems
    if is_scenario(data):
        return check_scenario(path)
    if isinstance(data, dict) and "format" in data and "decisions" in data:
        try:
            program_of(load_record(path))
        except RulesetError as e:
            return e.problems
        return []
    try:
        data, source = combine(data, source, load_file)     # an overlay: with its bases
    except RulesetError as e:
        return e.problems
    return check_ruleset_data(data, source)
