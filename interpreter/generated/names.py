"""The names generated code calls besides its own: the run-time helpers put into the
namespace it runs in (the rules' errors raised as the closure back end raises them, the
effects' shared parts, the limits)."""
from __future__ import annotations

from ..errors import RulesFault
from ..limits import MAX_LIST, MAX_NUMBER, MAX_WORK
from ..runtime import effects, piles, vm
from ..runtime.state import next_seat
from .expressions import _charged


def _no_option():
    raise RulesFault("no legal option for this choice, and the step has no 'otherwise'")


def _nobody(by):
    raise RulesFault("nobody is to make this choice: outside 'turns' a choice needs 'by'"
                     if not by else "'by' names nobody (null) here")


def _not_in_zone():
    raise RulesFault("the card to move is not in the zone it should leave")


HELPERS = {"_exit_to": vm.unwind, "_no_option": _no_option, "_nobody": _nobody, "_not_in_zone": _not_in_zone,
           "_too_big": effects.too_big, "_MAXN": MAX_NUMBER, "_checks": effects.SIZE_CHECKS, "_MAXW": MAX_WORK,
           "_MAXL": MAX_LIST, "_too_many_options": vm.too_many_options,
           "_nobody_owns": effects.nobody_owns, "_current_nobody": effects.current_nobody,
           "_charge": effects.charge, "_moved": effects.moved, "_dealt": effects.dealt, "_charged": _charged,
           "RulesFault": RulesFault, "_next_seat": next_seat, "_piles_listed": piles.listed,
           "_pile_cards": piles.cards_of, "_pile_owner": piles.owner_of, "_piles_cleared": piles.cleared}