""" "Now motion in Hall" goes from the screen when the motion clears, not at the next analysis.

An intrusion told again because somebody may be inside reads "Now motion in {area}: …"
while its motion sensors read motion (``texts``). Motion ending is no significant change
(motion while people are home is not worth an analysis), so the title kept saying "Now
motion" until the next periodic analysis, up to a quarter of an hour after it ended
(issue 27). A motion sensor of such an anomaly's evidence reading clear re-shows that
anomaly's notification and repair issue from the states of now: no analysis, no event,
no message.
"""

from __future__ import annotations

from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import CALLBACK_TYPE, Event, EventStateChangedData, HomeAssistant, callback

from ..core.escalation import Escalation
from .surfaces import Announcer
from .tracker import AnomalyTracker

# States in which a motion sensor no longer shows anybody.
_CLEAR = frozenset({"off", "unavailable", "unknown"})


class MotionClearing:
    """Follows the motion sensors of the open anomalies told as "Now motion"."""

    def __init__(
        self,
        hass: HomeAssistant,
        tracker: AnomalyTracker,
        announcer: Announcer,
    ) -> None:
        self._hass = hass
        self._tracker = tracker
        self._announcer = announcer
        self._unsub: CALLBACK_TYPE | None = None

    @callback
    def async_start(self) -> None:
        """Listen to state changes (a cheap filter: motion going clear only)."""
        self._unsub = self._hass.bus.async_listen(
            EVENT_STATE_CHANGED, self._async_cleared, event_filter=self._went_clear
        )

    @callback
    def async_stop(self) -> None:
        """Stop listening."""
        if self._unsub is not None:
            self._unsub()
            self._unsub = None

    @callback
    def _went_clear(self, data: EventStateChangedData) -> bool:
        new, old = data["new_state"], data["old_state"]
        return (
            new is not None
            and old is not None
            and new.domain == "binary_sensor"
            and old.state == "on"
            and new.state in _CLEAR
        )

    @callback
    def _async_cleared(self, event: Event[EventStateChangedData]) -> None:
        entity_id = event.data["entity_id"]
        for anomaly in list(self._tracker.open.values()):
            if anomaly.escalation == Escalation.INTRUSION and entity_id in anomaly.evidence:
                self._hass.async_create_task(
                    self._announcer.async_refreshed(anomaly), eager_start=True
                )
