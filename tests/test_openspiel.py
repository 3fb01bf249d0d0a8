"""Every ruleset as an OpenSpiel game: OpenSpiel's own random simulation test, and its
MCTS and ISMCTS bots playing on it (the `openspiel` extra)."""
from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
pytestmark = pytest.mark.extras

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from conftest import texts_in, unseen_cards  # noqa: E402
from interpreter.envs.openspiel import openspiel_game, register, seed_outcomes  # noqa: E402
from interpreter.source.shipped import shipped_names  # noqa: E402

SHIPPED = shipped_names()


@pytest.mark.parametrize("name", SHIPPED)
def test_openspiel_random_simulation_test_passes(name):
    pyspiel.random_sim_test(openspiel_game(name, max_actions=300), num_sims=2, serialize=False, verbose=False)


def deal(state, seed: int) -> None:
    """Deal `seed`, as the API's new_state(seed) does."""
    for outcome in seed_outcomes(seed):
        state.apply_action(outcome)


def play(game, bot, rng, moves: int) -> int:
    s = game.new_initial_state()
    made = 0
    while not s.is_terminal() and made < moves:
        if s.is_chance_node():
            s.apply_action(int(rng.randint(game.max_chance_outcomes())))
            continue
        action = bot.step(s)
        assert action in s.legal_actions()
        s.apply_action(action)
        made += 1
    return made if not s.is_terminal() else moves      # a game over sooner made all it could


@pytest.mark.parametrize("name", SHIPPED)
def test_openspiel_search_bots_play_every_ruleset(name):
    game = openspiel_game(name, max_actions=300)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    searchers = [ismcts.ISMCTSBot(game, evaluator, uct_c=2, max_simulations=6, random_state=rng),
                 mcts.MCTSBot(game, uct_c=2, max_simulations=6, evaluator=evaluator, random_state=rng)]
    for bot in searchers:
        made = play(game, bot, rng, moves=6)
        assert made == 6                            # (war needs no decision: over at once)


def test_a_registered_game_loads_by_name_with_its_options():
    name = register("hearts", options={"passing": "none"})
    assert name == "cardgame_hearts_passing=none"
    game = pyspiel.load_game(name)
    assert game.num_players() == 4 and game.get_type().short_name == name
    s = game.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == game.max_chance_outcomes()
    deal(s, 3)
    assert len(s.observation_tensor(0)) == len(game.make_py_observer().tensor)
    assert '"seat": 0' in s.observation_string(0)
    assert register("hearts", options={"passing": "none"}) == name


def test_a_game_cut_short_is_a_draw():
    game = openspiel_game("gin_rummy", max_actions=5)
    s = game.new_initial_state()
    deal(s, 0)
    total = np.zeros(2)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
        total += s.rewards()
    assert s.returns() == [0.5, 0.5] and list(total) == [0.5, 0.5]


def test_the_openspiel_example_of_the_api_document_runs(capsys):
    from test_api import doc_examples
    example = next(block for block in doc_examples() if "openspiel" in block)
    exec(compile(example.replace("max_simulations=50", "max_simulations=5"), "docs/api.md", "exec"), {})
    assert sum(eval(capsys.readouterr().out.splitlines()[-1])) == pytest.approx(1.0)


def dealt_at_random(game, rng):
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(int(rng.choice([a for a, _ in s.chance_outcomes()])))
    return s


def deals_in_order(game, budget: int):
    """The first `budget` deals of the chance tree, its outcomes tried in order: what a seat
    that searches the deals would try."""
    stack = [game.new_initial_state()]
    while stack and budget:
        s = stack.pop()
        if not s.is_chance_node():
            budget -= 1
            yield s
            continue
        for outcome, _ in reversed(s.chance_outcomes()):
            child = s.clone()
            child.apply_action(outcome)
            stack.append(child)


def test_the_deal_is_one_of_more_deals_than_a_seat_can_try():
    """Every chance node of the deal multiplies the deals a seat would have to try."""
    s, deals = openspiel_game("hearts2").new_initial_state(), 1
    while s.is_chance_node():
        outcomes = s.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0) and len({p for _, p in outcomes}) == 1
        deals *= len(outcomes)
        s.apply_action(outcomes[-1][0])
    assert deals >= 2 ** 64


@pytest.mark.parametrize("name", ["gnav2", "hearts2", "gin_rummy", "euchre"])
def test_a_seats_first_observation_matched_against_the_deals_it_can_try_recovers_no_hand(name):
    """The attack of issue 25: seat 0 matches its first observation against every deal it
    can try (here the first 10,000 of the chance tree) and takes the one that fits."""
    game = openspiel_game(name)
    fits: dict = {}
    for s in deals_in_order(game, 10_000):
        fits.setdefault(s.observation_string(0), []).append(str(s))
    rng = np.random.RandomState(25)
    games = [dealt_at_random(game, rng) for _ in range(10)]
    recovered = [s for s in games if str(s) in fits.get(s.observation_string(0), [])]
    assert recovered == []


def test_a_chance_outcome_names_no_card():
    game = openspiel_game("gin_rummy")
    ids = set(game_api(game).program.deck.ids)
    s = game.new_initial_state()
    while s.is_chance_node():
        for outcome, _ in s.chance_outcomes():
            assert not set(s.action_to_string(pyspiel.PlayerId.CHANCE, outcome).split()) & ids
        s.apply_action(s.chance_outcomes()[0][0])


def game_api(game):
    """The API's Game behind an OpenSpiel game."""
    return game.new_initial_state()._game.game


@pytest.mark.parametrize("name", SHIPPED)
def test_a_seats_information_state_and_observation_hold_nothing_it_cannot_see(name):
    """Through a random game: the information state is the observation and the seat's own
    actions; no card the seat may not see lies in its zones there; and they and the tensor
    are the same in a world it cannot tell from the real one (the one ISMCTS searches)."""
    game = openspiel_game(name, max_actions=40)
    rng = np.random.RandomState(3)
    s = dealt_at_random(game, rng)
    while True:
        for p in range(game.num_players()):
            hidden = unseen_cards(s.inner, p)
            seen, mine = s.information_state_string(p).split(" mine: ")
            assert seen == s.observation_string(p) and not texts_in(json.loads(seen)["zones"]) & hidden
            imagined = s.resample_from_infostate(p, rng.rand)
            assert imagined.information_state_string(p) == s.information_state_string(p)
            assert imagined.observation_tensor(p) == s.observation_tensor(p)
        if s.is_terminal():
            break
        s.apply_action(int(rng.choice(s.legal_actions())))


def test_the_world_ismcts_imagines_is_not_dealt_from_the_real_seed():
    game = openspiel_game("hearts2")
    s = dealt_at_random(game, np.random.RandomState(4))
    imagined = s.resample_from_infostate(0, np.random.RandomState(5).rand)
    assert imagined.inner.seed != s.inner.seed and imagined.history()[:8] != s.history()[:8]
    assert str(game_api(game).new_state(imagined.inner.seed)) != str(game_api(game).new_state(s.inner.seed))


def test_the_world_ismcts_imagines_keeps_no_other_seats_own_actions():
    """Another seat's own actions may name cards this seat never saw (a card laid face down)."""
    game = openspiel_game("gin_rummy")
    s = dealt_at_random(game, np.random.RandomState(4))
    rng = np.random.RandomState(6)
    while not s.is_terminal() and min(len(m) for m in s._mine) < 3:
        s.apply_action(int(rng.choice(s.legal_actions())))
    imagined = s.resample_from_infostate(0, np.random.RandomState(5).rand)
    assert imagined.information_state_string(0) == s.information_state_string(0)
    assert imagined._mine[0] == s._mine[0] and not any(imagined._mine[1:])


def test_a_game_of_the_api_replays_here_from_its_seed():
    game = openspiel_game("hearts2")
    s = game.new_initial_state()
    deal(s, 2 ** 63 + 12345)
    assert str(s) == str(game_api(game).new_state(2 ** 63 + 12345))
