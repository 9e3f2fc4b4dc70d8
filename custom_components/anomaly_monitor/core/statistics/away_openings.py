"""A window opened while nobody was home: how a burglar comes in when the door is locked.

Doors are left out: a door opening while everybody is out is a neighbour, a cleaner or
somebody back early (their lock and the motion behind them are judged by the entrance
rules and ``activity_while_away``). A window or another opening (a skylight, a hatch:
``opening``) is opened from inside by somebody at home; opened while every tracked person
was away and after the leaving grace, somebody or something opened it from outside. A
window left open when the household left is not this check's (it did not open then).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from ..finding_kind import FindingKind
from ..home import HomeView
from ..keyed_doors import opened_with_key
from ..models import AnomalyType, Finding, Severity
from .occupancy import away_periods

# The openings nobody outside opens: not doors (see the module's text).
WINDOW_CLASSES = frozenset({"window", "opening"})


def _presence_moved(home: HomeView) -> bool:
    """Whether any person or tracker reported anything in the window."""
    return any(home.changes(p.entity_id) for p in home.presence_entities)


def _openings(
    home: HomeView, entity_id: str, spans: list[tuple[datetime, datetime]]
) -> list[datetime]:
    """When ``entity_id`` went from closed to open within ``spans``. Its first report in
    the window counts as from closed (HA records changes, so it was not open before);
    coming up open from ``unknown`` as HA starts is no opening."""
    moments: list[datetime] = []
    before: str | None = None
    for change in home.changes(entity_id):
        state = change.state.lower()
        if (
            state == "on"
            and before in (None, "off")
            and any(start < change.when <= end for start, end in spans)
        ):
            moments.append(change.when)
        before = state
    return moments


WINDOW_OPENED_WHILE_AWAY = FindingKind(
    "window_opened_while_away", AnomalyType.SECURITY, Severity.HIGH
)


def window_opened_while_away(home: HomeView) -> Iterator[Finding]:
    """A window or opening opened while every tracked person was away.

    Magnitude: how many such openings the window shows.
    """
    spans = away_periods(home)
    began = home.window.start
    if not spans and home.nobody_home and began is not None and not _presence_moved(home):
        # Everybody was out before the window began (a holiday): all of it is away.
        spans = [(began, home.end)]
    if not spans:
        return
    opened: list[tuple[datetime, str]] = []
    for entity_id in home.history_of("binary_sensor", *WINDOW_CLASSES):
        opened += [
            (when, entity_id)
            for when in _openings(home, entity_id, spans)
            # A generic "opening" on a door that was just unlocked is the door, opened
            # with the key: the entrance rules judge it.
            if home.device_class(entity_id) == "window"
            or not opened_with_key(home, entity_id, when)
        ]
    if not opened:
        return
    opened.sort()
    first, entity_id = opened[0]
    windows = list(dict.fromkeys(e for _, e in opened))
    # The latest opening is the news (walk 10: "opened at 01:53" read at 02:13, when the
    # window was opened again); the first keeps the incident's subject.
    latest, latest_id = opened[-1]
    info = home.info(latest_id)
    name = info.info.name if info is not None else latest_id
    area = home.area(latest_id)
    where = f" ({area})" if area else ""
    since = f" ({len(opened)} openings since {first:%H:%M})" if len(opened) > 1 else ""
    yield WINDOW_OPENED_WHILE_AWAY.finding(
        evidence=tuple(windows),
        subject=entity_id,  # the window: a rule about it (heating against it) joins
        while_away=True,  # somebody known home ends it
        reasoning=f"{name}{where} opened at {latest:%H:%M} while nobody was home{since}.",
        recommendation="Check the cameras or ask a neighbour to look at the window.",
        magnitude=float(len(opened)),
    )
