"""What the home shows while its supply is out joins the told outage (no Home Assistant).

Set 19 (Kyiv): the grid went at 03:00, the EcoFlow carried the flat; the living room
cooling below its band was told apart from the outage and again after its acknowledge.
While the outage is found again by the same analysis, such a consequence joins it; a
hazard does not, nor does anything once the supply is back.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.anomalies.joining import targets
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.core.incidents import by_incident
from custom_components.anomaly_monitor.core.models import Finding, Severity

NOW = datetime(2026, 11, 22, 7, 27, tzinfo=UTC)
CHARGE, AC_IN = "sensor.delta_2_battery_level", "sensor.delta_2_ac_in_power"
ROOM = "sensor.vitalnia_temperature"
OUTAGE = Finding(
    "supply_off_far_longer_than_usual", (CHARGE, AC_IN), "No power since 03:00.",
    "energy", Severity.HIGH, subject=AC_IN,
)  # fmt: skip
COOLING = Finding(
    "reading_beyond_its_steady_band", (ROOM,), "Reads 19.2 °C, below its band.",
    "device_malfunction", Severity.MEDIUM, subject=ROOM,
)  # fmt: skip
SMOKE = Finding(
    "hazard_detected", ("binary_sensor.kitchen_smoke",), "Smoke detected.",
    "safety_hazard", Severity.CRITICAL, subject="binary_sensor.kitchen_smoke",
)  # fmt: skip


def _joins(new: Finding, outage_found_now: bool = True) -> bool:
    told = OpenAnomaly.from_findings([OUTAGE], NOW - timedelta(hours=3))
    found = [new, OUTAGE] if outage_found_now else [new]
    for anomaly, members in targets(by_incident(found), [told], [], NOW):
        if new in members:
            return anomaly is told
    raise AssertionError("not targeted")


def test_a_room_cooling_while_the_supply_is_out_joins_the_outage() -> None:
    assert _joins(COOLING)


def test_a_hazard_while_the_supply_is_out_is_news() -> None:
    assert not _joins(SMOKE)


def test_once_the_supply_is_back_a_cooling_room_is_news() -> None:
    assert not _joins(COOLING, outage_found_now=False)
