"""A planning bot: information-set Monte Carlo tree search (single observer, with
availability counts, after Cowling, Powley and Whitehouse, 2012).

Each iteration deals the cards the bot's seat cannot see at random (Decision.imagine: no
more than the seat's view), walks down one tree shared by every such deal, picking moves
by UCB among those the deal allows, adds one move, plays the rest at random and credits
each move with what the game gave the player who made it.  The move tried most often at
the root is played.

Where the ruleset says how well a player stands mid-game (`standing`), a play-out stops at
the end of the round and each player scores by its lead over the best of the others,
squashed into 0..1 (a lead of the typical size this search has seen is worth about 0.73);
otherwise play-outs go to the end of the game, where the winners share 1.
"""
from __future__ import annotations

import math
import time

from ..errors import RulesFault
from ..runtime.engine import apply, standing
from ..runtime.state import Rng


class _Node:
    __slots__ = ("player", "visits", "avail", "total", "children")

    def __init__(self, player: int | None):
        self.player = player            # who made the move into this node
        self.visits = 0
        self.avail = 0                  # how often the move was legal when its parent was visited
        self.total = 0.0                # what the move gave its player, summed
        self.children = {}


class ISMCTSAgent:
    """Searches `iterations` times a decision, or `seconds` long, whichever ends first (either
    may be None: no bound of that kind); at least once.  With iterations alone its play is
    the same on every run of a seed; a time bound keeps a decision short in a game whose
    play-outs are long (go_fish, president), at the cost of that sameness."""

    def __init__(self, seed: int = 0, iterations: int | None = 400, seconds: float | None = None,
                 exploration: float = 0.7, max_decisions: int = 2000):
        self.rng = Rng(seed)
        self.iterations = iterations if iterations is not None or seconds else 400   # never unbounded
        self.seconds = seconds
        self.c = exploration
        self.max_decisions = max_decisions
        self._leads = [0.0, 0]          # the sum of the sizes of the leads seen, and how many

    def choose(self, decision) -> int:
        if decision.count == 1:
            return 0
        program = decision.program
        root = _Node(None)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done, most = 0, self.iterations
        while done == 0 or ((most is None or done < most) and (deadline is None or time.perf_counter() < deadline)):
            try:
                self._iterate(program, decision.imagine(self.rng), root, deadline)
            except RulesFault:          # an imagined world the rules cannot continue
                pass
            done += 1
        visits = [root.children[i].visits if i in root.children else -1 for i in range(decision.count)]
        return max(range(decision.count), key=visits.__getitem__)

    def _iterate(self, program, game, root: _Node, deadline: float | None = None) -> None:
        horizon = game.rounds if program.standing is not None else None
        node, path, rng = root, [], self.rng
        expanded = False
        while not game.over and (horizon is None or game.rounds == horizon):
            player, options, cid = game.pending
            # the root's moves by their place in the list (the same in every imagined deal,
            # whatever card an option holds that the seat cannot see); the rest by value
            keys = list(range(len(options))) if node is root else [_key(cid, o) for o in options]
            untried = []
            for i, k in enumerate(keys):
                child = node.children.get(k)
                if child is None:
                    untried.append(i)
                else:
                    child.avail += 1
            if untried:
                i = untried[rng.below(len(untried))]
                child = node.children[keys[i]] = _Node(player)
                child.avail = 1
                apply(program, game, i)
                path.append(child)
                expanded = True
                break
            i = self._best(node, keys)
            node = node.children[keys[i]]
            apply(program, game, i)
            path.append(node)
        ended = self._play_out(program, game, horizon, deadline) if expanded else ended_now(program, game)
        values = self._values(program, ended)
        for n in path:
            n.visits += 1
            n.total += values[n.player]

    def _best(self, node: _Node, keys: list) -> int:
        c, best, at = self.c, -math.inf, 0
        for i, k in enumerate(keys):
            child = node.children[k]
            score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits) \
                if child.visits else math.inf
            if score > best:
                best, at = score, i
        return at

    def _play_out(self, program, game, horizon, deadline: float | None = None) -> tuple:
        """Random moves to the end (of the round, with a standing); with a time bound, no
        further than its end (a long play-out, as in go_fish, stops there and counts as even).
        How it ended (ended_now); played in the native kernel where there is one at hand."""
        rng, n = self.rng, 0
        ended = native_play_out(program, game, rng, horizon, self.max_decisions)
        if ended is not None:
            return ended
        while not game.over and n < self.max_decisions and (horizon is None or game.rounds == horizon):
            apply(program, game, rng.below(len(game.pending[1])))
            n += 1
            if deadline is not None and n % 32 == 0 and time.perf_counter() > deadline:
                break
        return ended_now(program, game)

    def _values(self, program, ended: tuple) -> list[float]:
        """What the game gave each player: a share of the win, or their rank mid-game."""
        over, winners, values, n = ended
        if over:
            return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
        if values is None or n < 2:
            return [1.0 / n] * n
        leads = [v - max(w for q, w in enumerate(values) if q != p) for p, v in enumerate(values)]
        self._leads[0] += sum(abs(x) for x in leads)
        self._leads[1] += n
        scale = self._leads[0] / self._leads[1] or 1.0
        return [1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -x / scale)))) for x in leads]


def ended_now(program, game) -> tuple:
    """(over, winners, standing, players) of a play-out ended at `game`: the winners if the
    game is over, else each player's standing (None: the ruleset has none)."""
    if game.over:
        return True, game.result["winners"], None, len(game.players)
    return False, None, standing(program, game), len(game.players)


def native_play_out(program, game, rng, horizon, most: int):
    """The play-out of `game` in the native kernel (program.native_playouts, native/resume.py)
    where it is at hand (compiled, or asked for) and can take the state: ended_now's tuple,
    `rng` moved on as the Python play-out would move it; else None (the Python plays it)."""
    playouts = getattr(program, "native_playouts", None)
    if playouts is None or game.over or not playouts.usable():
        return None
    done = playouts.play(game, rng, horizon, most)
    if done is None:
        return None
    over, winners, values = done
    return over, winners, values, len(game.players)


def _key(cid: int, option):
    """An option as a key of the tree: the same move in every imagined deal."""
    return (cid, _frozen(option))


def _frozen(v):
    return tuple(_frozen(x) for x in v) if isinstance(v, list) else v
