"""The game API for researchers' tools (docs/api.md): a ruleset as a game with a fixed
action space, masks, observations per seat, rewards and copies."""
from .game import Game, GameState, load_game

__all__ = ["Game", "GameState", "load_game"]
