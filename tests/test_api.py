"""The game API for researchers (docs/api.md): a fixed action space, masks, observations
that hold only what a seat may see, rewards, copies."""
from __future__ import annotations

import random

import pytest

from interpreter.api import Game, load_game
from interpreter.errors import UsageError
from interpreter.pipeline import load_program_text
from interpreter.source.shipped import shipped_names

SHIPPED = shipped_names()
DECISIONS = 400          # enough of each game to meet its kinds of decision


def played(game: Game, seed: int, decisions: int = DECISIONS):
    """States of one game played by random actions, one after each action."""
    rng = random.Random(seed)
    s = game.new_state(seed)
    yield s
    while not s.is_terminal() and s.state.decisions < decisions:
        s.apply(rng.choice(s.legal_actions()))
        yield s


@pytest.mark.parametrize("name", SHIPPED)
def test_every_ruleset_plays_through_action_ids_and_its_returns_share_the_win(name):
    game = load_game(name)
    for seed in range(2):
        for s in played(game, seed, decisions=10_000 if name != "gin_rummy" else 300):
            if s.is_terminal():
                assert s.legal_actions() == [] and s.current_player is None
                assert sum(s.returns()) == pytest.approx(1.0)
            else:
                legal = s.legal_actions()
                assert legal and all(0 <= a < game.num_actions for a in legal)
                assert s.legal_action_mask() == [1 if a in legal else 0 for a in range(game.num_actions)]


@pytest.mark.parametrize("name", SHIPPED)
def test_no_observation_holds_a_card_or_value_its_seat_may_not_see(name):
    """What a seat observes is the same in every world it cannot tell from the real one:
    the cards it cannot see dealt otherwise, the values hidden from it forgotten."""
    game = load_game(name)
    for i, s in enumerate(played(game, seed=3)):
        if i % 7:
            continue
        for seat in range(game.num_players):
            other = s.resample(seat, seed=i * 10 + seat)
            assert other.observation(seat) == s.observation(seat)
            assert other.observation_vector(seat) == s.observation_vector(seat)
            if s.current_player == seat:
                assert other.legal_actions() == s.legal_actions()


def test_an_action_id_is_the_same_move_in_every_turn():
    """Cards by id: the queen of spades is one action whoever holds it, led or followed."""
    game = load_game("hearts2")
    queen = game.action_id("card:QS")
    seen = 0
    for seed in range(20):
        for s in played(game, seed):
            if not s.is_terminal() and queen in s.legal_actions():
                assert any("Q♠" in label for label in s.options())
                seen += 1
    assert seen > 0
    assert game.action_names[queen] == "card:QS"
    with pytest.raises(UsageError, match="no action 'card:Z'"):
        game.action_id("card:Z")


CAPTURE = """
name: capture
players: {min: 2, max: 2}
deck:
  product:
    suit: [{id: S}, {id: H}]
    rank: [{id: A}, {id: "2"}, {id: "3"}]
  id: "{rank}{suit}"
  zone: stock
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
  table: {visibility: public}
  won: {per_player: true, visibility: public}
flow:
  setup:
    - shuffle: stock
    - deal: {from: stock, to: hand, count: 3}
  round:
    - turns:
        order: players
        do:
          - choose:
              - from: current.hand
                as: card
                label: "lay {card}"
                do: [move: {card: card, from: current.hand, to: table}]
              - from: {card: current.hand, take: "subsets(table, 1, 2)"}
                label: "play {card} taking {take}"
                do:
                  - move: {card: card, from: current.hand, to: current.won}
                  - for_each: t
                    in: take
                    do: [move: {card: t, from: table, to: current.won}]
              - option: pass
            prompt: Play
  until: "count(players[0].hand) + count(players[1].hand) == 0"
result:
  score: count(p.won)
  winners: "filter(players, p => count(p.won) == max(map(players, q => count(q.won))))"
"""


def capture_game() -> Game:
    return Game(load_program_text(CAPTURE, "capture.yaml"))


def test_options_sharing_a_beginning_are_picked_a_token_at_a_time():
    """'lay A♠' and 'play A♠ taking ...' begin with the same card: the player picks the
    card, then what it takes, or `end` to lay it alone; the same player acts until one
    option is left."""
    game = capture_game()
    s = game.new_state(1)
    s.apply(game.action_id("kind:pass"))          # the first player passes; the table is empty
    player = s.current_player
    card = next(a for a in s.legal_actions() if game.action_names[a].startswith("card:"))
    s.apply(card)                                  # lay it: nothing to take yet, one option
    assert s.current_player != player
    s.apply(game.action_id("kind:pass"))
    assert s.current_player == player
    mine = [a for a in s.legal_actions() if game.action_names[a].startswith("card:")]
    s.apply(mine[0])
    assert s.current_player == player              # alone, or taking the card on the table
    names = [game.action_names[a] for a in s.legal_actions()]
    assert "end" in names and any(n.startswith("card:") for n in names)
    table = s.observation(player)["zones"]["table"]
    s.apply(game.action_id(f"card:{table[0]}"))
    assert s.observation(player)["zones"]["table"] == []
    assert len(s.observation(player)["zones"]["won"][player]) == 2


def test_rewards_add_up_to_the_returns():
    game = load_game("hearts2", reward="score")
    s = game.new_state(4)
    total = [0.0] * game.num_players
    rng = random.Random(4)
    start = s.returns()
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
        total = [t + r for t, r in zip(total, s.rewards())]
    assert [a + b for a, b in zip(start, total)] == pytest.approx(s.returns())
    assert s.returns() == [float(x) for x in s.state.result["scores"]] or s.returns()


def test_a_clone_goes_its_own_way():
    game = load_game("ninety_nine")
    s = game.new_state(2)
    c = s.clone()
    c.apply(c.legal_actions()[0])
    assert s.state.decisions == 0 and c.state.decisions == 1
    d = s.clone()
    d.apply(s.legal_actions()[0])
    assert d.observation(0) == c.observation(0)


def test_a_seed_and_the_actions_replay_a_game():
    game = load_game("spades")
    rng = random.Random(8)
    s, actions = game.new_state(8), []
    while not s.is_terminal() and len(actions) < 300:
        actions.append(rng.choice(s.legal_actions()))
        s.apply(actions[-1])
    again = game.new_state(8)
    for a in actions:
        again.apply(a)
    assert again.observation(0) == s.observation(0) and again.returns() == s.returns()


def test_an_illegal_action_is_refused_with_the_legal_ones():
    game = load_game("ninety_nine")
    s = game.new_state(0)
    illegal = next(a for a in range(game.num_actions) if a not in s.legal_actions())
    with pytest.raises(UsageError, match="is not legal now; legal: card:"):
        s.apply(illegal)


def test_the_observation_vector_has_the_size_of_its_layout():
    game = load_game("gnav", players=5)
    s = game.new_state(1)
    assert len(s.observation_vector(3)) == game.observation_size == sum(n for _, n in game.layout.parts)
    assert game.layout.parts[0] == ("seat", 5)


BIG_NUMBERS = """
name: big
players: {min: 2, max: 2}
deck: {cards: [a], zone: stock}
zones: {stock: {visibility: hidden}}
flow:
  round:
    - turns:
        order: players
        do:
          - choose: "[5000 + count(stock), 6000]"
            as: n
            prompt: Pick
          - end_game
result:
  winners: players
"""


def test_a_value_outside_the_action_space_is_a_clear_error():
    game = Game(load_program_text(BIG_NUMBERS, "big.yaml"))
    s = game.new_state(0)
    with pytest.raises(UsageError, match=r"big.yaml:\d+:\d+: an option of this choice \(number:5001\) is outside"):
        s.legal_actions()


def test_unknown_rewards_and_missing_scores_are_refused():
    program = load_program_text(BIG_NUMBERS, "big.yaml")
    with pytest.raises(UsageError, match="no reward 'money'"):
        Game(program, reward="money")
    with pytest.raises(UsageError, match="gives no score"):
        Game(program, reward="score")


def doc_examples() -> list[str]:
    import pathlib
    text = (pathlib.Path(__file__).parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]


def test_the_first_example_of_the_api_document_runs(capsys):
    exec(compile(doc_examples()[0], "docs/api.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["4", str(load_game("hearts").num_actions), str(load_game("hearts").observation_size)]
    assert sum(eval(out[-1])) == pytest.approx(1.0)


def test_resample_is_the_bots_imagined_deal_and_carries_no_seed():
    """What a researcher's search resamples is what the bots imagine (engine.determinize):
    the real seed would replay every shuffle, so it is not carried."""
    from test_hidden_information import NAME_CARD
    from interpreter.runtime.engine import determinize
    from interpreter.runtime.state import Rng
    game = Game(load_program_text(NAME_CARD), face_down=True)
    s = game.new_state(seed=4)
    for k in range(5):
        other = s.resample(0, seed=k)
        assert other.seed is None
        assert other.state.to_dict() == determinize(game.program, s.state, 0, Rng(k)).to_dict()
        assert other.legal_actions() == s.legal_actions()       # ten face-down cards, by place


def test_resample_keeps_an_action_begun_only_for_the_seat_that_began_it():
    game = load_game("go_fish")
    s = game.new_state(seed=1)
    asker, whom = s.current_player, s.legal_actions()
    s.apply(whom[0])                                # 'player:0': whom to ask; the rank comes next
    begun = s.legal_actions()
    assert s.resample(asker, seed=2).legal_actions() == begun
    other = next(p for p in range(game.num_players) if p != asker)
    assert s.resample(other, seed=2).legal_actions() == whom       # the asker's choice is its own
