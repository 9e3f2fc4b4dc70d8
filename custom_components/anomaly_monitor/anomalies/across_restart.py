"""An anomaly open before a restart whose subject reads no state yet is left as it is.

A device told offline before a restart is, after it, a device HA restored as
``unavailable`` (its integration still loading): the watcher dates that spell from HA's
``last_changed``, the start (``live/watcher.py``), unless the recorder's read-back shows it
began before (``recorder/window_history.py``). Without a recorder, or its rows, the window cannot
show that the outage went on across the restart: the anomaly went missing, cleared 2 min
later and was told again when the grace since the start ended (a smoke detector offline
for hours, told twice a restart). The same holds for anything about an entity that HA has
not given a state yet for longer than the 2 minutes of hysteresis (smoke told before the
restart, on a detector whose integration is slow to load).

So while its subject reads no state (or has none yet, an entity of the registry) and the
subject's offline grace since the start has not passed, such an anomaly counts as seen:
not judged, not cleared, not told again. After the grace an outage is found again (long by
then, counted from the start); a subject that reads a state is judged as usual from then.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from ..core.home import UNAVAILABLE_STATES
from ..core.offline import offline_grace
from .open_anomaly import OpenAnomaly


class AcrossRestart:
    """The anomalies restored at this start that no analysis can judge yet."""

    def __init__(self, hass: HomeAssistant) -> None:
        self._hass = hass
        self._restored: set[str] = set()
        self._started_at: datetime | None = None

    def async_restored(self, anomalies: Mapping[str, OpenAnomaly], now: datetime) -> None:
        """The tracker restored ``anomalies`` (by signature) as the monitor starts, ``now``."""
        self._restored = set(anomalies)
        self._started_at = now

    def unseen(self, anomalies: Mapping[str, OpenAnomaly], now: datetime) -> set[str]:
        """Signatures of the restored anomalies to leave as they are in this analysis."""
        if not self._restored or self._started_at is None:
            return set()
        registry = er.async_get(self._hass)
        kept: set[str] = set()
        for signature in list(self._restored):
            anomaly = anomalies.get(signature)
            subject = anomaly.subject if anomaly is not None else ""
            state = self._hass.states.get(subject) if subject else None
            # No state yet: an entity of the registry HA has not restored yet (the home or
            # an area as a subject has none, ever: judged as usual).
            known = state is not None or (bool(subject) and registry.async_get(subject) is not None)
            device_class = state.attributes.get("device_class") if state is not None else None
            if (
                not known
                or (state is not None and state.state not in UNAVAILABLE_STATES)
                or now - self._started_at > offline_grace(subject.partition(".")[0], device_class)
            ):
                self._restored.discard(signature)  # judged as any other from now on
                continue
            kept.add(signature)
        return kept
