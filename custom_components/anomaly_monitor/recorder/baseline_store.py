"""Where one entry's learned normal is stored, and what the keeper stores beside it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers.storage import Store

from ..const import DOMAIN, STORAGE_VERSION
from ..core.baselines import HomeBaselines
from ..core.baselines.clock import format_time, parse_time

# The keeper's key in the stored baselines: whose history they learned, and from when.
HISTORY_READ = "history_read"


def baseline_store(hass: HomeAssistant, entry_id: str) -> Store[dict[str, Any]]:
    """The Store file of one entry's baselines."""
    return Store(hass, STORAGE_VERSION, f"{DOMAIN}.{entry_id}.baselines")


async def async_forget_baselines(hass: HomeAssistant, entry_id: str) -> None:
    """Delete what an entry learned (the entry is removed, or a replay starts a new home)."""
    await baseline_store(hass, entry_id).async_remove()


def stored_form(
    baselines: HomeBaselines, entities: set[str] | None, read_from: datetime | None
) -> dict[str, Any]:
    """The baselines as stored, with whose history they learned and from when."""
    stored = baselines.as_dict()
    if entities is not None:
        stored[HISTORY_READ] = {"entities": sorted(entities), "from": format_time(read_from)}
    return stored


def history_read(stored: Any, baselines: HomeBaselines) -> tuple[set[str] | None, datetime | None]:
    """Whose history the stored baselines learned, and from when (None, None: nothing
    stored, or stored before this was kept)."""
    read = stored.get(HISTORY_READ) if isinstance(stored, Mapping) else None
    if not isinstance(read, Mapping) or baselines.learned_until is None:
        return None, None
    ids = read.get("entities")
    entities = {i for i in ids if isinstance(i, str)} if isinstance(ids, list) else None
    return entities, parse_time(read.get("from"))
