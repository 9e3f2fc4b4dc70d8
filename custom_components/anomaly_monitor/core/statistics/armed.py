"""Things switching on in an armed, empty home with nobody coming in."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from datetime import datetime, timedelta

from ..finding_kind import FindingKind
from ..home import (
    ENTRY_DEVICE_CLASSES,
    OCCUPANCY_DEVICE_CLASSES,
    OPENING_DEVICE_CLASSES,
    HomeView,
)
from ..home_clock import on_home_clock
from ..models import AnomalyType, Finding, Severity
from .timeline import real_changes, spells_where

# Devices a person switches on.
_SWITCHED = frozenset({"light", "switch", "media_player", "fan"})
# Grace after arming (the last person still leaving), and around an activation (someone
# coming in opens a door or moves within minutes of a light greeting them).
ARMING_GRACE = timedelta(minutes=10)
ARRIVAL_LEAD = timedelta(minutes=10)
# "After the arming": later than the arming's own second (the door it was armed behind).
_AFTER = timedelta(seconds=1)
# A device switched on near the same clock time on this many other days of the window is
# on a routine (a porch light at dusk, a holiday's presence simulation), not an intruder.
ROUTINE_DAYS = 2
ROUTINE_REACH = timedelta(minutes=30)


def _local(home: HomeView, when: datetime) -> datetime:
    return on_home_clock(when, home.env.zone)


def _on_a_routine(home: HomeView, when: datetime, switch_ons: list[datetime]) -> bool:
    """Whether the device also switched on within ``ROUTINE_REACH`` of this clock time on
    at least ``ROUTINE_DAYS`` other days of the window (learned from the window itself)."""
    local = _local(home, when)
    minute = local.hour * 60 + local.minute
    reach = ROUTINE_REACH.total_seconds() / 60
    days = set()
    for other in switch_ons:
        other_local = _local(home, other)
        if other_local.date() == local.date():
            continue
        gap = abs(other_local.hour * 60 + other_local.minute - minute)
        if min(gap, 24 * 60 - gap) <= reach:
            days.add(other_local.date())
    return len(days) >= ROUTINE_DAYS


def armed_away_periods(home: HomeView) -> list[tuple[datetime, datetime]]:
    """Spans when an alarm panel was armed away (or for a vacation), as reported."""
    spans: list[tuple[datetime, datetime]] = []
    for panel in home.history_of("alarm_control_panel"):
        spans += spells_where(home, panel, _armed_away)
    return spans


def _armed_away(state: str) -> bool:
    return state.lower() in ("armed_away", "armed_vacation")


def _armed_away_spans(home: HomeView) -> list[tuple[datetime, datetime, datetime]]:
    # The last person may still be leaving after arming, and whoever disarms arrived a
    # little before: their lights are not intruders. The arming moment comes along: a
    # door or motion at or before it is the household leaving, not somebody arriving.
    return [
        (start + ARMING_GRACE, end if end >= home.end else end - ARRIVAL_LEAD, start)
        for start, end in armed_away_periods(home)
    ]


ACTIVATION_WHILE_ARMED_AWAY = FindingKind(
    "activation_while_armed_away", AnomalyType.SECURITY, Severity.MEDIUM
)


def activation_while_armed_away(home: HomeView) -> Iterator[Finding]:
    """A light or appliance switched on while the alarm was armed away and nobody came in.

    No magnitude: one switch-on is the finding (a kind, not a degree).
    """
    spans = _armed_away_spans(home)
    if not spans:
        return
    arrivals = sorted(
        t.when
        for e in home.history
        if home.domain(e) == "binary_sensor"
        and home.device_class(e) in (OCCUPANCY_DEVICE_CLASSES | OPENING_DEVICE_CLASSES)
        for t in home.changes(e)
        if t.state.lower() == "on"
    )
    for entity_id in home.history:
        if home.domain(entity_id) not in _SWITCHED:
            continue
        switch_ons = [
            c.when for c in real_changes(home, entity_id) if c.state.lower() in ("on", "playing")
        ]
        for when in switch_ons:
            armed = next((arm for start, end, arm in spans if start <= when <= end), None)
            if armed is None:
                continue
            # Somebody coming in (a light may greet them before the door); only what
            # moved after the arming can be an arrival.
            index = bisect_left(arrivals, max(when - ARRIVAL_LEAD, armed + _AFTER))
            if index < len(arrivals) and arrivals[index] <= when + ARRIVAL_LEAD:
                continue
            if _on_a_routine(home, when, switch_ons):
                continue
            yield ACTIVATION_WHILE_ARMED_AWAY.finding(
                evidence=(entity_id,),
                reasoning=f"{entity_id} switched on at {when:%Y-%m-%d %H:%M} while the alarm "
                "was armed away and no door or motion showed anybody coming in.",
                recommendation="Check the automation or remote command that switched it, "
                "and the home.",
            )
            break


# After an entrance opens in an armed-away home, a resident disarms within the entry
# delay (alarms give 30-60 s; a generous margin here); an intruder walks on instead.
DISARM_DELAY = timedelta(minutes=5)
# ...through at least this many other rooms within this long.
INTRUDER_ROOMS = 2
INTRUDER_WALK = timedelta(minutes=15)


ENTRY_WHILE_ARMED_AWAY = FindingKind("entry_while_armed_away", AnomalyType.SECURITY, Severity.HIGH)


def entry_while_armed_away(home: HomeView) -> Iterator[Finding]:
    """An entrance opened in an armed-away home, nobody disarmed, and motion spread inside.

    Magnitude: how many rooms (other than the entrance's) saw motion afterwards.
    """
    periods = armed_away_periods(home)
    if not periods:
        return
    entries = [
        e
        for e in home.history
        if home.domain(e) == "binary_sensor" and home.device_class(e) in ENTRY_DEVICE_CLASSES
    ]
    motions = [
        e
        for e in home.history
        if home.domain(e) == "binary_sensor" and home.device_class(e) in OCCUPANCY_DEVICE_CLASSES
    ]
    for door in entries:
        area = home.area(door)
        for change in real_changes(home, door):
            opened = change.when
            if change.state.lower() != "on":
                continue
            span = next((p for p in periods if p[0] + ARMING_GRACE <= opened <= p[1]), None)
            if span is None or span[1] - opened <= DISARM_DELAY:
                continue  # not armed then, or disarmed right after: a resident coming home
            inside = {
                m: home.area(m)
                for m in motions
                if home.area(m) not in (None, area)
                and any(
                    c.state.lower() == "on" and opened <= c.when <= opened + INTRUDER_WALK
                    for c in real_changes(home, m)
                )
            }
            if len(set(inside.values())) < INTRUDER_ROOMS:
                continue
            locks = [
                e
                for e in home.history
                if home.domain(e) == "lock"
                and home.area(e) == area
                and any(abs(c.when - opened) <= ARMING_GRACE for c in real_changes(home, e))
            ]
            yield ENTRY_WHILE_ARMED_AWAY.finding(
                evidence=(door, *locks, *sorted(inside)),
                reasoning=f"{door} opened at {opened:%Y-%m-%d %H:%M} while the alarm was armed "
                f"away; nobody disarmed it, and motion followed in "
                f"{', '.join(sorted({a for a in inside.values() if a}))}.",
                recommendation="Check the home now: somebody may have entered without disarming.",
                magnitude=float(len(set(inside.values()))),
            )
            break
