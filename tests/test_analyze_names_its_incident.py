"""The ``analyze`` reply names the incident each finding is a part of (walk 57's left 2-3).

Walk 57 read a reply "medium, security" with "Front door stayed open for 16 min" beside a
break-in told and over a minute before, that finding shown nowhere: it is the stay of the
incident told (its push, "Opened again"), over. Each finding says which incident the
homeowner knows it by (``anomaly_id``: its notification's, repair issue's and events') and
whether that incident is over; a finding that is a part of none says none.
"""

from __future__ import annotations

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant

from custom_components.anomaly_monitor.anomalies.finding_incident import with_incidents

from .helpers import ALICE, analyze
from .test_one_break_in_told_once import DOOR, _empty_home, _set


async def test_each_finding_names_its_incident_open_and_over(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, pushes, detected = await _empty_home(hass, freezer, areas=True)
    await _set(hass, freezer, entry, 30, door="on")
    told = detected[-1].data["anomaly_id"]
    for _ in range(16):  # left open past a quarter of an hour
        await _set(hass, freezer, entry, 60)
    reply = await analyze(hass, entry)
    door = [f for f in reply["verdict"]["findings"] if f["subject"] == DOOR]
    assert door, reply["verdict"]["findings"]
    assert {(f["anomaly_id"], f["anomaly_over"]) for f in door} == {(told, False)}
    await _set(hass, freezer, entry, 30, door="off")
    hass.states.async_set(ALICE, "home", {"friendly_name": "Alice"})
    await _set(hass, freezer, entry, 30)
    # Over at the return; the window still holds the door's 16 min ("stayed open"): the
    # stay told, a part of that incident, over (no new push: ``told_stay_recalled``).
    reply = await analyze(hass, entry)
    door = [f for f in reply["verdict"]["findings"] if f["subject"] == DOOR]
    assert door, reply["verdict"]["findings"]
    assert {(f["anomaly_id"], f["anomaly_over"]) for f in door} == {(told, True)}
    assert len(pushes) == 1


def test_a_finding_of_no_incident_names_none() -> None:
    findings = [{"rule": "entry_left_open", "subject": DOOR, "anomaly_type": "security"}]
    with_incidents(findings, [], [])
    assert findings == [
        {
            "rule": "entry_left_open",
            "subject": DOOR,
            "anomaly_type": "security",
            "anomaly_id": None,
            "anomaly_over": False,
        }
    ]
