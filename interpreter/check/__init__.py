"""Stage 2: check a loaded ruleset: the JSON Schema, the deck, names and types."""
