"""Learn the recorder's history into a copy of the baselines, a chunk at a time.

One recorder query covers ``CHUNK`` (read in the recorder's own executor), learned in HA's
executor: the rows held in memory stay bounded and the event loop is never blocked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant

from ..const import LOGGER
from ..core.baselines import HomeBaselines
from ..core.baselines.learned_days_kept import count_ahead
from .rows import history_rows, learn_rows, row_time, weather_rows

# One recorder query covers this much: bounds the rows held in memory at once (a busy
# home of 200 entities writes ~140,000 rows a day; 6 hours of them are ~10 MB).
CHUNK = timedelta(hours=6)
# How long the read at start waits for the recorder to write what it holds (seconds, at
# HA's default interval; minutes only for a recorder that is stuck).
WRITE_WAIT = timedelta(seconds=60)
# The window's read-back comes before the first safety check: a stuck recorder must not
# hold that check for long (the rows it misses are the last seconds before the start).
WINDOW_WRITE_WAIT = timedelta(seconds=10)
# History this much older than what was read is worth starting over for.
SLACK = timedelta(hours=1)


async def async_written(hass: HomeAssistant, wait: timedelta = WRITE_WAIT) -> None:
    """Wait until the recorder has written the changes it still holds to its database.

    It writes every few seconds (``commit_interval``): at a start, the rows HA wrote just
    before (a door shut while HA was down, a template's ``unknown`` and then its value)
    are in its queue, and a read that does not wait misses them, while the live stream
    takes them as read (the watcher's changes up to the read's end are not learned
    again). HA's history stream waits so too when it switches to its live feed.
    """
    from homeassistant.helpers.recorder import get_instance  # pulls in SQLAlchemy

    if (written := get_instance(hass).async_get_commit_future()) is None:
        return
    try:  # a recorder that stopped writing must not stop the learning for ever
        await asyncio.wait_for(asyncio.shield(written), wait.total_seconds())
    except TimeoutError:
        LOGGER.debug("The recorder has not written its queue; reading what it holds")


async def async_learn_rows(
    hass: HomeAssistant,
    baselines: HomeBaselines,
    start: datetime,
    end: datetime,
    entity_ids: list[str],
    *,
    weather: str | None,
    counted: Callable[[int], None],
) -> None:
    """Learn the recorder's rows of ``entity_ids`` (and the ``weather`` entity's
    temperature) in ``[start, end)`` into ``baselines``; ``counted`` hears each chunk's
    number of rows."""
    from homeassistant.helpers.recorder import get_instance  # pulls in SQLAlchemy

    recorder = get_instance(hass)
    chunk_start = start
    while chunk_start < end and entity_ids:
        chunk_end = min(end, chunk_start + CHUNK)
        rows = await recorder.async_add_executor_job(
            history_rows, hass, chunk_start, chunk_end, entity_ids
        )
        if weather is not None:
            rows += await recorder.async_add_executor_job(
                weather_rows, hass, chunk_start, chunk_end, weather
            )
            rows.sort(key=row_time)
        counted(len(rows))
        await hass.async_add_executor_job(learn_rows, baselines, rows)
        chunk_start = chunk_end
    await hass.async_add_executor_job(count_ahead, baselines)


async def async_history_unlearned(
    hass: HomeAssistant,
    baselines: HomeBaselines,
    start: datetime,
    entity_ids: list[str],
    *,
    known: set[str] | None,
    since: datetime | None,
) -> bool:
    """Whether the recorder holds history of the window that the stored ``baselines``
    never learned: an entity watched since (the homeowner added a plug; ``known`` are the
    entities whose history they read, from ``since``) that has history before they stopped
    reading, or days further back than they began (the option raised). A new device
    without a past changes nothing."""
    learned = baselines.learned_until
    if learned is None or learned <= start:
        return False  # nothing stored of the window: it is read whole anyway
    if since is not None and await _async_has_rows(hass, start, since - SLACK, entity_ids):
        return True
    # Stored before this was kept: every entity is new, learned over once.
    new = [e for e in entity_ids if known is None or e not in known]
    return bool(new) and await _async_has_rows(hass, start, learned, new)


async def _async_has_rows(
    hass: HomeAssistant, start: datetime, end: datetime, entity_ids: list[str]
) -> bool:
    """Whether the recorder has a change of ``entity_ids`` in ``[start, end)``: read a
    chunk at a time from the newest, so a busy home answers after one small query."""
    from homeassistant.helpers.recorder import get_instance

    recorder = get_instance(hass)
    while end > start:
        chunk_start = max(start, end - CHUNK)
        if await recorder.async_add_executor_job(history_rows, hass, chunk_start, end, entity_ids):
            return True
        end = chunk_start
    return False
