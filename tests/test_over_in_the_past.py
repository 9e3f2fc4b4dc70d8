"""An "Over" notice reads in the past: its "While it lasted:" is the finding's text as it
was told, without the "and still is" that said it went on (the lead's re-walk of session
31: "Over since 02:44 … While it lasted: Front door stayed open for 15 min (from 02:29),
and still is.")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from homeassistant.core import HomeAssistant

from custom_components.anomaly_monitor.anomalies.lasted_words import as_lasted
from custom_components.anomaly_monitor.anomalies.texts import async_anomaly_texts
from custom_components.anomaly_monitor.anomalies.tracker import OpenAnomaly
from custom_components.anomaly_monitor.core.models import AnomalyType, Finding, Severity

DOOR = "binary_sensor.back_door"
BACK_DOOR = {"device_class": "door", "friendly_name": "Back door"}


def test_only_the_claim_of_now_is_taken_out() -> None:
    assert as_lasted("Door stayed open for 15 min (from 02:29), and still is.") == (
        "Door stayed open for 15 min (from 02:29)."
    )
    held = "Hall motion has reported motion since 2026-12-04 06:00 (1.5 h, and still is) while"
    assert as_lasted(held) == "Hall motion has reported motion since 2026-12-04 06:00 (1.5 h) while"
    kept = "Door stayed open for 15 min (from 02:29)."
    assert as_lasted(kept) == kept


async def test_the_over_notice_says_what_was_not_that_it_still_is(hass: HomeAssistant) -> None:
    """Told "Back door stayed open for 15 min (from 02:29), and still is." and then over:
    the texts of its "Over" notice and repair issue say it stayed open from 02:29; while
    it is open they say it still is."""
    hass.states.async_set(DOOR, "off", BACK_DOOR)
    finding = Finding(
        rule="entry_left_open",
        evidence=(DOOR,),
        reasoning=f"{DOOR} stayed open for 15 min (from 02:29), and still is.",
        anomaly_type=AnomalyType.SECURITY,
        severity=Severity.MEDIUM,
        subject=DOOR,
    )
    now = datetime(2026, 12, 4, 12, 44, tzinfo=UTC)
    anomaly = OpenAnomaly.from_findings([finding], now)
    told = await async_anomaly_texts(hass, anomaly)
    assert told.reasoning == "Back door stayed open for 15 min (from 02:29), and still is."
    anomaly.ended = (now + timedelta(minutes=2)).isoformat()
    over = await async_anomaly_texts(hass, anomaly)
    assert over.reasoning == "Back door stayed open for 15 min (from 02:29)."
