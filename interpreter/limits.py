"""The documented limits on what the interpreter reads, in one place.

Every input file (ruleset, scenario, record) and every resource it can make the
interpreter spend is bounded: a file over a limit gets a positioned problem
(`file:line:col: what is wrong`), never a traceback, a hang or a memory blow-up.
Other modules import these names; keep them stable.  Add a limit of your own
here with a line saying what it bounds and where it is enforced.

The shipped rulesets are far inside every limit (the largest is 25 KB, 14 levels
deep, with strings of at most 300 characters and lists of at most 21 items; a
record of a 20-player game of the largest is 23 KB with 333 decisions).
"""
from __future__ import annotations

# -- files (enforced in loader.read_bytes, before anything is parsed) ------------------
MAX_FILE_BYTES = 1024 * 1024          # 1 MiB: larger files are refused before they are read;
                                      # only regular files are read (no devices, FIFOs, sockets)

# -- YAML structure (enforced in loader._Loader while composing, and loader._Builder) ---
MAX_NESTING = 64                      # lists and mappings inside one another, aliases included
MAX_ALIASES = 1_000                   # alias uses (`*name`) in one file
MAX_ALIAS_EXPANSION = 10_000          # values copied by aliases in one file (the "billion laughs" stop here)
MAX_STRING = 10_000                   # characters in one string (a value or a key)
MAX_LIST = 10_000                     # items in one list
MAX_KEYS = 10_000                     # entries in one mapping
MAX_VALUES = 100_000                  # values (scalars, lists, mappings) in one file, before aliases

# -- numbers (enforced in loader: an integer or a float read from a file) ---------------
MAX_NUMBER = 10 ** 18                 # |n| must be below this; floats must also be finite
MAX_NUMBER_TEXT = 64                  # characters of a number's text (checked before it is converted)

# -- games a scenario or a record describes (interpreter.check_players, records.program_of)
MAX_PLAYERS = 100                     # players at one table, whatever a ruleset allows
MAX_PLAYOUTS = 1_000                  # play-outs per option of the mc bot a record names
MAX_ITERATIONS = 100_000              # iterations a decision of the ismcts bot
MAX_THINK = 600.0                     # seconds a decision of the ismcts bot (--think)
MAX_JOBS = 64                         # worker processes of `simulate --jobs` (cli.main, simulation.simulate)

# -- rulesets (enforced by the schema and the compiler) ------------------------------------
MAX_CARDS = 5_000                     # cards in a deck, copies included (deck.py)
MAX_RULESET_PLAYERS = 100             # players a ruleset may allow (schema: players.maximum)
MAX_STEPS = 10_000_000                # the highest flow.max_steps a ruleset may set (schema); default 1,000,000
DEFAULT_MAX_STEPS = 1_000_000              # steps between two decisions when a ruleset gives no flow.max_steps

# -- values while a game runs (enforced in effects.py when a variable is set or added to) -
# A number outside +-MAX_NUMBER (or not finite), a text longer than MAX_STRING or a list
# longer than MAX_LIST stops the game with a positioned rules error.

# -- expressions (enforced in lang/syntax.py and check/expressions.py) ----------------------
MAX_EXPR_LENGTH = 4_000               # characters in one expression (expr.parse)
MAX_EXPR_DEPTH = 60                   # levels of nesting in one expression, the bodies of the
                                      # functions it calls included (ExprChecker.node)
PYTHON_STACK = 4_000                  # Python's recursion limit while checking: nested bodies of
                                      # functions (4 * MAX_EXPR_DEPTH levels) need more than its
                                      # default 1,000; raised, never lowered (deep_enough_stack)
MAX_EXPR_NODES = 5_000                # parts of one expression, each call counting its function's
                                      # body (summarised once per function: ExprChecker.node)
MAX_EXPR_NUMBER = MAX_NUMBER          # |n| of a number written in an expression must be below
                                      # this, and its text at most MAX_NUMBER_TEXT characters (at load time)
MAX_NAME_PARTS = 20                   # {...} parts in a player_name, each made for every seat (check/texts.py)
MAX_WORK = 10_000_000                 # elements the built-ins (count, sum, filter, map, any, in, list +, ...)
                                      # may visit between two decisions (engine.run resets State.work)

# -- the account of a game (enforced in effects.py, by log and reveal) ---------------------
MAX_LOG_TEXT = 1_000                  # characters in one log text
MAX_LOG_ENTRIES = 100_000             # entries in one game's account (texts, moves, reveals, decisions, ...)
MAX_ACCOUNT = 20_000_000              # characters written, cards noted and work spent on texts, in one game's account


def deep_enough_stack() -> None:
    """The one place the interpreter changes a setting of the whole process: Python's
    recursion limit, raised to PYTHON_STACK for the expression checker (docs/limits.md)."""
    import sys
    if sys.getrecursionlimit() < PYTHON_STACK:
        sys.setrecursionlimit(PYTHON_STACK)

# -- the game server (enforced in server/protocol.py and server/app.py; docs/server.md) ----
MAX_FRAME_BYTES = 4_096               # bytes of one websocket message from a client: larger is
                                      # answered `too_large` and the connection closed
MAX_LIVE_TABLES = 1_000               # tables a server process holds in memory; the least recently used
                                      # one with nobody connected is dropped (rebuilt from the store when opened)
MAX_UPLOADED_GAMES = 100              # rulesets a server keeps from browsers (serve --allow-uploads)
MAX_REQUEST_BYTES = 16_384            # bytes of an HTTP request's body (POST /api/tables)
MAX_MESSAGES_PER_SECOND = 20          # a client's messages, on average (a token bucket per connection)
MAX_MESSAGE_BURST = 40                # ... and at once, after a quiet spell (the bucket's size)
MAX_RATE_ERRORS = 20                  # `rate_limited` answers to one connection before it is closed
MAX_NAME_CHARS = 40                   # characters of a player's name at a table
MAX_CONNECTIONS_PER_TABLE = 64        # websockets open to one table at once (seats and spectators)
MAX_BOT_SECONDS = 1.5                 # seconds a decision of a table's bot at its strongest (server/games.STRENGTHS)
