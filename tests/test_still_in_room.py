"""Somebody last seen in a room, nothing anywhere since, far longer than ever after it.

Rose lives alone (``test_daily_rhythm``'s fortnight): by day a sensor sees her every
15 minutes, the bathroom's among them; at night she goes to the toilet at 03:00 and the
night goes on after it. Learned per room and quarter of the day (``RoomQuiet``): after
the bathroom in the morning the home was never quiet for more than 15 min; after the
bathroom at night, until she got up. A morning she goes into the bathroom and nothing
moves after is told once the quiet passes 40 min (15 min and a clear margin), in a real
hass within two minutes of it (a timer analyses then); ``no_movement_while_home`` would
wait three hours. The quiet of the night after the bathroom, a home not learned yet, an
arrival since and an empty home are not told.
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
from custom_components.anomaly_monitor.core.baselines.detectors import no_movement_while_home
from custom_components.anomaly_monitor.core.baselines.still_in_room import (
    still_in_room_due,
    still_in_room_far_longer,
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

TODAY = datetime(2026, 3, 2, tzinfo=ZoneInfo(ZONE))  # a Monday, local midnight


BATH_DOOR = "binary_sensor.bathroom_door"
_BATH_DOOR = {"device_class": "door", "friendly_name": "Bathroom door"}


def _view(
    now: datetime,
    *,
    home: bool = True,
    rose_changed: datetime | None = None,
    shut: datetime | None = None,
    seen_inside: float = 4,
    hall_on_since: datetime | None = None,
) -> HomeView:
    """The home at ``now``; ``shut``: the bathroom door opened and closed behind her then,
    its motion seen until ``seen_inside`` minutes later."""
    states = [
        entity(e, "off", area=AREAS[e], device_class="door" if e == DOOR else "motion")
        for e in (BED, HALL, BATH, DOOR)
    ]
    if hall_on_since is not None:  # the hall's motion on since then, from before the window
        states = [s for s in states if s.entity_id != HALL]
        hall = entity(HALL, "on", area=AREAS[HALL], device_class="motion")
        states.append(replace(hall, last_changed=hall_on_since))
    states.append(entity(BATH_DOOR, "off", area="Bathroom", device_class="door"))
    states.append(entity(ROSE, "home" if home else "not_home"))
    env = Environment(local_time=now, persons_home=int(home), persons_total=1)
    transitions: list[Transition] = []
    if shut is not None:
        transitions += [
            Transition(shut - timedelta(hours=1), BATH_DOOR, "off"),
            Transition(shut - timedelta(hours=1), BATH, "off"),
            Transition(shut, BATH_DOOR, "on"),
            Transition(shut, BATH, "on"),
            Transition(shut + timedelta(seconds=30), BATH_DOOR, "off"),
            Transition(shut + timedelta(minutes=seen_inside), BATH, "off"),
        ]
    if rose_changed is not None:
        transitions += [
            Transition(now - timedelta(hours=2), ROSE, "not_home"),
            Transition(rose_changed, ROSE, "home"),
        ]
    return HomeView(window(states, env, transitions))


def _into_the_bathroom(baselines: HomeBaselines, at: datetime) -> None:
    """Up from bed, through the hall, into the bathroom; nothing after (the sensors go off)."""
    for minutes, entity_id, state in [
        (0, BED, "on"),
        (1, BED, "off"),
        (2, HALL, "on"),
        (3, BATH, "on"),
        (3.5, HALL, "off"),
        (4, BATH, "off"),
    ]:
        baselines.observe(at + timedelta(minutes=minutes), entity_id, state, AREAS[entity_id])


def _rose() -> HomeBaselines:
    baselines = _lived(TODAY, timedelta(hours=7))
    baselines.advance(TODAY + timedelta(hours=7))
    return baselines


def test_a_morning_in_the_bathroom_far_longer_than_ever_is_told() -> None:
    baselines = _rose()
    morning = TODAY + timedelta(hours=7, minutes=10)
    _into_the_bathroom(baselines, morning)
    seen = morning + timedelta(minutes=3)  # the last sign: the bathroom door closing
    door = seen - timedelta(seconds=30)  # opened, motion inside, closed at 07:13
    assert still_in_room_due(
        _view(seen + timedelta(minutes=5), shut=door), baselines
    ) == seen + timedelta(minutes=40)  # 15 min learned: never under 40
    assert (
        list(still_in_room_far_longer(_view(seen + timedelta(minutes=39), shut=door), baselines))
        == []
    )
    now = seen + timedelta(minutes=41)
    (finding,) = still_in_room_far_longer(_view(now, shut=door), baselines)
    assert finding.rule == "still_in_room_far_longer"
    assert (finding.anomaly_type, finding.severity) == (AnomalyType.SAFETY_HAZARD, Severity.HIGH)
    assert finding.evidence == (BATH_DOOR, BATH)
    assert finding.subject == HOME_SUBJECT
    assert is_stillness(finding.rule)
    assert "last seen in Bathroom 41 min ago (at 07:13)" in finding.reasoning
    assert "never quiet for longer than 15 min" in finding.reasoning
    # The whole home's stillness waits for its three-hour floor.
    assert list(no_movement_while_home(_view(now, shut=door), baselines)) == []
    # Walking out through the door (nobody seen inside after it closed) is not shut in;
    # nor is a room whose door did not close on anybody in the window.
    walked_out = _view(now, shut=door, seen_inside=1)
    assert list(still_in_room_far_longer(walked_out, baselines)) == []
    assert list(still_in_room_far_longer(_view(now), baselines)) == []


def test_a_quiet_while_a_motion_sensor_reads_movement_is_not_told() -> None:
    """Relatives came in by the street door and sit in the patio: its sensor has read
    movement since before the window, with no new sign, while the door they shut is the
    last sign. The home is not still: not told, nor due, while it reads movement."""
    baselines = _rose()
    morning = TODAY + timedelta(hours=7, minutes=10)
    _into_the_bathroom(baselines, morning)
    seen = morning + timedelta(minutes=3)
    door = seen - timedelta(seconds=30)
    now = seen + timedelta(minutes=41)
    busy = _view(now, shut=door, hall_on_since=morning - timedelta(minutes=5))
    assert list(still_in_room_far_longer(busy, baselines)) == []
    assert still_in_room_due(busy, baselines) is None
    assert len(list(still_in_room_far_longer(_view(now, shut=door), baselines))) == 1


def test_the_night_after_the_bathroom_is_not_told() -> None:
    """Her 03:00 trip, out of her rest, is the last sign of every night: the night after
    the bathroom is learned as long as it lasts."""
    baselines = _lived(TODAY, timedelta(hours=7))
    _into_the_bathroom(baselines, TODAY + timedelta(hours=3))
    night = TODAY + timedelta(hours=3, minutes=2, seconds=30)
    assert (
        list(still_in_room_far_longer(_view(TODAY + timedelta(hours=6), shut=night), baselines))
        == []
    )


def test_going_to_bed_wherever_she_was_last_seen_is_not_told() -> None:
    """Her evenings end in the bathroom; tonight the bedroom sees her last, at 22:30: the
    quiet after it is far longer than any after the bedroom in the evening, but it is the
    hours she rests at (bedtime), not a trip out of her rest: not told."""
    baselines = _lived(TODAY, timedelta(hours=7))
    evening = TODAY - timedelta(minutes=90)  # her last movement: the bedroom, at 22:30
    for minutes in (40, 60, 120):
        assert (
            list(still_in_room_far_longer(_view(evening + timedelta(minutes=minutes)), baselines))
            == []
        )


def test_nothing_is_told_before_the_room_is_learned_nor_without_anybody_home() -> None:
    baselines = _rose()
    stored = baselines.as_dict()
    stored["room_quiet"]["quiets"] = {
        area: [days[-2:] for days in quarters]
        for area, quarters in stored["room_quiet"]["quiets"].items()
    }  # two days learned
    young = HomeBaselines.from_dict(stored, ZoneInfo(ZONE))
    morning = TODAY + timedelta(hours=7, minutes=10)
    _into_the_bathroom(young, morning)
    later, door = morning + timedelta(hours=1), morning + timedelta(minutes=2, seconds=30)
    assert list(still_in_room_far_longer(_view(later, shut=door), young)) == []
    _into_the_bathroom(baselines, morning)
    assert list(still_in_room_far_longer(_view(later, home=False, shut=door), baselines)) == []
    arrived = _view(later, rose_changed=morning + timedelta(minutes=20), shut=door)
    assert list(still_in_room_far_longer(arrived, baselines)) == []
    assert len(list(still_in_room_far_longer(_view(later, shut=door), baselines))) == 1


def test_what_was_learned_is_stored() -> None:
    baselines = _rose()
    morning = TODAY + timedelta(hours=7, minutes=10)
    _into_the_bathroom(baselines, morning)
    again = HomeBaselines.from_dict(baselines.as_dict(), ZoneInfo(ZONE))
    assert again.room_quiet.as_dict() == baselines.room_quiet.as_dict()
    assert again.summary()["areas_with_learned_quiet"] == 3
    later = _view(morning + timedelta(hours=1), shut=morning + timedelta(minutes=2, seconds=30))
    assert list(still_in_room_far_longer(later, again)) == list(
        still_in_room_far_longer(later, baselines)
    )
    broken = baselines.as_dict()
    broken["room_quiet"] = {"quiets": {"Bathroom": [[[1, "x", 2]]] * 4, 7: []}, "last": [1, 2]}
    assert HomeBaselines.from_dict(broken, ZoneInfo(ZONE)).room_quiet.as_dict() == {
        "quiets": {"Bathroom": [[], [], [], []]},
        "last": None,
        "rest_ended": None,
        "came_from": None,
    }


async def _rose_at_home(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> datetime:
    """Rose's monitor (analysing every 15 min) with her learned fortnight, at 07:07 today."""
    await hass.config.async_set_time_zone(ZONE)
    today = dt_util.start_of_local_day(dt_util.now())
    areas = {**AREAS, BATH_DOOR: "Bathroom"}
    for area in sorted(set(areas.values())):
        put_in_area(hass, area, *[e for e, a in areas.items() if a == area])
    start = today + timedelta(hours=7, minutes=7)
    freezer.move_to(start)
    hass.states.async_set(ROSE, "home", {"friendly_name": "Rose"})
    for entity_id, attributes in ATTRIBUTES.items():
        hass.states.async_set(entity_id, "0.0" if entity_id == HOB else "off", attributes)
    hass.states.async_set(BATH_DOOR, "off", _BATH_DOOR)
    options = {CONF_INCLUDE_ENTITIES: [*ATTRIBUTES, BATH_DOOR]}
    entry = MockConfigEntry(domain=DOMAIN, title="Home", options=monitor_options(**options))
    entry.add_to_hass(hass)
    learned = _lived(today, timedelta(hours=7))
    learned.advance(start)
    await baseline_store(hass, entry.entry_id).async_save(learned.as_dict())
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return today


async def test_a_fall_in_the_bathroom_is_told_within_two_minutes_of_its_limit(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """A real hass: up at 07:10, into the bathroom, the door closed behind her at 07:13,
    nothing after (the periodic analyses run at 07:22, 07:37, 07:52, 08:07). Not told at
    07:52; told by 07:55 (the limit 07:53) by an analysis the monitor runs then."""
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    today = await _rose_at_home(hass, freezer)
    morning = today + timedelta(hours=7, minutes=10)
    await _at(hass, freezer, morning)
    for minutes, changes in [
        (0, [(BED, "on")]),
        (1, [(BED, "off")]),
        (2, [(HALL, "on")]),
        (2.5, [(BATH_DOOR, "on"), (BATH, "on")]),
        (3, [(BATH_DOOR, "off")]),
        (3.5, [(HALL, "off")]),
        (7, [(BATH, "off")]),
    ]:
        await _at(hass, freezer, morning + timedelta(minutes=minutes))
        for entity_id, state in changes:
            attributes = _BATH_DOOR if entity_id == BATH_DOOR else ATTRIBUTES[entity_id]
            hass.states.async_set(entity_id, state, attributes)
    await _at(hass, freezer, morning + timedelta(minutes=42, seconds=30))
    assert [e.data["rule"] for e in detected] == []
    await _at(hass, freezer, morning + timedelta(minutes=45))
    (fall,) = [e.data for e in detected]
    assert "still_in_room_far_longer" in fall["rules"]
    assert fall["severity"] == "high"
    assert fall["evidence"] == [BATH_DOOR, BATH]
    assert "last seen in Bathroom" in fall["reasoning"]
