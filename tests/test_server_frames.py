"""A state frame's view is the seat's layout as plain data (docs/server.md, "The state frame"):
the same data dataclasses.asdict gives, built without its deep copies (bench/server_load.py
found asdict a third of the server's time)."""
from __future__ import annotations

import dataclasses
import random

import pytest

from interpreter import apply, load_program, new_game
from interpreter.playing.table_view import layout
from interpreter.runtime.engine import view
from interpreter.server.frames import PUBLIC, Account, plain
from interpreter.source.shipped import resolve


@pytest.mark.parametrize("game", ["hearts2", "gnav2", "go_fish", "ninety_nine"])
def test_a_frames_view_is_the_layout_as_asdict_gives_it_for_every_seat_at_every_decision(game):
    program = load_program(resolve(game))
    s = new_game(program, seed=7, names=[f"P{i}" for i in range(program.players[2])])
    seats = list(range(len(s.names))) + [PUBLIC]
    accounts = {seat: Account(program, seat) for seat in seats}
    rng = random.Random(7)
    for _ in range(60):
        for seat in seats:
            accounts[seat].catch_up(s.log)
            lay = layout(program, view(program, s, seat), seat, s.names, accounts[seat].groups,
                         accounts[seat].round_no)
            assert plain(lay) == dataclasses.asdict(lay)
        if s.over:
            break
        apply(program, s, rng.randrange(len(s.pending[1])))
