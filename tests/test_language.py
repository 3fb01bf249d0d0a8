"""General concepts of the rules language, each on a tiny inline ruleset.

The four shipped games use most of them; these tests pin down each concept on its own:
explicit card lists with copies, languages, events and triggers, turn order skipping
eliminated players, dealer rotation, top-card visibility, loops and early exits.
"""
from __future__ import annotations

import pytest

from interpreter import RulesetError, apply, load_program_text, new_game, view
from interpreter.playing.agents import Decision, FirstAgent

GAME = """
name: features
players: {min: 2, max: 5, default: 3}
languages: [en, fr]
deck:
  cards:
    - {id: low, strength: 1, name: {en: Low, fr: Bas}}
    - {id: mid, strength: 2, name: {en: Mid, fr: Moyen}}
    - {id: high, strength: 3, name: {en: High, fr: Haut}}
  copies: 3
  display: "{name}"
  zone: bag
zones:
  bag: {visibility: hidden}
  table: {visibility: top}
  hand: {per_player: true, visibility: owner}
variables:
  dealer: {type: player, initial: "player(0)"}
  rounds: 0
  played_count: 0
player_variables:
  lives: 2
events:
  played: {with: {card: card, by: player}}
triggers:
  - on: played
    when: "card.strength == 1"
    do: [add: {by.lives: -1}, log: "{by} loses a life"]
  - on: played
    do: [add: {played_count: 1}]
  - on: round_end
    do: [add: {rounds: 1}]
flow:
  round:
    - gather: {to: bag}
    - shuffle: bag
    - deal: {from: bag, to: hand, count: 1, first: dealer.left}
    - turns:
        first: dealer.left
        count: "count(active)"
        do:
          - choose: current.hand
            as: card
            label: "play {card}"
          - move: {card: card, from: current.hand, to: table}
          - log: "{current} plays {card}"
          - emit: played
            with: {card: card, by: current}
    - for_each: p
      in: active
      do:
        - if: "p.lives <= 0"
          then: [eliminate: p]
    - set: {dealer: dealer.left}
  until: "count(active) <= 1 or rounds >= 20"
result:
  winners: active
  score: p.lives
"""


def program(text=GAME, **kw):
    return load_program_text(text, "features.yaml", **kw)


def play_out(p, s):
    while not s.over:
        apply(p, s, FirstAgent().choose(Decision(p, s)))
    return s


def test_explicit_card_list_with_copies():
    p = program()
    assert p.deck.ids == ("low",) * 3 + ("mid",) * 3 + ("high",) * 3


def test_labels_in_the_chosen_language():
    assert program(lang="fr").deck.display[0] == "Bas"
    assert program().deck.display[0] == "Low"


def test_player_count_range_and_default():
    p = program()
    assert len(new_game(p).players) == 3
    assert len(new_game(p, players=5).players) == 5


def test_deal_and_first_turn_start_left_of_the_dealer():
    p = program()
    s = new_game(p, seed=1, stacks=[["high", "mid", "low"]])
    assert s.pending[0] == 1
    assert [p.deck.ids[c] for c in s.zones["hand"][1]] == ["high"]
    assert [p.deck.ids[c] for c in s.zones["hand"][0]] == ["low"]     # dealt last: the dealer


def test_emit_runs_every_matching_trigger_in_order():
    p = program()
    s = new_game(p, seed=1, stacks=[["low", "mid", "high"]])
    apply(p, s, 0)                        # player 2 plays the low card
    assert s.pvars["lives"] == [2, 1, 2] and s.vars["played_count"] == 1
    assert "Player 2 loses a life" in [e.get("text") for e in s.log]


def test_builtin_round_end_event():
    p = program()
    s = new_game(p, seed=1)
    for _ in range(3):
        apply(p, s, 0)
    assert s.vars["rounds"] == 1


def test_turns_skip_eliminated_players_and_dealer_rotates():
    p = program()
    # Player 3 (seat 2) is dealt the low card twice, loses both lives and is out.
    s = new_game(p, seed=1, stacks=[["high", "low", "mid"], ["low", "high", "mid"]])
    deciders = []
    while not s.over and len(deciders) < 12:
        deciders.append(s.pending[0])
        apply(p, s, 0)
    assert deciders[:3] == [1, 2, 0]          # round 1: dealer is seat 0, seat 1 starts
    assert deciders[3:6] == [2, 0, 1]         # round 2: the deal passed to seat 1
    assert s.out[2]
    assert deciders[6:8] == [1, 0]            # round 3: the deal skips seat 2 and goes to seat 0
    assert 2 not in deciders[6:]


def test_top_visibility_shows_only_the_top_card():
    p = program()
    s = new_game(p, seed=1)
    apply(p, s, 0)
    apply(p, s, 0)
    table = view(p, s, 0)["zones"]["table"]
    assert table[0] is None and table[-1] is not None


def test_whole_games_end_with_the_survivor_winning():
    p = program()
    for seed in range(10):
        s = play_out(p, new_game(p, seed=seed))
        assert len(s.result["winners"]) <= 1 and s.result["scores"] is not None


EXITS = """
name: exits
players: 2
deck: {cards: [a, b, c, d], zone: pile}
zones: {pile: {visibility: public}, hand: {per_player: true}}
variables: {n: 0, loops: 0}
flow:
  round:
    - while: "loops < 3"
      do: [add: {loops: 1}]
    - repeat:
        - add: {n: 1}
        - if: "n % 2 == 0"
          then: [end_round]
      until: "n >= 10"
  until: "n >= 4"
  end:
    - log: "done at {n}"
result:
  winners: "[player(0)] if n == 4 else []"
"""


def test_while_repeat_end_round_and_flow_until():
    p = program(EXITS)
    s = new_game(p)
    assert s.over and s.vars["loops"] == 3 and s.vars["n"] == 4 and s.result["winners"] == [0]
    assert s.log[-1]["text"] == "done at 4"


def test_end_game_leaves_at_once():
    p = program(EXITS.replace("then: [end_round]", "then: [end_game]"))
    s = new_game(p)
    assert s.over and s.vars["n"] == 2


def test_choice_with_no_option_runs_otherwise():
    text = EXITS.replace("""    - while: "loops < 3"
      do: [add: {loops: 1}]""", """    - choose: "filter(pile, c => false)"
      as: x
      otherwise: [set: {loops: 7}]""")
    s = new_game(program(text))
    assert s.vars["loops"] == 7


def test_endless_rules_hit_the_step_limit_with_a_clear_error():
    from interpreter import RulesFault
    text = EXITS.replace('while: "loops < 3"', 'while: "true"').replace("flow:", "flow:\n  max_steps: 1000")
    with pytest.raises(RulesFault, match="more than 1000 steps"):
        new_game(program(text))


def test_unknown_names_are_reported_together_with_positions():
    text = GAME.replace("add: {rounds: 1}", "add: {roundz: 1}").replace("card.strength == 1", "card.strenght == 1")
    with pytest.raises(RulesetError) as e:
        program(text)
    messages = [str(p) for p in e.value.problems]
    assert len(messages) == 2
    assert any("features.yaml:" in m and "did you mean 'strength'" in m for m in messages)
    assert any("did you mean 'rounds'" in m for m in messages)


BID = """name: bid
players: 2
deck: {cards: [a, b, c, d, e, f], zone: stock}
zones: {stock: {visibility: hidden}, hand: {per_player: true, visibility: owner}}
player_variables:
  bid: {type: number, initial: null}
flow:
  round:
    - deal: {from: stock, to: hand, count: 3}
    - choose: "range(0, count(players[0].hand) + 1)"
      by: player(0)
      as: n
      label: "bid {n}"
    - set: {"players[0].bid": n}
    - choose: "players[0].hand[1:]"
      by: player(0)
      as: c
      label: "keep {c}"
    - end_game
result: {winners: "[]"}
"""


def test_a_bid_is_chosen_from_a_range_of_numbers_and_a_card_from_a_slice_of_a_hand():
    from interpreter import apply, new_game
    from interpreter.pipeline import load_program_text
    from interpreter.runtime.engine import labels
    program = load_program_text(BID, "bid.yaml")
    s = new_game(program, seed=1)
    assert labels(program, s) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    apply(program, s, 2)
    assert s.pvars["bid"][0] == 2
    hand = s.zones["hand"][0]
    assert labels(program, s) == [f"keep {program.deck.display[c]}" for c in hand[1:]]


AWARD = """name: award
players: 2
deck: {cards: [a, b, c, d], zone: stock}
zones: {stock: {visibility: hidden}}
player_variables:
  score: 0
procedures:
  award:
    params: {who: player, points: number}
    do: [add: {who.score: points}]
flow:
  round:
    - call: award
      with: {who: "player(1)", points: 2}
    - call: award
      with: {who: "player(0)", points: "3 + 4"}
    - choose: [1]
      by: player(0)
    - end_game
result: {winners: "[]"}
"""


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_a_procedure_takes_parameters_given_with_the_call(backend):
    from interpreter import new_game
    from interpreter.pipeline import load_program_text
    program = load_program_text(AWARD, "award.yaml", backend=backend)
    s = new_game(program, seed=1)
    assert s.pvars["score"] == [7, 2]


SETS = """name: sets
players: 2
deck:
  product:
    suit: [{id: C}, {id: H}]
    rank: [{id: "7"}, {id: "8"}]
  id: "{rank}{suit}"
  zone: stock
zones: {stock: {visibility: hidden}, hand: {per_player: true, visibility: owner}, pile: {visibility: public}}
flow:
  round:
    - deal: {from: stock, to: hand, count: 2}
    - choose: "filter(subsets(players[0].hand), s => all(s, x => all(s, y => x.rank == y.rank)))"
      by: player(0)
      as: played
      label: "play {played}"
    - move: {cards: played, from: "players[0].hand", to: pile}
    - choose: [1]
      by: player(0)
    - end_game
result: {winners: "[]"}
"""


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_several_cards_of_one_rank_are_one_choice_from_the_subsets_of_a_hand(backend):
    from interpreter import apply, new_game
    from interpreter.pipeline import load_program_text
    from interpreter.runtime.engine import labels
    program = load_program_text(SETS, "sets.yaml", backend=backend)
    s = new_game(program, seed=3)
    hand = [program.deck.ids[c] for c in s.zones["hand"][0]]
    options = labels(program, s)
    same = hand[0][:-1] == hand[1][:-1]
    assert len(options) == (3 if same else 2)
    apply(program, s, len(options) - 1)
    assert len(s.zones["pile"]) == (2 if same else 1)

KINDS = """
name: kinds
players: 2
deck:
  product:
    suit: [{id: a}, {id: b}]
    rank: [{id: "1", n: 1}, {id: "2", n: 2}, {id: "3", n: 3}, {id: "4", n: 4}]
  id: "{rank}{suit}"
  zone: stock
zones:
  stock: {visibility: hidden}
  pile: {visibility: public}
  hand: {per_player: true, visibility: owner}
variables:
  passes: 0
  asked: 0
flow:
  round:
    - deal: {from: stock, to: hand, count: 2}
    - turns:
        until: "passes >= 2 or any(players, p => count(p.hand) == 0)"
        do:
          - choose:
              - from: current.hand
                as: card
                where: "count(pile) == 0 or card.n > top(pile).n"
                label: "play {card}"
                refusal: "{card} is lower than the pile"
                do:
                  - move: {card: card, from: current.hand, to: pile}
                  - set: {passes: 0}
              - option: draw
                when: "count(stock) > 0"
                do: [move: {from: stock, to: current.hand, count: 1}]
              - from: {who: "filter(players, p => p != current)", n: "range(1, 3)"}
                label: "ask {who} for {n}"
                do: [add: {asked: n}]
              - option: pass
                do: [add: {passes: 1}]
            prompt: Play, draw, ask or pass
  until: "true"
result:
  winners: "filter(players, p => count(p.hand) == 0)"
"""


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_one_choice_offers_options_of_different_kinds_each_with_its_own_steps(backend):
    from interpreter.runtime.engine import labels, refusal
    p = load_program_text(KINDS, "kinds.yaml", backend=backend)
    s = new_game(p, seed=1)              # no shuffle: Player 1 holds 4b 2b, Player 2 3b 1b
    assert labels(p, s) == ["play 4b", "play 2b", "draw", "ask Player 2 for 1", "ask Player 2 for 2", "pass"]
    apply(p, s, 0)                                              # Player 1 plays 4b
    assert [p.deck.ids[c] for c in s.zones["pile"]] == ["4b"]
    assert labels(p, s) == ["draw", "ask Player 1 for 1", "ask Player 1 for 2", "pass"]
    assert refusal(p, s, "3b") == ("play 3b", "3b is lower than the pile")
    apply(p, s, 2)                                              # Player 2 asks for 2
    assert s.vars["asked"] == 2
    apply(p, s, 0)                                              # Player 1 draws
    assert len(s.zones["hand"][0]) == 2


def test_a_random_player_is_uniform_over_the_moves_of_a_choice_among_kinds():
    p = load_program_text(KINDS, "kinds.yaml")
    s = new_game(p, seed=1)              # no shuffle: Player 1 holds 4b 2b, Player 2 3b 1b
    assert len(s.pending[1]) == 6          # two cards, a draw, two questions, a pass: one list


PAIRS = """
name: pairs
players: 3
deck: {cards: [a, b, c], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  asked: {type: player, initial: null}
  wanted: 0
flow:
  round:
    - choose: {who: "filter(players, p => p != player(0))", n: "range(1, 4)"}
      where: "n != 2"
      label: "ask {who} for {n}"
      by: player(0)
    - set: {asked: who, wanted: n}
    - end_game
result: {winners: "[asked]"}
"""


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_a_choice_over_combinations_binds_each_name_for_the_steps_after_it(backend):
    from interpreter.runtime.engine import labels
    p = load_program_text(PAIRS, "pairs.yaml", backend=backend)
    s = new_game(p, seed=1)
    assert labels(p, s) == ["ask Player 2 for 1", "ask Player 2 for 3", "ask Player 3 for 1", "ask Player 3 for 3"]
    apply(p, s, 3)
    assert (s.vars["asked"], s.vars["wanted"]) == (2, 3)


PASSING = """
name: passing
players: 3
deck: {cards: [a, b, c], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  turns_taken: 0
flow:
  round:
    - turns:
        first: player(0)
        count: 3
        do:
          - choose: [go]
            label: "{current} goes"
          - add: {turns_taken: 1}
          - if: "turns_taken == 1"
            then: [set: {current: player(1)}, log: "the turn passes to {current}"]
  until: "true"
result: {winners: "[current]"}
"""


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_setting_current_passes_the_turn_and_the_next_turn_follows_from_that_player(backend):
    from interpreter.runtime.engine import labels
    p = load_program_text(PASSING, "passing.yaml", backend=backend)
    s = new_game(p, seed=1)
    seen = []
    while not s.over:
        seen.append(labels(p, s)[0])
        apply(p, s, 0)
    assert seen == ["Player 1 goes", "Player 3 goes", "Player 1 goes"]
    assert any("the turn passes to Player 2" in str(e) for e in s.log)


def test_current_is_set_to_a_player_not_added_to():
    with pytest.raises(RulesetError) as e:
        load_program_text(PASSING.replace("set: {current: player(1)}", "add: {current: 1}"), "passing.yaml")
    assert "'current' is a player: set it, do not add to it" in str(e.value)


PHASED = """
name: phased
players: 2
deck: {cards: [a, b, c], zone: stock}
zones: {stock: {visibility: hidden}}
player_variables:
  score: 0
flow:
  round:
    - for_each: p
      in: players
      do:
        - choose: [1, 2, 3]
          as: n
          by: p
          label: "score {n}"
        - add: {p.score: n}
    - log: "round {phase_round} of the {phase}"
  phases:
    race:
      begin: [log: "the race begins"]
      until: "any(players, p => p.score >= 6)"
      then: "'overtime' if min(players, p => p.score) == max(players, p => p.score) else null"
    overtime:
      begin: [log: "tied: overtime"]
      round:
        - for_each: p
          in: players
          do: [add: {p.score: 1}]
        - log: "overtime round {phase_round}"
      until: "phase_round >= 2"
      end: [log: "overtime is over"]
  end:
    - log: "the game is over"
result:
  winners: "filter(players, p => p.score == max(players, q => q.score))"
"""


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_phases_follow_one_another_each_with_its_rounds_end_condition_and_successor(backend):
    p = load_program_text(PHASED, "phased.yaml", backend=backend)
    s = new_game(p, seed=1)
    while not s.over:
        apply(p, s, 1)                  # everybody scores 2: tied at 6 after three rounds
    assert [e["text"] for e in s.log if e.get("text")] == [
        "the race begins", "round 1 of the race", "round 2 of the race", "round 3 of the race",
        "tied: overtime", "overtime round 1", "overtime round 2", "overtime is over", "the game is over"]
    assert s.vars["phase"] is None and s.pvars["score"] == [8, 8]


def test_a_phase_that_ends_untied_ends_the_game():
    p = load_program_text(PHASED, "phased.yaml")
    s = new_game(p, seed=1)
    while not s.over:
        apply(p, s, 2 if s.pending[0] == 0 else 0)      # Player 1 scores 3, Player 2 scores 1
    texts = [e["text"] for e in s.log if e.get("text")]
    assert "tied: overtime" not in texts and texts[-1] == "the game is over" and s.pvars["score"] == [6, 2]


SAID = """
name: said
players: 2
languages: [en, fr]
deck: {cards: [a, b, c], zone: stock}
zones: {stock: {visibility: hidden}}
player_variables:
  lives: 3
texts:
  loses:
    en: "{who} loses {n} {'life' if n == 1 else 'lives'}: {who.lives} left"
    fr: "{who} perd {n} {'vie' if n == 1 else 'vies'} : il en reste {who.lives}"
  pick: {en: "How many lives does {who} lose?", fr: "Combien de vies {who} perd-il ?"}
flow:
  round:
    - choose: [1, 2]
      as: n
      by: player(0)
      prompt: {say: pick, with: {who: player(1)}}
    - add: {"player(1).lives": "-n"}
    - log: {say: loses, with: {who: player(1), n: n}}
  until: "true"
result: {winners: "[]"}
"""


@pytest.mark.parametrize("lang,asked,said", [
    ("en", "How many lives does Player 2 lose?", "Player 2 loses 2 lives: 1 left"),
    ("fr", "Combien de vies Joueur 2 perd-il ?", "Joueur 2 perd 2 vies : il en reste 1")])
@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_a_text_of_the_catalogue_is_said_with_values_computed_once_in_each_language(backend, lang, asked, said):
    from interpreter.runtime.engine import prompt
    p = load_program_text(SAID, "said.yaml", backend=backend, lang=lang)
    s = new_game(p, seed=1)
    assert prompt(p, s) == asked                  # a prompt is a text like any other: its {parts} are filled in
    apply(p, s, 1)
    assert [e["text"] for e in s.log if e.get("text")] == [said]
    assert "who" not in s.locals                   # the names `with` gave are gone once the text is said


RESTART = """
name: restart
players: 3
deck: {cards: [a, b, c], zone: stock}
zones: {stock: {visibility: hidden}}
variables:
  restarted: false
flow:
  round:
    - turns:
        ORDER
        do:
          - choose: [go]
            label: "{current} goes"
          - if: "current == player(1) and not restarted"
            then: [set: {restarted: true}, restart_turns, log: "the turns start again"]
          - log: "{current}'s turn ends"
  until: "true"
result: {winners: "[]"}
"""


@pytest.mark.parametrize("order", ["first: player(0)\n        count: 3", "order: players"])
@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_restart_turns_starts_the_turns_again_once_the_turn_ends(backend, order):
    from interpreter.runtime.engine import labels
    p = load_program_text(RESTART.replace("ORDER", order), "restart.yaml", backend=backend)
    s = new_game(p, seed=1)
    seen = []
    while not s.over:
        seen.append(labels(p, s)[0])
        apply(p, s, 0)
    assert seen == ["Player 1 goes", "Player 2 goes", "Player 1 goes", "Player 2 goes", "Player 3 goes"]
    texts = [e["text"] for e in s.log if e.get("text")]
    assert texts[:3] == ["Player 1's turn ends", "the turns start again", "Player 2's turn ends"]


def test_a_text_shows_a_list_of_lists_of_cards_as_cards():
    p = load_program_text("""
name: nested
players: 2
deck: {cards: [{id: a}, {id: b}, {id: c}], zone: stock}
zones: {stock: {visibility: public}}
flow: {round: [log: "pairs: {subsets(stock, 2, 2)}"]}
result: {winners: "[]"}
""", "nested.yaml")
    s = new_game(p, seed=1)
    assert [e["text"] for e in s.log if e.get("text")] == ["pairs: a b, a c, b c"]


@pytest.mark.parametrize("backend", ["closures", "generated"])
def test_a_later_list_of_a_combination_may_read_the_names_before_it(backend):
    from interpreter.runtime.engine import labels
    text = PAIRS.replace('{who: "filter(players, p => p != player(0))", n: "range(1, 4)"}',
                         '{n: "range(1, 4)", m: "range(0, n)"}').replace('where: "n != 2"', 'where: "m != 1"') \
        .replace('label: "ask {who} for {n}"', 'label: "{n} and {m}"').replace("asked: who, ", "")
    p = load_program_text(text, "pairs.yaml", backend=backend)
    s = new_game(p, seed=1)
    assert labels(p, s) == ["1 and 0", "2 and 0", "3 and 0", "3 and 2"]
