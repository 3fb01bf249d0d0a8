"""Teams (docs/language.md, "Teams"): each seat's team worked out before the game begins, from
its seat and the number of players; a result whose winners are whole teams says the team; the
table shows each seat's team; --json results list the teams."""
from __future__ import annotations

import pytest

from interpreter.cli.terminal import result_line
from interpreter.errors import RulesetError
from interpreter.pipeline import load_program_text
from interpreter.playing.table import result_data
from interpreter.playing.table_view import Groups, layout
from interpreter.runtime.engine import new_game, view

TEAMS = """teams:
  of: "(seat - 1) % 2 + 1 if seats == 4 else (seat - 1) % 3 + 1"
  name: {en: "{['North–South', 'East–West', 'Centre'][team - 1]}", fr: "{['Nord–Sud', 'Est–Ouest', 'Centre'][team - 1]}"}
"""
PARTNERS = """
name: partners
players: {min: 4, max: 6, default: 4}
TEAMS
languages: [en, fr]
deck: {cards: [a, b, c, d], zone: stock}
zones: {stock: {visibility: hidden}}
player_variables: {score: 0}
flow:
  setup:
    - set: {"player(0).score": 5}
    - set: {"player(2).score": 5}
  round: []
  until: "true"
result:
  winners: "filter(players, p => p.score == 5)"
  score: p.score
"""


def finished(teams=TEAMS, players=None, lang=None):
    program = load_program_text(PARTNERS.replace("TEAMS\n", teams), "partners.yaml", lang=lang)
    return program, new_game(program, seed=1, players=players)


def test_each_seat_has_the_team_its_seat_and_the_number_of_players_give():
    program, _ = finished()
    assert program.sides(4) == [("North–South", [0, 2]), ("East–West", [1, 3])]
    assert program.sides(6) == [("North–South", [0, 3]), ("East–West", [1, 4]), ("Centre", [2, 5])]
    assert program.sides(5) == [("North–South", [0, 3]), ("East–West", [1, 4]), ("Centre", [2])]


def test_a_result_whose_winners_are_a_whole_team_says_the_team():
    program, s = finished()
    assert s.over
    assert result_line(program, s).startswith("Result: North–South win. Scores: North–South 5, East–West 0")


def test_a_result_in_another_language_names_the_team_in_it():
    program, s = finished(lang="fr")
    assert result_line(program, s).startswith("Résultat : Nord–Sud gagnent.")


def test_winners_that_are_not_a_whole_team_are_named_one_by_one():
    program, s = finished(players=6)      # seats 1 and 3: North–South is seats 1 and 4
    assert result_line(program, s).startswith("Result: Player 1, Player 3 share the win. Scores: Player 1 5")


def test_a_team_without_a_name_is_named_by_its_players():
    program, s = finished(TEAMS.split("  name:")[0])
    assert program.sides(4) == [("Player 1 & Player 3", [0, 2]), ("Player 2 & Player 4", [1, 3])]
    assert result_line(program, s).startswith("Result: Player 1 & Player 3 win.")


def test_the_json_result_lists_the_teams_with_who_won_and_their_score():
    program, s = finished()
    teams = result_data(program, s)["teams"]
    assert teams == [{"team": 1, "name": "North–South", "seats": [1, 3], "won": True, "score": 5},
                     {"team": 2, "name": "East–West", "seats": [2, 4], "won": False, "score": 0}]


def test_the_table_shows_each_seats_team():
    program, s = finished()
    lay = layout(program, view(program, s, 0), 0, s.names, Groups(program.deck.ids), 0)
    assert [(r.name, r.team) for r in lay.rows] == [("Player 1", "North–South"), ("Player 2", "East–West"),
                                                    ("Player 3", "North–South"), ("Player 4", "East–West")]


def test_a_team_of_one_is_its_player_in_the_result_and_at_the_table():
    solo = 'teams:\n  of: "seat"\n'
    program = load_program_text(PARTNERS.replace("TEAMS\n", solo).replace(
        'winners: "filter(players, p => p.score == 5)"', 'winners: "[player(0)]"'), "partners.yaml")
    s = new_game(program, seed=1)
    assert result_line(program, s).startswith("Result: Player 1 wins.")
    lay = layout(program, view(program, s, 0), 0, s.names, Groups(program.deck.ids), 0)
    assert [r.team for r in lay.rows] == ["", "", "", ""]


def test_the_drawn_table_shows_a_seats_team_on_a_line_of_its_own():
    pytest.importorskip("rich")
    from rich.console import Console

    from interpreter.cli.drawing import table_panel
    program, s = finished()
    lay = layout(program, view(program, s, 0), 0, s.names, Groups(program.deck.ids), 0)
    console = Console(width=80, record=True, force_terminal=False)
    console.print(table_panel(lay, "en"))
    lines = console.export_text().splitlines()
    assert not any("\\n" in line for line in lines)
    at = next(i for i, line in enumerate(lines) if "Player 1 (you)" in line)
    assert "North–South" in lines[at + 1]


def test_a_ruleset_without_teams_has_none():
    program, s = finished("")
    assert program.sides(4) == [] and "teams" not in result_data(program, s)
    assert result_line(program, s).startswith("Result: Player 1, Player 3 share the win.")


@pytest.mark.parametrize("of,words", [
    ('"seat"', "for 4 players the teams are 1, 2, 3, 4"),        # fine: every seat its own team
    ('"current"', "expected a number here, but this is a player"),
    ('"p.score"', "unknown name 'p'; a seat's team is worked out before the game begins"),
    ('"seat / 2"', "the team is 0.5, not a team's number"),
])
def test_a_team_that_cannot_be_worked_out_before_the_game_is_refused_at_its_place(of, words):
    text = PARTNERS.replace("TEAMS\n", f"teams:\n  of: {of}\n")
    if of == '"seat"':
        assert load_program_text(text, "partners.yaml").sides(4)[3] == ("Player 4", [3])
        return
    with pytest.raises(RulesetError) as e:
        load_program_text(text, "partners.yaml")
    assert words in str(e.value) and "partners.yaml:5:" in str(e.value)


def test_a_simulation_reports_each_teams_share_of_the_wins():
    import io

    from interpreter.cli import run
    out = io.StringIO()
    assert run(["simulate", "spades", "--games", "20", "--json", "--jobs", "1"], stdout=out, stderr=io.StringIO()) == 0
    import json
    report = json.loads(out.getvalue())
    teams = report["teams"]
    assert [(t["name"], t["seats"]) for t in teams] == [("Player 1 & Player 3", [1, 3]), ("Player 2 & Player 4", [2, 4])]
    assert abs(sum(t["win_share"]["value"] for t in teams) + report["draws"]["value"] - 1) < 1e-9


TEAM_READER = PARTNERS.replace('''    - set: {"player(2).score": 5}''', '''    - set: {"player(2).score": 5}
    - log: "{player(1)} is of team {player(1).team}; partners of {player(0)}: {player(0).partners}"''')


@pytest.mark.parametrize("backend", ["closures", "generated"])
@pytest.mark.parametrize("players,said", [
    (4, "Player 2 is of team 2; partners of Player 1: Player 3"),
    (6, "Player 2 is of team 2; partners of Player 1: Player 4"),
])
def test_a_players_team_and_partners_are_read_in_expressions_alike_by_both_back_ends(backend, players, said):
    program = load_program_text(TEAM_READER.replace("TEAMS\n", TEAMS), "partners.yaml", backend=backend)
    s = new_game(program, seed=1, players=players)
    assert said in [e.get("text") for e in s.log]


def test_a_players_team_in_a_ruleset_without_teams_is_refused_where_it_is_read():
    with pytest.raises(RulesetError) as e:
        load_program_text(TEAM_READER.replace("TEAMS\n", ""), "partners.yaml")
    assert "'.team' is a player's team, and this ruleset has no teams (declare them: teams: {of: ...})" in str(e.value)


TEAM_VARIABLES = """
name: shared
players: 4
teams: {of: "(seat - 1) % 2 + 1"}
deck: {cards: [a, b, c, d, e, f, g, h], zone: stock}
zones:
  stock: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
team_variables:
  points: {initial: 0, show: true}
  mark: {type: number, initial: "p.index * 10"}
  kept: {type: "list[card]", initial: "[]"}
player_variables:
  own: 0
flow:
  setup:
    - deal: {from: stock, to: hand, count: 2}
  round:
    - turns:
        count: 4
        do:
          - choose: current.hand
            as: card
          - add: {current.points: 1, current.own: 1}
          - set: {current.left.mark: "current.left.mark + 1", current.kept: "current.kept + [card]"}
          - move: {card: card, from: current.hand, to: stock}
  until: "true"
result:
  winners: "filter(players, p => p.points == max(players, q => q.points))"
  score: p.points
"""


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_a_team_variable_set_for_one_player_is_set_for_its_partners(backend):
    program = load_program_text(TEAM_VARIABLES, "shared.yaml", backend=backend)
    s = new_game(program, seed=1)
    assert s.pvars["mark"] == [0, 10, 0, 10]        # computed for the team's first player
    while not s.over:
        from interpreter.runtime.engine import apply
        apply(program, s, 0)
    assert s.pvars["own"] == [1, 1, 1, 1] and s.pvars["points"] == [2, 2, 2, 2]
    assert s.pvars["mark"] == [2, 12, 2, 12]
    assert s.pvars["kept"][0] == s.pvars["kept"][2] and s.pvars["kept"][0] is not s.pvars["kept"][2]


def test_team_variables_need_teams():
    with pytest.raises(RulesetError, match="team variables are shared by the players of a team: declare the teams"):
        load_program_text(TEAM_VARIABLES.replace('teams: {of: "(seat - 1) % 2 + 1"}\n', ""), "shared.yaml")


def test_a_scenario_gives_partners_the_same_value_of_a_team_variable(tmp_path):
    from interpreter.authoring.scenario import run_file
    (tmp_path / "shared.yaml").write_text(TEAM_VARIABLES, encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"name: s\nruleset: {tmp_path / 'shared.yaml'}\nset:\n  points: [1, 0, 2, 0]\n"
                        "expect: [{that: ['true']}]\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="'points' is a team variable: Player 1 and Player 3 play together"):
        run_file(str(scenario))
