"""Last seen somewhere no door keeps her, nothing anywhere since, far longer than ever then.

Rose lives alone (``test_daily_rhythm``'s fortnight): by day a sensor sees her every 15
minutes, the bathroom's among them, so at 07:00 this home is usually still for at most
13 min, and after the bathroom in the morning it was never quiet for longer than 15. A
morning she goes into the bathroom (a shower, no door sensor) and nothing moves after is
told once the quiet passes three times the home's usual (never under an hour), in a real
hass within two minutes of
it (a timer analyses then). Before, nothing told it for three hours: ``still_in_room``
judges only a room whose door closed behind her, ``no_movement_while_home`` waits for its
three-hour floor. Not told: the night after her bedtime (hours she rests at), a quiet that
began as somebody went out by the front door (its lock beside it), an arrival since, a home
whose hours are not learned.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_capture_events

from custom_components.anomaly_monitor.const import (
    CONF_INCLUDE_ENTITIES,
    DOMAIN,
    EVENT_ANOMALY_DETECTED,
)
from custom_components.anomaly_monitor.core.baselines import HomeBaselines
from custom_components.anomaly_monitor.core.baselines.detectors import (
    BASELINE_CHECKS,
    no_movement_while_home,
)
from custom_components.anomaly_monitor.core.baselines.still_in_room import (
    still_in_room_far_longer,
)
from custom_components.anomaly_monitor.core.baselines.still_where_last_seen import (
    still_where_last_seen,
    still_where_last_seen_due,
)
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import (
    HOME_SUBJECT,
    AnomalyType,
    Environment,
    Severity,
    Transition,
)
from custom_components.anomaly_monitor.core.stillness import is_stillness
from custom_components.anomaly_monitor.recorder.baseline_store import baseline_store

from .core_factories import entity, window
from .helpers import monitor_options, put_in_area
from .test_daily_rhythm import AREAS, ATTRIBUTES, BATH, BED, DOOR, HALL, HOB, ROSE, ZONE, _lived
from .test_night_light_due import _at
from .test_still_in_room import _into_the_bathroom, _rose

TODAY = datetime(2026, 3, 2, tzinfo=ZoneInfo(ZONE))  # a Monday, local midnight
FRONT_LOCK = "lock.front_door"
BATH_DOOR = "binary_sensor.bathroom_door"


def _view(
    now: datetime,
    *,
    home: bool = True,
    rose_changed: datetime | None = None,
    lock: bool = False,
    door: datetime | None = None,
    bath_door: datetime | None = None,
) -> HomeView:
    """The home at ``now``: every sensor off; ``lock``: a lock beside the front door;
    ``door``: the front door opened and shut then."""
    states = [
        entity(e, "off", area=AREAS[e], device_class="door" if e == DOOR else "motion")
        for e in (BED, HALL, BATH, DOOR)
    ]
    if lock:
        states.append(entity(FRONT_LOCK, "locked", area="Hall"))
    if bath_door is not None:  # the bathroom's door, last moved then
        door_state = entity(BATH_DOOR, "on", area=AREAS[BATH], device_class="door")
        states.append(replace(door_state, last_changed=bath_door))
    states.append(entity(ROSE, "home" if home else "not_home"))
    env = Environment(local_time=now, persons_home=int(home), persons_total=1)
    transitions: list[Transition] = []
    if door is not None:
        transitions += [
            Transition(door - timedelta(hours=1), DOOR, "off"),
            Transition(door, DOOR, "on"),
            Transition(door + timedelta(seconds=20), DOOR, "off"),
        ]
    if rose_changed is not None:
        transitions += [
            Transition(now - timedelta(hours=2), ROSE, "not_home"),
            Transition(rose_changed, ROSE, "home"),
        ]
    return HomeView(window(states, env, transitions))


def test_a_fall_in_a_room_without_a_door_is_told_past_three_times_the_usual_quiet() -> None:
    baselines = _rose()
    morning = TODAY + timedelta(hours=7, minutes=10)
    _into_the_bathroom(baselines, morning)
    still = morning + timedelta(minutes=4)  # the bathroom's motion went off at 07:14
    assert still_where_last_seen_due(_view(still + timedelta(minutes=5)), baselines) == (
        still + timedelta(hours=1)  # 13 min usual at 07:00: never under an hour
    )
    assert list(still_where_last_seen(_view(still + timedelta(minutes=59)), baselines)) == []
    now = still + timedelta(minutes=61)
    (finding,) = still_where_last_seen(_view(now), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert is_stillness(finding.rule)
    assert (finding.anomaly_type, finding.severity) == (AnomalyType.SAFETY_HAZARD, Severity.HIGH)
    assert finding.evidence == (BATH,)
    assert finding.subject == HOME_SUBJECT
    assert "last seen in Bathroom 1 h 01 min ago (at 07:14)" in finding.reasoning
    assert "usually still for at most 13 min" in finding.reasoning
    assert "never quiet for longer than 15 min" in finding.reasoning
    # Before: no door kept her there, and the whole home waits for its three-hour floor.
    assert list(still_in_room_far_longer(_view(now), baselines)) == []
    assert list(no_movement_while_home(_view(now), baselines)) == []
    assert still_where_last_seen in BASELINE_CHECKS


def test_the_door_of_the_room_where_she_lies_is_among_the_evidence() -> None:
    """The bathroom's own door (open since she went in) shows where she is: a finding
    told about it before is this stillness's beginning (``anomalies.graver_of_told``)."""
    baselines = _rose()
    morning = TODAY + timedelta(hours=7, minutes=10)
    _into_the_bathroom(baselines, morning)
    went_in = morning + timedelta(minutes=1)
    now = morning + timedelta(minutes=4, hours=1, seconds=60)
    (finding,) = still_where_last_seen(_view(now, bath_door=went_in), baselines)
    assert finding.evidence == (BATH_DOOR, BATH)
    # A door of that room unmoved since the night is no sign of where she went.
    (finding,) = still_where_last_seen(_view(now, bath_door=TODAY), baselines)
    assert finding.evidence == (BATH,)


def test_bedtime_an_arrival_an_empty_home_and_a_young_home_are_not_told() -> None:
    baselines = _lived(TODAY, timedelta(hours=7))
    bedtime = TODAY - timedelta(minutes=90)  # her last movement: the bedroom, at 22:30
    for minutes in (60, 120, 300):
        night = _view(bedtime + timedelta(minutes=minutes))
        assert list(still_where_last_seen(night, baselines)) == []
    baselines = _rose()
    morning = TODAY + timedelta(hours=7, minutes=10)
    _into_the_bathroom(baselines, morning)
    later = morning + timedelta(hours=1, minutes=15)
    assert list(still_where_last_seen(_view(later, home=False), baselines)) == []
    arrived = _view(later, rose_changed=morning + timedelta(minutes=20))
    assert list(still_where_last_seen(arrived, baselines)) == []
    stored = baselines.as_dict()
    stored["quiet"]["maxima"] = [values[-3:] for values in stored["quiet"]["maxima"]]
    young = HomeBaselines.from_dict(stored, ZoneInfo(ZONE))  # three days learned
    assert list(still_where_last_seen(_view(later), young)) == []
    assert len(list(still_where_last_seen(_view(later), baselines))) == 1


def test_last_seen_going_out_by_the_front_door_is_not_told() -> None:
    """Seen last in the hall as the front door (its lock beside it) opened and shut: she
    probably went out without her phone. The same quiet after the hall with the door
    unmoved, or a door without a lock nobody came in by, is judged."""
    baselines = _rose()
    morning = TODAY + timedelta(hours=9, minutes=1)
    for minutes, entity_id, state in [(0, HALL, "on"), (0.5, DOOR, "on"), (0.8, DOOR, "off")]:
        baselines.observe(morning + timedelta(minutes=minutes), entity_id, state, "Hall")
    baselines.observe(morning + timedelta(minutes=2), HALL, "off", "Hall")
    later = morning + timedelta(hours=1, minutes=30)
    went_out = _view(later, lock=True, door=morning + timedelta(seconds=30))
    assert list(still_where_last_seen(went_out, baselines)) == []
    assert still_where_last_seen_due(went_out, baselines) is None
    assert len(list(still_where_last_seen(_view(later, lock=True), baselines))) == 1


async def test_a_fall_in_the_shower_is_told_within_two_minutes_of_its_limit(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """A real hass: up at 07:10, into the bathroom at 07:13, its motion off at 07:17,
    nothing after (the periodic analyses run every 15 min). Not told at 08:16; told by
    08:19 (the limit 08:17) by an analysis the monitor runs then."""
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    await hass.config.async_set_time_zone(ZONE)
    today = dt_util.start_of_local_day(dt_util.now())
    for area in sorted(set(AREAS.values())):
        put_in_area(hass, area, *[e for e, a in AREAS.items() if a == area])
    start = today + timedelta(hours=7, minutes=7)
    freezer.move_to(start)
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    for entity_id, attributes in ATTRIBUTES.items():
        hass.states.async_set(entity_id, "0.0" if entity_id == HOB else "off", attributes)
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Home",
        options=monitor_options(**{CONF_INCLUDE_ENTITIES: list(ATTRIBUTES)}),
    )
    entry.add_to_hass(hass)
    learned = _lived(today, timedelta(hours=7))
    learned.advance(start)
    await baseline_store(hass, entry.entry_id).async_save(learned.as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    morning = today + timedelta(hours=7, minutes=10)
    await _at(hass, freezer, morning)
    for minutes, entity_id, state in [
        (0, BED, "on"),
        (1, BED, "off"),
        (2, HALL, "on"),
        (3, BATH, "on"),
        (3.5, HALL, "off"),
        (7, BATH, "off"),
    ]:
        await _at(hass, freezer, morning + timedelta(minutes=minutes))
        hass.states.async_set(entity_id, state, ATTRIBUTES[entity_id])
    await _at(hass, freezer, morning + timedelta(minutes=66))
    assert [e.data["rule"] for e in detected] == []
    await _at(hass, freezer, morning + timedelta(minutes=69))
    (fall,) = [e.data for e in detected]
    assert "still_in_room_far_longer" in fall["rules"]
    assert fall["severity"] == "high"
    assert fall["evidence"] == [BATH]
