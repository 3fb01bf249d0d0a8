"""The JSON Schema itself: valid 2020-12, with an $id, and help text on every property."""
from __future__ import annotations

import json
import pathlib

import jsonschema

SCHEMA_FILE = pathlib.Path(__file__).parent.parent / "schema" / "ruleset.schema.json"


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


def test_the_schemas_bounds_are_the_documented_limits():
    from interpreter import limits
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    players = schema["properties"]["players"]["anyOf"]
    assert players[0]["maximum"] == limits.MAX_RULESET_PLAYERS
    assert all(p["maximum"] == limits.MAX_RULESET_PLAYERS for p in players[1]["properties"].values())
    assert schema["properties"]["flow"]["properties"]["max_steps"]["maximum"] == limits.MAX_STEPS
    docs = (SCHEMA_FILE.parent.parent / "docs" / "limits.md").read_text(encoding="utf-8")
    for name in dir(limits):
        if name.startswith("MAX_"):
            assert f"`{name}`" in docs, f"{name} is not in docs/limits.md"
