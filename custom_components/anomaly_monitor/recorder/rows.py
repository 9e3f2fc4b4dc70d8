"""The recorder's history of some entities as (time, entity, state) rows, as the watcher
records them: what the baselines learn on start and what the analysed window reads back
after a restart come from the same rows (one conversion, one place)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from ..core.baselines.home_baselines import OUTDOOR, HomeBaselines
from ..core.models import clip, parse_number
from ..core.temperatures import CELSIUS, FAHRENHEIT, KELVIN, converted
from ..live.context_builder import outdoor_celsius
from ..live.state_summary import ACTIVITY_DOMAINS, summarize_state

type Row = tuple[datetime, str, str]
TEMPERATURE_UNITS = (CELSIUS, FAHRENHEIT, KELVIN)


def history_rows(
    hass: HomeAssistant, start: datetime, end: datetime, entity_ids: list[str]
) -> list[Row]:
    """(time, entity, state) of every change in ``[start, end)``, time-ordered (recorder executor).

    The compressed minimal form (a state and a timestamp per row, no attributes) keeps a
    day of a busy home to a few MB. A climate entity (humidifier, water heater) is read
    with its attributes, and its rows summarised as the watcher does ("heat (heating)"):
    its state alone says the mode, not whether it heats, and what the history teaches must
    be what the live stream brings (the heating's onsets, the room warming after them).
    A thermometer is read with its unit, each row in the unit it reads now: after a change
    of unit system the older °C rows are not taken for °F (``thermometer_units``).
    """
    from homeassistant.components.recorder import history

    units = thermometer_units(hass, entity_ids)
    acting = [e for e in entity_ids if e.partition(".")[0] in ACTIVITY_DOMAINS]
    plain = [e for e in entity_ids if e.partition(".")[0] not in ACTIVITY_DOMAINS]
    measured = [e for e in plain if e in units]
    plain = [e for e in plain if e not in units]
    rows: list[Row] = []
    for ids, attributes, minimal in (
        (plain, False, True),
        (acting, True, True),
        (measured, True, False),
    ):
        if not ids:
            continue
        states = history.get_significant_states(
            hass,
            start,
            end,
            ids,
            include_start_time_state=True,
            significant_changes_only=False,
            minimal_response=minimal,  # (a minimal response has the first row's unit only)
            no_attributes=not attributes,
            compressed_state_format=True,
        )
        while states:  # each entity's list is freed as soon as it is converted
            entity_id, entity_states = states.popitem()
            unit = units.get(entity_id)
            rows.extend(
                row for item in entity_states if (row := _row(entity_id, item, unit)) is not None
            )
    rows.sort(key=lambda row: row[0])
    return rows


def thermometer_units(hass: HomeAssistant, entity_ids: list[str]) -> dict[str, str]:
    """The temperature unit each thermometer among ``entity_ids`` reads in now.

    HA converts a temperature sensor's state when the home's unit system changes; its
    rows recorded before stay in the old unit, and a row alone carries no unit.
    """
    units: dict[str, str] = {}
    for entity_id in entity_ids:
        if entity_id.partition(".")[0] != "sensor":
            continue
        state = hass.states.get(entity_id)  # (an atomic read: the recorder's thread may ask)
        unit = state.attributes.get("unit_of_measurement") if state is not None else None
        if unit in TEMPERATURE_UNITS:
            units[entity_id] = unit
    return units


def weather_rows(hass: HomeAssistant, start: datetime, end: datetime, weather: str) -> list[Row]:
    """(time, ``OUTDOOR``, temperature) of the weather entity in ``[start, end)``, time-ordered
    (recorder executor).

    A weather entity's state is its condition; the temperature is an attribute, which the
    minimal rows of ``history_rows`` leave out. One entity, read with its attributes (the
    full response: the minimal one drops them from every row but the first), the same
    chunk at a time as the rest: a fortnight of an hourly forecast entity is ~350 rows.
    """
    from homeassistant.components.recorder import history

    states = history.get_significant_states(
        hass,
        start,
        end,
        [weather],
        include_start_time_state=True,
        significant_changes_only=False,
        minimal_response=False,
        no_attributes=False,
        compressed_state_format=True,
    )
    rows: list[Row] = []
    home_unit = hass.config.units.temperature_unit
    for item in states.get(weather, ()):
        when, attributes = _moment(item)
        temperature = outdoor_celsius(attributes, home_unit) if attributes else None
        if when is not None and temperature is not None:
            rows.append((when, OUTDOOR, f"{temperature:g}"))
    rows.sort(key=lambda row: row[0])
    return rows


def _moment(item: Any) -> tuple[datetime | None, Mapping[str, Any] | None]:
    """When a history item (a compressed dict, or a State) was written, and its attributes."""
    if isinstance(item, dict):
        stamp, attributes = item.get("lu", item.get("lc")), item.get("a")
        when = dt_util.utc_from_timestamp(stamp) if isinstance(stamp, int | float) else None
    else:
        when, attributes = getattr(item, "last_updated", None), getattr(item, "attributes", None)
        when = when if isinstance(when, datetime) else None
    return when, attributes if isinstance(attributes, Mapping) else None


def _row(entity_id: str, item: Any, unit: str | None = None) -> Row | None:
    """One history item (a compressed dict, or a State) as a row; a thermometer's reading
    in ``unit``, the one it reads in now."""
    value = item.get("s") if isinstance(item, dict) else getattr(item, "state", None)
    when, attributes = _moment(item)
    if when is None or not isinstance(value, str):
        return None
    return recorded_row(entity_id, when, value, attributes, unit)


def recorded_row(
    entity_id: str,
    when: datetime,
    value: str,
    attributes: Mapping[str, Any] | None,
    unit: str | None = None,
) -> Row:
    """A recorded state as a row, as the watcher records it; a thermometer's reading in
    ``unit``, the one it reads in now."""
    if unit is not None and attributes is not None:
        value = _in_unit(value, attributes.get("unit_of_measurement"), unit)
    return when, entity_id, _summary(entity_id, value, attributes)


def _in_unit(value: str, recorded: object, unit: str) -> str:
    """A reading recorded in ``recorded``, in ``unit`` (as it was, when it says no other)."""
    if recorded == unit or recorded not in TEMPERATURE_UNITS:
        return value
    number = parse_number(value)
    now = None if number is None else converted(number, str(recorded), unit)
    return value if now is None else f"{round(now, 2):g}"


def _summary(entity_id: str, state: str, attributes: object) -> str:
    """The state as the watcher records it (with its activity, when it has attributes)."""
    domain = entity_id.partition(".")[0]
    if domain not in ACTIVITY_DOMAINS or not isinstance(attributes, Mapping):
        return state
    return clip(summarize_state(domain, state, attributes))


def row_time(row: Row) -> datetime:
    """A row's time (its sort key)."""
    return row[0]


def learn_rows(baselines: HomeBaselines, rows: list[Row]) -> None:
    """Learn a chunk of history (executor; the baselines are a copy nobody else touches)."""
    for when, entity_id, state in rows:
        if entity_id == OUTDOOR:  # the weather's temperature (``weather_rows``)
            baselines.outdoor(parse_number(state), when)
            continue
        info = baselines.infos.get(entity_id)
        baselines.observe(when, entity_id, state, info.area if info else None)
    if rows:
        baselines.advance(rows[-1][0])
