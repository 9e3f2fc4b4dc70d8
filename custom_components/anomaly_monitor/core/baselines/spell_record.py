"""What a safety check's window does not show, the away spell's own record does.

A safety check judges the current states only (``live_window(events=False)``: it costs the
same during a storm of buffered transitions), and it is the check that tells an entrance
opened in the empty home at once. The away judge asks *when* the entrance was used, by
whom (somebody inside, a regular visitor) and whether anybody moves about: a window without
transitions shows none of it, so every door opened while the trackers are away was told
as if nothing were known (the flatmate without a phone coming home at his usual hour, the
one inside going out), to be judged usual by the next analysis, minutes after the push.

The baselines learn every change before a check reads them, and keep the away spell's
openings and motion onsets (``AwayNormal.spell``, from ``SPELL_LEAD`` before it began):
for a window without transitions they stand in for the window's uses and signs. A window
with transitions is read as before.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..home import HomeView
from .away_normal import LEAVE_GRACE
from .stored_spell import OPENING, SIGN

if TYPE_CHECKING:
    from .home_baselines import HomeBaselines

type Span = tuple[datetime, datetime]
_USES = frozenset({OPENING, SIGN})


def states_only(home: HomeView) -> bool:
    """The window carries the current states only (a safety check's)."""
    return not home.window.transitions


def spell_span(baselines: HomeBaselines, home: HomeView) -> Span | None:
    """The empty spell under way, as the baselines know it (past the leaving grace), within
    the window's time: a check judges what an analysis of the same moment would."""
    since = baselines.away.empty_since
    if since is None or since + LEAVE_GRACE > home.end:
        return None
    began = home.window.start
    start = since + LEAVE_GRACE if began is None else max(since + LEAVE_GRACE, began)
    return start, home.end


def spell_uses(baselines: HomeBaselines, entity_id: str) -> list[datetime]:
    """When ``entity_id`` opened (or was unlocked) in the spell's record, oldest first (a
    contact's opening kept as a sign of somebody inside, ``inner_signs``, too)."""
    spell = baselines.away.spell
    return [when for when, entity, kind in spell if entity == entity_id and kind in _USES]


def spell_signs(baselines: HomeBaselines) -> list[tuple[datetime, str]]:
    """The motion onsets of the spell's record (when, sensor), oldest first."""
    return [(when, entity) for when, entity, kind in baselines.away.spell if kind == SIGN]
