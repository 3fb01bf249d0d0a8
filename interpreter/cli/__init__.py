"""The `interpret` command: its command table (main) and what a person reads at a terminal."""
from .main import main, run

__all__ = ["main", "run"]
