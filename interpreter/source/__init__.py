"""Stage 1: read a ruleset file into plain data, keeping each value's position."""
