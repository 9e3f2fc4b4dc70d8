"""What the homeowner sees, recorded from the outside of the integration.

Persistent notifications (HA's notification subscription), the monitor's bus events
(``anomaly_monitor_anomaly_detected`` / ``_cleared``) and its repair issues. Nothing here
reads the integration's internals, so the benchmark keeps working while they change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from homeassistant.components import persistent_notification
from homeassistant.core import CALLBACK_TYPE, Event, HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.util import dt as dt_util

MONITOR_DOMAIN = "anomaly_monitor"
EVENT_DETECTED = f"{MONITOR_DOMAIN}_anomaly_detected"
EVENT_CLEARED = f"{MONITOR_DOMAIN}_anomaly_cleared"


@dataclass(slots=True)
class Alarm:
    """One ``anomaly_detected`` event: the homeowner was told something."""

    when: datetime
    anomaly_id: str
    evidence: list[str]
    severity: str
    anomaly_type: str
    rule: str
    reasoning: str
    recommendation: str
    notifications: int = 0  # persistent notifications created with it
    # Why an open incident was told again ("graver", "intrusion", ...; "" when first told).
    escalation: str = ""


@dataclass(slots=True)
class Cleared:
    """One ``anomaly_cleared`` event."""

    when: datetime
    anomaly_id: str
    reason: str


@dataclass(slots=True)
class Notice:
    """One persistent notification created (or re-created)."""

    when: datetime
    notification_id: str
    title: str
    message: str


@dataclass(slots=True)
class Observations:
    """Everything seen over the whole run, across restarts."""

    alarms: list[Alarm] = field(default_factory=list)
    cleared: list[Cleared] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    visible: dict[str, Notice] = field(default_factory=dict)  # notifications on screen now
    restarts: list[dict[str, Any]] = field(default_factory=list)


def visible_issues(hass: HomeAssistant) -> dict[str, dict[str, Any]]:
    """The monitor's active repair issues, by issue id."""
    issues: dict[str, dict[str, Any]] = {}
    for (domain, issue_id), issue in ir.async_get(hass).issues.items():
        if domain != MONITOR_DOMAIN or not issue.active or issue.dismissed_version:
            continue
        issues[issue_id] = {
            "translation_key": issue.translation_key,
            "data": dict(issue.data or {}),
            "severity": str(issue.severity),
        }
    return issues


class Observer:
    """Subscribes one Home Assistant instance to the shared :class:`Observations`."""

    def __init__(self, hass: HomeAssistant, seen: Observations) -> None:
        self.hass = hass
        self.seen = seen
        self._unsubs: list[CALLBACK_TYPE] = []

    @callback
    def async_start(self) -> None:
        """Subscribe (before the monitor loads, so nothing is missed)."""
        hass = self.hass
        self.seen.visible.clear()  # notifications live in memory: a new instance has none
        self._unsubs.append(
            persistent_notification.async_register_callback(hass, self._async_notifications)
        )
        self._unsubs.append(hass.bus.async_listen(EVENT_DETECTED, self._async_detected))
        self._unsubs.append(hass.bus.async_listen(EVENT_CLEARED, self._async_cleared))

    @callback
    def async_stop(self) -> None:
        """Unsubscribe."""
        while self._unsubs:
            self._unsubs.pop()()

    @callback
    def _async_notifications(
        self,
        update_type: persistent_notification.UpdateType,
        notifications: dict[str, persistent_notification.Notification],
    ) -> None:
        now = dt_util.utcnow()
        if update_type == persistent_notification.UpdateType.REMOVED:
            for notification_id in notifications:
                self.seen.visible.pop(notification_id, None)
            return
        if update_type not in (
            persistent_notification.UpdateType.ADDED,
            persistent_notification.UpdateType.UPDATED,
        ):
            return
        for notification_id, item in notifications.items():
            notice = Notice(
                when=now,
                notification_id=notification_id,
                title=str(item.get("title") or ""),
                message=str(item.get("message") or ""),
            )
            self.seen.notices.append(notice)
            self.seen.visible[notification_id] = notice

    @callback
    def _async_detected(self, event: Event[dict[str, Any]]) -> None:
        data = event.data
        self.seen.alarms.append(
            Alarm(
                when=dt_util.utcnow(),
                anomaly_id=str(data.get("anomaly_id", "")),
                evidence=[str(e) for e in data.get("evidence") or []],
                severity=str(data.get("severity", "")),
                anomaly_type=str(data.get("anomaly_type", "")),
                rule=str(data.get("rule", "")),
                reasoning=str(data.get("reasoning", ""))[:300],
                recommendation=str(data.get("recommendation", ""))[:300],
                escalation=str(data.get("escalation") or ""),
            )
        )

    @callback
    def _async_cleared(self, event: Event[dict[str, Any]]) -> None:
        data = event.data
        self.seen.cleared.append(
            Cleared(
                when=dt_util.utcnow(),
                anomaly_id=str(data.get("anomaly_id", "")),
                reason=str(data.get("reason", "")),
            )
        )
