"""The JSON Schema itself: valid 2020-12, with an $id, help text on every property, one
definition per step kind that agrees with the compiler, and one copy of each schema."""
from __future__ import annotations

import ast
import copy
import inspect
import json
import pathlib

import jsonschema
import pytest
import yaml

from conftest import QUICK_LOADER
from interpreter.check.steps import CONTROL, EFFECTS

ROOT = pathlib.Path(__file__).parent.parent
DATA = ROOT / "interpreter" / "data"
SCHEMA_FILE = DATA / "ruleset.schema.json"         # the one copy; schema/ points at it for editors
SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
DEFS = SCHEMA["$defs"]
KINDS = list(DEFS["step_kinds"]["properties"])


def _properties(node, path=()):
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            yield path + (name,), sub
        for key, sub in node.items():
            yield from _properties(sub, path + (key,))
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            yield from _properties(sub, path + (i,))


def test_schema_is_valid_json_schema_2020_12_with_an_id():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"].endswith("2020-12/schema") and schema["$id"]


def test_every_property_has_a_title_and_a_description():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    missing = [path for path, sub in _properties(schema)
               if not (isinstance(sub, dict) and sub.get("title") and sub.get("description"))]
    assert missing == []


def test_the_packaged_schema_is_the_one_in_schema_folder():
    from interpreter.check.schema import load_schema
    assert load_schema() == json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def test_the_schema_folder_holds_the_packaged_schemas_for_editors():
    """schema/ (what rulesets' `# yaml-language-server: $schema=` lines and the docs name)
    holds links to the packaged schemas, nothing else: one copy of each schema."""
    editors = sorted(p.name for p in (ROOT / "schema").iterdir())
    packaged = sorted(p.name for p in DATA.glob("*.schema.json"))
    assert editors == packaged
    for name in packaged:
        link = ROOT / "schema" / name
        assert link.is_symlink() and link.resolve() == (DATA / name).resolve(), f"schema/{name} must link to {DATA / name}"


# -- one definition per step kind ---------------------------------------------------------

def _steps_in(node, out, in_list=False):
    """Every step of a ruleset: a word in a list, or a mapping in a list with one step kind."""
    if isinstance(node, dict):
        if in_list and len([k for k in node if k in KINDS]) == 1:
            out.append(node)
        for value in node.values():
            _steps_in(value, out)
    elif isinstance(node, list):
        for item in node:
            if isinstance(item, str) and item in DEFS["word_step"]["enum"]:
                out.append(item)
            _steps_in(item, out, True)
    return out


RULESET_STEPS = [s for p in sorted((ROOT / "rulesets").glob("*.yaml"))
                 for s in _steps_in(yaml.load(p.read_text(encoding="utf-8"), Loader=QUICK_LOADER), [])]
# No ruleset in rulesets/ emits its own event (tests/test_language.py does).
NOT_IN_RULESETS = {"emit": {"emit": "played", "with": {"card": "card", "by": "current"}},
                   "new_pile": {"new_pile": {"zone": "melds", "owner": "current", "as": "meld"}}}


def _real_step(kind):
    for step in RULESET_STEPS:
        if isinstance(step, dict) and kind in step:
            return step
        if step == kind:                # refuse, clear_journal, undo_journal: the word is {kind: true}
            return {kind: True}
    return NOT_IN_RULESETS[kind]


def _validator(definition):
    return jsonschema.Draft202012Validator({"$defs": DEFS, "$ref": f"#/$defs/{definition}"})


def test_every_step_kind_has_its_definition_and_every_definition_is_a_kind():
    steps = {name[:-len("_step")] for name in DEFS if name.endswith("_step") and name != "word_step"}
    assert steps == set(KINDS)
    assert all(s["if"] == {"type": "object", "required": [s["then"]["$ref"].split("/")[-1][:-len("_step")]]}
               for s in DEFS["step_object"]["allOf"][:-1])
    assert [s["then"]["$ref"] for s in DEFS["step_object"]["allOf"][:-1]] == [f"#/$defs/{k}_step" for k in KINDS]


@pytest.mark.parametrize("kind", KINDS)
def test_a_step_kinds_definition_takes_a_real_step_and_no_unknown_key(kind):
    step = _real_step(kind)
    for definition in (f"{kind}_step", "step"):
        assert list(_validator(definition).iter_errors(step)) == [], (definition, step)
    wrong = {**step, "colour": "red"}
    assert not _validator(f"{kind}_step").is_valid(wrong)
    assert not _validator("step").is_valid(wrong)
    value = step[kind]
    if isinstance(value, dict) and DEFS[f"{kind}_step"]["properties"][kind].get("additionalProperties") is False:
        assert not _validator("step").is_valid({**step, kind: {**value, "colour": "red"}})


@pytest.mark.parametrize("kind", KINDS)
def test_the_checker_names_the_kind_and_its_keys_for_an_unknown_key(kind):
    from interpreter.check.schema import check
    from interpreter.source.loader import load_text
    data = yaml.safe_load((ROOT / "rulesets" / "ninety_nine.yaml").read_text(encoding="utf-8"))
    data["flow"]["round"].insert(0, {**copy.deepcopy(_real_step(kind)), "colour": "red"})
    data, source = load_text(yaml.safe_dump(data), "x.yaml")
    messages = [p.message for p in check(data, source)]
    keys = [f"'{k}'" for k in DEFS[f"{kind}_step"]["properties"]]
    takes = keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + " and " + keys[-1]
    article = "an" if kind[0] in "aeiou" else "a"
    assert messages == [f"'colour' does not belong in {article} '{kind}' step in 'flow.round[0]'; it takes {takes}"]


def test_the_words_and_the_kinds_are_the_compilers():
    from interpreter.check import steps
    assert set(KINDS) == set(EFFECTS) | {c[0] for c in CONTROL}
    assert set(DEFS["word_step"]["enum"]) == set(steps.EXITS) | set(steps.WORD_EFFECTS)


@pytest.mark.parametrize("kind, needed, allowed", CONTROL, ids=[c[0] for c in CONTROL])
def test_a_control_steps_keys_are_the_compilers(kind, needed, allowed):
    definition = DEFS[f"{kind}_step"]
    assert set(definition["properties"]) - {"id"} == set(allowed)   # an id is taken out before the checker
    assert set(definition["required"]) == set(needed)


def _keys_read(method) -> set[str]:
    """The keys an _check_effect_ method reads from its step's value `a`: a["k"], a.get("k"), "k" in a."""
    keys = set()
    for node in ast.walk(ast.parse(inspect.getsource(method).strip().replace("\n    ", "\n"))):
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", None) == "a":
            if isinstance(node.slice, ast.Constant):
                keys.add(node.slice.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and getattr(node.func.value, "id", None) == "a" and isinstance(node.args[0], ast.Constant):
            keys.add(node.args[0].value)
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) \
                and any(getattr(c, "id", None) == "a" for c in node.comparators):
            keys.add(node.left.value)
    return keys


def _object_keys(schema) -> set[str]:
    """The keys of every mapping form a value's schema allows (through anyOf)."""
    keys = set(schema.get("properties", {}))
    for sub in schema.get("anyOf", []):
        keys |= _object_keys(sub)
    return keys


@pytest.mark.parametrize("kind", EFFECTS)
def test_an_effects_keys_are_the_ones_the_compiler_reads(kind):
    from interpreter.check.steps import StepChecker
    definition = DEFS[f"{kind}_step"]
    assert [k for k in definition["properties"] if k != "id"] == [kind] and definition["required"] == [kind]
    value = definition["properties"][kind]
    read = _keys_read(getattr(StepChecker, f"_check_effect_{kind}"))
    if value.get("additionalProperties") not in (None, False):      # set, add: any variable name
        assert read == set()
    else:
        assert read == _object_keys(value), kind


def test_the_schemas_bounds_are_the_documented_limits():
    from interpreter import limits
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    players = schema["properties"]["players"]["anyOf"]
    assert players[0]["maximum"] == limits.MAX_RULESET_PLAYERS
    assert all(p["maximum"] == limits.MAX_RULESET_PLAYERS for p in players[1]["properties"].values())
    assert schema["properties"]["flow"]["properties"]["max_steps"]["maximum"] == limits.MAX_STEPS
    docs = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    for name in dir(limits):
        if name.startswith("MAX_"):
            assert f"`{name}`" in docs, f"{name} is not in docs/limits.md"
