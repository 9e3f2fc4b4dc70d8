"""A load told drawing on its own meter, still drawing once the home is empty: one anomaly.

Set 14: an engine heater told drawing at hours it never draws (its meter the subject) was
told again as "appliances draw power while nobody is home" once the family left (a
re-raise). The empty-home finding names the same meter: it joins the open anomaly. A load
on another meter is a new one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.anomalies.joining import targets
from custom_components.anomaly_monitor.anomalies.open_anomaly import OpenAnomaly
from custom_components.anomaly_monitor.core.incidents import by_incident
from custom_components.anomaly_monitor.core.models import Finding, Severity

NOW = datetime(2026, 12, 14, 12, tzinfo=UTC)
HEATER = "sensor.mashiny_khalaaguur_power"
KETTLE = "sensor.dankh_current_consumption"
UNUSUAL = Finding(
    "meter_drawing_at_unusual_hours", (HEATER,), "Drawing 805 W since 07:05.",
    "energy", Severity.MEDIUM, subject=HEATER,
)  # fmt: skip


def _away(*meters: str) -> Finding:
    return Finding(
        "appliance_active_while_away", (*meters, "light.khashaany"),
        "Appliances in the yard draw power while nobody is home.",
        "occupancy_mismatch", Severity.MEDIUM, subject="home", while_away=True,
    )  # fmt: skip


def _joined(finding: Finding) -> OpenAnomaly | None:
    told = OpenAnomaly.from_findings([UNUSUAL], NOW - timedelta(hours=1))
    [(anomaly, _)] = targets(by_incident([finding]), [told], [], NOW)
    return anomaly


def test_the_same_meter_drawing_in_the_empty_home_joins_its_open_anomaly() -> None:
    assert _joined(_away(HEATER)) is not None


def test_another_meter_drawing_in_the_empty_home_is_a_new_anomaly() -> None:
    assert _joined(_away(HEATER, KETTLE)) is None
    assert _joined(_away(KETTLE)) is None


PLUG = "switch.sonoff_1001f3a7c2"
PLUG_METER = "sensor.sonoff_1001f3a7c2_power"
PLUG_UNUSUAL = Finding(
    "meter_drawing_at_unusual_hours", (PLUG, PLUG_METER), "Drawing since 20:40.",
    "energy", Severity.MEDIUM, subject=PLUG,
)  # fmt: skip


def test_a_plug_told_by_its_switch_joins_its_meter_drawing_in_the_empty_home() -> None:
    """A plug's meter findings name the plug's switch as their subject (set 34 Sevilla: the
    iron left on told at 23:03 drawing at hours it never draws; at 23:33, the family gone,
    "appliances draw power while nobody is home" was a second notification)."""
    told = OpenAnomaly.from_findings([PLUG_UNUSUAL], NOW - timedelta(minutes=30))
    [(anomaly, _)] = targets(by_incident([_away(PLUG, PLUG_METER)]), [told], [], NOW)
    assert anomaly is told
    # Its switch named beside another meter that the told anomaly does not show: new.
    [(other, _)] = targets(by_incident([_away(PLUG, PLUG_METER, KETTLE)]), [told], [], NOW)
    assert other is None
