"""Home Assistant's last start, read from hass and handed to the tracker as plain data.

HA keeps no start time of its own; every state it holds was set at or after its start,
so the earliest ``last_changed`` is the start's first moment (``anomalies.ha_start``).
While HA still starts, states keep being set until it says it has started.
"""

from __future__ import annotations

from homeassistant.core import CALLBACK_TYPE, CoreState, HomeAssistant, callback
from homeassistant.helpers.start import async_at_started
from homeassistant.util import dt as dt_util

from ..anomalies.ha_start import StartSpan
from ..anomalies.tracker import AnomalyTracker


@callback
def async_follow_ha_start(hass: HomeAssistant, tracker: AnomalyTracker) -> CALLBACK_TYPE:
    """Tell ``tracker`` when HA started (now, and once it has); the undo of the wait."""
    began = min((s.last_changed for s in hass.states.async_all()), default=dt_util.utcnow())
    if hass.state is CoreState.running:  # set up by a reload: the start's moment alone
        tracker.ha_start = StartSpan(began, began)
        return lambda: None
    tracker.ha_start = StartSpan(began)

    @callback
    def _async_started(_: HomeAssistant) -> None:
        tracker.ha_start = StartSpan(began, dt_util.utcnow())

    return async_at_started(hass, _async_started)
