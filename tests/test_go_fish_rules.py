"""go_fish, rule by rule (R.. and C.. of docs/games/go_fish.md).

`deal(p1, p2, rest)` stacks the deck for two players with Player 1 dealing: Player 2, on the
dealer's left, gets the first card and asks first; `rest` is the top of the stock, in the order
it is drawn.  `arrange` sets hands and the stock's top outright, for positions late in a game.
"""
from __future__ import annotations

from conftest import Table


def deal(p1, p2, rest=""):
    p1, p2 = p1.split(), p2.split()
    return [c for pair in zip(p2, p1) for c in pair] + rest.split()


P1 = "2♣ 4♦ 5♥ 6♣ 7♦ 8♠ J♠"
P2 = "2♦ 4♣ 4♠ 8♥ 9♥ J♥ K♣"


def fish(p1=P1, p2=P2, rest="", players=2, **options) -> Table:
    options.setdefault("dealer", "seat_1")
    return Table("go_fish", stack=deal(p1, p2, rest) if players == 2 else (), options=options, players=players)


def arrange(t: Table, hands: dict, stock: str | None = None) -> Table:
    """Give each listed seat exactly these cards (the cards they held go to the stock's bottom);
    with `stock`, the stock is exactly these cards, the first on top, and the rest of the
    deck is laid down as books of Player 1's."""
    deck = t.program.deck.display
    z = t.state.zones
    for seat, cards in hands.items():
        wanted = [deck.index(c) for c in cards.split()]
        for zone in [z["stock"], *z["hand"], *z["books"]]:
            for c in wanted:
                if c in zone:
                    zone.remove(c)
        z["stock"][0:0] = z["hand"][seat]
        z["hand"][seat][:] = wanted
    if stock is not None:
        top = [deck.index(c) for c in stock.split()]
        for zone in [z["stock"], *z["hand"], *z["books"]]:
            for c in top:
                if c in zone:
                    zone.remove(c)
        z["books"][0].extend(z["stock"])
        z["stock"][:] = list(reversed(top))
    return t.refresh()


def test_hand_sizes_by_number_of_players():                                    # R2, C1
    assert len(fish().zone("hand", 0)) == 7
    assert [len(fish(players=3).zone("hand", s)) for s in range(3)] == [7, 7, 7]
    assert [len(fish(players=4).zone("hand", s)) for s in range(4)] == [5, 5, 5, 5]
    assert len(fish(players=3, hand_size="pagat").zone("hand", 0)) == 5
    assert len(fish(players=4, hand_size="seven").zone("hand", 0)) == 7
    assert len(fish(hand_size="five").zone("hand", 0)) == 5
    assert len(fish().zone("stock")) == 52 - 14


def test_the_player_on_the_dealers_left_asks_another_player_for_a_rank_they_hold():   # R3, R4
    t = fish()
    assert t.deciding == 1
    assert t.legal() == ["ask Player 1 for 2s", "ask Player 1 for 4s", "ask Player 1 for 8s",
                         "ask Player 1 for 9s", "ask Player 1 for jacks", "ask Player 1 for kings"]
    t4 = fish(players=4)
    assert {label.split(" for ")[0] for label in t4.legal()} == {"ask Player 1", "ask Player 3", "ask Player 4"}


def test_asking_for_a_rank_you_do_not_hold_is_refused_with_the_reason():      # R4
    from interpreter.runtime.engine import refusal
    t = fish()
    label, why = refusal(t.program, t.state, "ask Player 1 for 5s")
    assert "you may ask only for a rank you hold" in why


def test_every_card_of_the_rank_is_handed_over_and_the_asker_goes_again():   # R5
    t = fish(p1="2♣ 4♦ 5♥ 6♣ 7♦ 8♠ J♠").play("ask Player 1 for 4s")
    assert "Player 1 hands over a 4" in t.text()
    assert [c for c in t.zone("hand", 1) if c.startswith("4")] == ["4♣", "4♦", "4♠"]
    assert not any(c.startswith("4") for c in t.zone("hand", 0))
    assert t.deciding == 1                                                     # Player 2 asks again
    t.play("ask Player 1 for jacks")
    assert "Player 1 hands over a jack" in t.text() and t.deciding == 1


def test_go_fish_draws_a_card_and_the_turn_passes():                          # R6
    t = fish(rest="3♥ 10♠").play("ask Player 1 for 9s")
    assert 'Player 1: "Go fish!"' in t.text()
    assert "3♥" in t.zone("hand", 1) and len(t.zone("hand", 1)) == 8
    assert {"type": "log", "text": "you draw 3♥", "to": 1} in t.state.log     # only the drawer sees it
    assert t.deciding == 0


def test_fishing_the_rank_asked_for_earns_another_go():                        # R6, C2
    t = fish(rest="9♣ 10♠").play("ask Player 1 for 9s")
    assert "Player 2 shows the 9♣ they fished: another go" in t.text()
    assert t.deciding == 1
    t = fish(rest="9♣ 10♠", lucky_draw="ends_turn").play("ask Player 1 for 9s")
    assert "Player 2 shows the 9♣ they fished" in t.text() and t.deciding == 0


def test_a_book_of_four_is_laid_down_at_once():                                # R7
    t = fish(p1="2♣ 4♦ 4♥ 6♣ 7♦ 8♠ J♠").play("ask Player 1 for 4s")
    assert "Player 2 lays down a book of 4s (1 book)" in t.text()
    assert t.zone("books", 1) == ["4♣", "4♦", "4♥", "4♠"]
    t = fish(p2="7♣ 7♥ 7♠ 7♦ 9♥ J♥ K♣", p1="2♣ 4♦ 5♥ 6♣ 3♦ 8♠ J♠")
    assert t.zone("books", 1) == ["7♣", "7♦", "7♥", "7♠"]                    # a book dealt is laid at once
    assert len(t.zone("hand", 1)) == 3


def test_a_player_left_with_no_cards_draws_one_and_asks():                     # R8, C3
    t = arrange(fish(), {1: "4♣ 4♠ 4♥", 0: "4♦ 5♥ 6♣"}, stock="K♥ 5♦ 2♠")
    t.play("ask Player 1 for 4s")
    assert "Player 2 lays down a book of 4s (1 book)" in t.text()
    assert "Player 2 has no cards and draws one" in t.text()
    assert t.zone("hand", 1) == ["K♥"] and t.deciding == 1
    assert t.legal() == ["ask Player 1 for kings"]


def test_draw_a_new_hand_alternative():                                        # C3
    t = arrange(fish(empty_hand="draw_hand"), {1: "4♣ 4♠ 4♥", 0: "4♦ 5♥ 6♣"},
                stock="K♥ 5♦ 2♠ 3♠ 9♠ 10♦ 10♥ Q♠")
    t.play("ask Player 1 for 4s")
    assert "Player 2 has no cards and draws 7" in t.text()
    assert len(t.zone("hand", 1)) == 7 and t.zone("stock") == ["Q♠"]


def test_draw_one_and_pass_alternative():                                       # C3
    t = arrange(fish(empty_hand="draw_and_pass"), {1: "4♣ 4♠ 4♥", 0: "4♦ 5♥ 6♣"}, stock="K♥ 5♦ 2♠")
    t.play("ask Player 1 for 4s")
    assert "Player 2 has no cards and draws one" in t.text()
    assert t.zone("hand", 1) == ["K♥"] and t.deciding == 0                    # the turn passes
    t.play("ask Player 2 for 6s")                                             # a miss: Player 1 fishes the 5♦
    t = arrange(fish(empty_hand="draw_and_pass"), {1: "4♣ 4♠ 4♥ 5♥", 0: "4♦"}, stock="K♥ 5♦ 2♠")
    t.play("ask Player 1 for 4s")                                             # Player 1 gave their last card
    assert "nobody else holds a card: Player 2's turn ends" in t.text()
    assert t.zone("hand", 0) == ["K♥"] and t.deciding == 1                    # Player 1 draws one and passes
    assert t.legal() == ["ask Player 1 for 5s"]


def test_a_player_with_no_cards_when_the_stock_is_empty_is_out():              # R8
    t = arrange(fish(players=4), {0: "", 1: "5♥ 6♥", 2: "5♦ 5♣", 3: "5♠ 6♦ 6♣ 6♠"}, stock="")
    t.play("ask Player 3 for 6s")
    assert "the stock is empty: Player 2's turn ends" in t.text() and t.deciding == 2
    t.play("ask Player 2 for 5s", "ask Player 4 for 5s")
    assert "Player 3 lays down a book of 5s" in t.text()
    assert "Player 3 has no cards and the stock is empty: Player 3 is out" in t.text()
    assert t.deciding == 3 and t.legal() == ["ask Player 2 for 6s"]


def test_a_player_who_is_out_is_said_to_be_out_once_and_then_skipped():     # R8
    t = arrange(fish(players=4), {0: "", 1: "5♥ 6♥", 2: "5♦ 5♣", 3: "5♠ 6♦ 6♣ 6♠"}, stock="")
    t.play("ask Player 3 for 6s", "ask Player 4 for 5s", "ask Player 4 for 5s", "ask Player 3 for 6s")
    assert t.deciding == 1                                                     # Player 1's turn was skipped
    t.play("ask Player 3 for 6s", "ask Player 4 for 5s", "ask Player 3 for 6s")
    assert t.deciding == 1
    assert t.text().count("Player 1 is out") == 1


def test_only_a_player_holding_cards_may_be_asked():                           # C4
    t = arrange(fish(players=3), {1: "5♥ 6♥", 0: "", 2: "5♦ 6♦"}, stock="9♠")
    assert t.deciding == 1
    assert t.legal() == ["ask Player 3 for 5s", "ask Player 3 for 6s"]
    t = arrange(fish(players=3, ask_empty="yes"), {1: "5♥ 6♥", 0: "", 2: "5♦ 6♦"}, stock="9♠")
    assert "ask Player 1 for 5s" in t.legal()
    t.play("ask Player 1 for 5s")
    assert 'Player 1: "Go fish!"' in t.text()


def test_the_game_ends_when_every_book_is_down_and_the_most_books_wins():     # R9, R10
    t = arrange(fish(), {1: "5♥ 5♠", 0: "5♦ 5♣"}, stock="")
    t.play("ask Player 1 for 5s")
    assert t.over
    assert "Player 2 lays down a book of 5s" in t.text()
    assert t.winners == [0] and t.scores == [12, 1]


def test_a_tie_for_the_most_books_shares_the_win():                            # R10
    t = arrange(fish(), {1: "5♥ 5♠", 0: "5♦ 5♣"}, stock="")
    z = t.state.zones
    z["books"][1].extend(z["books"][0][:20])                                   # five books each way
    del z["books"][0][:20]
    t.refresh().play("ask Player 1 for 5s")
    assert t.scores == [7, 6] and t.winners == [0]
    t = arrange(fish(), {1: "5♥ 5♠", 0: "5♦ 5♣"}, stock="")
    z = t.state.zones
    z["books"][1].extend(z["books"][0][:24])
    del z["books"][0][:24]
    t.refresh().play("ask Player 1 for 5s")
    assert t.scores == [6, 7] and t.winners == [1]


def test_first_empty_hand_ends_the_game_alternative():                         # C5
    t = fish(game_end="first_empty", p1="2♣ 4♦ 5♥ 6♣ 7♦ 8♠ J♠")
    arrange(t, {1: "5♦ 5♣", 0: "5♥"}, stock="9♠ 9♦")
    t.play("ask Player 1 for 5s")
    assert t.over and len(t.zone("stock")) == 2
    assert "Player 1 hands over a 5" in t.text()
    assert "Player 1 has no cards: the game ends" in t.text()


def test_going_out_ends_the_game_alternative():                                # C5
    t = arrange(fish(game_end="first_out"), {1: "5♦ 5♣ 5♠", 0: "5♥ 9♣"}, stock="9♠ 9♦")
    t.play("ask Player 1 for 5s")
    assert "Player 2 lays down a book of 5s" in t.text()
    assert "Player 2 has no cards left: Player 2 goes out" in t.text()
    assert t.over and len(t.zone("stock")) == 2 and t.zone("hand", 0) == ["9♣"]
    t = arrange(fish(game_end="first_out"), {1: "5♦ 5♣ 6♠", 0: "5♥ 5♠"}, stock="9♠ 9♦")
    t.play("ask Player 1 for 5s")                                             # Player 1 has no cards, but laid no book
    assert not t.over and "goes out" not in t.text()
    assert "nobody else holds a card: Player 2's turn ends" in t.text()
    assert "Player 1 has no cards and draws one" in t.text()
    assert t.zone("hand", 0) == ["9♠"] and t.deciding == 0


def test_the_first_player_out_wins_alternative():                              # C7
    t = arrange(fish(game_end="first_out", winner="first_out"), {1: "5♦ 5♣ 5♠", 0: "5♥ 9♣"}, stock="9♠ 9♦")
    t.play("ask Player 1 for 5s")
    assert t.over and t.winners == [1] and t.scores == [11, 1]                # fewer books, but out first
    t = arrange(fish(winner="first_out"), {1: "5♦ 5♣ 5♠", 0: "5♥ 9♣"}, stock="9♠ 9♦")
    t.play("ask Player 1 for 5s")                                             # all_books: the game goes on
    assert not t.over and t.var("first_out") == 1
    assert "Player 2 has no cards and draws one" in t.text()


def test_the_dealer_is_chosen_at_random_and_the_player_on_their_left_asks_first():   # C6
    for seed in range(4):
        t = Table("go_fish", seed=seed, players=4)
        dealer = t.var("dealer")
        assert t.deciding == (dealer + 1) % 4
        assert f"Player {dealer + 1} deals 5 cards each" in t.text()
