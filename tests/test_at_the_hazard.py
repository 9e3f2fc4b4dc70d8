"""Somebody at a told hazard before a door opened: the household airing it, not an entry.

Set 32 (Leicester, Busan): the hob's gas alarm sounds with every tracker away; the kitchen's
motion sensor reads somebody there (a grandmother without a phone), and three minutes
later the back door opens to let the gas out; she walks on through the hall. "Back door
open while nobody is home", with "motion in the hall", was pushed as an intrusion. The
motion in the hazard's room before the door opened is somebody already inside: the door
and the motion after it are the hazard's answer, shown, not pushed. Motion only after
the door opened, or only in another room, is whoever came in: told as before.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityState, Severity, Transition

from .tracker_home import finding, state

GAS = "binary_sensor.hob_gas"
KITCHEN_MOTION = "binary_sensor.kitchen_motion"
HALL_MOTION = "binary_sensor.hall_motion"
BACK_DOOR = "binary_sensor.back_door"

GAS_TOLD = finding("hazard_detected", GAS, "safety_hazard", Severity.CRITICAL)
DOOR_AWAY = finding(
    "entry_unsecured_while_away", BACK_DOOR, "security", Severity.HIGH, while_away=True
)
HALL_AWAY = finding(
    "motion_while_away", HALL_MOTION, "occupancy_mismatch", Severity.HIGH, while_away=True
)


def _home(
    now: datetime, opened: datetime, kitchen_on: datetime, kitchen_area: str = "Kitchen"
) -> tuple[dict[str, EntityState], list[Transition]]:
    entities = {
        GAS: state(GAS, "on", "Kitchen", "gas", changed=now),
        BACK_DOOR: state(BACK_DOOR, "on", "Kitchen", "door", changed=opened),
        KITCHEN_MOTION: state(KITCHEN_MOTION, "on", kitchen_area, "motion", changed=kitchen_on),
        HALL_MOTION: state(HALL_MOTION, "on", "Hall", "motion", changed=opened),
    }
    transitions = [
        Transition(kitchen_on, KITCHEN_MOTION, "on"),
        Transition(opened, BACK_DOOR, "on"),
        Transition(opened + timedelta(minutes=1), HALL_MOTION, "on"),
    ]
    return entities, sorted(transitions)


def _run(tracker: AnomalyTracker, now: datetime, kitchen_on: datetime, **kw: str) -> list[str]:
    """Gas told at ``now``; the back door opened 3 min on, the hall moving: what is pushed."""
    entities, transitions = _home(now, now - timedelta(days=1), kitchen_on, **kw)
    states = {e: s.state for e, s in entities.items()}
    tracker.update([GAS_TOLD], now, False, states=states, entities=entities)
    opened, later = now + timedelta(minutes=3), now + timedelta(minutes=12)
    entities, transitions = _home(now, opened, kitchen_on, **kw)
    states = {e: s.state for e, s in entities.items()}
    changes = tracker.update(
        [GAS_TOLD, DOOR_AWAY, HALL_AWAY],
        later,
        False,
        states=states,
        entities=entities,
        transitions=transitions,
    )
    return sorted(a.rule for a in changes.opened)


async def test_the_door_opened_by_whoever_was_at_the_gas_is_its_answer(
    hass: HomeAssistant,
) -> None:
    now = dt_util.utcnow()
    # In the kitchen as the gas began (on 3 min before it was told).
    before = AnomalyTracker(hass, "at_the_gas")
    assert _run(before, now, now - timedelta(minutes=3)) == []
    # Came to the kitchen after it sounded, before the door opened.
    came = AnomalyTracker(hass, "came_to_the_gas")
    assert _run(came, now, now + timedelta(seconds=30)) == []


async def test_motion_only_after_the_door_or_elsewhere_is_an_entry(hass: HomeAssistant) -> None:
    now = dt_util.utcnow()
    after = AnomalyTracker(hass, "after_the_door")
    assert _run(after, now, now + timedelta(minutes=4)) == ["entry_unsecured_while_away"]
    elsewhere = AnomalyTracker(hass, "other_room")
    pushed = _run(elsewhere, now, now - timedelta(minutes=3), kitchen_area="Bedroom")
    assert pushed == ["entry_unsecured_while_away"]


def _joined(tracker: AnomalyTracker, now: datetime, kitchen_on: datetime) -> list[str]:
    """Gas told; the back door alone 1 min after it opened (shown as the gas's answer), the
    hall's motion joining it 6 min later: what is pushed then."""
    opened = now + timedelta(minutes=3)
    entities, transitions = _home(now, opened, kitchen_on)
    states = {e: s.state for e, s in entities.items()}
    tracker.update([GAS_TOLD], now, False, states=states, entities=entities)
    first = tracker.update(
        [GAS_TOLD, DOOR_AWAY],
        opened + timedelta(minutes=1),
        False,
        states=states,
        entities=entities,
        transitions=transitions,
    )
    assert [a.rule for a in first.reopened] == ["entry_unsecured_while_away"]
    changes = tracker.update(
        [GAS_TOLD, DOOR_AWAY, HALL_AWAY],
        opened + timedelta(minutes=7),
        False,
        states=states,
        entities=entities,
        transitions=transitions,
    )
    return sorted(a.rule for a in changes.opened)


async def test_motion_joining_the_door_of_whoever_was_at_the_gas_is_no_intrusion(
    hass: HomeAssistant,
) -> None:
    now = dt_util.utcnow()
    at_it = AnomalyTracker(hass, "joined_at_the_gas")
    assert _joined(at_it, now, now - timedelta(minutes=3)) == []
    assert at_it.open[DOOR_AWAY.signature].escalation != "intrusion"
    # Nobody at the gas before the door opened: whoever came in, told as an intrusion.
    came_in = AnomalyTracker(hass, "joined_came_in")
    assert _joined(came_in, now, now + timedelta(minutes=5)) == ["entry_unsecured_while_away"]
    assert came_in.open[DOOR_AWAY.signature].escalation == "intrusion"
