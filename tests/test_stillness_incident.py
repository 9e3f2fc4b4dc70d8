"""A person who may have fallen is one incident, whichever sign comes first.

Issue 27, an elderly couple's home: the bathroom light on 2 h 39 min at night with almost
no motion (``light_on_long_at_night``, about the light), and no movement in the home for
far longer than usual (``no_movement_while_home``, about the home). Two subjects, one
person on the floor: told as two notifications that never joined.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.incidents import summary
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, Finding, Severity

LIGHT = "light.bathroom"
BATH_MOTION = "binary_sensor.bathroom_motion"
HALL_MOTION = "binary_sensor.hall_motion"

LIGHT_ON_LONG = Finding(
    "light_on_long_at_night",
    (LIGHT, BATH_MOTION),
    "light.bathroom has been on for 1 h 10 min, and nobody has moved in Bathroom.",
    "safety_hazard",
    Severity.HIGH,
    recommendation="Check on whoever is in Bathroom: they may have fallen.",
)
NO_MOVEMENT = Finding(
    "no_movement_while_home",
    (BATH_MOTION, HALL_MOTION),
    "Someone is home, but no motion sensor has seen movement for 2 h 40 min.",
    "safety_hazard",
    Severity.HIGH,
    recommendation="Check on the person at home: they may have fallen or be unwell.",
    subject=HOME_SUBJECT,
)


async def test_the_light_and_the_stillness_are_one_incident(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "fall")
    now = dt_util.utcnow()
    (fall,) = tracker.update([LIGHT_ON_LONG], now).opened
    # An hour later the home's stillness is found too: it joins, no second notification.
    changes = tracker.update([LIGHT_ON_LONG, NO_MOVEMENT], now + timedelta(hours=1))
    assert changes.opened == []
    assert list(tracker.open) == [fall.signature]
    assert set(fall.rules) == {"light_on_long_at_night", "no_movement_while_home"}
    assert set(fall.evidence) == {LIGHT, BATH_MOTION, HALL_MOTION}
    # The other way round, and in one analysis: one incident too.
    other = AnomalyTracker(hass, "fall-2")
    (first,) = other.update([NO_MOVEMENT], now).opened
    assert other.update([NO_MOVEMENT, LIGHT_ON_LONG], now + timedelta(minutes=5)).opened == []
    assert list(other.open) == [first.signature]
    both = AnomalyTracker(hass, "fall-3")
    assert len(both.update([LIGHT_ON_LONG, NO_MOVEMENT], now).opened) == 1


def test_its_advice_is_the_one_it_leads_with() -> None:
    """Both ask to check on the person: the lead's words, not both."""
    told = summary([LIGHT_ON_LONG, NO_MOVEMENT])
    assert told.recommendation == LIGHT_ON_LONG.recommendation
