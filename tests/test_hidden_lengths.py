"""A list of cards that a seat may not see hides how many cards it holds (issue 25, item 3):
gin_rummy's knock_cards and gin_cards told the opponent that a player was one discard from
gin, in the view, the observation vector and OpenSpiel's observation."""
from __future__ import annotations

from interpreter import load_program_text, new_game, view
from interpreter.api.game import Game

SECRET = """name: secret_list
players: 2
deck: {cards: [a, b, c, d], zone: stock}
zones: {stock: {visibility: hidden}, hand: {per_player: true, visibility: owner}, shown: {visibility: public}}
variables:
  mine: {type: "list[card]", initial: "[]"}
  told: {type: "list[card]", initial: "[]", visibility: public}
flow:
  round:
    - deal: {from: stock, to: hand, count: 2}
    - move: {from: "player(0).hand", to: shown, count: 1}
    - set: {mine: "player(0).hand + shown", told: "shown + shown"}
    - choose: [1, 2]
      by: player(1)
    - end_game
result: {winners: "[]"}
"""


def _game():
    program = load_program_text(SECRET)
    return program, new_game(program, seed=3)


def test_a_hidden_card_list_shows_only_the_cards_the_seat_can_see():
    program, s = _game()
    shown = s.zones["shown"]
    assert len(s.vars["mine"]) == 2
    rival = view(program, s, 1)["vars"]["mine"]
    assert rival == [program.deck.ids[c] for c in shown]           # not [None, 'x']: one card, not two
    assert view(program, s, 0)["vars"]["mine"] == [program.deck.ids[c] for c in s.vars["mine"]]
    assert view(program, s, None)["vars"]["mine"] == [program.deck.ids[c] for c in s.vars["mine"]]


def test_a_card_list_the_rules_declare_public_shows_every_card():
    program, s = _game()
    assert view(program, s, 1)["vars"]["told"] == [program.deck.ids[c] for c in s.vars["told"]]


def test_the_observation_vector_does_not_count_hidden_cards_of_a_list():
    game = Game(load_program_text(SECRET))
    state = game.new_state(3)
    layout = game.layout
    start = 0
    for name, size in layout.parts:
        if name == "var/mine":
            break
        start += size
    vector = state.observation_vector(1)
    part = vector[start:start + layout.cards + 1]
    assert part[-1] == 1.0 and sum(part[:-1]) == 1.0


def test_gin_rummy_never_tells_a_seat_how_many_of_the_rivals_discards_would_knock():
    import random
    from interpreter import apply, load_program
    from interpreter.runtime.engine import known_cards
    from conftest import ruleset
    program = load_program(ruleset("gin_rummy"))
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        s = new_game(program, seed=seed)
        while not s.over and s.decisions < 150:
            rival = 1 - s.pending[0]
            seen = view(program, s, rival)["vars"]
            known = {program.deck.ids[c] for c in known_cards(program, s, rival)}
            for name in ("knock_cards", "gin_cards"):
                assert set(seen[name]) <= known
                checked += len(s.vars[name]) > len(seen[name])
            apply(program, s, rng.randrange(len(s.pending[1])))
    assert checked        # the rival's lists did hold cards it could not see


def test_an_imagined_deal_holds_a_hidden_card_list_as_the_view_shows_it():
    from interpreter.runtime.engine import determinize
    from interpreter.runtime.state import Rng
    program, s = _game()
    shown = list(s.zones["shown"])
    for k in range(20):
        imagined = determinize(program, s, 1, Rng(k))
        assert imagined.vars["mine"] == shown           # the rival's two cards: only the one it sees


UNDONE = """name: undone
players: 3
deck: {cards: [a, b, c, d, e, f, g, h, i], zone: stock}
zones: {stock: {visibility: hidden}, hand: {per_player: true, visibility: owner}}
flow:
  round:
    - deal: {from: stock, to: hand, count: 3}
    - move: {card: "top(player(0).hand)", from: "player(0).hand", to: "player(1).hand", journal: true}
    - choose: [1, 2]
      by: player(2)
    - undo_journal
    - choose: [1, 2]
      by: player(2)
    - end_game
result: {winners: "[]"}
"""


def test_an_imagined_deal_undoes_a_noted_move_as_the_real_game_does():
    """A move noted to undo names, in the imagined deal, a card that lies where the move left
    it: undoing it gives the zones the sizes they have in the real game (sizes are public)."""
    from interpreter import apply
    from interpreter.runtime.engine import determinize
    from interpreter.runtime.state import Rng
    program = load_program_text(UNDONE)
    s = new_game(program, seed=1)
    real = new_game(program, seed=1)
    apply(program, real, 0)
    sizes = [len(h) for h in real.zones["hand"]]
    assert sizes == [3, 3, 3]
    for k in range(100):
        imagined = determinize(program, s, 2, Rng(k))
        apply(program, imagined, 0)
        assert [len(h) for h in imagined.zones["hand"]] == sizes
