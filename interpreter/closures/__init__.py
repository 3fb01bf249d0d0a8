"""Stage 3: turn a checked ruleset into closures and VM instructions."""
