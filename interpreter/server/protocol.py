"""The messages of the websocket (docs/server.md): a client's message read and checked (size,
JSON, type, fields), the error frames, and the rate limit of a connection.  Nothing here
changes a game: a message is either a well-formed request or a `Refused` with its code."""
from __future__ import annotations

import json
import time

from ..errors import InterpreterError

from ..limits import MAX_FRAME_BYTES, MAX_MESSAGE_BURST, MAX_MESSAGES_PER_SECOND

CODES = ("bad_json", "too_large", "unknown_type", "bad_field", "no_hello", "bad_token", "stale",
         "not_your_turn", "bad_option", "over", "rate_limited")

# Each message's fields: name -> (kind, required).  A field not listed is refused.
FIELDS = {
    "hello": {"table": ("text", True), "token": ("text", True), "since": ("count", False)},
    "move": {"decision": ("count", True), "option": ("count", True)},
    "hint": {}, "rules": {}, "rematch": {}, "abandon": {}, "ping": {},
}
MAX_TEXT = 64           # characters of a table id or a token (ours are 22 and 32)
MAX_COUNT = 10 ** 9     # a decision's number, an option's index, `since`


class Refused(InterpreterError):
    """A message the server does not act on: its error code and words."""

    def __init__(self, code: str, message: str):
        assert code in CODES, code
        super().__init__(message)
        self.code, self.message = code, message


def error_frame(code: str, message: str) -> dict:
    return {"type": "error", "code": code, "message": message}


def read_message(data) -> dict:
    """A client's message (the text of a websocket frame) as a checked dict, or Refused."""
    if isinstance(data, (bytes, bytearray)):
        raise Refused("bad_json", "send JSON in text frames, not binary ones")
    if len(data) > MAX_FRAME_BYTES or len(data.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise Refused("too_large", f"a message may hold at most {MAX_FRAME_BYTES} bytes")
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        raise Refused("bad_json", "the message is not JSON") from None
    if not isinstance(message, dict):
        raise Refused("bad_json", "the message must be a JSON object")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise Refused("bad_field", "the message has no 'type' (a text)")
    if kind not in FIELDS:
        raise Refused("unknown_type", f"no message type {_quoted(kind)}; the types are: {', '.join(FIELDS)}")
    fields = FIELDS[kind]
    for name in message:
        if name != "type" and name not in fields:
            raise Refused("bad_field", f"a '{kind}' message has no field {_quoted(name)}")
    for name, (what, required) in fields.items():
        if name not in message:
            if required:
                raise Refused("bad_field", f"a '{kind}' message needs '{name}'")
            continue
        _check_field(kind, name, what, message[name])
    return message


def _check_field(kind, name, what, value) -> None:
    if what == "text":
        if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
            raise Refused("bad_field", f"'{name}' of a '{kind}' message must be a text of 1 to {MAX_TEXT} characters")
    elif not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < MAX_COUNT:
        raise Refused("bad_field", f"'{name}' of a '{kind}' message must be a whole number from 0")


def _quoted(text) -> str:
    """A client's word in a message back to it: short, and only if plain."""
    text = str(text)
    return f"'{text}'" if len(text) <= 20 and text.isprintable() and "'" not in text else "(not shown)"


class RateLimit:
    """A token bucket: MAX_MESSAGES_PER_SECOND on average, MAX_MESSAGE_BURST at once."""

    def __init__(self, rate: float = MAX_MESSAGES_PER_SECOND, burst: int = MAX_MESSAGE_BURST, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = float(burst), clock()
        self.refusals = 0

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refusals += 1
        return False
