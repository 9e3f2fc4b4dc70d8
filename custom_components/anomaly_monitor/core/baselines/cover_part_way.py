"""A cover that set out to close and stopped part-way, far longer than its moves take.

A motorised shutter, garage door or gate reports ``closing`` while it moves and then
``closed``; one whose limit switch jams or that hits something stops short and reports
``open`` at a position between its ends (HA's ``current_position``, 0 closed, 100 open).
The home is left open by a cover its owner believes closed. Its moves' own length is the
reference: ``StateDurations`` learned how long its ``opening`` and ``closing`` last (a
shutter's half minute); resting part-way after a closing for ``FACTOR`` times the longest
of them, and ``FLOOR`` at least, is no move and no pause. Before any move is learned, the
prior ``PRIOR_MOVE`` stands in for it.

A cover set part-way by hand or an automation's opening to a shade position (a blind at
50 % after ``opening``, a roof window aired at 40 % with no move reported) is not this: only
a *closing* that ended neither closed nor fully open is judged. Known by domain
(``cover``), HA's states and its ``current_position`` attribute; no word is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, EntityState, Finding, Severity, parse_number
from .clock import local
from .home_baselines import HomeBaselines
from .long_stays import duration_text

FACTOR = 20.0
FLOOR = timedelta(minutes=20)
PRIOR_MOVE = timedelta(minutes=1)
MOVES = ("opening", "closing")
# Positions this close to an end are that end (a cover's own rounding).
END_TOLERANCE = 3.0

COVER_STOPPED_PART_WAY = FindingKind(
    "cover_stopped_part_way", AnomalyType.DEVICE_MALFUNCTION, Severity.MEDIUM
)


def _part_way(cover: EntityState) -> float | None:
    """Its position when strictly between its ends, else None."""
    position = cover.attributes.get("current_position")
    value = parse_number(str(position)) if position is not None else None
    if value is None or value <= END_TOLERANCE or value >= 100 - END_TOLERANCE:
        return None
    return value


def _closing_stopped(home: HomeView, cover: EntityState) -> bool:
    """Its last move was a closing, and it came to rest ``open`` (not ``closed``)."""
    changes = [t for t in home.history.get(cover.entity_id, []) if t.state != cover.state]
    return bool(changes) and changes[-1].state.lower() == "closing"


def _longest_move(baselines: HomeBaselines, cover: EntityState) -> timedelta:
    learned = [baselines.durations.whole_record(cover.entity_id, move) for move in MOVES]
    minutes = max((longest for count, longest in learned if count), default=0.0)
    return timedelta(minutes=minutes) if minutes else PRIOR_MOVE


def cover_stopped_part_way(home: HomeView, baselines: HomeBaselines) -> Iterator[Finding]:
    """A cover rests part-way after a closing, ``FACTOR`` times its longest move.

    Magnitude: minutes it has rested part-way.
    """
    now = home.end
    for cover in home.of("cover"):
        since = cover.last_changed
        if cover.state.lower() != "open" or since is None:
            continue
        position = _part_way(cover)
        if position is None or not _closing_stopped(home, cover):
            continue
        move = _longest_move(baselines, cover)
        if now - since < max(FACTOR * move, FLOOR):
            continue
        name = cover.info.name or cover.entity_id
        yield COVER_STOPPED_PART_WAY.finding(
            evidence=(cover.entity_id,),
            subject=cover.entity_id,
            reasoning=f"{name} was closing and stopped at {position:g} % at "
            f"{local(since, home.env.zone):%H:%M}; it has stayed there "
            f"{duration_text(now - since)}, while its moves take at most "
            f"{duration_text(move) if move >= timedelta(minutes=1) else 'a minute'}: "
            "it is stuck part-way and the opening is not closed.",
            recommendation=f"Check {name}: something may block it or its motor or limit "
            "switch may have failed; close it by hand if it must be shut.",
            magnitude=round((now - since).total_seconds() / 60, 1),
        )
