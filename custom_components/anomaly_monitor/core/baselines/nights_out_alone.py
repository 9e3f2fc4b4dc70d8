"""On how many nights each person went out at night *alone*, not with the household.

Part of ``NightUses``. A person's nights out (leaving home or coming back from 23:00 to
05:00) say whether they go out at night here (``night_presence.never_out``). But a night
out *together* (the family off to the fair at 23:00 and back at 02:30, all their phones
leaving and coming back within minutes of each other) says nothing of one of them going
out alone while the others sleep: the 15-year-old out with her parents on Saturday is
still news leaving on her own at 01:20 on a school night. A shift worker, a father back
from his evening shift, a barmaid home at 02:40 come and go alone: theirs are nights out
alone, and they stay their normal.

A move is *together* when another person moved the same way (both left, or both came
home) within ``TOGETHER`` of it; else it is alone. Which it was is known only
``TOGETHER`` after it (the others' phones report a minute or two apart), so a night-time
move waits (``pending``, not stored: a restart loses at most those minutes) until the
next person's move settles it, or is read as alone once ``TOGETHER`` has passed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

# Two persons whose phones leave (or come home) this close together went together.
TOGETHER = timedelta(minutes=10)

# A person's move: (person, when, left home).
_Move = tuple[str, datetime, bool]


class NightsOutAlone:
    """Per person: nights out at night with nobody of the household moving with them."""

    def __init__(self, night_of: Callable[[datetime], int]) -> None:
        self._night_of = night_of
        self.nights: dict[str, list[float]] = {}  # [nights, last night's ordinal]
        self._recent: list[_Move] = []  # every person's moves of the last ``TOGETHER``
        self._pending: list[_Move] = []  # night-time moves not known alone or together yet

    def moved(self, person: str, when: datetime, *, left: bool, at_night: bool) -> None:
        """``person`` left home (``left``) or came home at ``when``, ``at_night`` or not."""
        for move in [m for m in self._pending if when - m[1] > TOGETHER]:
            self._count(move)
        self._pending = [m for m in self._pending if when - m[1] <= TOGETHER]
        self._recent = [m for m in self._recent if abs(when - m[1]) <= TOGETHER]
        with_others = {m[0] for m in self._recent if m[0] != person and m[2] == left}
        if with_others:
            self._pending = [m for m in self._pending if not (m[0] in with_others and m[2] == left)]
        elif at_night:
            self._pending.append((person, when, left))
        self._recent.append((person, when, left))

    def _count(self, move: _Move) -> None:
        night = float(self._night_of(move[1]))
        used = self.nights.setdefault(move[0], [0.0, 0.0])
        if used[1] != night:
            used[0] += 1
            used[1] = night

    def count(self, person: str, skip: datetime | None = None) -> int:
        """Nights ``person`` was out alone, ``skip``'s night left out; a move still
        pending is read as alone (nobody moved with it since)."""
        skipped = None if skip is None else self._night_of(skip)
        used = self.nights.get(person)
        nights = {used[1]} if used is not None else set()
        total = int(used[0]) if used is not None else 0
        for move in self._pending:
            night = self._night_of(move[1])
            if move[0] == person and night not in nights:
                nights.add(night)
                total += 1
        return total - (1 if skipped is not None and skipped in nights else 0)
