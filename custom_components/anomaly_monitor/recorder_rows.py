"""The recorder's history of some entities as (time, entity, state) rows, as the watcher
records them: what the baselines learn on start and what the analysed window reads back
after a restart come from the same rows (one conversion, one place)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from .core.models import clip
from .state_summary import ACTIVITY_DOMAINS, summarize_state

type Row = tuple[datetime, str, str]


def history_rows(
    hass: HomeAssistant, start: datetime, end: datetime, entity_ids: list[str]
) -> list[Row]:
    """(time, entity, state) of every change in ``[start, end)``, time-ordered (recorder executor).

    The compressed minimal form (a state and a timestamp per row, no attributes) keeps a
    day of a busy home to a few MB. A climate entity (humidifier, water heater) is read
    with its attributes, and its rows summarised as the watcher does ("heat (heating)"):
    its state alone says the mode, not whether it heats, and what the history teaches must
    be what the live stream brings (the heating's onsets, the room warming after them).
    """
    from homeassistant.components.recorder import history

    acting = [e for e in entity_ids if e.partition(".")[0] in ACTIVITY_DOMAINS]
    plain = [e for e in entity_ids if e.partition(".")[0] not in ACTIVITY_DOMAINS]
    rows: list[Row] = []
    for ids, attributes in ((plain, False), (acting, True)):
        if not ids:
            continue
        states = history.get_significant_states(
            hass,
            start,
            end,
            ids,
            include_start_time_state=True,
            significant_changes_only=False,
            minimal_response=True,
            no_attributes=not attributes,
            compressed_state_format=True,
        )
        while states:  # each entity's list is freed as soon as it is converted
            entity_id, entity_states = states.popitem()
            rows.extend(row for item in entity_states if (row := _row(entity_id, item)) is not None)
    rows.sort(key=lambda row: row[0])
    return rows


def _row(entity_id: str, item: Any) -> Row | None:
    """One history item (a compressed dict, or a State) as a row."""
    if isinstance(item, dict):
        value = item.get("s")
        stamp = item.get("lu", item.get("lc"))
        if not isinstance(value, str) or not isinstance(stamp, int | float):
            return None
        attributes = item.get("a")
        return dt_util.utc_from_timestamp(stamp), entity_id, _summary(entity_id, value, attributes)
    when, value = getattr(item, "last_updated", None), getattr(item, "state", None)
    if isinstance(when, datetime) and isinstance(value, str):
        return when, entity_id, _summary(entity_id, value, getattr(item, "attributes", None))
    return None


def _summary(entity_id: str, state: str, attributes: object) -> str:
    """The state as the watcher records it (with its activity, when it has attributes)."""
    domain = entity_id.partition(".")[0]
    if domain not in ACTIVITY_DOMAINS or not isinstance(attributes, Mapping):
        return state
    return clip(summarize_state(domain, state, attributes))
