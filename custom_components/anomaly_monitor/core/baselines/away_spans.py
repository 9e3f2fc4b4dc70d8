"""The spans a window shows the home empty, and the entrances used in them: what the away
checks (``away_judge``, ``away_motion_judge``, ``entered_from_inside``) read first."""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView
from ..statistics.occupancy import away_periods
from .home_baselines import HomeBaselines
from .opening_uses import uses as opening_uses
from .spell_record import spell_span, spell_uses, states_only
from .ways_in import is_opening as _is_entrance, opened_state

# A visitor who came in at a regular time is about the home for this long.
VISIT_REACH = timedelta(hours=3)
# An entrance left unlocked or open with nothing moving for this long: the visit is over.
STILL_ABOUT = timedelta(minutes=20)

type Span = tuple[datetime, datetime]


def empty_spans(home: HomeView, baselines: HomeBaselines | None = None) -> list[Span]:
    """When the window shows the home empty; all of it when everybody was out before. With
    the baselines, also the spell under way as they know it (``spell_record``): a safety
    check's window shows no presence changes, and a tracker's flicker (``unknown`` for
    minutes, then away again) is no return home, though the window starts a new span after
    it (with its leaving grace: a door used meanwhile was outside every span)."""
    spell = spell_span(baselines, home) if baselines is not None else None
    if spell is not None and states_only(home):
        return [spell]
    spans = away_periods(home)
    began = home.window.start
    if not spans and home.nobody_home and began is not None:
        spans = [(began, home.end)]
    if spell is not None:
        spans = [s for s in spans if s[1] < spell[0]] + [
            (min([spell[0], *(s[0] for s in spans if s[1] >= spell[0])]), spell[1])
        ]
    return spans


def within(spans: list[Span], when: datetime) -> bool:
    """Whether ``when`` falls in one of the empty ``spans``."""
    return any(start <= when <= end for start, end in spans)


def _uses(home: HomeView, entity_id: str) -> list[datetime]:
    """When the entrance opened (or was unlocked) in the window (not a device back)."""
    return opening_uses(home, entity_id, opened_state(home.domain(entity_id)))


def used(home: HomeView, baselines: HomeBaselines, entity_id: str) -> list[datetime]:
    """``_uses``; for a safety check's window, the away spell's record (``spell_record``)."""
    if states_only(home):
        return spell_uses(baselines, entity_id)
    return _uses(home, entity_id)


def entrances(home: HomeView, baselines: HomeBaselines) -> set[str]:
    """The entrances the window (or, for a safety check, the spell's record) shows used."""
    seen = {e for _, e, _ in baselines.away.spell} if states_only(home) else set(home.history)
    return {e for e in seen if _is_entrance(home, e)}
