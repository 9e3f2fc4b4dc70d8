"""Watch the state bus for the configured entities and keep their recent transitions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from homeassistant.components.homeassistant.exposed_entities import (
    async_listen_entity_updates,
)
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import (
    CALLBACK_TYPE,
    CoreState,
    Event,
    EventStateChangedData,
    HomeAssistant,
    State,
    callback,
)
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
    issue_registry as ir,
)
from homeassistant.helpers.debounce import Debouncer
from homeassistant.util import dt as dt_util

from ..const import (
    CONF_PROFILE,
    CONF_ROLES,
    CONF_USE_EXPOSED,
    DEFAULT_USE_EXPOSED,
    DOMAIN,
    LOGGER,
    MAX_BUFFERED_TRANSITIONS,
)
from ..core.buffer import TransitionBuffer
from ..core.device_roles import homeowner_roles
from ..core.home import DEVICE_DOMAINS, UNAVAILABLE_STATES
from ..core.home_clock import on_home_clock
from ..core.models import Transition, clip
from ..core.occupancy import presence_of
from ..core.pets import has_pets
from ..core.rules.fire_band_tops import FireBandTops
from .context_builder import can_be_located
from .coverage import async_update_coverage_issue, coverage_issue_id, resolve_watched
from .significance import hazard_began, worth_analysing_now
from .state_summary import summarize_state

# Domains whose every change is worth an early look.
# Who is home: a change here changes the occupancy every window is judged against,
# whether or not these entities are watched.
_PRESENCE_DOMAINS = frozenset({"person", "device_tracker", "zone"})


class StateWatcher:
    """Subscribes to state changes of the watched entities; O(1) work per event."""

    def __init__(
        self,
        hass: HomeAssistant,
        options: Mapping[str, Any],
        window: timedelta,
        on_significant: Callable[[], None],
        *,
        on_hazard: Callable[[str], None],
        owner: ConfigEntry | None = None,
        on_newly_watched: Callable[[frozenset[str]], None] | None = None,
    ) -> None:
        self.hass = hass
        self.options = options
        self.buffer = TransitionBuffer(window, MAX_BUFFERED_TRANSITIONS)
        self.entity_ids: frozenset[str] = frozenset()
        self.areas: dict[str, str | None] = {}
        self.devices: dict[str, str] = {}  # entity id -> HA device id, when it has one
        self.services: frozenset[str] = frozenset()  # whose device is a web service
        # entity id -> the role the homeowner gave it (options flow), when they did
        self.roles: dict[str, str] = homeowner_roles(options.get(CONF_ROLES))
        self.events_seen = 0
        self.recorded = 0  # transitions recorded so far
        self.presence_changes = 0  # person, tracker or zone state changes seen so far
        # When this run began to watch the bus (what the window holds from before is the
        # recorder's past: ``anomalies/before_start``); None for a replay.
        self.started_at: datetime | None = None
        self._owner = owner
        # Told the entities that begin to be watched (the recorder's read-back of their past).
        self.on_newly_watched = on_newly_watched
        self._on_significant = on_significant
        # A hazard sensor raising its alarm: checked now, not after any cooldown (what that
        # means is the analyser's: ``HomeAnalyser._async_on_hazard``).
        self._on_hazard = on_hazard
        self._pets = has_pets(options.get(CONF_PROFILE, ""))
        self._last_summary: dict[str, str] = {}
        self._fire_tops = FireBandTops()  # each thermometer's hottest fire-band reading
        self._unsubs: list[CALLBACK_TYPE] = []
        self._resolve_debouncer = Debouncer(
            hass, LOGGER, cooldown=2.0, immediate=False, function=self._async_resolve_now
        )

    @callback
    def async_start(self) -> None:
        """Resolve the watched entities and subscribe."""
        self.started_at = dt_util.utcnow()
        self._resolve(first=True)
        # One filtered bus listener: the filter is a set lookup and the callback runs
        # in the same loop iteration, cheaper per event than per-entity tracking.
        self._unsubs.append(
            self.hass.bus.async_listen(
                EVENT_STATE_CHANGED, self._async_handle_event, event_filter=self._is_watched
            )
        )
        request = self._async_request_resolve
        self._unsubs.append(self.hass.bus.async_listen(er.EVENT_ENTITY_REGISTRY_UPDATED, request))
        self._unsubs.append(self.hass.bus.async_listen(dr.EVENT_DEVICE_REGISTRY_UPDATED, request))
        if self.options.get(CONF_USE_EXPOSED, DEFAULT_USE_EXPOSED):
            self._unsubs.append(async_listen_entity_updates(self.hass, "conversation", request))
        # New devices appear as state changes with no old state: a new smoke detector is
        # watched without touching the options.
        self._unsubs.append(
            self.hass.bus.async_listen(
                EVENT_STATE_CHANGED, request, event_filter=self._is_new_unwatched_entity
            )
        )
        self._unsubs.append(
            self.hass.bus.async_listen(
                EVENT_STATE_CHANGED,
                self._async_handle_presence,
                event_filter=self._is_presence_change,
            )
        )

    @property
    def version(self) -> int:
        """Changes whenever the window or the occupancy a detector would see has changed."""
        return self.recorded + self.presence_changes

    @callback
    def async_stop(self) -> None:
        """Unsubscribe from everything."""
        self._resolve_debouncer.async_shutdown()
        while self._unsubs:
            self._unsubs.pop()()
        if self._owner is not None:
            ir.async_delete_issue(self.hass, DOMAIN, coverage_issue_id(self._owner.entry_id))

    @callback
    def _async_request_resolve(self, *_: Any) -> None:
        self.hass.async_create_task(self._resolve_debouncer.async_call(), eager_start=True)

    async def _async_resolve_now(self) -> None:
        self.async_resolve()

    @callback
    def _is_watched(self, event_data: EventStateChangedData) -> bool:
        return event_data["entity_id"] in self.entity_ids

    @callback
    def _is_new_unwatched_entity(self, event_data: EventStateChangedData) -> bool:
        return event_data["old_state"] is None and event_data["entity_id"] not in self.entity_ids

    @callback
    def _is_presence_change(self, event_data: EventStateChangedData) -> bool:
        if event_data["entity_id"].partition(".")[0] not in _PRESENCE_DOMAINS:
            return False
        old, new = event_data["old_state"], event_data["new_state"]
        return (old.state if old else None) != (new.state if new else None)

    @callback
    def _async_handle_presence(self, _: Event[EventStateChangedData]) -> None:
        # Someone arrived or left: judge again soon, and never reuse the last verdict.
        self.presence_changes += 1
        self._on_significant()

    @callback
    def async_resolve(self) -> None:
        """Work out which entities to watch; the bus filter reads the new set at once."""
        self._resolve(first=False)

    def _resolve(self, *, first: bool) -> None:
        entity_ids = resolve_watched(self.hass, self.options)
        self.areas = self._resolve_areas(entity_ids)
        self.devices, self.services = self._resolve_devices(entity_ids)
        if entity_ids != self.entity_ids:
            added = entity_ids - self.entity_ids
            self.entity_ids = entity_ids
            LOGGER.debug("Watching %d entities", len(entity_ids))
            self._record_no_states(added, judge=not first)
            if self.on_newly_watched is not None:
                self.on_newly_watched(added)
        if self._owner is not None:
            async_update_coverage_issue(
                self.hass, self._owner.entry_id, self._owner.title, entity_ids
            )

    def _record_no_states(self, entity_ids: frozenset[str], *, judge: bool) -> None:
        """Entities that begin to be watched while they read no state: since when.

        HA writes ``unavailable`` (a restored entity whose integration has not loaded yet:
        Zigbee, Z-Wave, a cloud service take tens of seconds to minutes) or ``unknown`` (a
        template entity, for a moment) while it starts, often before this monitor
        subscribes. Without the spell's start the window took it as long (a snapshot's
        device offline since before the window, ``core/offline.py``), and every such
        device was told offline at the first analysis. Its ``last_changed`` is HA's own
        record of when the state began: the offline grace counts from there, and the
        recorder's read-back can still show an older spell (``recorder/window_history.py``).
        """
        recorded = False
        for entity_id in entity_ids:
            state = self.hass.states.get(entity_id)
            if (
                state is None
                or state.domain not in DEVICE_DOMAINS  # a person, a tracker: not a device
                or state.state not in UNAVAILABLE_STATES
                or entity_id in self._last_summary
            ):
                continue
            self._record(entity_id, state.state, state.last_changed, in_order=False)
            recorded = True
        if recorded and judge and self.hass.state is CoreState.running:
            # A device that appeared later (a new one, or restored once HA ran): judged
            # soon, so the end of its grace is followed (``live/offline_check.py``). At the
            # start the first analysis judges them.
            self._on_significant()

    def _resolve_devices(self, entity_ids: frozenset[str]) -> tuple[dict[str, str], frozenset[str]]:
        """Each entity's device (the registry says which entities are one device: a plug
        and its meter), and the entities whose "device" is a web service (``entry_type:
        service``: an air-raid alert, a weather feed), which are no device in the home."""
        registry = er.async_get(self.hass)
        device_registry = dr.async_get(self.hass)
        devices: dict[str, str] = {}
        services: set[str] = set()
        for entity_id in entity_ids:
            if (entry := registry.async_get(entity_id)) is None or not entry.device_id:
                continue
            device = device_registry.async_get(entry.device_id)
            if device is not None and device.entry_type is dr.DeviceEntryType.SERVICE:
                services.add(entity_id)
            else:
                devices[entity_id] = entry.device_id
        return devices, frozenset(services)

    def _resolve_areas(self, entity_ids: frozenset[str]) -> dict[str, str | None]:
        registry = er.async_get(self.hass)
        device_registry = dr.async_get(self.hass)
        area_registry = ar.async_get(self.hass)
        areas: dict[str, str | None] = {}
        for entity_id in entity_ids:
            area_id = None
            if (entry := registry.async_get(entity_id)) is not None:
                area_id = entry.area_id
                if area_id is None and entry.device_id:
                    device = device_registry.async_get(entry.device_id)
                    area_id = device.area_id if device else None
            area = area_registry.async_get_area(area_id) if area_id else None
            areas[entity_id] = area.name if area else None
        return areas

    @callback
    def _async_handle_event(self, event: Event[EventStateChangedData]) -> None:
        self.events_seen += 1
        new_state = event.data["new_state"]
        if new_state is None:
            return
        entity_id = new_state.entity_id
        old_state = event.data["old_state"]
        if (
            entity_id not in self._last_summary
            and old_state is not None
            and old_state.state in UNAVAILABLE_STATES
        ):
            # Coming up (HA starting, a device reconnecting) before this monitor saw it: the
            # history keeps where it came from, so a window back "on" after a restart does
            # not read as just opened (seen in a live hass: that cleared its anomaly).
            # (stamped with the change's time: the buffer is kept in time order)
            self._record(entity_id, old_state.state, new_state.last_updated)
        summary = summarize_state(new_state.domain, new_state.state, new_state.attributes)
        if self._last_summary.get(entity_id) == summary:
            return  # attribute noise: nothing a detector reasons about changed
        self._record(entity_id, summary, new_state.last_updated)
        previous = old_state.state if old_state else None
        if hazard_began(new_state, previous):
            self._on_hazard(entity_id)
        elif self._is_significant(new_state, previous):
            self._on_significant()

    def _record(
        self, entity_id: str, summary: str, when: datetime, *, in_order: bool = True
    ) -> None:
        """Keep one transition (``summary`` is what the monitor last saw of the entity;
        ``in_order``: not older than anything recorded, as a change on the bus)."""
        self._last_summary[entity_id] = summary
        self.recorded += 1
        # On the home's clock: the checks' words name times ("open since 06:34"), which
        # read UTC otherwise (seen in a live hass in Amsterdam: "from 05:34" at 06:55);
        # with that moment's fixed offset, so that order and durations hold across a
        # clock change (``core.home_clock``).
        zone = dt_util.get_default_time_zone()
        transition = Transition(
            when=on_home_clock(when, zone),
            entity_id=entity_id,
            state=clip(summary),
            area=self.areas.get(entity_id),
        )
        if in_order:
            self.buffer.append(transition)
        else:
            self.buffer.insert(transition)

    def _is_significant(self, new_state: State, previous: str | None) -> bool:
        in_area = bool(self.areas.get(new_state.entity_id))
        return worth_analysing_now(
            new_state, previous, in_area, self._fire_tops, pets=self._pets, empty=self._nobody_home
        )

    def _nobody_home(self) -> bool:
        """Every person known and away (as the detectors' occupancy counts it)."""
        # A person HA cannot locate (no trackers: onboarding's owner) is not counted.
        persons = [p for p in self.hass.states.async_all("person") if can_be_located(p)]
        return bool(persons) and all(presence_of(p.state) is False for p in persons)
