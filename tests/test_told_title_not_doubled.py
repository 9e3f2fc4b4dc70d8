"""Told again as somebody inside while the motion leads the words (walk 57's left 1).

The door told open while nobody is home, then shut; motion in the hall joins before the
incident is over. The motion leads its words now, but the incident keeps the name the
phone knows it by, "Now motion in Hall: " before it (main pushed "Now motion in Hall:
Motion in Hall while nobody is home", and read "Motion in Hall at 11:11: Motion in Hall
while ..." once the motion was over). An incident named first while a sign of somebody
inside leads (never shown before) is that motion's own name: no prefix says it again.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import Event, HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_mock_service

from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.anomalies.store import parse_anomaly
from custom_components.anomaly_monitor.anomalies.surfaces import Announcer
from custom_components.anomaly_monitor.core.escalation import Escalation
from custom_components.anomaly_monitor.core.models import HOME_SUBJECT, Finding, Severity

from .test_one_break_in_told_once import ATTRS, DOOR, HALL_MOTION, _empty_home, _set
from .test_told_title_while_it_lasts import DOOR_OPEN, DOOR_OPENED, _read


def _at(detected: list[Event]) -> str:
    return dt_util.as_local(detected[-1].time_fired).strftime("%H:%M")


async def test_motion_leading_when_told_again_keeps_the_incidents_name(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, pushes, detected = await _empty_home(hass, freezer, areas=True)
    await _set(hass, freezer, entry, 75, door="on")
    await _set(hass, freezer, entry, 20, door="off")
    await _set(hass, freezer, entry, 30, motion="on")
    assert [e.data["escalation"] for e in detected] == [None, "intrusion"]
    said = f"Now motion in Hall: {DOOR_OPENED}"
    assert [c.data["title"] for c in pushes] == [DOOR_OPEN, said]
    title, kind = _read(hass)
    assert title == said, title
    # The kind it was told as, one step graver: not the motion's "Activity that ...".
    assert kind.startswith("**Security** (critical)"), kind
    await _set(hass, freezer, entry, 30, motion="off")
    title, kind = _read(hass)
    assert title == f"Motion in Hall at {_at(detected)}: {DOOR_OPENED}", title
    assert title.count("Motion in Hall") == 1
    assert len(pushes) == 2


def _door_then_motion() -> OpenAnomaly:
    """The door found while nobody is home, then only the hall's motion: an intrusion
    whose motion leads, of an incident not shown yet (opened acknowledged, say)."""
    now = dt_util.utcnow()
    door = Finding(
        rule="entry_unsecured_while_away",
        evidence=(DOOR,),
        reasoning="Front door is open while nobody is home.",
        anomaly_type="security",
        severity=Severity.HIGH,
        subject=DOOR,
        while_away=True,
    )
    motion = Finding(
        rule="motion_while_away",
        evidence=(HALL_MOTION,),
        reasoning="Motion in Hall while nobody is home.",
        anomaly_type="occupancy_mismatch",
        severity=Severity.HIGH,
        subject=HOME_SUBJECT,
        while_away=True,
    )
    anomaly = OpenAnomaly.from_findings([door], now - timedelta(minutes=3))
    assert anomaly.refresh([motion], now) is Escalation.INTRUSION
    assert anomaly.lead_rule == "motion_while_away"
    assert not anomaly.headline
    return anomaly


async def test_a_name_worded_by_the_motion_takes_no_motion_prefix(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory
) -> None:
    entry, _pushes, _detected = await _empty_home(hass, freezer, areas=True)
    phone = async_mock_service(hass, "notify", "kid_phone")
    hass.states.async_set(HALL_MOTION, "on", ATTRS[HALL_MOTION])
    anomaly = _door_then_motion()
    announcer = Announcer(hass, entry, ["notify.kid_phone"])
    await announcer.async_opened(anomaly)
    await hass.async_block_till_done()
    own = "Motion in Hall while nobody is home"
    assert [c.data["title"] for c in phone] == [own]
    assert _read(hass)[0] == own
    assert anomaly.told_rule == "motion_while_away"
    # The motion over, and after a restart (stored and read back): still its own name.
    hass.states.async_set(HALL_MOTION, "off", ATTRS[HALL_MOTION])
    restored = OpenAnomaly.from_stored(parse_anomaly(asdict(anomaly)))
    assert restored.told_rule == "motion_while_away"
    await announcer.async_reworded(restored)
    assert _read(hass)[0] == own
    # A file from before ``told_rule``: named, its rule unknown; read as before.
    older = {k: v for k, v in asdict(anomaly).items() if k != "told_rule"}
    assert OpenAnomaly.from_stored(parse_anomaly(older)).told_rule == ""
