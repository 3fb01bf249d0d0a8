"""What a person types at the table, read as exactly one thing: a move, a command, or the
lines that say why it is asked again.  The rule, which the prompt and '?' state:

- a number is always the move of that number ('#3' too): never a card's rank, so '8' is
  move 8 even when 8♠ may be played, and a number with no move says so, listing the moves
  that hold a card of that rank;
- a card is named with its suit, by its id or as it is shown ('8s', '8♠'), a move by its
  label or a word of it;
- '?', 'help', 'rules', 'view', 'list' and 'hint' (or their words in the table's language)
  are commands.
"""
from __future__ import annotations

from ..messages import command, msg
from ..runtime.engine import digits_only

COMMANDS = ("help", "rules", "view", "list", "hint")
LISTED = 10             # an answer that fits more moves lists this many of them


def read_answer(answer: str, decision, labels: list, lang: str = "en", commands=frozenset(COMMANDS)):
    """('move', index), ('command', name) or ('again', lines to say) for what was typed;
    `commands`: those the table offers now (a word that is not one may name a move)."""
    text = answer.strip()
    word = text.lower()
    asked = command(lang, text)
    if asked in commands:
        return "command", asked
    if word.startswith("#") and digits_only(word[1:]):
        number = int(word[1:])
        return ("move", number - 1) if 1 <= number <= len(labels) else ("again", [msg(lang, "please", n=len(labels))])
    if digits_only(word):
        return _number(word, decision, labels, lang)
    named = decision.named(text) if text else None
    if named is not None:
        return "move", named
    matches = [i for i, label in enumerate(labels) if text and word in label.lower()]
    if not matches and text:            # '1d' for a bid shown '1♦': the letters of the deck's symbols
        spelled = _with_symbols(word, decision.program)
        matches = [i for i, label in enumerate(labels) if spelled != word and spelled in label.lower()]
    if len(matches) == 1:
        return "move", matches[0]
    if matches:
        return "again", [msg(lang, "ambiguous", answer=text, n=len(matches))] + _listed(matches, labels)
    return "again", [_refused(decision, text, lang) or msg(lang, "please", n=len(labels))]


def symbol_letters(program) -> dict:
    """letter -> symbol of the deck's symbols (`symbol`, an attribute the deck's items give),
    each named by the one short id it goes with: a standard deck's d -> ♦, s -> ♠."""
    attrs = program.deck.attrs
    if "symbol" not in attrs:
        return {}
    symbols = attrs["symbol"][1]
    out = {}
    for name, (_, values) in attrs.items():
        if name in ("symbol", "id", "display", "color") or not isinstance(values, (list, tuple)):
            continue
        pairs = {(v, sym) for v, sym in zip(values, symbols) if isinstance(v, str) and isinstance(sym, str)}
        ids = {v for v, _ in pairs}
        if pairs and len(pairs) == len(ids) == len({sym for _, sym in pairs}) and all(len(v) == 1 for v in ids):
            out.update({v.lower(): sym for v, sym in pairs if not v.isdigit()})
    return out


def _with_symbols(word: str, program) -> str:
    """`word` with a letter that ends a word and names a symbol put as the symbol ('1d' -> '1♦',
    '3nt' stays): only a letter after a digit or a card's rank, alone at the word's end."""
    letters = symbol_letters(program)
    out = []
    for part in word.split():
        if len(part) >= 2 and part[-1] in letters and not part[-2].isalpha():
            part = part[:-1] + letters[part[-1]]
        out.append(part)
    return " ".join(out)


def _number(number: str, decision, labels: list, lang: str):
    """A bare number: the move of that number, whatever else it might name; with no move of
    that number, what it might have meant (a card of that rank) is listed with its number."""
    n = int(number)
    if 1 <= n <= len(labels):
        return "move", n - 1
    named = decision.numbered(number)
    if named:
        return "again", [msg(lang, "no_move", answer=number, n=len(labels))] + _listed(sorted(named), labels)
    return "again", [_refused(decision, number, lang) or msg(lang, "please", n=len(labels))]


def _refused(decision, text: str, lang: str) -> str | None:
    """Why the move `text` names is not allowed now, in the rules' words, if it names one."""
    refused = decision.refusal(text) if text else None
    if refused is None:
        return None
    label, why = refused
    return msg(lang, "not_allowed", label=label) + (f": {why}" if why else "")


def _listed(indexes: list, labels: list) -> list:
    lines = [f"  {i + 1}. {labels[i]}" for i in indexes[:LISTED]]
    if len(indexes) > LISTED:
        lines.append(f"  ... (+{len(indexes) - LISTED})")
    return lines


def rule_of_answers(decision, labels: list, lang: str = "en") -> str:
    """The prompt's reminder of the rule: the numbers, and a card to type if the moves are cards."""
    example = decision.example_card
    if example is not None:
        return msg(lang, "rule_cards", n=len(labels), example=example)
    return msg(lang, "rule_words", n=len(labels))
