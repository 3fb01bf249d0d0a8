"""gnav, rule by rule (R..: the rule numbers of the digest it was written from, outside this repository; A..: the conventions, as docs/games/gnav.md names them).

`gnav(pieces, bag=...)` stacks the deal: Player 1 (seat 0) deals, so seat 1 is served first
and the dealer last; `pieces` lists the pieces of seats 0, 1, 2, ... in seat order.
Pieces are written by id: cuckoo, dragon, cat, horse, house, XII..I, 0, pot, owl, fool.
"""
from __future__ import annotations

import pytest

from conftest import Table
from interpreter import view

RANKS = ["cuckoo", "dragon", "cat", "horse", "house", "XII", "XI", "X", "IX", "VIII", "VII", "VI", "V",
         "IV", "III", "II", "I", "0", "pot", "owl", "fool"]


def gnav(pieces, bag=(), players=None, **options) -> Table:
    options.setdefault("first_dealer", "seat_1")
    pieces = pieces.split()
    order = pieces[1:] + pieces[:1] + list(bag)
    return Table("gnav", stack=order, options=options, players=players or len(pieces))


def piece(t, seat):
    return t.program.deck.ids[t.state.zones["hand"][seat][0]] if t.state.zones["hand"][seat] else None


def lives(t):
    return list(t.state.pvars["lives"])


def debt(t):
    return list(t.state.pvars["debt"])


def round_one(t) -> str:
    """The account of the first round (whatever happened after it is cut off)."""
    text = t.text()
    return text.split("round 2:")[0]


# -- components, lives, deal ---------------------------------------------------

def test_42_pieces_two_of_each_of_21_ranks_strongest_first():           # R3, R4, R5
    t = gnav("V VI")
    ids = t.program.deck.ids
    assert len(ids) == 42 and all(ids.count(r) == 2 for r in RANKS)
    strength = dict(zip(ids, t.program.deck.attrs["strength"][1]))
    assert sorted(RANKS, key=lambda r: -strength[r]) == RANKS


def test_the_five_matadors():                                           # R6, R7
    t = gnav("V VI")
    matador = dict(zip(t.program.deck.ids, t.program.deck.attrs["matador"][1]))
    assert [r for r in RANKS if matador[r]] == ["cuckoo", "dragon", "cat", "horse", "house"]


def test_names_in_french_norwegian_and_english():                       # issue: --lang
    from interpreter import load_program
    from conftest import ruleset
    names = {lang: dict(zip(p.deck.ids, p.deck.display)) for lang in ("en", "fr", "no")
             for p in [load_program(ruleset("gnav"), lang=lang)]}
    assert (names["en"]["cuckoo"], names["fr"]["cuckoo"], names["no"]["cuckoo"]) == ("Cuckoo", "Coucou", "Gjøk")
    assert names["fr"]["owl"] == "Hibou" and names["fr"]["fool"] == "Fou"


def test_three_lives_each_and_an_empty_pot():                            # R10, R11
    t = gnav("V VI VII")
    assert lives(t) == [3, 3, 3] and t.var("pot") == 0


def test_one_hidden_piece_each_the_rest_is_the_bag():                    # R12, R14, R19
    t = gnav("V VI VII VIII IX X")
    assert [piece(t, s) for s in range(6)] == ["V", "VI", "VII", "VIII", "IX", "X"]
    assert len(t.state.zones["bag"]) == 36


def test_each_seat_sees_only_its_own_piece():                            # R13, A16
    t = gnav("V VI VII VIII")
    for seat in range(4):
        hands = view(t.program, t.state, seat)["zones"]["hand"]
        assert [h[0] is not None for h in hands] == [s == seat for s in range(4)]
        assert all(c is None for c in view(t.program, t.state, seat)["zones"]["bag"])


# -- turns ---------------------------------------------------------------------

def test_dealers_left_begins_and_the_dealer_plays_last():                # R20, R34
    t = gnav("V VI VII VIII")
    order = []
    while not t.over and len(order) < 4:
        order.append(t.deciding)
        t.play(t.legal()[0])          # keep
    assert order == [1, 2, 3, 0]


def test_keep_or_ask_the_next_participant_on_the_left():                 # R21, R25
    t = gnav("V VI VII VIII")
    assert t.legal() == ["keep VI", "ask Player 3"]


def test_an_ordinary_exchange_is_blind_and_ends_the_turn():              # R22, R23, R24
    t = gnav("V VI VII VIII").play("ask Player 3")
    assert (piece(t, 1), piece(t, 2)) == ("VII", "VI")
    assert t.deciding == 2 and t.legal() == ["keep VI", "ask Player 4"]


def test_exchanges_are_journalled():                                      # R26
    t = gnav("V VI VII VIII").play("ask Player 3", "ask Player 4")
    assert [e[0] for e in t.state.journal] == ["swap", "swap"]


def test_worked_example_the_horse_redirects_the_request():               # R30, R51
    # A (seat 1) holds 0, B (seat 2) the Horse, C (seat 3) VIII; the dealer (seat 0) holds V.
    t = gnav("V 0 horse VIII")
    t.play("ask Player 3")
    assert "Player 3 blocks with the Horse" in t.text()
    assert (piece(t, 1), piece(t, 2), piece(t, 3)) == ("VIII", "horse", "0")
    assert lives(t) == [3, 3, 3, 3]                  # a block penalises nobody
    assert t.deciding == 2                           # A's turn has ended; B plays next


def test_blocks_pass_on_as_many_times_as_needed():                       # R30
    t = gnav("V 0 horse house VIII")
    t.play("ask Player 3")
    assert (piece(t, 1), piece(t, 4)) == ("VIII", "0")


def test_a_chain_back_to_the_asker_lapses():                             # A7
    t = gnav("horse 0").play("ask Player 1")          # two players: the dealer blocks
    assert piece(t, 1) == "0" and lives(t) == [3, 3]
    assert "comes back to Player 2 and lapses" in t.text()


def test_chain_stop_at_dealer_alternative():                              # A7 alternative
    t = gnav("horse 0 V", skip_chain="stop_at_dealer")
    t.play("keep 0", "ask Player 1", "keep Horse")
    assert "stops at the dealer" in t.text() and "Player 3 shows V" in round_one(t)


def test_chain_to_bag_alternative():                                       # A7 alternative
    t = gnav("horse 0 V", bag=["IX"], skip_chain="to_bag")
    t.play("keep 0", "ask Player 1", "keep Horse")
    assert "goes to the bag" in round_one(t) and "Player 3 shows IX" in round_one(t)


def test_cuckoo_stops_the_round_and_everything_is_revealed():            # R27, R32, A17
    t = gnav("V 0 cuckoo VIII")
    t.play("ask Player 3")
    text = round_one(t)
    assert "exchange pieces" not in text and "Player 3 shows Cuckoo" in text       # no exchange
    assert "reveals the Cuckoo" in text
    assert "Player 2 shows 0" in text and "Player 1 shows V" in text
    assert lives(t)[1] == 2                           # only as the lowest piece, not for the Cuckoo
    assert t.var("round_no") == 2                     # Player 3, Player 4 and the dealer had no turn


def test_holding_the_cuckoo_does_not_stop_the_round():                   # R32
    t = gnav("V cuckoo VII VIII").play("keep Cuckoo")
    assert t.deciding == 2


def test_dragon_refuses_and_the_asker_loses_a_life_and_keeps_the_piece(): # R28, R31
    t = gnav("V 0 dragon VIII").play("ask Player 3")
    assert piece(t, 1) == "0" and lives(t)[1] == 2 and t.var("pot") == 1
    assert t.deciding == 2
    assert "Player 3 reveals the Dragon" in t.text() and "0" not in t.text().split("reveals the Dragon")[1][:20]


def test_cat_costs_a_life_and_undoes_every_exchange_latest_first():      # R29, A8
    t = gnav("V IX X cat XII", bag=[])
    t.play("ask Player 3")            # seat 1 <-> seat 2: seat 1 holds X, seat 2 IX
    t.play("ask Player 4")            # seat 2 asks the Cat
    assert lives(t)[2] == 2
    assert (piece(t, 1), piece(t, 2)) == ("IX", "X")      # back to the deal
    assert t.state.journal == []
    assert t.deciding == 3                                  # play continues on the asker's left


def test_cat_requester_only_alternative():                                # A8 alternative
    t = gnav("V IX X XI cat", cat_undo="requester_only")
    t.play("ask Player 3")            # seat 1 <-> seat 2
    t.play("keep IX")
    t.play("ask Player 5")            # seat 3 asks the Cat: seat 3 made no exchange
    assert (piece(t, 1), piece(t, 2)) == ("X", "IX")


def test_cat_restart_round_alternative():                                 # A8 alternative
    t = gnav("V IX cat XI", cat_undo="restart_round")
    t.play("ask Player 3")
    assert t.deciding == 1                                  # from the dealer's left again


def test_dealer_asks_the_bag_and_takes_an_ordinary_candidate():          # R34, R35, R36
    t = gnav("V VI VII", bag=["IX"]).play("keep VI", "keep VII")
    assert t.legal() == ["keep V", "ask the bag"]
    t.play("ask the bag")
    assert "(to Player 1)" not in t.text()
    assert "you draw IX" in round_one(t) and "Player 1 shows IX" in round_one(t)


def test_dealer_may_not_ask_a_neighbour_by_default():                    # A15
    t = gnav("V VI VII").play("keep VI", "keep VII")
    assert not any(label.startswith("ask Player") for label in t.legal())


def test_dealer_target_bag_or_left_alternative():                        # A15 alternative
    t = gnav("V VI VII", dealer_target="bag_or_left").play("keep VI", "keep VII")
    assert "ask Player 2" in t.legal()


def test_horse_from_the_bag_is_set_aside_and_another_drawn():            # R37
    t = gnav("V VI VII", bag=["horse", "house", "IX"])
    t.play("keep VI", "keep VII")
    t.play("ask the bag")
    text = round_one(t)
    assert "the bag gives a Horse" in text and "the bag gives a House" in text
    assert "Player 1 shows IX" in text


def test_cuckoo_from_the_bag_stops_the_round_dealer_keeps_the_piece():   # R38, A17
    t = gnav("V VI VII", bag=["cuckoo"]).play("keep VI", "keep VII", "ask the bag")
    assert "Player 1 shows V" in t.text()
    assert lives(t) == [2, 3, 3]                      # V is the lowest: the normal reveal


def test_dragon_from_the_bag_costs_the_dealer_a_life():                  # R38, R39
    t = gnav("X VI VII", bag=["dragon"]).play("keep VI", "keep VII", "ask the bag")
    assert "Player 1 shows X" in t.text()
    assert lives(t) == [2, 2, 3]                      # the dragon, and VI as lowest


def test_cat_from_the_bag_undoes_the_round():                            # R38, A9
    t = gnav("X VI VII", bag=["cat"]).play("ask Player 3", "keep VI", "ask the bag")
    text = round_one(t)
    assert "Player 2 shows VI" in text and "Player 3 shows VII" in text
    assert lives(t)[0] == 2


def test_no_second_try_after_an_ordinary_result():                        # R41
    t = gnav("V VI VII", bag=["IX"]).play("keep VI", "keep VII", "ask the bag")
    assert t.var("round_no") == 2


# -- the Fools -----------------------------------------------------------------

def test_a_dealt_fool_knocks_three_times_publicly():                     # R15, A1
    t = gnav("V fool VII")
    assert "Player 2 knocks three times" in t.text()


def test_anonymous_knock_alternative():                                   # A1 alternative
    t = gnav("V fool VII", fool_knock="anonymous")
    assert "someone knocks three times" in t.text() and "Player 2 knocks" not in t.text()


def test_both_fools_dealt_the_holders_gain_a_token_and_sit_out():        # R16, R17, A2
    t = gnav("V fool VII fool")
    assert lives(t) == [3, 4, 3, 4] and t.var("reserve_used") == 2       # the pot was empty
    assert t.pvar("sitting_out", 1) and t.pvar("sitting_out", 3)
    assert t.legal() == ["keep VII", "ask Player 1"]                      # seat 3 is no target
    assert t.deciding == 2                                                # seat 1 sits out


def test_double_fool_spared_only_alternative():                           # A2 alternative
    assert lives(gnav("V fool VII fool", double_fool_award="spared_only")) == [3, 3, 3, 3]


def test_nobody_left_to_play_means_a_redeal():                            # R18, A3
    t = gnav("fool fool", bag=["V", "VI"])
    assert lives(t) == [4, 4]                         # tokens kept
    assert (piece(t, 0), piece(t, 1)) != ("fool", "fool") and not t.pvar("sitting_out", 0)


def test_cancel_tokens_alternative_takes_the_tokens_back_on_a_redeal():   # A3 alternative
    assert lives(gnav("fool fool", too_few_participants="cancel_tokens")) == [3, 3]


# -- the reveal ----------------------------------------------------------------

def _reveal(pieces, **options):
    t = gnav(pieces, **options)
    while t.var("round_no") == 1:
        t.play(t.legal()[0])                           # everybody keeps
    return t


def test_lowest_piece_loses_a_life_to_the_pot():                           # R42
    t = _reveal("V VI VII")
    assert lives(t) == [2, 3, 3] and t.var("pot") == 1


def test_tied_lowest_all_pay():                                           # R43
    assert lives(_reveal("V V VII")) == [2, 2, 3]


def test_single_fool_holder_pays_and_so_does_the_next_rank_above():       # R44, A11
    assert lives(_reveal("fool V V VII")) == [2, 2, 2, 3]


def test_next_rank_above_the_fool_may_be_a_matador():                     # A11
    assert lives(_reveal("fool horse")) == [2, 2]


def test_two_fools_at_the_reveal_are_tied_lowest_only():                  # A11
    t = gnav("V fool VII", bag=["fool"]).play("keep Fool", "keep VII", "ask the bag")
    assert lives(t) == [2, 2, 3]


def test_two_fools_next_rank_pays_too_alternative():                      # A11 alternative
    t = gnav("V fool VII", bag=["fool"], fool_penalty="next_rank_pays_too")
    t.play("keep Fool", "keep VII", "ask the bag")
    assert lives(t) == [2, 2, 2]


def test_matador_penalties_add_to_the_reveal():                           # R45
    t = gnav("X 0 dragon VIII").play("ask Player 3")
    while t.var("round_no") == 1:
        t.play(t.legal()[0])
    assert lives(t)[1] == 1


# -- elimination and the end -------------------------------------------------------

def test_penalties_beyond_the_tokens_are_debt():                          # R46
    t = gnav("V VI VII")
    t.state.pvars["lives"][0] = 0
    while t.var("round_no") == 1:
        t.play(t.legal()[0])
    assert lives(t)[0] == -1 and t.state.out[0]
    assert debt(t) == [1, 0, 0] and t.var("pot") == 0    # written on paper: no token reaches the pot
    assert "Player 1 loses a life with no token to pay it: written on paper, -1 left (1 owed), 0 in the pot" in t.text()


def test_debt_on_paper_the_pot_holds_only_tokens_paid():                 # R11, R46, A18
    # A (seat 1) has 1 life and asks for the Dragon: the token goes into the pot.  A then
    # holds the 0, the lowest piece, and loses again at the reveal with no token left.
    t = gnav("X 0 dragon VIII")
    t.state.pvars["lives"][1] = 1
    t.play("ask Player 3")
    assert lives(t)[1] == 0 and t.var("pot") == 1
    t.play("keep Dragon", "keep VIII", "keep X")
    assert "Player 2 shows 0" in round_one(t) and lives(t)[1] == -1 and t.state.out[1]
    assert t.var("pot") == 1                          # not 2: the second life is owed, not paid
    assert debt(t) == [0, 1, 0, 0]


def test_each_life_lost_with_tokens_goes_into_the_pot_then_onto_paper():  # R11, R46
    t = gnav("X 0 dragon VIII")
    t.state.pvars["lives"][1] = 2
    t.play("ask Player 3", "keep Dragon", "keep VIII", "keep X")
    assert lives(t)[1] == 0 and debt(t)[1] == 0 and t.var("pot") == 2
    t = gnav("X 0 dragon VIII")
    t.state.pvars["lives"][1] = 0
    t.play("ask Player 3", "keep Dragon", "keep VIII", "keep X")
    assert lives(t)[1] == -2 and debt(t)[1] == 2 and t.var("pot") == 0


def test_debt_is_shown_to_the_players_in_each_language():                 # R46, A16
    from interpreter import load_program
    from conftest import ruleset
    labels = {}
    for lang in ("en", "fr", "no"):
        shown = {name: label for _, name, label in load_program(ruleset("gnav"), lang=lang).shown}
        assert "debt" in shown and "lives" in shown and "pot" in shown
        labels[lang] = shown["debt"]
    assert labels == {"en": "debt on paper", "fr": "dette sur papier", "no": "gjeld på papir"}


def _in_debt(tmp_path, pieces, players, **options):
    """gnav as a table that starts every player at -1 life, 1 written on paper: only then
    can a double-Fool token reach a player in debt (otherwise debtors leave before any deal)."""
    import pathlib
    from conftest import ruleset
    from interpreter import load_program, new_game
    text = pathlib.Path(ruleset("gnav")).read_text(encoding="utf-8")
    for old, new in [("lives: {initial: 3,", "lives: {initial: -1,"), ("debt: {initial: 0,", "debt: {initial: 1,")]:
        assert text.count(old) == 1
        text = text.replace(old, new)
    path = tmp_path / "gnav_in_debt.yaml"
    path.write_text(text, encoding="utf-8")
    options.setdefault("first_dealer", "seat_1")
    t = Table.__new__(Table)
    t.program = load_program(str(path), options)
    pieces = pieces.split()
    t.state = new_game(t.program, seed=0, players=players, stacks=[pieces[1:] + pieces[:1]])
    return t


def test_a_double_fool_token_received_in_debt_pays_off_a_life_on_paper(tmp_path):   # A18, R16, A2
    t = _in_debt(tmp_path, "V fool VII fool", 4)
    # Player 2: the pot is empty, a reserve token, paid into the pot against the debt;
    # Player 4: that token from the pot, paid back into it against the debt.
    assert lives(t) == [-1, 0, -1, 0] and debt(t) == [1, 0, 1, 0]
    assert t.var("pot") == 1 and t.var("reserve_used") == 1
    assert "Player 2 pays it into the pot against the debt: 0 still on paper" in t.text()


def test_cancel_tokens_puts_a_paid_off_debt_back_on_paper(tmp_path):     # A3 (c), A18
    t = _in_debt(tmp_path, "fool fool", 2, too_few_participants="cancel_tokens")
    assert "gives back the token" in t.text()
    assert lives(t) == [-1, -1] and debt(t) == [1, 1]
    assert t.var("pot") == 0 and t.var("reserve_used") == 0


def test_eliminations_only_after_the_round():                             # R47, A12
    t = gnav("V 0 dragon VIII IX")
    t.state.pvars["lives"][1] = 1
    t.play("ask Player 3")                             # Player 2 drops to 0 but plays on
    assert not t.state.out[1]
    assert t.deciding == 2


def test_immediate_elimination_alternative():                             # A12 alternative
    t = gnav("V 0 dragon VIII IX", elimination_timing="immediate")
    t.state.pvars["lives"][1] = 1
    t.play("ask Player 3")
    assert t.state.out[1]


def test_last_player_left_wins():                                         # R48
    t = gnav("V VI")
    t.state.pvars["lives"][0] = 1
    while not t.over:
        t.play(t.legal()[0])
    assert t.winners == [1]


def test_players_going_out_together_share_the_win():                      # R48, A13
    t = gnav("V V")
    t.state.pvars["lives"][:] = [1, 1]
    t.play_out()
    assert t.winners == [0, 1]


def test_least_debt_alternative():                                        # A13 alternative
    t = gnav("V V", shared_win="least_debt")
    t.state.pvars["lives"][:] = [1, 0]
    t.play_out()
    assert lives(t) == [0, -1] and debt(t) == [0, 1]
    assert t.winners == [0]


def test_dealer_role_passes_left_skipping_the_eliminated():               # R49, A14
    t = gnav("VI V VII")
    t.state.pvars["lives"][1] = 1
    while t.var("round_no") == 1:
        t.play(t.legal()[0])
    assert t.state.out[1] and t.var("dealer") == 2


# -- whole games -----------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, pytest.param(6, marks=pytest.mark.slow), pytest.param(20, marks=pytest.mark.slow)])
def test_whole_games_end_cleanly_with_lives_and_tokens_conserved(players):
    from interpreter.playing.agents import RandomAgent
    for seed in range(15):
        t = Table("gnav", seed=seed, players=players).play_out(RandomAgent(seed))
        s = t.state
        assert t.over and 1 <= len(t.winners) <= players
        tokens = [lives + debt for lives, debt in zip(s.pvars["lives"], s.pvars["debt"])]
        assert all(n >= 0 for n in tokens) and s.vars["pot"] >= 0
        assert all(debt == max(0, -lives) for lives, debt in zip(s.pvars["lives"], s.pvars["debt"]))
        assert sum(tokens) + s.vars["pot"] == 3 * players + s.vars["reserve_used"]   # every token is somewhere


# -- hidden information -------------------------------------------------------------

def test_no_view_ever_holds_another_seats_unrevealed_piece():             # A16
    from interpreter import apply
    from interpreter.playing.agents import Decision, RandomAgent
    for seed in range(10):
        t = Table("gnav", seed=seed, players=5)
        s, p = t.state, t.program
        agent = RandomAgent(seed)
        while not s.over:
            for seat in range(5):
                hands = view(p, s, seat)["zones"]["hand"]
                for other in range(5):
                    for c, shown in zip(s.zones["hand"][other], hands[other]):
                        assert shown is None or other == seat or c in s.revealed
                assert all(x is None for x in view(p, s, seat)["zones"]["bag"])
            apply(p, s, agent.choose(Decision(p, s)))


def test_the_terminal_account_of_a_person_shows_only_what_that_seat_may_know():
    import io
    from conftest import ruleset
    from interpreter.cli import run
    out = io.StringIO()
    code = run([ruleset("gnav"), "--players", "4", "--human", "2", "--bot", "random", "--seed", "3"],
               stdin=io.StringIO("1\n" * 500), stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert code == 0
    assert "(to Player" not in text                      # nobody else's private lines
    assert "(to you) you hold" in text
    for line in text.splitlines():
        if "you hold" in line or "you receive" in line or "you draw" in line:
            assert line.startswith("(to you)")


@pytest.mark.parametrize("lang,words,absent", [
    ("fr", ["manche 1", "Joueur 1", "Résultat", "vies :"], ["round 1", "Player 1", "Result:"]),
    ("no", ["runde 1", "Spiller 1", "Resultat", "liv:"], ["round 1", "Player 1", "Result:"])])
def test_the_account_in_french_and_norwegian(lang, words, absent):
    import io
    from conftest import ruleset
    from interpreter.cli import run
    out = io.StringIO()
    assert run([ruleset("gnav"), "--players", "4", "--seed", "5", "--lang", lang], stdout=out) == 0
    text = out.getvalue()
    assert all(w in text for w in words) and not any(w in text for w in absent)
