"""An "Over" notice's words: what was found while it lasted, without its claims of "now".

A finding's reasoning is written while it holds ("Front door stayed open for 15 min
(from 02:29), and still is."), and the notice keeps it once it is over, under "While it
lasted:". Its "and still is" then contradicts the "Over" above it (the lead's re-walk of
session 31). Those clauses are the core's own (``statistics.durations.left_open_text``,
``statistics.held``): they are taken out; the rest already reads as what was seen then.
"""

from __future__ import annotations

import re

# ", and still is" before the sentence's or the bracket's end: said of a spell going on.
_STILL_GOING = re.compile(r",? and still is(?=[.)])")


def as_lasted(text: str) -> str:
    """``text`` (a reasoning found while it lasted) as it reads once it is over."""
    return _STILL_GOING.sub("", text)
