"""No door answers a person not back home: whoever opens it afterwards is news.

Walk 44: "Bob not back home long past the usual time, phone off" (a safety hazard) was
told at 02:30 and over at 02:34, when Bob came home by the front door. At 02:37 the
household went out together, the front door left open and unlocked: "Front door unlocked
and open while nobody is home" (security, high) was held as the hazard's answer (the
same door opened and shut as the hazard ended: ``airing``'s clause), shown at once on its
own (the hazard over: ``incident_parts.orphans``) and never pushed. The hazard is
somebody outside the home: a door of the home answers nothing of it (the return through
it ends it).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.anomalies.hazard_answer import answers_a_told_hazard
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.core.models import EntityState, Transition

from .tracker_home import open_anomaly, state

TOLD = datetime(2026, 12, 6, 0, 30, 10, tzinfo=UTC)
BOB = "person.bob"
FRONT = "binary_sensor.front_door"
LOCK = "lock.front_door_lock"
SMOKE = "binary_sensor.kitchen_smoke"


def _home(opened: datetime) -> dict[str, EntityState]:
    return {
        BOB: state(BOB, "not_home", changed=opened),
        FRONT: state(FRONT, "on", "Hall", "door", changed=opened),
        LOCK: state(LOCK, "unlocked", "Hall", changed=opened - timedelta(seconds=5)),
        SMOKE: state(SMOKE, "off", "Kitchen", "smoke", changed=TOLD),
    }


def _at(minutes: float) -> datetime:
    return TOLD + timedelta(minutes=minutes)


# Bob home at 02:34:29 (the key, the door opened and shut), the door locked behind him;
# at 02:37 the household out together, the door unlocked, opened and left open.
STEPS = [
    Transition(_at(4.3), BOB, "home"),
    Transition(_at(4.3), LOCK, "unlocked"),
    Transition(_at(4.5), FRONT, "on"),
    Transition(_at(4.65), FRONT, "off"),
    Transition(_at(5.9), LOCK, "locked"),
    Transition(_at(7.25), LOCK, "unlocked"),
    Transition(_at(7.35), FRONT, "on"),
    Transition(_at(7.7), BOB, "not_home"),
]


def _left_open_as_they_left(told: OpenAnomaly, *, over: bool) -> str | None:
    opened = _at(7.35)
    door = open_anomaly("entry_unsecured_while_away", FRONT, [FRONT, LOCK], "security", opened)
    now = _at(7.85)
    if over:
        told.ended = _at(4.65).isoformat()
        return answers_a_told_hazard(door, [], now, _home(opened), STEPS, ended=[told])
    return answers_a_told_hazard(door, [told], now, _home(opened), STEPS)


def test_the_door_left_open_after_somebody_came_back_late_is_told() -> None:
    not_back = open_anomaly("not_back_as_usual", BOB, [BOB], "safety_hazard", TOLD)
    assert _left_open_as_they_left(not_back, over=True) is None
    not_back = open_anomaly("not_back_as_usual", BOB, [BOB], "safety_hazard", TOLD)
    assert _left_open_as_they_left(not_back, over=False) is None


def test_a_door_opened_as_the_smoke_sounded_still_answers_it() -> None:
    smoke = open_anomaly("hazard_detected", SMOKE, [SMOKE], "safety_hazard", TOLD)
    assert _left_open_as_they_left(smoke, over=False) == smoke.signature
