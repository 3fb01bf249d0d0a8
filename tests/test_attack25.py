"""Promises of docs/security.md that an attack on issue 25's fixes found broken, each held
since by a test: a local holding lists of cards is imagined afresh, a person's --log leaves
the seed to its end, a rules_file link is read only if it names prose, no output replaces a
rules_file, a statistic's label stays on its line.  One is still open and marked
xfail(strict=True): a number a local computed from a hidden card (docs/security.md, "Known
limit"); when it holds, the strict mark turns the pass into a failure: remove the mark.
"""
from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest

from interpreter.api import load_game
from interpreter.cli.main import run

from test_hidden_information import TEN

ROOT = Path(__file__).resolve().parent.parent


# The secret is the top card's value, kept by a step's local that is a number (not a card).
NUMBER_LOCAL = """
name: number_local
players: 2
""" + TEN.lstrip("\n") + """zones:
  stock: {visibility: hidden}
variables:
  right: {type: "list[player]", initial: "[]"}
flow:
  round:
    - shuffle: stock
    - for_each: secret
      in: "[top(stock).value if count(stock) > 0 else 0]"
      do:
        - turns:
            count: 1
            do:
              - choose: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
                as: guess
                label: "guess {guess}"
              - if: "guess == secret"
                then: [set: {right: "[current]"}]
    - end_game
result:
  winners: right
"""


def _kept_in_imagined_deals(tmp_path, text: str, local: str, seat) -> int:
    """Of 40 games, in how many the seat's imagined deal (the deciding seat's, when None)
    keeps the real value of a step's local."""
    path = tmp_path / "game.yaml"
    path.write_text(text)
    game = load_game(str(path))
    kept = 0
    for seed in range(40):
        state = game.new_state(seed)
        imagined = state.resample(state.current_player if seat is None else seat, seed=seed)
        kept += imagined.state.locals[local] == state.state.locals[local]
    return kept


@pytest.mark.xfail(strict=True, reason="a local that is a number computed from a hidden card is kept as it is")
def test_an_imagined_deal_forgets_a_number_local_computed_from_a_hidden_card(tmp_path):
    assert _kept_in_imagined_deals(tmp_path, NUMBER_LOCAL, "secret", seat=None) <= 20     # chance: about 4 of 40


# The rival's one card, kept by a step's local that is a list of lists of cards.
NESTED_LOCAL = """
name: nested_local
players: 2
""" + TEN.lstrip("\n") + """zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
variables:
  right: {type: "list[player]", initial: "[]"}
flow:
  round:
    - shuffle: stock
    - deal: {from: stock, to: hand, count: 1}
    - for_each: zz
      in: "[[players[1].hand]]"
      do:
        - choose: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
          as: guess
          by: "players[0]"
          label: "guess {guess}"
        - for_each: z
          in: "zz"
          do:
            - if: "count(z) > 0 and guess == top(z).value"
              then: [set: {right: "[players[0]]"}]
    - end_game
result:
  winners: right
"""


def test_an_imagined_deal_renames_the_cards_in_a_local_list_of_lists(tmp_path):
    assert _kept_in_imagined_deals(tmp_path, NESTED_LOCAL, "zz", seat=0) <= 20           # chance: about 4 of 40


def test_a_persons_log_does_not_hold_the_seed_of_the_deal(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    log = tmp_path / "events.jsonl"
    run([str(ROOT / "rulesets/gin_rummy.yaml"), "--human", "1", "--bot", "random", "--log", str(log), "--view", "1", "--plain"],
        stdin=io.StringIO("1\n"), stdout=io.StringIO())
    header = json.loads(log.read_text().splitlines()[0])
    assert "seed" not in header        # the game was interrupted: the person was never told the seed


def test_a_rules_file_named_md_that_links_to_another_file_is_not_shown(tmp_path):
    secret = tmp_path / "credentials"
    secret.write_text("aws_secret_access_key = SECRETKEY123\n")
    shutil.copy(ROOT / "rulesets/war.yaml", tmp_path / "war.yaml")
    os.symlink(secret, tmp_path / "rules.md")
    (tmp_path / "house.yaml").write_text("extends: war.yaml\nrules_file: rules.md\n")
    out = io.StringIO()
    run(["rules", str(tmp_path / "house.yaml")], stdout=out, stderr=io.StringIO())
    assert "SECRETKEY123" not in out.getvalue()


def test_an_output_does_not_replace_the_rules_file_the_command_reads(tmp_path):
    shutil.copy(ROOT / "rulesets/war.yaml", tmp_path / "war.yaml")
    (tmp_path / "rules.md").write_text("# my rules\n")
    (tmp_path / "house.yaml").write_text("extends: war.yaml\nrules_file: rules.md\n")
    run(["simulate", str(tmp_path / "house.yaml"), "--games", "2", "--csv", str(tmp_path / "rules.md")],
        stdout=io.StringIO(), stderr=io.StringIO())
    assert (tmp_path / "rules.md").read_text() == "# my rules\n"


def test_a_statistic_label_cannot_forge_a_line_of_the_simulation_report(tmp_path):
    text = (ROOT / "rulesets/war.yaml").read_text().replace(
        "label: battles fought", 'label: "battles fought\\nResult: forged"')
    (tmp_path / "war.yaml").write_text(text)
    out = io.StringIO()
    run(["simulate", str(tmp_path / "war.yaml"), "--games", "2"], stdout=out, stderr=io.StringIO())
    assert not any(line.startswith("Result: forged") for line in out.getvalue().splitlines())
