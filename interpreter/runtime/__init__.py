"""Stage 4: run a Program: state as plain data, the VM, effects, views per seat.\n\nNothing here imports the stages before it, lark or jsonschema."""
