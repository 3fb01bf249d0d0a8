"""What a person types at the table (playing/answers.py): a number is always the numbered move,
never a card's rank; a card is typed with its suit; a number with no move says so and lists
the moves holding a card of that rank; the prompt and '?' say so."""
from __future__ import annotations

import io

from conftest import ruleset
from test_ninety_nine_rules import nn
from interpreter.cli import run
from interpreter.playing.agents import Decision
from interpreter.playing.answers import read_answer


def read(table, answer):
    return read_answer(answer, Decision(table.program, table.state), table.legal())


def moves(table):
    return [f"  {i}. {label}" for i, label in enumerate(table.legal(), 1)]


def test_a_number_picks_the_numbered_move():
    t = nn(p1="A♣ 6♣ 7♣ 8♣ 10♣")                                     # no card of rank 1 or 3
    assert read(t, "1") == ("move", 0) and read(t, "3") == ("move", 2)


def test_a_bare_rank_with_no_move_of_that_number_says_so_and_lists_the_cards_of_that_rank():
    t = nn(p1="A♣ 6♣ 7♣ 8♣ 10♣")                                     # five moves: 8 and 10 are no move's number
    kind, lines = read(t, "8")
    assert kind == "again" and lines[1:] == moves(t)[3:4]
    assert lines[0] == "There is no move 8 (the moves are 1 to 5); a card is typed with its suit. The moves with that rank:"
    assert read(t, "10") == ("again", [lines[0].replace("move 8", "move 10"), moves(t)[4]])
    assert read(t, "8c") == ("move", 3) and read(t, "10♣") == ("move", 4)


def test_a_number_is_the_numbered_move_even_where_a_card_has_that_rank():
    t = nn()                                   # 2♣ 3♣ 4♣ 5♣ 6♣: '2' is move 2 (the 3♣), not the 2♣
    assert read(t, "2") == ("move", 1) and read(t, "2c") == ("move", 0)


def test_a_hash_and_a_number_is_always_that_move():
    t = nn()
    assert read(t, "#2") == ("move", 1) and read(t, "#5") == ("move", 4)
    assert read(t, "#6")[0] == "again"


def test_a_number_naming_the_numbered_move_itself_is_not_ambiguous():
    t = nn(p1="A♣ 2♣ 3♣ 8♣ 9♣")                                     # move 2 is the 2♣
    assert read(t, "2") == ("move", 1)


def test_a_rank_held_twice_beyond_the_moves_lists_both_cards():
    t = nn(p1="2♣ 3♣ 4♣ 8♣ 8♥")
    kind, lines = read(t, "8")
    assert kind == "again" and "There is no move 8" in lines[0] and lines[1:] == moves(t)[3:]


def test_a_card_is_typed_by_its_id_or_as_shown():
    t = nn()
    assert read(t, "3c") == ("move", 1) and read(t, "3♣") == ("move", 1) and read(t, "6C") == ("move", 4)


def test_a_number_that_is_a_word_of_a_move_is_one_of_its_meanings():
    from conftest import Table
    t = Table("spades", seed=0)                                      # bid nil, bid 1, ..., bid 13
    assert read(t, "4") == ("move", 3)                               # move 4 is 'bid 3'
    assert read(t, "14") == ("move", 13) and read(t, "bid 4") == ("move", 4)


def test_a_rank_the_rules_do_not_allow_now_is_refused_in_their_words():
    t = nn(p1="5♣ 3♣ 2♣ 4♣ 6♣", losing_move="forbidden")
    t.state.vars["total"] = 94
    t.refresh()                                                      # 2♣ 3♣ 4♣ keep it under 99
    kind, lines = read(t, "5")
    assert kind == "again" and lines == ["'play 5♣ (total 99)' is not allowed now: every way of "
                                         "counting 5♣ takes the total to the limit"]


def test_digits_of_other_scripts_are_not_a_number():
    t = nn()
    assert read(t, "²") == ("again", ["Please type a number from 1 to 5 (or part of an option's name; ? for help)."])
    assert read(t, "٣")[0] == "again"


def test_a_number_names_no_card_the_seat_cannot_see():
    from interpreter import load_program_text, new_game
    from interpreter.runtime.engine import options_numbered
    from test_hidden_information import NAME_CARD
    program = load_program_text(NAME_CARD)                           # ten face-down cards, ids 1 to 10
    s = new_game(program, seed=3)
    decision = Decision(program, s)
    assert options_numbered(program, s, "7") == [] and decision.refusal("7") is None
    assert read_answer("7", decision, decision.labels) == ("move", 6)     # the seventh, whichever card it is


def test_commands_are_read_before_any_move_in_english_or_the_tables_language():
    t = nn()
    assert read(t, "?") == ("command", "help") and read(t, "VIEW") == ("command", "view")
    decision = Decision(t.program, t.state)
    assert read_answer("vis", decision, t.legal(), "da") == ("command", "view")
    assert read_answer("regler", decision, t.legal(), "da") == ("command", "rules")
    assert read_answer("hint", Decision(t.program, t.state), t.legal(), commands={"help"})[0] == "again"


def test_the_prompt_says_the_rule_and_a_scripted_game_follows_it(tmp_path):
    out = io.StringIO()
    code = run([ruleset("ninety_nine"), "--seed", "4", "--human", "1", "--bot", "random", "--plain",
                "--record", str(tmp_path / "r.json")],
               stdin=io.StringIO("7\n5\n?\n" + "#1\n" * 60), stdout=out)
    text = out.getvalue()
    assert code == 0, text
    assert "your hand: A♠ 4♠ 5♠ 5♦ 7♠" in text                      # the deal of seed 4
    assert "Play a card [1-5, or a card such as '7s'; ? for help]: " in text
    assert "There is no move 7 (the moves are 1 to 5)" in text and "  5. play 7♠ (total " in text
    assert "Player 1 plays 7♠" in text.split("There is no move 7")[1].split("Player 2")[0]    # 5: move 5, the 7♠
    assert "A number picks the move of that number; a card is typed with its suit" in text
    assert "Result:" in text


BIDS = """
name: bids
players: 2
deck:
  product:
    suit: [{id: C, symbol: "♣"}, {id: D, symbol: "♦"}]
    rank: [{id: "2", value: 2}, {id: "3", value: 3}]
  id: "{rank}{suit}"
  display: "{rank}{symbol}"
  zone: stock
zones: {stock: {visibility: hidden}}
flow:
  round:
    - turns:
        count: 1
        do:
          - choose: ["1♣", "1♦", "1NT", "pass"]
            as: bid
            label: "bid {bid}"
  until: "true"
result: {winners: "[]"}
"""


def test_a_bid_shown_with_a_suits_symbol_is_typed_with_the_suits_letter():
    from interpreter.pipeline import load_program_text
    from interpreter.runtime.engine import new_game
    program = load_program_text(BIDS, "bids.yaml")
    state = new_game(program, seed=0)
    decision = Decision(program, state)
    labels = decision.labels
    assert read_answer("1d", decision, labels) == ("move", 1)
    assert read_answer("1C", decision, labels) == ("move", 0)
    assert read_answer("1nt", decision, labels) == ("move", 2)      # not a suit's letter: as typed
