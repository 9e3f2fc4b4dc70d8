"""Rules about activity that contradicts occupancy: motion and loads in an empty home."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import Role, has_role, named_after, own_meter
from ..finding_kind import FindingKind
from ..home import HomeView, is_motion, is_on
from ..models import HOME_SUBJECT, AnomalyType, EntityState, Finding, Severity, parse_number
from ..occupancy import presence_of
from ..pets import SIGN_REACH, has_pets, human_signs
from ..phoneless_residents import nobody_home_words
from ..role_words import says, words
from .appliances import is_cold_appliance
from .context import entry_point, ids, motion_in
from .leak_rooms import leaking_in

# More than this (W) on one outlet is someone using an appliance, not standby.
ACTIVE_LOAD_WATTS = 100.0
# Motion starting this soon after the last person left is them (a PIR re-triggering as
# the door shuts, a phone's late report): the statistics' leaving grace.
LEAVE_GRACE = timedelta(minutes=3)
# Media players draw at most this (W) when off (standby).
STANDBY_WATTS = 15.0
# An appliance reading at most this (W) is at rest: its run, if any, is over. A programme
# passes through lower phases (a washer's spin, a dishwasher's drying) but not this low.
AT_REST_WATTS = 5.0


def _lights_on(home: HomeView, area: str | None) -> list[EntityState]:
    return [s for s in home.in_area(area) if s.domain == "light" and is_on(s)]


def _lights(home: HomeView, area: str | None) -> list[EntityState]:
    return [s for s in home.in_area(area) if s.domain == "light"]


MOTION_WHILE_AWAY = FindingKind("motion_while_away", AnomalyType.OCCUPANCY_MISMATCH, Severity.HIGH)


def motion_while_away(home: HomeView) -> Iterator[Finding]:
    """Motion inside while nobody is home: an intruder, a pet or a wrong presence count.

    When the window shows the departure, the motion must have *started* after it (and
    its grace): a sensor still on from the person leaving (PIR hold time, a phone that
    reports ``not_home`` minutes late) is that person. With pets in the profile, motion
    alone is the pet: it is told with a sign only a person gives (``core/pets.py``: a
    light switched on, a door opened...) since everybody left and around the motion.
    """
    if not home.nobody_home:
        return
    moving = [s for s in home.of("binary_sensor") if is_motion(s) and is_on(s)]
    if not moving:
        return
    # The last departure the window shows (a first report of being away in it came from
    # home: HA records changes only); motion begun before it is the person leaving.
    away_since = _left_at(home)
    if away_since is not None:
        moving = [m for m in moving if (onset := _onset(home, m)) and onset >= away_since]
        if not moving:
            return
    lights = [light for m in moving for light in _lights_on(home, m.info.area)]
    pets_only = all(has_role(home, m.entity_id, Role.PET_AREA) for m in moving)
    if has_pets(home.window.profile) or pets_only:
        # A light left on when they went out is no sign: it must be switched on since,
        # and by whoever moves now (not the dog an hour after a light was switched on).
        since = _empty_since(home)
        onsets = [onset for m in moving if (onset := _onset(home, m)) is not None]
        if since is not None and onsets:
            since = max(since, min(onsets) - SIGN_REACH)
        if since is None or not human_signs(home, since, home.end):
            return
    context: list[EntityState] = entry_point(home)
    if len(moving) == 1:
        context += home.of("alarm_control_panel")
        context += home.of("camera")
    yield MOTION_WHILE_AWAY.finding(
        evidence=ids(moving, lights, context),
        subject=HOME_SUBJECT,  # one incident while away, wherever the motion moves
        context=ids(context),
        while_away=True,
        reasoning=f"Motion in {', '.join(m.info.area or m.info.name for m in moving)} while "
        f"{nobody_home_words(home.window)}.",
        recommendation="Check the cameras or ask a neighbour.",
    )


def _empty_since(home: HomeView) -> datetime | None:
    """Since when the window shows everybody out: the last report of anyone not home.

    Unlike ``_left_at``, any report of not being home in the window counts (also one after
    an ``unknown``: HA or the monitor started while they were in): whatever happened
    before it may be theirs. With no presence report at all, the whole window was empty.
    """
    reports = [
        change.when
        for presence in home.presence_entities
        for change in home.changes(presence.entity_id)
        if presence_of(change.state) is not True
    ]
    return max(reports) + LEAVE_GRACE if reports else home.window.start


def _left_at(home: HomeView) -> datetime | None:
    """When the window shows the last person leave: the latest start of anyone's current
    away spell, plus the leaving grace; ``None`` if no one is seen leaving in the window.

    A spell runs back to the last report of being home; an ``unknown`` while out (a
    tracker's dropout, a restart) and a zone change do not begin a new one. HA records
    changes only, so a first report of being away came from home (or from a zone, as
    ``unknown``); one that followed an ``unknown`` with nothing known before it is a
    tracker catching up, not a departure.
    """
    starts: list[datetime] = []
    for presence in home.presence_entities:
        start: datetime | None = None
        left = False
        for change in reversed(home.changes(presence.entity_id)):
            where = presence_of(change.state)
            if where is True:
                left = start is not None
                break
            if where is False:
                start, left = change.when, True
            else:
                left = False  # an unknown before this report: left only if home before it
        if left and start is not None:
            starts.append(start)
    return max(starts) + LEAVE_GRACE if starts else None


def _onset(home: HomeView, sensor: EntityState) -> datetime | None:
    """When the sensor's current "on" spell began; ``None`` if before the window."""
    onset: datetime | None = None
    for transition in reversed(home.history.get(sensor.entity_id, [])):
        if transition.state.lower() != "on":
            break
        onset = transition.when
    start = home.window.start
    return None if onset is None or (start is not None and onset <= start) else onset


APPLIANCE_ACTIVE_WHILE_AWAY = FindingKind(
    "appliance_active_while_away", AnomalyType.OCCUPANCY_MISMATCH, Severity.MEDIUM
)


def appliance_active_while_away(home: HomeView) -> Iterator[Finding]:
    """An appliance draws a working load while nobody is home and nobody moves there.

    Magnitude: the largest such load (W).
    """
    if not home.nobody_home:
        return
    left_at = _left_at(home)
    found: list[EntityState] = []
    loads: list[float] = []
    for meter in home.of("sensor", "power"):
        area = meter.info.area
        if meter.number is None or area is None:
            continue
        if is_cold_appliance(home, meter.entity_id):
            continue  # a fridge runs its compressor whoever is home
        owner = _owner(home, meter)
        off_media = owner is not None and owner.domain == "media_player" and owner.state == "off"
        if meter.number < ACTIVE_LOAD_WATTS and not (off_media and meter.number > STANDBY_WATTS):
            continue
        if any(is_motion(s) and is_on(s) for s in home.in_area(area)):
            continue  # motion_while_away reports it
        if leaking_in(home, area):
            continue  # the leak alarm tells it (``leak_rooms``)
        if left_at is not None and _run_began_by(home, meter, left_at):
            # Started before the household left (a washer finishing its programme, the
            # dryer somebody set going on the way out): theirs, not a sign of anyone in.
            continue
        loads.append(meter.number)
        found += [s for s in (owner, meter) if s is not None]
        found += motion_in(home, area) + _lights(home, area)
        if owner is not None and owner.domain == "media_player":
            found += [s for s in home.in_area(area) if s.domain in ("media_player",)]
    if not found:
        return
    areas = {s.info.area for s in found}
    context = entry_point(home) + home.of("alarm_control_panel")
    if len(areas) > 1:
        found = [s for s in found if s.domain != "light"]
    yield APPLIANCE_ACTIVE_WHILE_AWAY.finding(
        evidence=ids(found, context),
        subject=HOME_SUBJECT,
        context=ids(context),
        while_away=True,
        reasoning=f"Appliances in {', '.join(sorted(a for a in areas if a))} draw power "
        f"while {nobody_home_words(home.window)}.",
        recommendation="Switch them off remotely or check who is there.",
        magnitude=max(loads),
    )


def _run_began_by(home: HomeView, meter: EntityState, moment: datetime) -> bool:
    """The meter's current run (since it last read at rest) began at or before ``moment``.

    With no reading at rest in the window, the run counts from the meter's first reading
    there, or from the window's start if it reported nothing.
    """
    onset = home.window.start
    for transition in reversed(home.changes(meter.entity_id)):
        value = parse_number(transition.state)
        if value is not None and value <= AT_REST_WATTS:
            break
        onset = transition.when
    return onset is None or onset <= moment


def _owner(home: HomeView, meter: EntityState) -> EntityState | None:
    """The switch or media player a power meter measures: the same device, else the one
    whose whole friendly name the meter's holds (HA names a device's entities so: "Plug 3"
    and "Plug 3 power"; "Utility washing machine power" for "Washing machine"), else a
    player whose kind the meter's name says ("TV power")."""
    candidates = [
        s
        for s in home.in_area(meter.info.area)
        if s.domain in ("switch", "media_player") and s is not meter
    ]
    same = [c for c in candidates if own_meter(home, c, meter)]
    if len(same) == 1:
        return same[0]
    # On one registry device ``own_meter`` decides (a meter of no certain channel has none).
    own = {c.entity_id for c in same}
    named = [
        c
        for c in candidates
        if named_after(meter, c)
        and (c.entity_id in own or None in (c.info.device, meter.info.device))
    ]
    if named:
        return max(named, key=lambda c: len(words(c.info.name)))
    for player in (c for c in candidates if c.domain == "media_player"):
        if player.info.device_class and says(meter.info.name, (player.info.device_class,)):
            return player
    return None
