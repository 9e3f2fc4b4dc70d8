"""Anomaly Monitor: watches a home's state changes and reports what looks wrong."""

from __future__ import annotations

from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import config_validation as cv, issue_registry as ir
from homeassistant.helpers.start import async_at_started
from homeassistant.helpers.typing import ConfigType

from .actions.answer import async_setup_answer_services
from .actions.feedback import async_setup_feedback_services
from .actions.services import async_setup_services
from .anomalies.surfaces import async_remove_entry_surfaces
from .backends.detection import (
    async_close_detector,
    async_follow_backend,
    backend_issue_id,
)
from .const import DOMAIN
from .dev_replay.entry import async_forget_replay_entry, async_setup_replay_entry, is_replay_entry
from .dev_replay.service import async_register_replay_service
from .instructions.service import async_register_instruction_service
from .live.start_moment import async_follow_ha_start
from .preview.service import async_register_preview_service
from .recorder.baseline_store import async_forget_baselines
from .runtime import AnomalyMonitorConfigEntry, async_build_runtime

PLATFORMS: list[Platform] = [Platform.BINARY_SENSOR, Platform.EVENT, Platform.SENSOR]
CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the integration's actions."""
    async_setup_services(hass)
    async_setup_feedback_services(hass)
    async_setup_answer_services(hass)
    async_register_instruction_service(hass)
    async_register_preview_service(hass)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: AnomalyMonitorConfigEntry) -> bool:
    """Start watching the home for one configured monitor."""
    if is_replay_entry(entry):  # benchmark_replay's own: sees and shows nothing of the home
        # Developer option: its action exists only while a replay entry does (removed with
        # the last one); only a developer's flow can create one (dev_replay/entry.py).
        async_register_replay_service(hass)
        return await async_setup_replay_entry(hass, entry)
    runtime = await async_build_runtime(hass, entry)
    coordinator = runtime.coordinator
    entry.async_on_unload(lambda: async_close_detector(coordinator.detector))
    if (unfollow := async_follow_backend(hass, entry, coordinator.detector)) is not None:
        entry.async_on_unload(unfollow)
        entry.async_on_unload(lambda: ir.async_delete_issue(hass, DOMAIN, backend_issue_id(entry)))
    # HA's own start: every state's last change then is the start's, no device's act.
    entry.async_on_unload(async_follow_ha_start(hass, coordinator.tracker))
    # Stored anomalies shown again, the home watched; its normal: stored baselines now,
    # the recorder's history in the background.
    await coordinator.async_start()
    entry.runtime_data = runtime
    entry.async_on_unload(coordinator.async_stop)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)

    @callback
    def _async_first_analysis(_: HomeAssistant) -> None:
        entry.async_create_background_task(
            hass, coordinator.async_first_analysis(), f"{DOMAIN} first analysis"
        )

    # States are incomplete while HA starts: the first analysis waits until it has.
    entry.async_on_unload(async_at_started(hass, _async_first_analysis))
    return True


async def async_unload_entry(hass: HomeAssistant, entry: AnomalyMonitorConfigEntry) -> bool:
    """Stop watching; every listener, timer and task goes with the entry.

    A reload keeps the notifications and issues (setup shows the same ids again); a
    disabled monitor watches nothing, so what it showed goes.
    """
    if is_replay_entry(entry):
        return True  # no platform was set up
    unloaded = await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
    if unloaded and entry.disabled_by is not None:
        tracker = entry.runtime_data.coordinator.tracker
        async_remove_entry_surfaces(
            hass, entry.entry_id, [*tracker.open.values(), *tracker.ended.values()]
        )
    return unloaded


async def async_remove_entry(hass: HomeAssistant, entry: AnomalyMonitorConfigEntry) -> None:
    """Forget stored anomalies and feedback of a removed monitor, and what it showed."""
    if is_replay_entry(entry):
        async_forget_replay_entry(hass, entry)
        return  # it stored nothing
    from .anomalies.tracker import AnomalyTracker  # only needed on removal

    tracker = AnomalyTracker(hass, entry.entry_id)
    async_remove_entry_surfaces(hass, entry.entry_id, await tracker.async_stored_anomalies())
    await tracker.async_remove()
    await async_forget_baselines(hass, entry.entry_id)
