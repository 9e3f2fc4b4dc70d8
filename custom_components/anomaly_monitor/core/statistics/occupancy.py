"""Occupancy contradictions over time: activity while everyone is away or asleep."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from ..device_roles import Role, has_role
from ..escalation import TRACKER_CHECK
from ..finding_kind import FindingKind
from ..home import OCCUPANCY_DEVICE_CLASSES, HomeView
from ..models import HOME_SUBJECT, AnomalyType, Finding, Severity, parse_number
from ..occupancy import presence_of
from ..pets import SIGN_REACH, first_human_sign, has_pets
from .timeline import intervals

# Motion right after the last person left or just before one arrives is that person.
LEAVE_GRACE = timedelta(minutes=3)
ARRIVE_GRACE = timedelta(minutes=3)
# The phone's sleep confidence (Android companion app, %) above which the user sleeps.
ASLEEP_CONFIDENCE = 90.0
# Sleep confidence climbs gradually as one falls asleep; a leap of this many points in
# one reading is a sudden "deep sleep" claim worth checking against activity.
SLEEP_LEAP = 30.0
# Motion this close to such a leap contradicts it; recognised activity (walking...) is
# reported by the phone with more delay, so it gets a wider window.
SLEEP_MOTION_WINDOW = timedelta(minutes=2)
# A person still walking about before and after the claim (each within this) was awake.
SLEEP_SURROUND = timedelta(minutes=5)
SLEEP_ACTIVITY_WINDOW = timedelta(minutes=15)
# A deep-sleep report that only holds an already high level (no leap) is still a claim
# about that moment: the same phone reporting a walk this close to it contradicts it.
HELD_SLEEP_ACTIVITY_WINDOW = timedelta(minutes=5)
# Activity recognition states (companion app) that mean the person is moving.
MOVING_ACTIVITIES = frozenset(
    {"walking", "running", "on_foot", "on_bicycle", "cycling", "in_vehicle"}
)


def _presence_ids(home: HomeView) -> list[str]:
    ids = {s.entity_id for s in home.presence_entities}
    ids.update(e for e in home.history if home.domain(e) in ("person", "device_tracker"))
    return sorted(ids)


def _motion_ids(home: HomeView) -> list[str]:
    return [
        e
        for e in home.history
        if home.domain(e) == "binary_sensor" and home.device_class(e) in OCCUPANCY_DEVICE_CLASSES
    ]


def _motion_level_ids(home: HomeView) -> list[str]:
    """Numeric motion sensors: a camera's motion score, a radar's motion level.

    HA has no device class for them: ``device_roles`` says what they are (the homeowner,
    or the name's word "motion"); only sensors that report numbers qualify.
    """
    return [
        e
        for e in home.history
        if home.domain(e) == "sensor"
        and has_role(home, e, Role.MOTION_LEVEL)
        and any(parse_number(t.state) is not None for t in home.history[e])
    ]


def _motion_level_moments(home: HomeView, entity_id: str) -> list[datetime]:
    """When a numeric motion sensor reported any motion at all (a level above zero)."""
    moments: list[datetime] = []
    for t in home.history.get(entity_id, []):
        value = parse_number(t.state)
        if value is not None and value > 0:
            moments.append(t.when)
    return moments


def _away(state: str) -> bool:
    """Positively away: ``unknown``/``unavailable`` reports are not evidence of absence."""
    return presence_of(state) is False


def _single_person(home: HomeView, people: list[str]) -> bool:
    """One person entity: the device trackers are taken as that person's devices."""
    return sum(1 for e in people if home.domain(e) == "person") == 1


def away_periods(home: HomeView) -> list[tuple[datetime, datetime]]:
    """Spans when every tracked person was known to be away (grace periods trimmed).

    Several people (or trackers without a person entity): all of them must be away. A
    household with a single person entity: the person and the trackers are one person's
    reports, and, as HA's person entity does with its trackers, the most recent report
    decides (the phone left while the person entity had not caught up yet).
    """
    people = _presence_ids(home)
    if not people:
        return []
    single = _single_person(home, people)
    state: dict[str, str] = {}
    for entity_id in people:
        snapshot = home.states.get(entity_id)
        if snapshot is not None and not home.history.get(entity_id):
            state[entity_id] = snapshot.state.lower()
    timeline = sorted(
        (t.when, t.entity_id, t.state.lower()) for e in people for t in home.history.get(e, [])
    )
    points = sorted({when for when, _, _ in timeline})
    latest: str | None = None
    if state:  # reports older than the window: away only if all agree
        latest = "not_home" if all(_away(s) for s in state.values()) else "home"
    spans: list[tuple[datetime, datetime]] = []
    start: datetime | None = None
    index = 0
    for point in [*points, home.end]:
        while index < len(timeline) and timeline[index][0] <= point:
            state[timeline[index][1]] = timeline[index][2]
            latest = timeline[index][2]
            index += 1
        if single:
            away = latest is not None and _away(latest)
        else:
            away = len(state) == len(people) and all(_away(s) for s in state.values())
        if away and start is None:
            start = point
        elif not away and start is not None:
            if point - ARRIVE_GRACE > start + LEAVE_GRACE:
                spans.append((start + LEAVE_GRACE, point - ARRIVE_GRACE))
            start = None
    if start is not None and home.end > start + LEAVE_GRACE:
        spans.append((start + LEAVE_GRACE, home.end))
    return spans


def since_last_return(
    home: HomeView, spans: list[tuple[datetime, datetime]]
) -> list[tuple[datetime, datetime]]:
    """The away spans after the last time a tracked person was reported home.

    Motion of an earlier spell, one that ended with somebody coming home, belongs to that
    spell: it was judged then, and whoever came home has seen the house since. A new spell's
    first finding must not carry it (nor the entries before it).
    """
    returns = [
        t.when
        for e in _presence_ids(home)
        for t in home.history.get(e, [])
        if presence_of(t.state.lower()) is True
    ]
    if not returns:
        return spans
    last = max(returns)
    return [span for span in spans if span[0] >= last]


def _since_a_person_showed(
    home: HomeView, spans: list[tuple[datetime, datetime]]
) -> list[tuple[datetime, datetime]]:
    """Each away spell from ``SIGN_REACH`` before its first sign only a person gives
    (``core/pets.py``); a spell without one is dropped. With pets, motion before that sign
    is the pet's: the owner who comes home and opens the door at the end of an afternoon
    the dog moved through is no sign that anybody moved earlier."""
    shown: list[tuple[datetime, datetime]] = []
    for start, end in spans:
        sign = first_human_sign(home, start, end)
        if sign is not None:
            shown.append((max(start, sign - SIGN_REACH), end))
    return shown


ACTIVITY_WHILE_AWAY = FindingKind(
    "activity_while_away", AnomalyType.OCCUPANCY_MISMATCH, Severity.HIGH
)


def activity_while_away(home: HomeView) -> Iterator[Finding]:
    """Motion inside while every tracked person is away: an intruder, a pet or a bad tracker.

    Motion sensors and numeric motion levels (a reading above zero) both count. With pets
    in the profile, only motion from a sign only a person gives in the spell on
    (``core/pets.py``; ``_since_a_person_showed``).
    Magnitude: how many times motion started (or a level was reported) while everyone
    was away.
    """
    spans = since_last_return(home, away_periods(home))
    shown: list[tuple[datetime, datetime]] | None = None  # read only with pets (a scan)
    if spans and has_pets(home.window.profile):
        spans = shown = _since_a_person_showed(home, spans)
    if not spans:
        return
    fired: list[str] = []
    onsets = 0
    for entity_id in _motion_ids(home):
        judged = spans
        if has_role(home, entity_id, Role.PET_AREA):
            # Where the homeowner says the pets roam, only motion once a person showed.
            if shown is None:
                shown = _since_a_person_showed(home, spans)
            judged = shown
        count = sum(
            1
            for interval in intervals(home, entity_id)
            if interval.state.lower() == "on"
            and any(start <= interval.start <= end for start, end in judged)
        )
        if count:
            fired.append(entity_id)
            onsets += count
    for entity_id in _motion_level_ids(home):
        count = sum(
            1
            for when in _motion_level_moments(home, entity_id)
            if any(start <= when <= end for start, end in spans)
        )
        if count:
            fired.append(entity_id)
            onsets += count
    if not fired:
        return
    people = [e for e in _presence_ids(home) if home.history.get(e)]
    yield ACTIVITY_WHILE_AWAY.finding(
        evidence=(*fired, *people),
        subject=HOME_SUBJECT,  # one incident while away, whichever sensors fire
        context=tuple(people),
        while_away=True,  # about the away spell: someone known home ends it (tracker)
        reasoning=f"Motion was detected by {', '.join(fired)} while everyone tracked was away.",
        recommendation=f"Check the cameras or ask a neighbour; {TRACKER_CHECK}.",
        magnitude=float(onsets),
    )


def _sleep_sensors(home: HomeView) -> list[str]:
    return [e for e in home.history if has_role(home, e, Role.SLEEP_CONFIDENCE)]


def _activity_sensors(home: HomeView) -> list[str]:
    return [e for e in home.history if has_role(home, e, Role.DETECTED_ACTIVITY)]


def _moving_around(onsets: list[datetime], when: datetime) -> bool:
    """Motion right at the sleep claim, or motion on both sides of it a few minutes apart."""
    if any(abs(o - when) <= SLEEP_MOTION_WINDOW for o in onsets):
        return True
    before = any(when - SLEEP_SURROUND <= o < when for o in onsets)
    after = any(when < o <= when + SLEEP_SURROUND for o in onsets)
    return before and after


ACTIVITY_WHILE_ASLEEP = FindingKind(
    "activity_while_asleep", AnomalyType.OCCUPANCY_MISMATCH, Severity.MEDIUM
)


def activity_while_asleep(home: HomeView) -> Iterator[Finding]:
    """The phone says its owner sleeps soundly while they walk around or motion fires.

    A claim is a sudden leap to deep sleep (or the window's first report already deep);
    it is contradicted by moving activity within 15 min, or by motion right at it or on
    both sides of it. A report that merely holds deep sleep is contradicted only by the
    phone's own activity recognition within 5 min (a bedroom motion sensor also fires
    when a sleeper turns over). Numeric motion levels count as motion when above zero.

    Magnitude: how many activity reports or motion onsets contradict the sleep claims.
    """
    for sleep_id in _sleep_sensors(home):
        asleep: list[datetime] = []
        held: list[datetime] = []
        previous: float | None = None
        for t in home.history.get(sleep_id, []):
            value = parse_number(t.state)
            if value is None:
                continue
            if value >= ASLEEP_CONFIDENCE:
                leap = previous is None or value - previous >= SLEEP_LEAP
                (asleep if leap else held).append(t.when)
            previous = value
        if not asleep and not held:
            continue
        movers: list[str] = []
        events = 0
        for activity_id in _activity_sensors(home):
            moving = sum(
                1
                for t in home.history.get(activity_id, [])
                if t.state.lower() in MOVING_ACTIVITIES
                and (
                    any(abs(t.when - when) <= SLEEP_ACTIVITY_WINDOW for when in asleep)
                    or any(abs(t.when - when) <= HELD_SLEEP_ACTIVITY_WINDOW for when in held)
                )
            )
            if moving:
                movers.append(activity_id)
                events += moving
        if not movers and asleep:
            onsets_of = {
                motion_id: [
                    t.when for t in home.history.get(motion_id, []) if t.state.lower() == "on"
                ]
                for motion_id in _motion_ids(home)
            }
            for level_id in _motion_level_ids(home):
                onsets_of[level_id] = _motion_level_moments(home, level_id)
            for motion_id, onsets in onsets_of.items():
                if any(_moving_around(onsets, when) for when in asleep):
                    movers.append(motion_id)
                    events += sum(
                        1
                        for onset in onsets
                        if any(abs(onset - when) <= SLEEP_SURROUND for when in asleep)
                    )
        if not movers:
            continue
        yield ACTIVITY_WHILE_ASLEEP.finding(
            evidence=(*movers, sleep_id),
            subject=sleep_id,
            reasoning=f"{sleep_id} reports deep sleep while {', '.join(movers)} shows activity "
            "at the same time.",
            recommendation="Check on the person, or the phone's sleep tracking.",
            magnitude=float(events),
        )
