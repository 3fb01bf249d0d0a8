"""Every {expression} of a text is checked when the ruleset is loaded (issue 26, item 13): a
player's name with the names in scope for it (seat, the options, constants), made for every
seat the ruleset allows, and each language's version of a text at its own column; what
passes the check cannot fail at the table."""
from __future__ import annotations

import io

import pytest

from interpreter import RulesetError, load_program_text, new_game
from interpreter.cli.main import run
from interpreter.errors import format_problem

# One round; whoever is first to play wins.  PLAYERS and NAME are filled in by each test.
GAME = """name: names
players: PLAYERS
languages: [en, fr]
player_name: NAME
options:
  table: {description: where it is played, default: home, choices: [home, club]}
deck: {cards: [a, b, c, d], zone: stock}
zones: {stock: {visibility: hidden}, hand: {per_player: true, visibility: owner}}
flow:
  setup: [deal: {from: stock, to: hand, count: 1}]
  round:
    - log: {en: "{current} starts", fr: "{current} commence"}
    - end_game
result: {winners: "[player(0)]"}
"""


def _text(name: str, players="{min: 2, max: 4}") -> str:
    return GAME.replace("PLAYERS", players).replace("NAME", name)


def _problems(text: str) -> list[str]:
    with pytest.raises(RulesetError) as e:
        load_program_text(text, "names.yaml")
    return [format_problem(p) for p in e.value.problems]


def _caret_under(problem: str) -> str:
    """The text the caret of a formatted problem points at (the quoted line, from there on)."""
    _, line, caret = problem.splitlines()[:3]
    return line[caret.index("^"):]


def test_a_player_name_is_made_for_every_seat_from_its_expression():
    program = load_program_text(_text('''"{['North', 'East', 'South', 'West'][seat - 1]} ({options.table})"'''))
    assert [new_game(program, seed=0, players=n).names for n in (2, 4)] == [
        ["North (home)", "East (home)"], ["North (home)", "East (home)", "South (home)", "West (home)"]]


def test_a_list_too_short_for_a_player_count_the_ruleset_allows_is_refused_at_the_index():
    problems = _problems(_text('''"{['North', 'South'][seat - 1]}"'''))
    assert len(problems) == 1
    assert problems[0].startswith("names.yaml:4:")
    assert "for seat 3 (of up to 4 players): index 2 is past the end of this list of 2" in problems[0]
    assert _caret_under(problems[0]).startswith("seat - 1]")


def test_the_same_list_is_enough_when_the_ruleset_allows_only_as_many_players():
    program = load_program_text(_text('''"{['North', 'South'][seat - 1]}"''', players="2"))
    assert new_game(program, seed=0).names == ["North", "South"]


def test_an_unknown_name_in_a_player_name_is_refused_with_what_it_may_use():
    problems = _problems(_text('"Seat {x}"'))
    assert len(problems) == 1
    assert "names.yaml:4:" in problems[0] and "unknown name 'x'" in problems[0]
    assert "it may use seat" in problems[0]
    assert _caret_under(problems[0]).startswith('x}"')


def test_a_misspelt_seat_gets_a_did_you_mean():
    problems = _problems(_text('"Seat {seet}"'))
    assert "unknown name 'seet' (did you mean 'seat'?)" in problems[0]


def test_a_player_name_may_not_use_what_the_game_holds():
    problems = _problems(_text('"{current}"'))
    assert len(problems) == 1 and "made before the game begins" in problems[0] and "not current" in problems[0]


def test_each_language_of_a_player_name_is_checked_at_its_own_column():
    problems = _problems(_text('{en: "Player {seat}", fr: "Joueur {siege}"}'))
    assert len(problems) == 1 and "unknown name 'siege'" in problems[0]
    assert _caret_under(problems[0]).startswith('siege}"')


def test_a_mistake_in_a_language_not_chosen_is_found_at_its_column():
    text = GAME.replace('fr: "{current} commence"', 'fr: "{courant} commence"')
    problems = _problems(text.replace("PLAYERS", "2").replace("NAME", '"P{seat}"'))
    assert len(problems) == 1 and "unknown name 'courant' (did you mean 'current'?)" in problems[0]
    assert _caret_under(problems[0]).startswith('courant} commence"')


def test_a_player_name_in_the_chosen_language_names_the_seats():
    program = load_program_text(_text('{en: "Player {seat}", fr: "Joueur {seat}"}'), lang="fr")
    assert new_game(program, seed=0, players=2).names == ["Joueur 1", "Joueur 2"]


@pytest.mark.parametrize("name", ['''"{['North', 'South'][seat - 1]}"''', '"Seat {x}"'])
@pytest.mark.parametrize("command", [["validate"], ["simulate", "--games", "2", "--players", "3", "--progress", "off"],
                                     ["--players", "3", "--quiet"]])
def test_a_wrong_player_name_stops_every_command_with_its_place_not_a_traceback(tmp_path, name, command):
    f = tmp_path / "names.yaml"
    f.write_text(_text(name), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    argv = command[:1] + [str(f)] + command[1:] if command[0] in ("validate", "simulate") else [str(f)] + command
    code = run(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    said = out.getvalue() + err.getvalue()
    assert code != 0
    assert f"{f}:4:" in said and "Traceback" not in said


def test_a_player_name_with_more_parts_than_the_limit_is_refused_at_the_first_past_it():
    from interpreter.limits import MAX_NAME_PARTS
    problems = _problems(_text('"' + "{seat}." * MAX_NAME_PARTS + '{seat}!"'))
    assert len(problems) == 1 and f"at most {MAX_NAME_PARTS} {{...}} parts" in problems[0]
    assert _caret_under(problems[0]).startswith('seat}!"')
