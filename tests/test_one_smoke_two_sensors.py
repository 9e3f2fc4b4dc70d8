"""One smoke, one notification: a smoke alarm and unhealthy air at once (set 28).

Diego Martin: bush-fire smoke blown into a bedroom, its PM2.5 at 64 µg/m³ from 15:30 and
185 at 15:38; the landing's smoke alarm went at 15:40 ("Smoke detected", told) and 10 s
later "air unhealthy to breathe" was pushed about the bedroom's PM2.5: one smoke, told as
two incidents. The alarm's finding shows the unhealthy air as what confirms it; the air
told after the alarm is shown in its notification, and the alarm going off once the air
was told joins the air's incident, told again as graver (the same notification).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from custom_components.anomaly_monitor.anomalies.texts import async_anomaly_texts
from custom_components.anomaly_monitor.anomalies.tracker import AnomalyTracker
from custom_components.anomaly_monitor.core.models import EntityState, Finding, Severity
from custom_components.anomaly_monitor.core.rules.safety import hazard_detected

from .core_factories import entity, home
from .helpers import in_area
from .tracker_home import finding, state

ALARM = "binary_sensor.landing_smoke"
PM = "sensor.bedroom_pm2_5"
AIR = finding("air_unhealthy_far_beyond_its_range", PM, "safety_hazard", Severity.HIGH)


def _alarm_finding(pm: str) -> Finding:
    """The rule's own finding: the alarm sounding, the bedroom's air reading ``pm``."""
    view = home(
        [
            entity(ALARM, "on", area="Landing", device_class="smoke"),
            entity(PM, pm, area="Bedroom", device_class="pm25", unit="µg/m³"),
        ]
    )
    (smoke,) = hazard_detected(view)
    return smoke


def _home(alarm: str, pm: str, now: datetime) -> dict[str, EntityState]:
    return {
        ALARM: state(ALARM, alarm, "Landing", "smoke", changed=now),
        PM: state(PM, pm, "Bedroom", "pm25", "µg/m³", changed=now),
    }


def _update(
    tracker: AnomalyTracker,
    findings: list[Finding],
    now: datetime,
    entities: dict[str, EntityState],
) -> tuple[list[str], list[str]]:
    changes = tracker.update(
        findings, now, True, states={e: s.state for e, s in entities.items()}, entities=entities
    )
    return [a.lead_rule for a in changes.opened], [a.lead_rule for a in changes.reopened]


def test_the_alarm_shows_unhealthy_air_as_its_smoke() -> None:
    assert _alarm_finding("185").evidence == (ALARM, PM)
    assert _alarm_finding("18").evidence == (ALARM,)  # the bedroom's usual air: not its smoke


async def test_the_air_found_after_the_alarm_is_shown_in_it(hass: HomeAssistant) -> None:
    """In the same analysis or a later one: one incident, told once."""
    for later in (False, True):
        tracker = AnomalyTracker(hass, f"after{later}")
        now = dt_util.utcnow()
        smoke = _alarm_finding("185")
        assert _update(tracker, [smoke], now, _home("on", "185", now))[0] == ["hazard_detected"]
        now += timedelta(seconds=10)
        found = [smoke, AIR] if not later else [AIR, smoke]
        assert _update(tracker, found, now, _home("on", "185", now)) == ([], [])
        (anomaly,) = tracker.open.values()
        assert set(anomaly.rules) == {"hazard_detected", "air_unhealthy_far_beyond_its_range"}


async def test_the_alarm_after_the_air_was_told_is_told_graver_in_it(
    hass: HomeAssistant,
) -> None:
    tracker = AnomalyTracker(hass, "graver")
    now = dt_util.utcnow()
    told = _update(tracker, [AIR], now, _home("off", "64", now))
    assert told[0] == ["air_unhealthy_far_beyond_its_range"]
    now += timedelta(minutes=5)
    pushed, _ = _update(tracker, [AIR, _alarm_finding("185")], now, _home("on", "185", now))
    assert pushed == ["hazard_detected"]  # told again: the alarm is graver news
    (anomaly,) = tracker.open.values()
    assert anomaly.escalation
    assert anomaly.severity == "critical"
    assert anomaly.rule == "air_unhealthy_far_beyond_its_range"  # the same incident


async def test_the_alarm_told_graver_is_named_as_the_smoke(hass: HomeAssistant) -> None:
    """Walk 35: the title read "Bedroom PM2.5 reports danger in Bedroom" over "Smoke
    detected in Landing": the rule's title, about the incident's first sensor. It names
    the alarm now."""
    in_area(hass, ALARM, "Landing")
    in_area(hass, PM, "Bedroom")
    hass.states.async_set(ALARM, "on", {"device_class": "smoke"})
    hass.states.async_set(PM, "185", {"device_class": "pm25", "unit_of_measurement": "µg/m³"})
    tracker = AnomalyTracker(hass, "named")
    now = dt_util.utcnow()
    (air,) = tracker.update([AIR], now).opened
    assert (await async_anomaly_texts(hass, air)).headline.startswith(
        "bedroom pm2 5: air unhealthy"  # its id, no friendly name here
    )
    now += timedelta(minutes=5)
    (graver,) = tracker.update([AIR, _alarm_finding("185")], now).opened
    assert (await async_anomaly_texts(hass, graver)).headline == "Smoke in Landing"
