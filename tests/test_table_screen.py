"""The table a person plays at: laid out from their view only (nothing they may not see),
tricks kept as they were won, a header at each round and its changes at its end; drawn
with rich on a terminal and as plain lines elsewhere."""
import io

import pytest
from rich.console import Console

from interpreter import load_program as load_file
from interpreter.source.shipped import resolve
from interpreter.cli.drawing import table_panel
from interpreter.cli.screen import PlainScreen
from interpreter.playing.table_view import Groups, layout
from interpreter.runtime.engine import apply, new_game, view
from interpreter.runtime.state import Rng


def played_until(program, seed, decisions, players=None):
    """A game of random moves stopped after `decisions`, with the groups its account shows."""
    s = new_game(program, seed=seed, players=players)
    rng = Rng(seed)
    for _ in range(decisions):
        apply(program, s, rng.below(len(s.pending[1])))
    groups = Groups(program.deck.ids)
    groups.note(s.log)
    return s, groups


def cards_in(lay):
    piles = lay.shared + lay.hand + [p for r in lay.rows for p in r.piles]
    return [c.text for p in piles for g in p.groups for c in g]


@pytest.mark.parametrize("game,players", [("hearts2", None), ("gnav", 5), ("gnav2", None), ("ninety_nine", None)])
@pytest.mark.parametrize("seed", range(4))
def test_the_table_shows_no_card_its_seat_may_not_see(game, players, seed):
    program = load_program(game)
    s, groups = played_until(program, seed, 7, players)
    if s.over:
        return
    seat = s.pending[0]
    seen = view(program, s, seat)
    visible = {program.deck.display[program.deck.ids.index(c)]
               for z in seen["zones"].values() for part in (z if z and isinstance(z[0], list) else [z])
               for c in part if c is not None}
    lay = layout(program, seen, seat, s.names, groups, s.rounds)
    assert set(cards_in(lay)) <= visible
    lay.facts = []              # the rules' own words ("Q♠ scores 13") name cards, not where they lie
    rendered = io.StringIO()
    Console(file=rendered, width=120).print(table_panel(lay, program.lang))
    hidden = {c for c in set(program.deck.display) - visible if not c.isdigit()}   # '0' may be a count
    assert not any(f" {c} " in f" {line} " for line in rendered.getvalue().split() for c in hidden)


def test_tricks_taken_stay_grouped_as_they_were_won():
    program = load_program("hearts2")
    s, groups = played_until(program, 1, 12)          # six tricks of two cards
    lay = layout(program, view(program, s, 0), 0, s.names, groups, s.rounds)
    taken = [p for r in lay.rows for p in r.piles if p.label == "tricks taken"]
    tricks = [g for p in taken for g in p.groups]
    assert len(tricks) == 6 and all(len(g) == 2 for g in tricks)


def test_the_other_players_hand_is_only_counted_and_your_own_is_shown_whole():
    program = load_program("hearts2")
    s, groups = played_until(program, 2, 3)
    seat = s.pending[0]
    lay = layout(program, view(program, s, seat), seat, s.names, groups, s.rounds)
    other = next(r for r in lay.rows if not r.you)
    hand = next(p for p in other.piles if p.label == "hand")
    assert hand.groups == [] and hand.hidden == len(s.zones["hand"][other.seat])
    assert [c.text for c in lay.hand[0].groups[0]] == [program.deck.display[c] for c in s.zones["hand"][seat]]


def test_the_table_says_the_standing_facts_of_the_options_in_force():
    lay = layout(*_start("hearts2"))
    assert "hearts are trumps" in lay.facts
    lay = layout(*_start("hearts2", {"trumps": "none"}))
    assert "hearts are trumps" not in lay.facts


def _start(game, options=None):
    program = load_program(game, options)
    s, groups = played_until(program, 0, 0)
    return program, view(program, s, s.pending[0]), s.pending[0], s.names, groups, s.rounds


def test_a_round_has_a_header_and_its_changes_at_its_end():
    program = load_program("hearts2")
    s, _ = played_until(program, 3, 26)             # one whole hand
    lines = []
    screen = PlainScreen(program, lines.append, 0)
    screen.account(s.log)
    assert lines[0] == "-- hand 1 --"
    end = next(line for line in lines if line.startswith("-- end of hand 1"))
    assert "revealed" in end and "Player 1 score 0 →" in end


def test_the_drawn_round_summary_puts_each_change_on_a_line_of_its_own():
    from rich.console import Console
    from interpreter.cli.screen import RichScreen
    program = load_program("hearts2")
    s, _ = played_until(program, 3, 26)             # one whole hand
    console = Console(file=io.StringIO(), width=120, color_system=None)
    screen = RichScreen(program, console, 0, ["Player 1", "Player 2"])
    screen.account(s.log)
    drawn = console.file.getvalue()
    assert "\\n" not in drawn
    assert any("Player 1 score 0 →" in line for line in drawn.splitlines())
    assert any("Player 2 score 0 →" in line for line in drawn.splitlines())


def test_a_person_at_a_pipe_gets_plain_lines_and_at_a_terminal_the_drawn_table(monkeypatch):
    from interpreter.cli import run
    out = io.StringIO()
    assert run(["hearts2", "--seed", "1", "--human", "1", "--bot", "random"], stdin=io.StringIO("1\n" * 30), stdout=out) != 1
    assert "-- your turn, Player 1 --" in out.getvalue() and "╭" not in out.getvalue()
    out = Tty()
    run(["hearts2", "--seed", "1", "--human", "1", "--bot", "random"], stdin=Tty("1\n" * 30), stdout=out)
    assert "╭" in out.getvalue() and "your hand" in out.getvalue()
    out = Tty()
    run(["hearts2", "--seed", "1", "--human", "1", "--bot", "random", "--plain"], stdin=Tty("1\n" * 30), stdout=out)
    assert "╭" not in out.getvalue()


def load_program(game, options=None):
    return load_file(resolve(game), options)


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_at_a_terminal_a_game_by_name_seats_you_and_watch_seats_only_bots():
    from interpreter.cli import run
    out = Tty()
    run(["hearts2", "--seed", "1", "--bot", "random"], stdin=Tty("1\n" * 40), stdout=out)
    assert "Player 1 (you)" in out.getvalue().splitlines()[0]
    out = Tty()
    assert run(["hearts2", "--seed", "1", "--watch", "--bot", "random"], stdin=Tty(""), stdout=out) == 0
    assert "Player 1 (bot)" in out.getvalue().splitlines()[0] and "Result:" in out.getvalue()


def test_a_table_value_shows_what_each_player_has_taken_as_the_hand_goes():
    program = load_program("hearts2")
    s, groups = played_until(program, 1, 12)
    lay = layout(program, view(program, s, 0), 0, s.names, groups, s.rounds)
    points = [dict(r.values)["points this hand"] for r in lay.rows]
    assert points == [str(sum(program.deck.attrs["points"][1][c] for c in s.zones["taken"][p])) for p in (0, 1)]


TABLE_RULES = """name: t
players: 2
deck: {cards: [a, b, c], zone: stock}
zones: {stock: {visibility: public}}
table:
  left: {value: "count(stock)", label: cards left}
  %s
flow:
  round: [{choose: stock, as: c, by: player(0)}, {move: {card: c, from: stock, to: stock}}, end_game]
result: {winners: "[]"}
"""


def test_a_table_value_is_a_number_true_false_or_a_text():
    from interpreter import pipeline
    from interpreter.errors import RulesetError
    program = pipeline.load_program_text(TABLE_RULES % "", "t.yaml")
    s = new_game(program, seed=1)
    assert view(program, s, 0)["table"] == {"left": 3}
    with pytest.raises(RulesetError) as e:
        pipeline.load_program_text(TABLE_RULES % 'cards: {per_player: "stock"}', "t.yaml")
    assert "the table shows a number, true/false, a text or a player" in str(e.value)


MARKUP = """name: mk
title: "Game [/b] [bold]x"
players: 2
deck: {cards: [{id: a, color: 1}, {id: "[Q]", color: "not a colour"}, {id: c, color: red}], zone: stock}
zones: {stock: {visibility: public, label: "note [/]"}}
variables:
  s: {type: string, initial: "x", show: true, label: "lab [/]"}
flow:
  round:
    - set: {s: "'[/]'"}
    - choose: stock
      by: player(0)
    - end_game
result: {winners: "[]"}
"""


def test_the_rules_texts_are_drawn_as_written_never_read_as_markup():
    from interpreter import pipeline
    program = pipeline.load_program_text(MARKUP, "mk.yaml")
    s = new_game(program, seed=1)
    groups = Groups(program.deck.ids)
    groups.note(s.log)
    out = io.StringIO()
    Console(file=out, width=100).print(table_panel(layout(program, view(program, s, 0), 0, s.names, groups, 1), "en"))
    text = out.getvalue()
    assert "Game [/b] [bold]x" in text and "lab [/]" in text and "[Q]" in text and "note [/]" in text


RANDOM_TABLE = """name: rt
players: 2
deck: {cards: [a, b, c, d, e, f], zone: stock}
zones: {stock: {visibility: hidden}}
table:
  lucky: {value: "random([1, 2, 3])"}
%s
flow:
  round:
    - choose: [1, 2]
      by: player(0)
    - shuffle: stock
    - choose: [1, 2]
      by: player(0)
    - end_game
result: {winners: "[]"}
"""


def test_looking_at_the_table_changes_nothing_not_even_the_random_draws():
    from interpreter import pipeline
    program = pipeline.load_program_text(RANDOM_TABLE % "", "rt.yaml")
    looked, plain = new_game(program, seed=5), new_game(program, seed=5)
    for _ in range(5):
        view(program, looked, 0)
    apply(program, looked, 0)
    apply(program, plain, 0)
    assert looked.zones["stock"] == plain.zones["stock"]


def test_a_table_value_may_not_take_a_variables_name():
    from interpreter import pipeline
    from interpreter.errors import RulesetError
    with pytest.raises(RulesetError) as e:
        pipeline.load_program_text(RANDOM_TABLE % "variables:\n  lucky: 0", "rt.yaml")
    assert "'lucky' is already the name of a variable" in str(e.value)
