"""An "Over" notice's words: what was found while it lasted, without its claims of "now".

A finding's reasoning is written while it holds ("Front door stayed open for 15 min
(from 02:29), and still is."), and the notice keeps it once it is over, under "While it
lasted:". Its "and still is" then contradicts the "Over" above it (the lead's re-walk of
session 31), and so does a state said in the present ("Front door lock is unlocked while
nobody is home.", "Front door has stood open since 02:56.": walk of session 49, under
"While it lasted:" with the lock locked and the household in). Those clauses are the
core's own (``statistics.durations.left_open_text``, ``statistics.held``,
``rules.security``): they are said in the past; the rest already reads as what was seen
then. A habit said in the present ("seldom moves at 02-06 h while nobody is home") is
still true, and kept.
"""

from __future__ import annotations

import re

# ", and still is" before the sentence's or the bracket's end: said of a spell going on.
_STILL_GOING = re.compile(r",? and still is(?=[.)])")
# "<entrance or panel> is unlocked / open / ajar (...) / disarmed while nobody is home"
# (or "while every tracked phone is away", where somebody lives here without one:
# ``rules.security``): a state of then, in the present.
_STATE_WHILE_AWAY = re.compile(
    r"\bis (unlocked|open|disarmed|ajar(?: \([^()]*\))?) while "
    r"(?:nobody is home|every tracked phone (is) away)\b"
)
# " Front door has stood open since 02:56." (``rules.security._open_since``).
_STOOD_OPEN = re.compile(r"\bhas stood open since\b")


def _in_the_past(match: re.Match[str]) -> str:
    if match.group(2):
        return f"was {match.group(1)} while every tracked phone was away"
    return f"was {match.group(1)} while nobody was home"


def as_lasted(text: str) -> str:
    """``text`` (a reasoning found while it lasted) as it reads once it is over."""
    text = _STILL_GOING.sub("", text)
    text = _STATE_WHILE_AWAY.sub(_in_the_past, text)
    return _STOOD_OPEN.sub("had stood open since", text)
