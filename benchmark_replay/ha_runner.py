"""Replay samples through a real, in-process Home Assistant running the integration.

One ``HomeAssistant`` per worker, made the way Home Assistant's own bootstrap makes one
(registries, config entries, auth) in a temporary config folder, with no HTTP server
and no other integration than ``anomaly_monitor`` and what it depends on. Per sample:
unload the monitor's entry, clear the previous states, register the sample's entities
(with their areas) in the entity registry, set the options for this sample, load the
entry, replay the states with HA's clock frozen at each timestamp, and call
``anomaly_monitor.analyze`` for the verdict. Time moves by freezegun exactly as the
HA test harness does it (``homeassistant.util.dt.utcnow`` made patchable first), so a
year-long trace replays in well under a second of wall time.
"""

from __future__ import annotations

# The harness's patch must run before HA binds utcnow; it only rebinds dt_util.utcnow
# to a function freezegun can see.
from pytest_homeassistant_custom_component import patch_time  # isort: skip

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
import os
from pathlib import Path
import sys
import tempfile
from types import MappingProxyType
from typing import Any

import freezegun
from freezegun.api import FrozenDateTimeFactory
from homeassistant import loader
from homeassistant.auth import auth_manager_from_config
from homeassistant.bootstrap import async_load_base_functionality
from homeassistant.config_entries import ConfigEntries, ConfigEntry, ConfigEntryState
from homeassistant.core import CoreState, HomeAssistant
from homeassistant.helpers import area_registry as ar, entity_registry as er
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import METRIC_SYSTEM

from custom_components.anomaly_monitor.anomalies.finding_incident import INCIDENT_KEYS
from custom_components.anomaly_monitor.const import (
    ATTR_CONFIG_ENTRY_ID,
    CONF_USE_EXPOSED,
    CONF_WATCH_SAFETY,
    DOMAIN,
    SERVICE_ANALYZE,
)
from custom_components.anomaly_monitor.dev_replay.service import model_verdict
from custom_components.anomaly_monitor.recorder.baseline_store import async_forget_baselines

from .entity_mapping import EntitySpec
from .home_scene import Scene
from .monitor_options import (
    REPLAY_LATITUDE,
    scene_areas,
    scene_options,
    states_before,
    watched_steps,
)
from .wall_clock import wall_clock

REPO_ROOT = Path(__file__).resolve().parent.parent
# The monitor flushes its store on every unload; in RAM that costs no fsync.
RAM_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else None
REPLAY_PLATFORM = "benchmark_replay"  # registry platform of the fake entities

freezegun.api.FakeDatetime = patch_time.HAFakeDatetime  # type: ignore[misc]
freezegun.api.datetime_to_fakedatetime = patch_time.ha_datetime_to_fakedatetime


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """What one analysis returned, plus how long the replay took."""

    response: Mapping[str, Any]
    seconds: float


async def async_create_hass(
    config_dir: str,
    *,
    latitude: float = REPLAY_LATITUDE,
    longitude: float = 4.89,
    time_zone: str = "UTC",
    load_entries: bool = False,
    setup: bool = True,
) -> HomeAssistant:
    """A running Home Assistant with the integration set up, serving nothing.

    ``load_entries`` reads the config entries stored in ``config_dir`` (a restart);
    with ``setup=False`` the caller sets up the integration when its states are in place.
    """
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))  # custom_components/ is importable from here
    hass = HomeAssistant(config_dir)
    hass.config.skip_pip = True
    hass.config.location_name = "Replay home"
    # Default: where the samples' seasons are (northern hemisphere).
    hass.config.latitude = latitude
    hass.config.longitude = longitude
    hass.config.elevation = 0
    hass.config.units = METRIC_SYSTEM
    await hass.config.async_set_time_zone(time_zone)
    hass.config_entries = ConfigEntries(hass, {})
    if load_entries:
        await hass.config_entries.async_initialize()
    loader.async_setup(hass)
    await loader.async_get_custom_components(hass)
    await async_load_base_functionality(hass)
    hass.auth = await auth_manager_from_config(hass, [{"type": "homeassistant"}], [])
    # "running" without the START event: HTTP never starts listening.
    hass.set_state(CoreState.running)
    if setup and not await async_setup_component(hass, DOMAIN, {}):
        raise RuntimeError("anomaly_monitor failed to set up; see the log")
    return hass


class InProcessReplay:
    """Replays scenes into one Home Assistant instance; not thread-safe, one per worker."""

    def __init__(
        self,
        options: Mapping[str, Any] | None = None,
        *,
        hass: HomeAssistant | None = None,
        frozen: FrozenDateTimeFactory | None = None,
    ) -> None:
        """Replay with ``options``; tests pass the harness's ``hass`` and ``freezer``."""
        if (hass is None) != (frozen is None):
            raise ValueError("pass both hass and frozen, or neither")
        self.base_options = dict(options or {})
        self.hass: HomeAssistant | None = hass
        self._own_hass = False
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._entry: ConfigEntry | None = None
        self._freezer: Any = None
        self._frozen: FrozenDateTimeFactory | None = frozen
        self._areas: dict[str, str] = {}
        self._registered: dict[str, str | None] = {}
        self._set: set[str] = set()

    async def __aenter__(self) -> InProcessReplay:
        await self.async_start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.async_stop()

    async def async_start(self) -> None:
        """Create the instance and the monitor's config entry (not loaded yet)."""
        if self.hass is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="anomaly-replay-", dir=RAM_DIR)
            # Asyncio keeps real monotonic time: HA's timers behave; wall clocks are frozen.
            self._freezer = freezegun.freeze_time("2025-01-01T00:00:00+00:00", real_asyncio=True)
            self._frozen = self._freezer.start()
            self.hass = await async_create_hass(self._tmp.name)
            self._own_hass = True
        elif not await async_setup_component(self.hass, DOMAIN, {}):
            raise RuntimeError("anomaly_monitor failed to set up; see the log")
        entry = ConfigEntry(
            data={},
            discovery_keys=MappingProxyType({}),
            domain=DOMAIN,
            minor_version=1,
            options={**self.base_options, CONF_USE_EXPOSED: False, CONF_WATCH_SAFETY: False},
            source="user",
            subentries_data=None,
            title="Replay",
            unique_id=None,
            version=1,
        )
        await self.hass.config_entries.async_add(entry)  # sets it up with base options
        await self.hass.async_block_till_done()
        self._entry = entry

    async def async_stop(self) -> None:
        """Stop Home Assistant and forget the temporary config folder."""
        if self.hass is not None and self._own_hass:
            await self.hass.async_stop(force=True)
            self.hass = None
        elif self.hass is not None and self._entry is not None:
            await self.hass.config_entries.async_remove(self._entry.entry_id)
            for entity_id in self._set:
                self.hass.states.async_remove(entity_id)
            await self.hass.async_block_till_done()
        self._entry = None
        if self._freezer is not None:
            self._freezer.stop()
            self._freezer = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def _move_to(self, when: datetime) -> None:
        assert self._frozen is not None
        self._frozen.move_to(when)

    async def async_replay(self, scene: Scene) -> ReplayOutcome:
        """Replay one scene and return the ``anomaly_monitor.analyze`` response."""
        hass, entry = self.hass, self._entry
        if hass is None or entry is None:
            raise RuntimeError("call async_start() first")
        started = wall_clock()
        if entry.state is ConfigEntryState.LOADED:
            await hass.config_entries.async_unload(entry.entry_id)
        # Each sample is its own home: nothing learned from another one carries over.
        await async_forget_baselines(hass, entry.entry_id)
        for entity_id in self._set:
            hass.states.async_remove(entity_id)
        self._set.clear()
        self._register(scene)
        hass.config_entries.async_update_entry(
            entry, options=scene_options(scene, self.base_options)
        )
        # A snapshot's states are all there when the monitor starts; a trace's come later.
        self._move_to(scene.start)
        for step in states_before(scene):
            self._set_state(step.spec, step.when)
        await self._async_load(entry)
        for step in watched_steps(scene):
            self._move_to(step.when)
            self._set_state(step.spec, step.when)
        await hass.async_block_till_done()
        self._move_to(scene.clock)
        response = await hass.services.async_call(
            DOMAIN,
            SERVICE_ANALYZE,
            {ATTR_CONFIG_ENTRY_ID: entry.entry_id},
            blocking=True,
            return_response=True,
        )
        return ReplayOutcome(
            _scored(dict(response or {})) | self._model_verdict(entry), wall_clock() - started
        )

    @staticmethod
    def _model_verdict(entry: ConfigEntry) -> dict[str, Any]:
        """The hybrid's LLM verdict, as a live replay entry reports it too."""
        return model_verdict(entry.runtime_data.coordinator.detector)

    async def _async_load(self, entry: ConfigEntry) -> None:
        assert self.hass is not None
        if not await self.hass.config_entries.async_setup(entry.entry_id):
            raise RuntimeError(f"the monitor's entry did not load ({entry.state})")
        await self.hass.async_block_till_done()

    def _set_state(self, spec: EntitySpec, when: datetime) -> None:
        assert self.hass is not None
        self.hass.states.async_set(
            spec.entity_id, spec.state, dict(spec.attributes), timestamp=when.timestamp()
        )
        self._set.add(spec.entity_id)

    def _register(self, scene: Scene) -> None:
        """Registry entries give the fake entities their areas, as real devices have."""
        assert self.hass is not None
        registry = er.async_get(self.hass)
        areas = ar.async_get(self.hass)
        for entity_id, area in scene_areas(scene).items():
            if self._registered.get(entity_id, "-") == area:
                continue
            domain, _, object_id = entity_id.partition(".")
            entry = registry.async_get_or_create(
                domain, REPLAY_PLATFORM, entity_id, suggested_object_id=object_id
            )
            if entry.entity_id != entity_id:
                raise RuntimeError(f"registry gave {entry.entity_id} for {entity_id}")
            area_id: str | None = None
            if area is not None:
                if area not in self._areas:
                    existing = areas.async_get_area_by_name(area)
                    self._areas[area] = (existing or areas.async_create(area)).id
                area_id = self._areas[area]
            if entry.area_id != area_id:
                registry.async_update_entity(entity_id, area_id=area_id)
            self._registered[entity_id] = area


def _scored(response: dict[str, Any]) -> dict[str, Any]:
    """The reply without the incident each finding is a part of: a scene's monitor tells
    nobody, and a live replay entry (``replay_sample``) answers without them."""
    for finding in (response.get("verdict") or {}).get("findings") or ():
        for key in INCIDENT_KEYS:
            finding.pop(key, None)
    return response
