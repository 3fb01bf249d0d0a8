"""belote, rule by rule (R.. and C.. of docs/games/belote.md).

`belote(hands, up, taker)` stacks the deck with Player 1 dealing: `hands` gives each seat's eight
cards (the taker's seven besides the turned card `up`), dealt one at a time (three rounds, then two) from Player 2 round,
then the turned card, then three more each (two to the taker, `taker` a seat index 0..3)."""
from __future__ import annotations

from conftest import Table
from interpreter.runtime.engine import refusal

ORDER = [1, 2, 3, 0]        # Player 2 first: Player 1 deals


def stack(hands, up, taker):
    h = [x.split() for x in hands]
    s = []
    for k in range(5):                  # one card at a time round the table, three then two
        for seat in ORDER:
            s.append(h[seat][k])
    s.append(up)
    for seat in ORDER:
        s += h[seat][5:7] if seat == taker else h[seat][5:8]
    return s


HANDS = ["J♠ 8♥ 9♥ A♥ Q♦ 7♣ 9♣ 7♦",          # Player 1
         "7♥ A♠ J♥ 10♠ 8♠ 10♣ J♣ 8♦",        # Player 2
         "K♠ 7♠ 9♠ A♣ K♣ Q♣ 8♣",             # Player 3, the taker: Q♥ turned
         "K♥ Q♠ 10♥ 9♦ 10♦ J♦ K♦ A♦"]        # Player 4


def belote(hands=HANDS, up="Q♥", taker=2, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("belote", stack=stack(hands, up, taker), options=options, players=4)


def taken(t: Table, seat=2):
    """Player 2 passes and Player `seat` (the next by default) takes the turned card."""
    t.play("pass")
    return t.play("take Q♥")


def test_five_cards_each_and_one_turned_up():                                    # R3
    t = belote()
    assert sorted(t.zone("hand", 0)) == sorted("J♠ 8♥ 9♥ A♥ Q♦".split())
    assert t.zone("upcard") == ["Q♥"] and t.deciding == 1


def test_the_taker_gets_the_turned_card_and_two_more_the_others_three():          # R4, R5
    t = taken(belote())
    assert t.var("trump") == "H" and len(t.zone("hand", 2)) == 8 and "Q♥" in t.zone("hand", 2)
    assert all(len(t.zone("hand", s)) == 8 for s in range(4))


def test_a_second_round_names_another_suit():                                     # R4
    t = belote()
    t.play("pass", "pass", "pass", "pass")
    assert "name ♥ hearts" not in t.legal() and "name ♠ spades" in t.legal()
    t.play("name ♠ spades")
    assert t.var("trump") == "S"


def test_all_passing_twice_deals_again():                                         # R4
    t = belote()
    t.play(*["pass"] * 8)
    assert "everybody passes twice: the cards are dealt again" in t.text() and t.var("hands") == 0


def test_follow_suit_and_play_higher_trumps_when_trumps_are_led():               # R6, R7
    t = taken(belote())
    t.play("lead 7♥", "play Q♥", "play K♥")
    assert sorted(t.legal()) == ["play 9♥", "play A♥"]
    assert refusal(t.program, t.state, "play 8♥")[1].startswith("you must follow suit")


def test_the_jack_and_nine_are_the_highest_trumps():                              # R2
    t = taken(belote())
    t.play("lead J♥")
    t.play("play Q♥", "play K♥", "play 9♥")
    assert "Player 2 takes the trick with J♥" in t.text()


def test_without_the_suit_led_you_must_trump_unless_your_partner_is_winning():   # R7, C2
    t = taken(belote())
    t.play("lead 7♥", "play Q♥", "play K♥", "play A♥")       # Player 1 wins, leads
    t.play("lead 7♣", "play 10♣")
    t.play("play A♣")                                          # Player 3 is not Player 4's partner
    legal = t.legal()                                          # Player 4: no club, must trump
    assert legal == ["play 10♥"]
    t = taken(belote(), )
    t.play("lead 7♥", "play Q♥", "play K♥", "play A♥", "lead 7♣", "play J♣", "play A♣")
    assert t.legal() == ["play 10♥"]


def test_with_the_partner_winning_a_player_without_the_suit_need_not_trump():      # R7, C2
    hands = ["J♠ 8♥ 9♥ A♥ Q♦ 7♣ 9♣ 7♦", "A♠ Q♠ J♥ 10♠ 8♠ 10♣ J♣ 8♦",
             "K♠ 7♠ 9♠ A♣ K♣ Q♣ 8♣", "K♥ 10♥ 7♥ 9♦ 10♦ J♦ K♦ A♦"]
    t = taken(belote(hands))
    t.play("lead A♠", "play 7♠")                # Player 4: no spade, partner Player 2 winning
    assert len(t.legal()) == 8
    t = taken(belote(hands, partner_winning="must_trump"))
    t.play("lead A♠", "play 7♠")
    assert sorted(t.legal()) == ["play 10♥", "play 7♥", "play K♥"]


def test_dix_de_der_and_162_in_all():                                             # R2, R9
    t = taken(belote()).play_out()
    text = t.text()
    assert "dix de der, 10" in text


def test_the_game_is_won_at_501_by_one_side():                                     # R12, C1
    t = Table("belote", options={"dealer": "seat_1"}, players=4, seed=2).play_out()
    assert t.scores[0] == t.scores[2] and t.scores[1] == t.scores[3]
    assert max(t.scores) >= 501 and t.winners in ([0, 2], [1, 3])


def test_belote_rebelote_scores_20_for_the_holder_of_king_and_queen_of_trumps():   # R8
    hands = list(HANDS)
    hands[2] = "K♠ 7♠ 9♠ A♣ K♣ Q♣ K♥"          # Player 3 takes the Q♥ and holds the K♥
    hands[3] = "8♣ Q♠ 10♥ 9♦ 10♦ J♦ K♦ A♦"
    t = taken(belote(hands))
    assert t.var("belote_side") == 2
    t.play_out()
    assert "belote-rebelote: 20 for Player 1, Player 3" in t.text()
    assert "Player 3: belote" in t.text() and "Player 3: rebelote" in t.text()


def test_a_failed_contract_gives_the_defenders_162_and_a_made_one_each_side_its_own():   # R11
    import re
    seen = set()
    for seed in range(12):
        text = Table("belote", options={"dealer": "seat_1"}, players=4, seed=seed).play_out().text()
        for m in re.finditer(r"the contract fails: .*? score (\d+), .*? (\d+)\n", text + "\n"):
            assert int(m.group(1)) >= 162 and int(m.group(2)) in (0, 20)
            seen.add("failed")
        for m in re.finditer(r"the contract is made: .*? score (\d+), .*? (\d+)\n", text + "\n"):
            assert int(m.group(1)) + int(m.group(2)) >= 162
            seen.add("made")
    assert seen == {"failed", "made"}
