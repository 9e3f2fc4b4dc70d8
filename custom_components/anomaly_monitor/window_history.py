"""The analysed window survives a restart or a reload: its past is read back from the recorder.

The watcher's buffer lives in memory, so after a restart every check that reads the window
(a door open for 20 minutes, a run of readings) started blind, and an open anomaly whose
evidence was older than the restart went missing and was cleared (seen in a live hass: a
garage door open since 06:34 was no longer told after a restart at 06:57). Once HA runs,
the recorder's changes of the watched entities over the window before the monitor started
are put in front of what the watcher recorded since: one query in the recorder's executor,
before the first analysis (a climate's rows are read with their attributes and summarised
as the watcher records them, "heat (heating)").
"""

from __future__ import annotations

from datetime import datetime

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from .const import LOGGER
from .core.models import Transition, clip
from .recorder_rows import history_rows
from .watcher import StateWatcher


async def async_fill_window_from_recorder(
    hass: HomeAssistant, watcher: StateWatcher, started: datetime
) -> int:
    """Put the recorder's changes of ``[started - window, started)`` in front of the
    watcher's buffer; how many. Nothing without a recorder, or if it fails."""
    if "recorder" not in hass.config.components:
        return 0
    # Imported only when the recorder runs: it pulls in SQLAlchemy.
    from homeassistant.helpers.recorder import get_instance

    entity_ids = sorted(watcher.entity_ids)
    if not entity_ids:
        return 0
    recorder = get_instance(hass)
    try:
        if not await recorder.async_db_ready:
            return 0
        rows = await recorder.async_add_executor_job(
            history_rows, hass, started - watcher.buffer.window, started, entity_ids
        )
    except Exception:  # the monitor works without it, as it did before
        LOGGER.exception("Reading the window's past from the recorder failed")
        return 0
    older = [
        Transition(
            when=dt_util.as_local(when),
            entity_id=entity_id,
            state=clip(state),
            area=watcher.areas.get(entity_id),
        )
        for when, entity_id, state in rows
        if when < started
    ]
    watcher.buffer.prepend(older)
    return len(older)
