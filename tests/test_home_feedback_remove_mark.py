"""The home benchmark's "remove the mark" when the product lists none about the incident.

Held-out set 3 (issue 27): "false alarm" on a leak the mop set off, then "remove the mark"
two days later. A safety hazard is never marked (its false alarm dismisses that occurrence
only), so the homeowner's list of marks shows nothing about it: there is nothing to
remove, and the benchmark scored the step as refused. A mark that is listed is removed.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from benchmark_replay.home.feedback import async_remove_mark
from benchmark_replay.home.observer import Alarm
from custom_components.anomaly_monitor.core.models import Finding, Severity

from .helpers import setup_monitor

LEAK = "binary_sensor.bath_leak"
PLUG = "switch.heater_plug"


def _alarm(anomaly_id: str, evidence: str) -> Alarm:
    return Alarm(dt_util.utcnow(), anomaly_id, [evidence], "high", "safety_hazard", "r", "", "")


async def test_no_listed_mark_is_nothing_to_remove_and_a_listed_one_goes(
    hass: HomeAssistant,
) -> None:
    entry = await setup_monitor(hass, learned=True, include_entities=[LEAK, PLUG])
    coordinator = entry.runtime_data.coordinator

    done, detail = await async_remove_mark(hass, _alarm("600e83742fcec1e0", LEAK))
    assert done, detail
    assert "nothing to remove" in detail

    finding = Finding(
        "toggle_storm", (PLUG,), "switch.heater_plug toggled 9 times", "device_malfunction",
        Severity.MEDIUM, magnitude=9.0,
    )  # fmt: skip
    (anomaly,) = coordinator.tracker.update([finding], dt_util.utcnow()).opened
    coordinator.async_mark_false_alarm(anomaly.key)
    assert coordinator.tracker.marks()
    done, detail = await async_remove_mark(hass, _alarm(anomaly.key, PLUG))
    assert done, detail
    assert "nothing to remove" not in detail
    assert coordinator.tracker.marks() == []
