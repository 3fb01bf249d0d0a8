"""`interpret validate`: every problem of a file, whichever kind of file it is of ours
(a ruleset, a scenario or a record of a game)."""
from __future__ import annotations

from dataclasses import replace

from ..errors import Problem, RulesetError, errors_only
from ..pipeline import check_ruleset_data
from ..source.loader import load_file
from ..source.overlay import combine
from ..playing.records import load as load_record, program_of
from .scenario import check_file as check_scenario, is_scenario


def check_file(path: str, every_option: bool = False) -> list[Problem]:
    """Every problem of a ruleset, scenario or record file, its warnings included (empty
    when it is valid and nothing is warned of: `errors_only` tells whether it loads);
    `every_option`: a ruleset is checked again under each value of each option."""
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
        data, source = combine(data, source)     # an overlay: with its bases, each read by load_named
    except RulesetError as e:
        return e.problems
    problems = check_ruleset_data(data, source)
    if every_option and not errors_only(problems):
        problems = problems + _under_each_option(data, source, problems)
    return problems


def _under_each_option(data, source, shown=()) -> list[Problem]:
    """The problems a ruleset has under one option's other values (the rest at their
    defaults), each said once, with the option that shows it as a hint; not those already
    `shown` (the warnings at the defaults)."""
    seen, found = {(p.line, p.col, p.message) for p in shown}, []
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    for name, spec in options.items():
        if not isinstance(spec, dict):
            continue
        for value in spec.get("choices") or ():
            if value == spec.get("default"):
                continue
            for p in check_ruleset_data(data, source, {name: str(value)}):
                key = (p.line, p.col, p.message)
                if key not in seen:
                    seen.add(key)
                    found.append(replace(p, hint=f"only with --option {name}={value}" + (f"; {p.hint}" if p.hint else "")))
    return found
