"""What the monitors' notifications show, and which ones the homeowner dismissed.

HA keeps persistent notifications in memory only: a restart loses them and the monitor
writes them again. One the homeowner dismissed is read; it must not come back at the
next restart, so a dismissal is told to whoever listens (the tracker remembers it). A
notification the monitor itself removes (over and answered, acknowledged, past its day,
the entry deleted) goes through ``async_dismiss_own``, which is no homeowner's dismissal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from homeassistant.components import persistent_notification
from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.util.hass_dict import HassKey


@dataclass(slots=True)
class _Screen:
    # What each of the monitors' notifications shows now, (title, message) by its id.
    shown: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Told the id of each notification of the monitors the homeowner dismissed.
    listeners: list[Callable[[str], None]] = field(default_factory=list)


_SCREEN: HassKey[_Screen] = HassKey("anomaly_monitor_shown_notifications")


@callback
def _screen(hass: HomeAssistant) -> _Screen:
    screen = hass.data.get(_SCREEN)
    if screen is None:
        screen = hass.data[_SCREEN] = _Screen()

        @callback
        def _removed(
            update: persistent_notification.UpdateType,
            notifications: dict[str, persistent_notification.Notification],
        ) -> None:
            if update != persistent_notification.UpdateType.REMOVED:
                return
            for removed in notifications:
                # Still listed as shown: not removed by the monitor, so by the homeowner.
                if screen.shown.pop(removed, None) is not None:
                    for listener in list(screen.listeners):
                        listener(removed)

        persistent_notification.async_register_callback(hass, _removed)
    return screen


@callback
def shown_notifications(hass: HomeAssistant) -> dict[str, tuple[str, str]]:
    """What is on screen: writing the same notification again is not a no-op (it comes back
    as new, with a new time), so a reload or the re-show after start-up skips unchanged ones.
    A notification the homeowner dismissed is forgotten here and may be shown again."""
    return _screen(hass).shown


@callback
def async_dismiss_own(hass: HomeAssistant, notification_id: str) -> None:
    """Remove a notification of the monitor's own accord (no homeowner's dismissal)."""
    _screen(hass).shown.pop(notification_id, None)
    persistent_notification.async_dismiss(hass, notification_id)


@callback
def async_listen_dismissed(hass: HomeAssistant, listener: Callable[[str], None]) -> CALLBACK_TYPE:
    """Tell ``listener`` the id of every monitor notification the homeowner dismisses."""
    listeners = _screen(hass).listeners
    listeners.append(listener)

    @callback
    def _stop() -> None:
        if listener in listeners:
            listeners.remove(listener)

    return _stop
