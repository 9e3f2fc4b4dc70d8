"""A break-in is one incident, told as the homeowner can act on it (walk of session 18).

(a) The lock unlocked and the door opened while nobody is home, found by the same
analysis, are one entrance: one push, with both devices as evidence, even where no area
says they belong together (the walk's home had none: two pushes in the same second).
(b) Once the phone has heard that somebody is inside, the door opening again minutes
later is the same break-in: the notification says "Opened again" in place, no new push.
(c) The advice of a break-in asks what a homeowner can do from afar (the cameras, a
neighbour, the police), never to check the presence trackers, also once the entry's own
finding is no longer found (the door closed behind whoever came in).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.persistent_notification import _async_get_or_create_notifications
from homeassistant.components.repairs import DOMAIN as REPAIRS_DOMAIN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    async_capture_events,
    async_mock_service,
)

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.const import CONF_NOTIFY, EVENT_ANOMALY_DETECTED
from custom_components.anomaly_monitor.core.escalation import TRACKER_CHECK
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, Finding, Severity

from .helpers import (
    ALICE,
    FRONT_LOCK,
    SMOKE,
    analyze,
    pass_time,
    put_in_area,
    set_calm_home,
    setup_monitor,
)

DOOR = "binary_sensor.front_door"
HALL_MOTION = "binary_sensor.hall_motion"
ATTRS: dict[str, dict[str, Any]] = {
    DOOR: {"device_class": "door", "friendly_name": "Front door"},
    HALL_MOTION: {"device_class": "motion", "friendly_name": "Hall motion"},
    FRONT_LOCK: {"friendly_name": "Front door lock"},
}
# Late morning in the test time zone (US/Pacific).
MORNING = datetime(2026, 3, 10, 18, 0, tzinfo=dt_util.UTC)


def _notes(hass: HomeAssistant) -> list[dict[str, Any]]:
    return list(_async_get_or_create_notifications(hass).values())


async def _empty_home(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, *, areas: bool, learned: bool = False
) -> tuple[Any, list[Any], list[Any]]:
    freezer.move_to(MORNING)
    assert await async_setup_component(hass, REPAIRS_DOMAIN, {})
    if areas:
        put_in_area(hass, "Hall", DOOR, HALL_MOTION, FRONT_LOCK)
    set_calm_home(hass)
    for entity_id, state in ((DOOR, "off"), (HALL_MOTION, "off"), (FRONT_LOCK, "locked")):
        hass.states.async_set(entity_id, state, ATTRS[entity_id])
    hass.states.async_set(ALICE, "not_home", {"friendly_name": "Alice"})
    pushes = async_mock_service(hass, "notify", "phone")
    entry = await setup_monitor(
        hass,
        learned=learned,
        include_entities=[SMOKE, FRONT_LOCK, DOOR, HALL_MOTION, ALICE],
        **{CONF_NOTIFY: ["notify.phone"]},
    )
    detected = async_capture_events(hass, EVENT_ANOMALY_DETECTED)
    await pass_time(hass, freezer, timedelta(minutes=10))
    return entry, pushes, detected


async def _set(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, entry: Any, seconds: int, **states: str
) -> None:
    for entity_id, state in states.items():
        target = {"door": DOOR, "lock": FRONT_LOCK, "motion": HALL_MOTION}[entity_id]
        hass.states.async_set(target, state, ATTRS[target])
    await analyze(hass, entry)  # as the change triggers (its timer runs on real time)
    await pass_time(hass, freezer, timedelta(seconds=seconds))


async def test_a_lock_and_its_door_found_at_once_are_one_incident(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """No area ties them: unlocked and opened while nobody is home, found by one analysis,
    one push (main: "Front door lock unlocked ..." and "Front door open ..." at once)."""
    entry, pushes, detected = await _empty_home(hass, freezer, areas=False)
    await _set(hass, freezer, entry, 30, lock="unlocked", door="on")
    assert len(pushes) == 1, [c.data["title"] for c in pushes]
    assert len(detected) == 1
    assert {FRONT_LOCK, DOOR} <= set(detected[0].data["evidence"])
    (note,) = _notes(hass)
    # One entrance, both wrong, named by its door (main: "Front door lock unlocked ...").
    assert note["title"] == "Front door unlocked and open while nobody is home", note["title"]
    assert "- Front door lock: Unlocked" in note["message"], note["message"]
    assert "- Front door: Open" in note["message"], note["message"]


async def test_the_door_opened_again_in_a_told_break_in_is_not_pushed_again(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Door open while away (push), motion in the hall over a minute later (push: somebody
    inside), the door closed and opened again a minute later: shown in place, no third push
    (main pushed "Opened again" at the same critical severity, a re-raise)."""
    entry, pushes, detected = await _empty_home(hass, freezer, areas=True)
    await _set(hass, freezer, entry, 75, door="on")
    await _set(hass, freezer, entry, 60, motion="on")
    await _set(hass, freezer, entry, 30, motion="off", door="off")
    await _set(hass, freezer, entry, 30)
    assert len(pushes) == 2, [c.data["title"] for c in pushes]
    await _set(hass, freezer, entry, 30, door="on")
    await _set(hass, freezer, entry, 30)
    assert len(pushes) == 2, [c.data["title"] for c in pushes]
    assert [e.data["escalation"] for e in detected] == [None, "intrusion"]
    (note,) = _notes(hass)
    assert note["title"].startswith("Opened again: "), note["title"]
    assert "- Front door (Hall): Open" in note["message"], note["message"]
    # What to do: from afar, never the trackers (an entry came first).
    assert "call the police" in note["message"], note["message"]
    assert TRACKER_CHECK not in note["message"].lower()


async def test_the_door_opened_again_from_inside_keeps_the_entry_found(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    """Walk of session 19, in a learned home: unlocked and opened while nobody is home,
    motion, the door closed and opened again from inside by whoever came in. The entry is
    still found (main: "the visit goes on", its finding dropped and only the motion left to
    tell), its door and lock in the notification; no third push (not a new arrival)."""
    entry, pushes, _detected = await _empty_home(hass, freezer, areas=True, learned=True)
    await _set(hass, freezer, entry, 75, lock="unlocked", door="on")
    await _set(hass, freezer, entry, 10, motion="on")
    await _set(hass, freezer, entry, 20, motion="off")
    await _set(hass, freezer, entry, 37, door="off")
    await _set(hass, freezer, entry, 30, door="on")
    await _set(hass, freezer, entry, 30)
    assert len(pushes) == 2, [c.data["title"] for c in pushes]
    response = await analyze(hass, entry)
    rules = {f["rule"] for f in response["verdict"]["findings"]}
    assert "entry_unsecured_while_away" in rules, rules
    (note,) = _notes(hass)
    assert "- Front door (Hall): Open" in note["message"], note["message"]
    assert "- Front door lock (Hall): Unlocked" in note["message"], note["message"]


async def test_a_break_in_asks_no_tracker_check_once_its_entry_is_not_found(
    hass: HomeAssistant,
) -> None:
    """The entry told, then only the motion statistic (whose own advice asks to check the
    trackers) is found: the incident is still a break-in, its advice is what to do."""
    tracker = AnomalyTracker(hass, "advice")
    now = dt_util.utcnow()
    entry = Finding(
        "entry_unsecured_while_away",
        (DOOR, FRONT_LOCK),
        "Front door lock is unlocked while nobody is home.",
        "security",
        Severity.HIGH,
        recommendation="Lock it remotely or ask someone to check the door.",
        subject=DOOR,
        while_away=True,
    )
    motion = Finding(
        "activity_while_away",
        (HALL_MOTION,),
        "Motion was detected by Hall motion while everyone tracked was away.",
        "occupancy_mismatch",
        Severity.HIGH,
        recommendation=f"Check the cameras or ask a neighbour; {TRACKER_CHECK}.",
        subject=HOME_SUBJECT,
        while_away=True,
    )
    (anomaly,) = tracker.update([entry], now).opened
    tracker.update([entry, motion], now + timedelta(minutes=2))
    tracker.update([motion], now + timedelta(minutes=3))  # the visitor's door judged closed
    assert TRACKER_CHECK not in anomaly.recommendation.lower(), anomaly.recommendation
    assert anomaly.recommendation.startswith("Check the cameras"), anomaly.recommendation
    assert "call the police" in anomaly.recommendation
    # Motion alone, with no entry in the incident, is still a tracker question.
    alone = AnomalyTracker(hass, "alone")
    (only,) = alone.update([motion], now).opened
    assert TRACKER_CHECK in only.recommendation
