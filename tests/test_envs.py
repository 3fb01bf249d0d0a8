"""Every ruleset as a PettingZoo environment (PettingZoo's own api_test) and one seat of it
as a Gymnasium environment (the `envs` extra)."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
pytestmark = pytest.mark.extras

from pettingzoo.test import api_test, seed_test  # noqa: E402

from conftest import quoted, unseen_cards  # noqa: E402
from interpreter.envs.gymnasium import SeatEnv  # noqa: E402
from interpreter.envs.pettingzoo import env  # noqa: E402
from interpreter.source.shipped import shipped_names  # noqa: E402

SHIPPED = shipped_names()


@pytest.mark.parametrize("name", SHIPPED)
def test_pettingzoo_api_test_passes(name, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # a dict observation with an action mask, as PettingZoo's own card games
        api_test(env(name, max_actions=2000), num_cycles=200)
    assert "Passed API test" in capsys.readouterr().out


def test_pettingzoo_seeds_replay_a_game():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env("ninety_nine"), num_cycles=100)


def test_pettingzoo_game_ends_with_rewards_that_share_the_win():
    e = env("hearts2")
    e.reset(seed=7)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["action_mask"].sum() >= 1
        e.step(int(e.action_space(agent).sample(obs["action_mask"])))
    assert sorted(total.values())[-1] > 0 and sum(total.values()) == pytest.approx(1.0)


def test_a_game_that_plays_itself_still_takes_one_step():
    e = env("war")
    e.reset(seed=1)
    obs, *_ = e.last()
    assert [e.game.action_names[i] for i in np.flatnonzero(obs["action_mask"])] == ["end"]


@pytest.mark.parametrize("name", ["ninety_nine", "scopa", "war"])
def test_one_seat_plays_against_bots_through_gymnasium(name):
    e = SeatEnv(name, seat=1, opponents="random")
    obs, info = e.reset(seed=2)
    total, steps = 0.0, 0
    while True:
        assert e.observation_space.contains(obs)
        assert obs["action_mask"].sum() >= 1
        obs, reward, terminated, truncated, info = e.step(int(e.action_space.sample(obs["action_mask"])))
        total += reward
        steps += 1
        if terminated or truncated:
            break
    assert total == pytest.approx(info["returns"][1])
    again = SeatEnv(name, seat=1, opponents="random")
    first, _ = again.reset(seed=2)
    assert (first["observation"] == SeatEnv(name, seat=1).reset(seed=2)[0]["observation"]).all()


def test_the_pettingzoo_example_of_the_api_document_runs():
    from test_api import doc_examples
    example = next(block for block in doc_examples() if "pettingzoo" in block)
    exec(compile(example, "docs/api.md", "exec"), {})


def test_the_training_example_learns_gnav2_in_short():
    """examples/learning/train_reinforce.py, shortened: a linear policy trained by REINFORCE
    through the PettingZoo environment wins more often than it did untrained (same deals)."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).parent.parent / "examples" / "learning" / "train_reinforce.py"
    spec = importlib.util.spec_from_file_location("train_reinforce", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    curve = example.train("gnav2", episodes=1500, every=1500, evaluation=150, say=lambda line: None)
    assert [k for k, _ in curve] == [0, 1500]
    assert curve[-1][1] > curve[0][1]


@pytest.mark.parametrize("name", ["gin_rummy", "hearts2", "gnav2"])
def test_a_seat_env_renders_the_table_as_the_seat_sees_it(name):
    e = SeatEnv(name, seat=0, opponents="random")
    obs, info = e.reset(seed=5)
    for _ in range(8):
        drawn, hidden = quoted(e.render()), unseen_cards(e.state, 0)
        assert hidden and not drawn & hidden
        assert set(e.state.view(0)["zones"]["hand"][0]) <= drawn      # its own hand is drawn
        obs, reward, terminated, truncated, info = e.step(int(e.action_space.sample(obs["action_mask"])))
        if terminated or truncated:
            break


def test_environments_deal_from_more_seeds_than_a_seat_can_try():
    """A seat that tried every 32-bit seed against what it sees would not find the deal."""
    for e in (SeatEnv("hearts2"), env("hearts2")):
        seeds = []
        for i in range(20):
            e.reset(seed=i)
            seeds.append(e.state.seed)
        assert min(seeds) >= 0 and max(seeds) >= 2 ** 32 and len(set(seeds)) == len(seeds)
