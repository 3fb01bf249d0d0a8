"""The rules as a player reads them (`interpret rules GAME`, '?' at the table): what you do,
how you win and the conventions in force, each in words, in the table's language where the
ruleset has it (English where it has not), reflowed to the reader's width without breaking
a word.  Where the rules come from and how the original rules were read is for designers
(docs/games/*.md), named and never shown."""
from __future__ import annotations

import functools
import io
import os
import re

import pytest

from conftest import ruleset
from interpreter import load_program, pipeline
from interpreter.cli.main import run
from interpreter.errors import RulesetError
from interpreter.authoring.rules_text import rules_lines, summary_lines, wrapped
from interpreter.source.shipped import shipped_names

GAMES = shipped_names()
# what reads like an analysis of a source text, not like rules for players
SOURCE_ANALYSIS = ("Source:", ".txt", "seed", "glitch", "mistranslat", "digest", "Ambiguit", "## ",
                   "(convention", "convention A", "the rule text", "literally", "(R1", "C1)")


def _call(*argv, stdin="", stdout=None, columns=None, monkeypatch=None):
    if monkeypatch is not None:
        if columns is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", str(columns))
    out, err = stdout or io.StringIO(), io.StringIO()
    code = run(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _flat(text: str) -> str:
    return " ".join(text.split())


def _rules(game: str, *more, monkeypatch=None, columns=1000) -> str:
    """`interpret rules GAME ...` at a width of `columns` (each asked once: loading takes time)."""
    return _rules_at(game, tuple(more), columns)


@functools.lru_cache(maxsize=None)
def _rules_at(game: str, more: tuple, columns: int) -> str:
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(columns)
    try:
        code, out, err = _call("rules", game, *more)
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    assert code == 0, err
    return out


@functools.lru_cache(maxsize=None)
def _program(game: str, lang: str | None = None):
    return load_program(ruleset(game), lang=lang)


@pytest.mark.parametrize("game", GAMES)
def test_a_shipped_games_rules_hold_no_analysis_of_a_source_text(game, monkeypatch):
    out = _rules(game, monkeypatch=monkeypatch)
    body = out[:out.index("Notes for designers")]        # the last line names the designer notes
    assert [word for word in SOURCE_ANALYSIS if word.lower() in body.lower()] == []
    assert "docs/games" not in body


@pytest.mark.parametrize("game", GAMES)
def test_a_shipped_games_rules_say_what_you_do_and_how_you_win(game, monkeypatch):
    out = _rules(game, monkeypatch=monkeypatch)
    parts = out.split("\n\n")
    goal = next(p for p in parts if p.startswith("How to win\n"))
    assert re.search(r"\b(win|wins|lose|loses|durak)\b", goal)
    play = next(p for p in parts if p.startswith("How to play\n"))
    rules = next(p for p in parts if p.startswith("The rules\n"))
    assert len(play.split()) > 15 and rules.count("\n- ") >= 5


@pytest.mark.parametrize("game", GAMES)
def test_each_convention_in_force_is_a_line_in_words(game, monkeypatch):
    """A line per option: its question and the choice in force in the words of its
    explanation; no option=value, no option's name."""
    program = _program(game)
    out = _rules(game)
    for name, spec in program.option_specs.items():
        question = re.sub(r"\s*\([^()]*\.md\)\s*$", "", spec["description"])
        meaning = (spec.get("explain") or {}).get(str(program.options[name]).lower()
                                                   if isinstance(program.options[name], bool)
                                                   else str(program.options[name]), "")
        assert f"- {question} {meaning}".rstrip() in out.splitlines()
        assert f"{name}=" not in out


def test_a_house_rule_shows_its_choice_in_words(monkeypatch):
    out = _rules("ninety_nine", "--option", "loss_threshold=exceed", monkeypatch=monkeypatch, columns=1000)
    assert "- Does exactly 99 lose, or only going over 99? classic rule: 99 is allowed, only going over loses" in out


def test_the_rules_in_danish_are_danish_where_the_ruleset_has_danish(monkeypatch):
    out = _rules("ninety_nine", "--lang", "da", monkeypatch=monkeypatch, columns=1000)
    for danish in ("Spillere: 2", "Sådan spiller man", "Sådan vinder man", "Reglerne", "Bordkonventioner",
                   "Vær ikke den, der får summen til at nå 99", "- Taber præcis 99, eller kun at komme over 99? 99 taber",
                   "Kort (40):", "Steder:", "Noter til spildesignere"):
        assert danish in out
    for english in ("Players", "How to", "The rules", "Table conventions", "Does exactly 99 lose", "most faithful", "Zones"):
        assert english not in out


@pytest.mark.parametrize("game, lang, heading", [("hearts2", "el", "Οι κανόνες"), ("gnav", "fr", "Les règles"),
                                                 ("gnav", "no", "Reglene")])
def test_where_a_ruleset_lacks_a_translation_its_english_text_is_shown(game, lang, heading, monkeypatch):
    """hearts2 and gnav give what you do and how you win in each of their languages, their
    whole rules in English only: those are shown in English, under the language's headings."""
    out = _rules(game, "--lang", lang, monkeypatch=monkeypatch)
    english, own = _program(game).guide, _program(game, lang).guide
    assert own["goal"] != english["goal"] and _flat(own["goal"]) in _flat(out)
    assert f"\n{heading}\n" in out and _flat(english["rules"]) in _flat(out)
    assert "{'en'" not in out and "{'" not in out


def test_an_options_description_and_explanation_may_be_given_per_language():
    text = """name: t
languages: [en, da]
players: 2
options:
  speed:
    description: {en: "How fast?", da: "Hvor hurtigt?"}
    choices: [slow, fast]
    default: slow
    explain: {slow: {en: "slowly", da: "langsomt"}, fast: "fast"}
how_to_play: {play: {en: "Take a card.", da: "Tag et kort."}, goal: "Take the last card."}
deck: {cards: [a, b], zone: stock}
zones: {stock: {visibility: hidden}}
flow: {round: [end_game]}
result: {winners: "[]"}
"""
    danish = pipeline.load_program_text(text, "t.yaml", lang="da")
    assert danish.option_specs["speed"]["description"] == "Hvor hurtigt?"
    assert danish.option_specs["speed"]["explain"] == {"slow": "langsomt", "fast": "fast"}
    assert "- Hvor hurtigt? langsomt" in rules_lines(danish)
    assert "Tag et kort." in summary_lines(danish) and "Sådan vinder man: Take the last card." in summary_lines(danish)
    with pytest.raises(RulesetError) as e:
        pipeline.load_program_text(text.replace(', goal: "Take the last card."', ""), "t.yaml")
    assert "goal" in str(e.value) and "t.yaml:" in str(e.value)


# -- '?' at the table -------------------------------------------------------------

def _question_mark(game, *more, monkeypatch):
    code, out, err = _call(game, "--seed", "3", "--human", "1", "--plain", *more, stdin="?\n",
                           columns=80, monkeypatch=monkeypatch)
    assert code == 2, err               # the input ends at the next prompt
    start = out.index("]: ") + 3
    return out[start:out.index("]: ", start)]


def test_a_question_mark_shows_play_goal_and_commands_and_points_to_rules(monkeypatch):
    said = _question_mark("hearts2", monkeypatch=monkeypatch)
    program = _program("hearts2")
    assert _flat(program.guide["play"]) in _flat(said) and _flat(program.guide["goal"]) in _flat(said)
    assert "'view'" in said and "'hint'" in said and "Type 'rules' for the whole rules of the game." in said
    assert len(said.splitlines()) <= 12         # short: the conventions are for 'rules'
    assert "Which queen" not in said


def test_a_question_mark_names_the_house_rules_in_force_in_words(monkeypatch):
    said = _question_mark("hearts2", "--option", "target_score=60", monkeypatch=monkeypatch)
    assert "House rules in force:" in said and "At what score does a player lose the match? 60" in _flat(said)


def test_a_question_mark_in_danish_is_danish(monkeypatch):
    said = _question_mark("ninety_nine", "--lang", "da", monkeypatch=monkeypatch)
    for danish in ("»vis«", "»råd«", "Spillere: 2", "Sådan vinder man:", "To spillere lægger kort til én fælles sum",
                   "Skriv »regler« for alle spillets regler."):
        assert danish in _flat(said)
    for english in ("Players", "'view'", "'hint'", "Type", "How to win", "rules"):
        assert english not in said.replace("»regler«", "")


def test_the_commands_may_be_typed_in_the_tables_language_or_in_english(monkeypatch):
    code, out, _ = _call("ninety_nine", "--seed", "3", "--human", "1", "--plain", "--lang", "da",
                         stdin="vis\nregler\nview\n", monkeypatch=monkeypatch)
    assert out.count("-- din tur, Spiller 1 --") == 3          # 'vis' and 'view' showed the table again
    assert "Sådan spiller man" in out and "Bordkonventioner" in out
    assert "Skriv et tal" not in out                            # no command was taken for a move


def test_a_game_left_in_danish_says_so_in_danish(monkeypatch):
    code, out, _ = _call("ninety_nine", "--seed", "3", "--human", "1", "--plain", "--lang", "da", stdin="",
                         monkeypatch=monkeypatch)
    assert code == 2 and "spillet blev afbrudt (input sluttede); 1 valg er gemt. Fortsæt med: interpret resume" in out


# -- the width ------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_the_rules_wrapped_to_a_narrow_width_keep_every_word_whole(game):
    wide = _rules(game)                                    # as `interpret rules` prints it
    narrow = "\n".join(rules_lines(_program(game), 28))
    assert narrow.split() == wide.split()                 # the same words, none cut in two
    assert all(len(line) <= 28 or len(line.split()) == 1 for line in narrow.splitlines())
    assert max(map(len, wide.splitlines())) > 28          # there was something to wrap


def test_a_wrapped_item_goes_on_under_its_text():
    lines = wrapped(["- Players. Two players, one deck of 52 cards; 2 is low"], 20)
    assert lines == ["- Players. Two", "  players, one deck", "  of 52 cards; 2 is", "  low"]
    assert wrapped(["unbreakable" * 5], 10) == ["unbreakable" * 5]


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_at_a_terminal_what_the_table_says_is_wrapped_to_its_width_without_breaking_a_word(monkeypatch):
    term = _Terminal()
    _call("ninety_nine", "--seed", "3", "--human", "1", "--lang", "da", stdin="?\n", stdout=term,
          columns=40, monkeypatch=monkeypatch)
    plain = io.StringIO()
    _call("ninety_nine", "--seed", "3", "--human", "1", "--lang", "da", "--plain", stdin="?\n", stdout=plain,
          columns=1000, monkeypatch=monkeypatch)
    help_line = [line for line in plain.getvalue().splitlines() if "»vis«" in line][0]
    shown = term.getvalue()
    at = shown.index("Et tal vælger")
    said = shown[at:shown.index("Nioghalvfems for to", at)]           # the help, then the rules in short
    assert said.split() == help_line[help_line.index("Et tal vælger"):].split()
    assert len(said.splitlines()) > 1 and all(len(line) <= 40 for line in said.splitlines())


def test_a_house_rules_own_rules_file_is_shown_after_the_rules_of_its_base(tmp_path, monkeypatch):
    (tmp_path / "house.md").write_text("# Our house\n\nThe loser shuffles.\n")
    (tmp_path / "house.yaml").write_text(f"extends: {ruleset('hearts2')}\nrules_file: house.md\n")
    out = _rules(str(tmp_path / "house.yaml"), monkeypatch=monkeypatch)
    assert "\nThe rules\n" in out and out.rstrip().endswith("# Our house\n\nThe loser shuffles.")


@pytest.mark.parametrize("game", GAMES)
def test_no_choice_of_any_option_reads_like_an_analysis_of_a_source_text(game):
    """What a convention says at the table, under any of its choices (a house rule picks one)."""
    for lang in _program(game).languages:
        specs = _program(game, lang).option_specs
        texts = [re.sub(r"\s*\([^()]*\.md\)\s*$", "", spec["description"]) for spec in specs.values()]
        texts += [line for spec in specs.values() for line in (spec.get("explain") or {}).values()]
        assert [t for t in texts if any(word.lower() in t.lower() for word in SOURCE_ANALYSIS + ("translation", "--option"))] == []


@pytest.mark.parametrize("game", GAMES)
def test_no_sentence_of_the_rules_lost_a_word_where_a_reference_was_taken_out(game):
    """When the R.. references were taken out of the rules, "by the trump order of R3;"
    became "by the trump order of;" (euchre): no line ends a phrase on a preposition."""
    text = _flat(_rules(game))
    assert not re.search(r".{0,40}\b(of|by|see|under|as in)\s*[;,)]", text)


def test_the_danish_zones_read_right_whatever_the_zones_gender():
    """trækbunke and bunke are common gender: "ingen ser det" read wrongly; the words name the cards."""
    text = _flat(_rules("ninety_nine", "--lang", "da"))
    assert "ingen ser kortene" in text and "hver spiller ser sine egne kort" in text and "én til hver spiller" in text
    assert "ser det)" not in text and "sit eget" not in text


def test_at_a_terminal_the_prompt_is_wrapped_at_spaces_too(monkeypatch):
    term = _Terminal()
    _call("ninety_nine", "--seed", "3", "--human", "1", "--lang", "da", "--bot", "random", stdin="", stdout=term,
          columns=30, monkeypatch=monkeypatch)
    shown = term.getvalue()
    at = shown.rindex("Spil et kort")
    prompt = shown[at:shown.index("]:", at) + 2]
    assert len(prompt.splitlines()) > 1 and all(len(line) <= 30 for line in prompt.splitlines())
    assert "hjælp]:" in prompt.splitlines()[-1]
