"""Stage 3, the generated back end (`--backend generated`, the default): the closure back
end's layout (closures/layout.py) written as Python functions and compiled once."""
