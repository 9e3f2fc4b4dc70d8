"""Heating or cooling that ran for long while a window stood open (earlier in the window).

The rule ``hvac_with_opening_open`` judges the moment of the analysis: a window open now,
past the airing time, with a unit heating or cooling. This statistic judges the window's
past: a window (or an ``opening`` contact) that stood open well past the airing time
while climate units ran, then closed before the analysis. The heat (or cool) that left
through it is gone either way, and a window left open for hours in the heating season is
what a homeowner wants to hear about, even after somebody closed it. Stated in HA's
vocabulary: a ``binary_sensor`` of device class window/opening, the ``climate`` entities
whose ``hvac_action`` said heating or cooling, the thermometers of the window's area.

The finding carries the rule's name and subject (the window), so a window the rule
already told joins the same anomaly.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..climate_reach import heats_through
from ..finding_kind import FindingKind
from ..home import HomeView
from ..hvac_state import action_from_state as hvac_action
from ..models import AnomalyType, Finding, Severity
from ..rules.hvac import AIRING
from .durations import _minutes as duration_text
from .timeline import intervals

# Heating or cooling must have run this long, in all, while the window stood open past
# the airing time: a unit that cycles on for a few minutes at the end of an airing is
# not a waste worth telling.
MIN_WASTE = timedelta(minutes=30)
WINDOW_CLASSES = ("window", "opening")


def _runs(home: HomeView, climate: str) -> list[tuple[datetime, datetime]]:
    """(start, end) of each spell a climate entity heated or cooled."""
    return [
        (spell.start, spell.end)
        for spell in intervals(home, climate)
        if hvac_action(spell.state) in ("heating", "cooling")
    ]


def _overlap(start: datetime, end: datetime, runs: list[tuple[datetime, datetime]]) -> timedelta:
    total = timedelta()
    for run_start, run_end in runs:
        total += max(timedelta(), min(end, run_end) - max(start, run_start))
    return total


HVAC_WITH_OPENING_OPEN = FindingKind(
    "hvac_with_opening_open", AnomalyType.ENVIRONMENTAL_CONFLICT, Severity.MEDIUM
)


def hvac_ran_with_window_open(home: HomeView) -> Iterator[Finding]:
    """Climate units heated or cooled for ≥ ``MIN_WASTE`` while a window stood open
    past ``AIRING`` (a spell that ended before the analysis; an open window now is the
    rule's).

    Magnitude: minutes the units ran against the open window (the longest-running unit).
    """
    climates = {c: _runs(home, c) for c in home.history if home.domain(c) == "climate"}
    climates = {c: runs for c, runs in climates.items() if runs}
    if not climates:
        return
    for window in home.history_of("binary_sensor", *WINDOW_CLASSES):
        for spell in intervals(home, window):
            if spell.state != "on" or spell.ongoing:
                continue  # open now: the rule judges it
            wasted = {
                climate: _overlap(spell.start + AIRING, spell.end, runs)
                for climate, runs in climates.items()
                if heats_through(home, climate, window)  # a room's unit: its own room's windows
            }
            wasted = {c: w for c, w in wasted.items() if w > timedelta()}
            longest = max(wasted.values(), default=timedelta())
            if longest < MIN_WASTE:
                continue
            units = sorted(wasted, key=lambda c: -wasted[c])
            area = home.area(window)
            room = [
                sensor
                for sensor in home.history
                if home.domain(sensor) == "sensor"
                and home.device_class(sensor) == "temperature"
                and area is not None
                and home.area(sensor) == area
            ]
            yield HVAC_WITH_OPENING_OPEN.finding(
                evidence=(window, *units, *room),
                subject=window,
                reasoning=f"{window} stood open for {duration_text(spell.duration)} from "
                f"{spell.start:%Y-%m-%d %H:%M} while {', '.join(units)} heated or cooled "
                f"({duration_text(longest)} at most), wasting energy.",
                recommendation="Close windows while the heating or cooling runs, or pause "
                "it while airing.",
                magnitude=longest.total_seconds() / 60,
            )
            break  # one finding per window: its longest waste is enough to tell
