"""An occurrence called a false alarm is not told again by another rule (set 9).

The gate stood open behind the last car out; "opened while nobody was home" was marked a
false alarm, and 79 minutes later another rule pushed the same opening ("no motion sensor
saw anybody"): on 53bec2e the mark covered only the rules that had told it. The gate
opened anew is a new occurrence, told; a safety hazard is never covered; and the memory
survives a restart.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState, Finding, Severity

GATE = "binary_sensor.driveway_gate"

OPENED_AWAY = Finding(
    "window_opened_while_away", (GATE,), "The driveway gate opened at 07:40 while nobody was home.",
    "security", Severity.HIGH, subject=GATE, while_away=True,
)  # fmt: skip
UNACCOMPANIED = Finding(
    "unaccompanied_opening", (GATE,), "The driveway gate opened at 07:40 and nobody was seen.",
    "security", Severity.MEDIUM, subject=GATE,
)  # fmt: skip


def _gate(state: str, changed: datetime) -> dict[str, EntityState]:
    return {
        GATE: EntityState(
            EntityInfo(GATE, "Driveway gate", "Driveway"), state, last_changed=changed
        )
    }


def _update(
    tracker: AnomalyTracker, findings: list[Finding], now: datetime, gate: dict[str, EntityState]
) -> list[str]:
    states = {e: s.state for e, s in gate.items()}
    return [a.rule for a in tracker.update(findings, now, states=states, entities=gate).opened]


async def test_the_same_occurrence_from_another_rule_is_not_told(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "gate")
    now = dt_util.utcnow()
    opened = _gate("on", now)
    assert _update(tracker, [OPENED_AWAY], now, opened) == ["window_opened_while_away"]
    (anomaly,) = tracker.open.values()
    tracker.mark_false_alarm(anomaly.key)
    closed = _gate("off", now + timedelta(minutes=90))
    assert _update(tracker, [UNACCOMPANIED], now + timedelta(minutes=100), closed) == []
    # Stored: a restart does not forget the occurrence.
    await tracker.async_flush()
    again = AnomalyTracker(hass, "gate")
    await again.async_load()
    assert _update(again, [UNACCOMPANIED], now + timedelta(minutes=105), closed) == []
    # Opened anew: a new occurrence, told by the rule the mark does not cover.
    reopened = _gate("on", now + timedelta(minutes=110))
    later = now + timedelta(minutes=115)
    assert _update(again, [UNACCOMPANIED], later, reopened) == ["unaccompanied_opening"]


async def test_a_hazard_is_never_covered(hass: HomeAssistant) -> None:
    tracker = AnomalyTracker(hass, "hazard")
    now = dt_util.utcnow()
    opened = _gate("on", now)
    _update(tracker, [OPENED_AWAY], now, opened)
    (anomaly,) = tracker.open.values()
    tracker.mark_false_alarm(anomaly.key)
    critical = Finding(
        "unaccompanied_opening", (GATE,), "Forced.", "security", Severity.CRITICAL, subject=GATE
    )
    assert _update(tracker, [critical], now + timedelta(minutes=5), opened) == [
        "unaccompanied_opening"
    ]


async def test_while_it_goes_on_only_the_marks_judge_it(hass: HomeAssistant) -> None:
    """Still open: the occurrence is not over, and may grow past what was marked."""
    tracker = AnomalyTracker(hass, "still")
    now = dt_util.utcnow()
    opened = _gate("on", now)
    _update(tracker, [OPENED_AWAY], now, opened)
    (anomaly,) = tracker.open.values()
    tracker.mark_false_alarm(anomaly.key)
    later = now + timedelta(minutes=30)
    assert _update(tracker, [UNACCOMPANIED], later, opened) == ["unaccompanied_opening"]
