"""Durations: something left open or running far longer than it should be."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from statistics import median

from ..device_roles import HEAT_ROLES, Role, has_role, severity_for, shut_after_use
from ..finding_kind import FindingKind
from ..home import UNAVAILABLE_STATES, HomeView, is_motion
from ..home_clock import on_home_clock
from ..models import MAX_CANDIDATES, AnomalyType, Finding, Severity
from ..open_states import open_states
from ..start_settling import set_while_starting
from ..state_blips import BLIP_LIMIT
from .timeline import Interval, intervals

# An exterior door held open this long is worth a look even without history.
ENTRY_OPEN_LIMIT = timedelta(minutes=15)
# Water running (a valve open, a flow sensor on) this long is a leak or a forgotten tap.
WATER_RUNNING_LIMIT = timedelta(minutes=45)
# A cooking or heating appliance running this long unattended is a fire risk.
HEAT_APPLIANCE_LIMIT = timedelta(hours=3)
# Learned limit: this many times the entity's own typical duration in the window.
TYPICAL_FACTOR = 3.0

# Switches rarely carry a device_class for what they power: what an appliance is comes
# from ``device_roles`` (the homeowner, its HA device, its behaviour, its name's words).


def _open_intervals(home: HomeView, entity_id: str, active: frozenset[str]) -> list[Interval]:
    return [i for i in intervals(home, entity_id) if i.state.lower() in active]


def _typical(durations: list[timedelta]) -> timedelta | None:
    """Median duration of the completed intervals, when there are enough to judge."""
    if len(durations) < 3:
        return None
    return timedelta(seconds=median(d.total_seconds() for d in durations))


def _longest_exceeding(
    spans: list[Interval], limit: timedelta, *, going_on_first: bool = False
) -> Interval | None:
    """The longest interval over ``limit`` that is also unusual for this entity; with
    ``going_on_first``, the one going on when it is over it too (a door left open again
    within the window of a longer stay is the trouble now, not that stay's recall)."""
    completed = [i.duration for i in spans if not i.ongoing]
    typical = _typical(completed)
    learned = limit if typical is None else max(limit, typical * TYPICAL_FACTOR)
    over = [i for i in spans if i.duration >= learned]
    ongoing = [i for i in over if i.ongoing]
    if going_on_first and ongoing:
        return ongoing[-1]
    return max(over, key=lambda i: i.duration) if over else None


def _in_minutes(delta: timedelta) -> float:
    return delta.total_seconds() / 60


def _minutes(delta: timedelta) -> str:
    minutes = round(delta.total_seconds() / 60)
    return f"{minutes} min" if minutes < 120 else f"{minutes / 60:.1f} h"


def _with_current_spell(
    home: HomeView,
    entity_id: str,
    spans: list[Interval],
    active: frozenset[str] | None = None,
) -> list[Interval]:
    """``spans`` with the spell the entity is in now begun when it really began: a door
    open since before the window has no change in it (it was not judged at all, and its
    anomaly cleared with the door still open), or only repeats of its state."""
    state = home.info(entity_id)
    since = state.last_changed if state is not None else None
    active = open_states(home.domain(entity_id)) if active is None else active
    if state is None or since is None or state.state.lower() not in active:
        return spans
    # A moment of no state (HA's start) did not see it shut (walk 39: the sub-second
    # ``unknown`` at a restart, the window's first change once it had passed the opening,
    # kept "open since the restart"); a longer drop is a real gap (``state_blips``).
    if any(
        i.state.lower() not in active
        and not (i.state.lower() in UNAVAILABLE_STATES and i.duration <= BLIP_LIMIT)
        for i in intervals(home, entity_id)
    ):
        return spans  # the window saw it open: its spell is there
    ongoing = [i for i in spans if i.ongoing]
    if ongoing and ongoing[0].start <= since:
        return spans
    since = on_home_clock(since, home.env.zone)  # the window's clock
    current = Interval(entity_id, state.state, since, max(home.end, since), ongoing=True)
    return [*(i for i in spans if not i.ongoing and i.end <= since), current]


def open_spells(home: HomeView, entity_id: str) -> list[Interval]:
    """A door's open spells in the window, the one it is in now from when it began (a
    cover's ``opening``, ``open`` and ``closing`` in a row are one spell)."""
    spans: list[Interval] = []
    for span in _open_intervals(home, entity_id, open_states(home.domain(entity_id))):
        joined = span
        if spans and spans[-1].end == span.start:
            joined = span._replace(start=spans.pop().start)
        spans.append(joined)
    return _with_current_spell(home, entity_id, spans)


def left_open_text(entity_id: str, spell: Interval) -> str:
    """ "... stayed open for 21 min (from 06:34)", the words ``entry_left_open`` tells."""
    return (
        f"{entity_id} stayed open for {_minutes(spell.duration)} "
        f"(from {spell.start:%H:%M}){', and still is' if spell.ongoing else ''}."
    )


def _left_open_advice(spell: Interval) -> str:
    """What to do about a door left open: shut since, it is only who left it so (walk of
    session 32: "Check that the door is closed" under a door that read Closed)."""
    if spell.ongoing:
        return "Check that the door is closed."
    return "It is shut now; if nobody in the household left it open, check who did."


ENTRY_LEFT_OPEN = FindingKind("entry_left_open", AnomalyType.SECURITY, Severity.MEDIUM)


def entry_left_open(home: HomeView) -> Iterator[Finding]:
    """An exterior door or garage door stayed open far longer than a passage takes.

    Magnitude (all three duration statistics): the longest such interval, in minutes.
    """
    # A door contact or a garage door/gate cover (is_entry picks the doors), or a contact
    # learned as shut after each use (an ``opening`` fridge's door: ``shut_after_use``).
    doors = [s.entity_id for s in home.of("binary_sensor") + home.of("cover")]
    for entity_id in dict.fromkeys([*home.history, *doors]):
        if home.domain(entity_id) not in ("binary_sensor", "cover"):
            continue
        if not shut_after_use(home, entity_id):
            continue
        # The stay going on first: the longest of the window is only its recall, and
        # a second outing's door left open was told once it outlasted the first (walk 47).
        spells = open_spells(home, entity_id)
        worst = _longest_exceeding(spells, ENTRY_OPEN_LIMIT, going_on_first=True)
        if worst is None:
            continue
        yield ENTRY_LEFT_OPEN.finding(
            evidence=(entity_id,),
            reasoning=left_open_text(entity_id, worst),
            recommendation=_left_open_advice(worst),
            magnitude=_in_minutes(worst.duration),
            since=worst.start,
        )


WATER_LEFT_RUNNING = FindingKind("water_left_running", AnomalyType.SAFETY_HAZARD)


def water_left_running(home: HomeView) -> Iterator[Finding]:
    """A water valve or flow sensor stayed on far longer than a normal use."""
    for entity_id in home.history:
        domain = home.domain(entity_id)
        device_class = home.device_class(entity_id)
        if domain == "valve" and device_class in (None, "water"):
            active = frozenset({"open", "opening"})
        elif domain in ("binary_sensor", "switch") and (
            device_class == "water"
            or (
                device_class in (None, "running", "outlet")
                and has_role(home, entity_id, Role.WATER)
            )
        ):
            active = frozenset({"on"})
        else:
            continue
        worst = _longest_exceeding(_open_intervals(home, entity_id, active), WATER_RUNNING_LIMIT)
        if worst is None:
            continue
        yield WATER_LEFT_RUNNING.finding(
            evidence=(entity_id,),
            reasoning=f"Water ran through {entity_id} for {_minutes(worst.duration)} "
            f"from {worst.start:%H:%M}.",
            severity=severity_for(home, (entity_id,), Severity.HIGH),
            recommendation="Check for a tap left open or a leak; close the valve.",
            magnitude=_in_minutes(worst.duration),
        )


def _neighbours(home: HomeView, entity_id: str) -> tuple[str, ...]:
    """Its area's motion sensors and other appliances: who used it, what else was left on."""
    area = home.area(entity_id)
    if area is None:
        return ()
    near = [
        s.entity_id
        for s in home.in_area(area)
        if s.entity_id != entity_id and (s.domain in ("switch", "fan", "climate") or is_motion(s))
    ]
    return tuple(near[:MAX_CANDIDATES])


HEAT_APPLIANCE_LEFT_ON = FindingKind("heat_appliance_left_on", AnomalyType.SAFETY_HAZARD)


_HEAT_ON = frozenset({"on", "heat", "heating"})


def heat_spells(home: HomeView, entity_id: str) -> list[Interval]:
    """A heat appliance's spells on in the window; a plug switched on before the window
    began and on since is on from when it was switched on (an iron switched on at 06:38
    and forgotten had no change in a window begun at 08:00, and was never judged). One
    on since HA started was set by the start, not switched on then."""
    spans = _open_intervals(home, entity_id, _HEAT_ON)
    if home.domain(entity_id) != "switch":
        return spans  # a thermostat's mode is no spell of use
    state = home.info(entity_id)
    since = state.last_changed if state is not None else None
    if since is None or set_while_starting(home.env.ha_started, since):
        return spans  # on since HA set it as it started: nobody knows since when
    return _with_current_spell(home, entity_id, spans, frozenset({"on"}))


def heat_appliance_left_on(home: HomeView) -> Iterator[Finding]:
    """A stove, oven or heater ran for hours, longer than cooking or heating takes."""
    switches = [s.entity_id for s in home.of("switch")]
    for entity_id in dict.fromkeys([*home.history, *switches]):
        if home.domain(entity_id) not in ("switch", "climate", "water_heater"):
            continue
        if not has_role(home, entity_id, *HEAT_ROLES):
            continue
        worst = _longest_exceeding(heat_spells(home, entity_id), HEAT_APPLIANCE_LIMIT)
        if worst is None:
            continue
        yield HEAT_APPLIANCE_LEFT_ON.finding(
            evidence=(entity_id,),
            candidates=_neighbours(home, entity_id),
            # "has been on" only while it is: a heater off again was on (the sentence a
            # model restates must not tell a state the device does not have).
            reasoning=f"{entity_id} has been on for {_minutes(worst.duration)} "
            f"since {worst.start:%H:%M}."
            if worst.ongoing
            else f"{entity_id} was on for {_minutes(worst.duration)} (from {worst.start:%H:%M}).",
            severity=severity_for(home, (entity_id,), Severity.HIGH),
            recommendation="Check the appliance and switch it off if nobody is using it.",
            magnitude=_in_minutes(worst.duration),
        )
