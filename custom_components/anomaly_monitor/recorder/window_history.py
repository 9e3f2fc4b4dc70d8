"""The analysed window survives a restart or a reload: its past is read back from the recorder.

The watcher's buffer lives in memory, so after a restart every check that reads the window
(a door open for 20 minutes, a run of readings) started blind, and an open anomaly whose
evidence was older than the restart went missing and was cleared (seen in a live hass: a
garage door open since 06:34 was no longer told after a restart at 06:57). Once HA runs,
the recorder's changes of the watched entities over the window are put among what the
watcher recorded: one query in the recorder's executor, before the first analysis (a
climate's rows are read with their attributes and summarised as the watcher records them,
"heat (heating)"). An entity that begins to be watched later (restored by HA once it
started, its integration still loading; a new device) is read back when it appears.

Of each entity only the rows older than the first transition the watcher holds of it are
taken: from there on the watcher's record is the same changes (the start of a no-state
it read from HA, ``StateWatcher._record_no_states``, is the recorder's row of it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.util import dt as dt_util

from ..const import DOMAIN, LOGGER
from ..core.home_clock import on_home_clock
from ..core.models import Transition, clip
from ..live.watcher import StateWatcher
from .history_learning import WINDOW_WRITE_WAIT, async_written
from .rows import history_rows


class WindowPast:
    """Reads each watched entity's past from the recorder once, into the watcher's buffer."""

    def __init__(
        self,
        hass: HomeAssistant,
        entry: ConfigEntry,
        watcher: StateWatcher,
        on_late_past: Callable[[], None],
    ) -> None:
        self._hass = hass
        self._entry = entry
        self._watcher = watcher
        self._on_late_past = on_late_past  # judge again: the first analysis ran without it
        self._read: set[str] = set()
        self._started = False  # the first read-back began: later entities are read alone

    async def async_fill(self) -> int:
        """Read back every watched entity not read yet (the first time: all of them, once
        HA runs); how many transitions were put in."""
        self._started = True
        added = 0
        while todo := self._watcher.entity_ids - self._read:  # some may appear meanwhile
            self._read |= todo
            added += await self._async_read(todo)
        return added

    @callback
    def async_newly_watched(self, entity_ids: Iterable[str]) -> None:
        """The watcher watches these now: read their past, unless the first read-back,
        still to come or running, will."""
        if self._started and set(entity_ids) - self._read:
            self._entry.async_create_background_task(
                self._hass, self._async_fill_late(), f"{DOMAIN} window's past of new entities"
            )

    async def _async_fill_late(self) -> None:
        if await self.async_fill():
            self._on_late_past()

    async def _async_read(self, entity_ids: frozenset[str]) -> int:
        hass, watcher = self._hass, self._watcher
        if "recorder" not in hass.config.components:
            return 0
        # Imported only when the recorder runs: it pulls in SQLAlchemy.
        from homeassistant.helpers.recorder import get_instance

        recorder = get_instance(hass)
        end = dt_util.utcnow()
        try:
            if not await recorder.async_db_ready:
                return 0
            await async_written(hass, WINDOW_WRITE_WAIT)  # the rows HA wrote as it started
            rows = await recorder.async_add_executor_job(
                history_rows, hass, end - watcher.buffer.window, end, sorted(entity_ids)
            )
        except Exception:  # the monitor works without it, as it did before
            LOGGER.exception("Reading the window's past from the recorder failed")
            return 0
        # Taken after the read: a change recorded while it ran is not put in twice.
        first_held = _first_held(watcher, entity_ids)
        zone = dt_util.get_default_time_zone()  # on the home's clock, as the watcher's
        older = [
            Transition(
                when=on_home_clock(when, zone),
                entity_id=entity_id,
                state=clip(state),
                area=watcher.areas.get(entity_id),
            )
            for when, entity_id, state in rows
            if when < first_held.get(entity_id, end)
        ]
        watcher.buffer.merge(older)
        return len(older)


def _first_held(watcher: StateWatcher, entity_ids: frozenset[str]) -> dict[str, datetime]:
    """When the watcher's record of each of these entities begins."""
    first: dict[str, datetime] = {}
    for transition in watcher.buffer.snapshot(dt_util.utcnow()):
        if transition.entity_id in entity_ids and transition.entity_id not in first:
            first[transition.entity_id] = transition.when
    return first
