"""A door left open, acknowledged, is no entry: another door opened minutes later and
left open is told (walk 37: the fridge door told "left open" and acknowledged, the front
door opened 14 min later and left open was never shown, held as the "intruder leaving by
another door" an acknowledged entry holds). An acknowledged entry while nobody is home
still holds the door the intruder left by, and a left-open door its own room's doors.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.acknowledged_hold import AcknowledgedHold
from custom_components.anomaly_monitor.anomalies.acknowledged_seen import Seen
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import Severity

from .tracker_home import finding, outcome, state

FRIDGE = "binary_sensor.fridge_door"
FRONT = "binary_sensor.front_door"
BACK = "binary_sensor.back_door"


def _home(now, fridge_opened, front_opened):  # type: ignore[no-untyped-def]
    return {
        FRIDGE: state(FRIDGE, "on", "Kitchen", "opening", changed=fridge_opened),
        FRONT: state(FRONT, "on", "Hall", "door", changed=front_opened),
    }


async def test_an_acknowledged_door_left_open_holds_no_other_door_opened_after(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "left_open")
    now = dt_util.utcnow()
    fridge = finding("entry_left_open", FRIDGE, "security")
    front = finding("entry_left_open", FRONT, "security")
    opened = now - timedelta(minutes=90)
    assert outcome(tracker, [fridge], now, _home(now, opened, now - timedelta(days=1))) == (
        ["entry_left_open"],
        [],
    )
    tracker.acknowledge(tracker.open[fridge.signature].key)
    front_opened = now + timedelta(minutes=14)
    later = front_opened + timedelta(minutes=17)
    home = _home(later, opened, front_opened)
    opened_now, _ = outcome(tracker, [fridge, front], later, home)
    assert opened_now == ["entry_left_open"]  # the front door, told
    assert not tracker.open[front.signature].acknowledged


async def test_an_acknowledged_entry_while_away_still_holds_the_way_out(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "entry")
    now = dt_util.utcnow()
    entry = finding("entry_unsecured_while_away", BACK, "security", Severity.HIGH, while_away=True)
    left = finding("entry_left_open", FRONT, "security")
    home = {
        BACK: state(BACK, "on", "Kitchen", "door", changed=now),
        FRONT: state(FRONT, "off", "Hall", "door", changed=now - timedelta(days=1)),
    }
    assert outcome(tracker, [entry], now, home, home=False)[0] == ["entry_unsecured_while_away"]
    tracker.acknowledge(tracker.open[entry.signature].key)
    out = now + timedelta(minutes=6)
    home[FRONT] = state(FRONT, "on", "Hall", "door", changed=out)
    later = out + timedelta(minutes=20)
    assert outcome(tracker, [entry, left], later, home, home=False)[0] == []


def test_the_stored_hold_keeps_what_a_left_open_door_is() -> None:
    now = dt_util.utcnow()
    seen = Seen(FRIDGE, frozenset({FRIDGE}), 2, now, (), began=now, anomaly_type="security")
    hold = AcknowledgedHold()
    hold.seen[f"entry_left_open:{FRIDGE}"] = seen
    hold.seen[f"entry_unsecured_while_away:{BACK}"] = seen
    back = AcknowledgedHold.from_dict(hold.as_dict()).seen
    assert back[f"entry_left_open:{FRIDGE}"].left_open
    assert not back[f"entry_unsecured_while_away:{BACK}"].left_open
