"""Every ruleset as an OpenSpiel game: OpenSpiel's own random simulation test, and its
MCTS and ISMCTS bots playing on it (the `openspiel` extra)."""
from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from interpreter.envs.openspiel import openspiel_game, register  # noqa: E402
from interpreter.source.shipped import shipped_names  # noqa: E402

SHIPPED = shipped_names()


@pytest.mark.parametrize("name", SHIPPED)
def test_openspiel_random_simulation_test_passes(name):
    pyspiel.random_sim_test(openspiel_game(name, max_actions=300), num_sims=2, serialize=False, verbose=False)


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
    return made


@pytest.mark.parametrize("name", SHIPPED)
def test_openspiel_search_bots_play_every_ruleset(name):
    game = openspiel_game(name, max_actions=300)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    searchers = [ismcts.ISMCTSBot(game, evaluator, uct_c=2, max_simulations=6, random_state=rng),
                 mcts.MCTSBot(game, uct_c=2, max_simulations=6, evaluator=evaluator, random_state=rng)]
    for bot in searchers:
        made = play(game, bot, rng, moves=6)
        assert made == 6 or name == "war"           # war needs no decision


def test_a_registered_game_loads_by_name_with_its_options():
    name = register("hearts", options={"passing": "none"})
    assert name == "cardgame_hearts_passing=none"
    game = pyspiel.load_game(name)
    assert game.num_players() == 4 and game.get_type().short_name == name
    s = game.new_initial_state()
    assert s.is_chance_node() and len(s.chance_outcomes()) == game.max_chance_outcomes()
    s.apply_action(3)
    assert len(s.observation_tensor(0)) == len(game.make_py_observer().tensor)
    assert '"seat": 0' in s.observation_string(0)
    assert register("hearts", options={"passing": "none"}) == name


def test_a_game_cut_short_is_a_draw():
    game = openspiel_game("gin_rummy", max_actions=5)
    s = game.new_initial_state()
    s.apply_action(0)
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
