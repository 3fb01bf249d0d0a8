"""Templates rendered: fn(state, locals) -> str, each {expression} part shown by its type
(cards by their display, players by name, numbers plainly)."""
from __future__ import annotations

from ..lang.values import shower


def template(closures, tpl):
    """fn(state, locals) -> str for a checked Template."""
    parts = []
    for p in tpl.parts:
        if isinstance(p, str):
            parts.append(p)
        else:
            show, f = shower(p.type, closures.display), closures.fn(p)
            parts.append(lambda s, l, show=show, f=f: show(s, f(s, l)))
    if all(isinstance(p, str) for p in parts):
        joined = "".join(parts)
        return lambda s, l: joined
    return lambda s, l: "".join(p if isinstance(p, str) else p(s, l) for p in parts)


_ABSENT = object()


def bound_text(text, values):
    """fn(state, locals) -> str of a catalogue text: each value of its `with` computed first,
    then bound by name while the text is made (the locals are left as they were)."""
    def said(s, l):
        computed = [(name, f(s, l)) for name, f in values]
        saved = [(name, l.get(name, _ABSENT)) for name, _ in values]
        l.update(computed)
        try:
            return text(s, l)
        finally:
            for name, old in saved:
                if old is _ABSENT:
                    l.pop(name, None)
                else:
                    l[name] = old
    return said
