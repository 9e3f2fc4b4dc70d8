"""Replay entries: a monitor that judges replayed samples inside a live Home Assistant.

``python -m benchmark_replay smartbench --ha-url ...`` creates one through the config
flow (an option only its own call gets: :func:`replay_requested`), sends it samples
with ``anomaly_monitor.replay_sample`` and removes it. A replay entry runs the
integration's own watcher, window, detector and tracker code, but:

- it reads only its own states (:mod:`.home`), never the home's: no Assist
  exposure, no always-watched safety entities, no real persons or weather;
- it shows nothing to the homeowner: no entities, persistent notifications, repair
  issues, notify targets or ``anomaly_monitor_anomaly_*`` events, and its marks and open
  anomalies live in memory only;
- it never analyses on its own (no interval, no significant-change trigger, no first
  analysis): only when a sample asks, at the sample's clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import Event, EventStateChangedData, HomeAssistant, State, callback
from homeassistant.helpers.http import current_request

from ..anomalies.tracker import AnomalyTracker, OpenAnomaly
from ..backends import llm_detector_of
from ..backends.detection import async_close_detector, async_create_detectors
from ..const import (
    CONF_EXCLUDE_ENTITIES,
    CONF_INCLUDE_ENTITIES,
    CONF_REPLAY,
    DOMAIN,
    SERVICE_REPLAY_SAMPLE,
)
from ..coordinator import AnomalyMonitorCoordinator
from ..core.detector import Detector
from ..core.models import ContextWindow, Finding
from ..core.window import build_window
from ..live.context_builder import build_environment, build_snapshot
from ..live.watcher import StateWatcher
from ..runtime import AnomalyMonitorConfigEntry, AnomalyMonitorRuntimeData
from .home import ReplaySession, forget_replay_session, replay_session

# The only unique id replay entries have: at most one replay runs per Home Assistant.
REPLAY_UNIQUE_ID = "benchmark_replay"
# benchmark_replay's REST call that starts the config flow carries ?anomaly_monitor_replay=1;
# in-process (tests, tools) the flow's context carries {"anomaly_monitor_replay": True}.
REPLAY_QUERY = "anomaly_monitor_replay"


def replay_requested(context: Mapping[str, Any]) -> bool:
    """Whether a developer asked the config flow for its replay option.

    Only two ways, neither of which the homeowner's frontend can take: in-process code puts
    ``REPLAY_QUERY`` in the flow's context (the frontend's calls carry only the handler and
    ``show_advanced_options``, which HA copies into the context: that flag is the
    frontend's "advanced mode" and never asks for a replay), or the admin-only REST call
    that starts the flow carries ``?anomaly_monitor_replay=1`` (benchmark_replay's
    ``--ha-url``; every HA version passes the request, whatever it copies from the body).
    """
    if context.get(REPLAY_QUERY) is True:
        return True
    request = current_request.get()
    return request is not None and request.query.get(REPLAY_QUERY) == "1"


def is_replay_entry(entry: ConfigEntry) -> bool:
    """Whether ``entry`` is a replay entry."""
    return entry.domain == DOMAIN and bool(entry.options.get(CONF_REPLAY))


class ReplayWatcher(StateWatcher):
    """Watches the entities the replay names, in the replay's own table only."""

    def __init__(self, hass: HomeAssistant, options: Mapping[str, Any], coordinator: Any) -> None:
        super().__init__(hass, options, coordinator.window, _never, on_hazard=_never)
        self._session: ReplaySession = coordinator.session

    @callback
    def async_start(self) -> None:
        """No bus, registry or exposure listener: the replay feeds :meth:`record`."""
        named = set(self.options.get(CONF_INCLUDE_ENTITIES, []))
        self.entity_ids = frozenset(named - set(self.options.get(CONF_EXCLUDE_ENTITIES, [])))
        self.areas = {e: self._session.areas.get(e) for e in self.entity_ids}

    @callback
    def async_resolve(self) -> None:
        """The watched set is fixed for a sample."""

    @callback
    def record(self, old: State | None, new: State) -> None:
        """A replayed state change, handled exactly as one from the bus."""
        data: EventStateChangedData = {
            "entity_id": new.entity_id,
            "old_state": old,
            "new_state": new,
        }
        if self._is_presence_change(data):
            self.presence_changes += 1  # as _async_handle_presence, without a trigger
        if self._is_watched(data):
            self._async_handle_event(Event(EVENT_STATE_CHANGED, data))


def _never(*_: object) -> None:
    """A replay entry analyses only when a sample asks (a hazard too)."""


class MemoryTracker(AnomalyTracker):
    """Open anomalies and marks of a replay entry: never written to the home's storage."""

    async def async_load(self) -> None:
        """Nothing stored."""

    async def async_flush(self) -> None:
        """Nothing to store."""

    def _schedule_save(self) -> None:
        """Nothing to store."""


class SilentAnnouncer:
    """Stands in for the :class:`Announcer`: a replay's anomalies reach nobody (the
    analyze response carries them). Not a subclass on purpose: a surface added to the
    Announcer later is missing here and fails loudly instead of reaching the homeowner."""

    async def async_opened(self, anomaly: OpenAnomaly) -> None:
        """No notification, issue, event or notify target."""

    async def async_restore(self, anomaly: OpenAnomaly) -> None:
        """No notification or repair issue."""

    def async_cleared(self, anomaly: OpenAnomaly, reason: str = "resolved") -> None:
        """Nothing was shown."""

    async def async_ended(self, anomaly: OpenAnomaly) -> None:
        """Nothing was shown."""

    async def async_restore_ended(self, anomaly: OpenAnomaly) -> None:
        """Nothing was shown."""

    def async_forget(self, anomaly: OpenAnomaly) -> None:
        """Nothing was shown."""

    async def async_reworded(self, anomaly: OpenAnomaly) -> None:
        """Nothing was shown."""

    async def async_logged(self, anomaly: OpenAnomaly) -> None:
        """Nothing is written to the logbook."""

    async def async_logged_joining(self, anomaly: OpenAnomaly, findings: list[Finding]) -> None:
        """Nothing is written to the logbook."""

    async def async_logged_opened_again(self, anomaly: OpenAnomaly) -> None:
        """Nothing is written to the logbook."""

    async def async_refreshed(self, anomaly: OpenAnomaly) -> None:
        """Nothing was shown."""

    def async_acknowledged(self, anomaly: OpenAnomaly) -> None:
        """Nothing was shown."""


class ReplayCoordinator(AnomalyMonitorCoordinator):
    """The monitor's coordinator over the replay's states, at the sample's clock."""

    def __init__(
        self,
        hass: HomeAssistant,
        entry: AnomalyMonitorConfigEntry,
        detector: Detector,
        fallback: Detector | None,
        session: ReplaySession,
    ) -> None:
        self.session = session
        super().__init__(hass, entry, detector, fallback)
        self.update_interval = None  # analyses only when a sample asks
        self.watcher: ReplayWatcher = ReplayWatcher(hass, entry.options, self)
        self.tracker = MemoryTracker(hass, entry.entry_id)
        self.announcer = SilentAnnouncer()  # type: ignore[assignment]

    @callback
    def _async_schedule_confirmation(self) -> None:
        """No analysis of its own: a replay analyses only when a sample asks."""

    @callback
    def _async_on_significant(self) -> None:
        """No safety check or analysis of its own: the sample asks for one."""

    @callback
    def _async_follow_offline(self, window: ContextWindow) -> None:
        """No analysis of its own when a replayed device's grace ends."""

    def now(self) -> datetime:
        """The sample's clock."""
        if self.session.clock is None:
            raise RuntimeError("a replay entry analyses only at a sample's clock")
        return self.session.clock

    def build_window(self) -> ContextWindow:
        """The window over the replay's own states, ending at the sample's clock."""
        now, watcher, states = self.now(), self.watcher, self.session.states
        return build_window(
            build_snapshot(self.hass, watcher.entity_ids, watcher.areas, states),
            build_environment(
                self.hass,
                self.weather_entity,
                states=states,
                now=now,
                latitude=self.session.latitude,
            ),
            watcher.buffer.snapshot(now),
            profile=self.profile,
            start=now - self.window,
            phoneless_residents=self.phoneless_residents,
        )


async def async_setup_replay_entry(hass: HomeAssistant, entry: AnomalyMonitorConfigEntry) -> bool:
    """Set up a replay entry: a coordinator and detector, no platform, no listener."""
    detector, fallback = await async_create_detectors(hass, entry)
    entry.async_on_unload(lambda: async_close_detector(detector))
    coordinator = ReplayCoordinator(
        hass, entry, detector, fallback, replay_session(hass, entry.entry_id)
    )
    await coordinator.async_start()
    llm = llm_detector_of(detector)
    entry.runtime_data = AnomalyMonitorRuntimeData(
        coordinator=coordinator, backend=llm.backend if llm else None
    )
    entry.async_on_unload(coordinator.async_stop)
    return True


async def async_clear_stale_replays(hass: HomeAssistant) -> bool:
    """Remove replay entries whose client is gone; False while one is in use."""
    for entry in hass.config_entries.async_entries(DOMAIN):
        if not is_replay_entry(entry):
            continue
        if replay_session(hass, entry.entry_id).active():
            return False
        await hass.config_entries.async_remove(entry.entry_id)
    return True


@callback
def async_forget_replay_entry(hass: HomeAssistant, entry: ConfigEntry) -> None:
    """A removed replay entry leaves nothing behind: the last one takes its action along."""
    forget_replay_session(hass, entry.entry_id)
    others = [e for e in hass.config_entries.async_entries(DOMAIN) if e is not entry]
    if not any(is_replay_entry(e) for e in others):
        hass.services.async_remove(DOMAIN, SERVICE_REPLAY_SAMPLE)
