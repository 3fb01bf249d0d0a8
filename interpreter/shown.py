"""How a text from a file reaches a person: as text.  A ruleset's titles, card names, log
lines, labels and prompts, and the values the rules compute from them, may hold characters
that drive a terminal (ESC sequences set the window title or clear the screen, CR and
newlines forge a line such as 'Result: ...', bidi overrides reorder what is read).  Every
place that shows such a text to a person passes it through `printable`, which writes those
characters as escapes (\\x1b, \\n, \\u202e); the data itself (records, JSON logs) keeps them."""
from __future__ import annotations

import re

# C0 and C1 controls, DEL, line and paragraph separators, and the bidi embeddings,
# overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_BUT_NEWLINE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(m) -> str:
    return m.group().encode("unicode_escape").decode("ascii")


def printable(text, newlines: bool = False) -> str:
    """`text` with every character that drives a terminal written as its escape; with
    `newlines`, a newline is kept (for our own text of several lines)."""
    text = str(text)
    return (_CONTROL_BUT_NEWLINE if newlines else _CONTROL).sub(_escape, text)


class PrintableStream:
    """A text stream (stdout, stderr) that writes every character that drives a terminal as
    its escape, newlines aside: the last guard for any output of a command.  `raw` is the
    stream itself, for rich, which writes its own colour codes (and is given texts already
    made printable)."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, text) -> int:
        return self.raw.write(printable(text, newlines=True))

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self.raw, name)
