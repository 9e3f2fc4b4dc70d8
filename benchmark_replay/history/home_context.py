"""What each recorded entity is (name, area, device class, unit, device) and where the home is.

From the HA config folder's ``.storage`` when given (the registries HA itself keeps: names,
areas, devices, Assist exposure, time zone), else from the recorded attributes
(``friendly_name``, ``device_class``, ``unit_of_measurement``), else from a small YAML beside
the CSV (see docs/history_replay.md)::

    timezone: Europe/Amsterdam      # all optional
    latitude: 52.37
    longitude: 4.89
    restarts: ["2026-11-02T07:10:00+00:00"]   # when HA restarted (a CSV cannot say)
    entities:
      binary_sensor.kitchen_smoke: {name: Kitchen smoke, area: Kitchen, device_class: smoke}
      sensor.living_temperature: {area: Living room, device_class: temperature, unit: °C}

Every file is only read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
import json
from pathlib import Path
from typing import Any

import yaml

from .history_csv import parse_time
from .records import HistoryError


@dataclass(slots=True)
class EntityContext:
    """One entity as the registries describe it."""

    name: str | None = None
    area: str | None = None
    device_class: str | None = None
    unit: str | None = None
    device: str | None = None  # the device's name (entities of one device share it)
    platform: str | None = None  # the integration that made it


@dataclass(slots=True)
class HomeContext:
    """The home around the recorded entities."""

    entities: dict[str, EntityContext] = field(default_factory=dict)
    timezone: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    restarts: list[datetime] = field(default_factory=list)
    exposed: set[str] | None = None  # Assist-exposed entities, when the config says
    sources: list[str] = field(default_factory=list)

    def entity(self, entity_id: str) -> EntityContext:
        """The entity's context (created empty on first use)."""
        return self.entities.setdefault(entity_id, EntityContext())

    def add_attributes(self, attributes: Mapping[str, Mapping[str, Any]]) -> None:
        """Fill what the registries left empty from the recorded attributes."""
        for entity_id, attrs in attributes.items():
            ctx = self.entity(entity_id)
            ctx.name = ctx.name or _text(attrs.get("friendly_name"))
            ctx.device_class = ctx.device_class or _text(attrs.get("device_class"))
            ctx.unit = ctx.unit or _text(attrs.get("unit_of_measurement"))
        if attributes:
            self.sources.append("recorded attributes")


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _storage(folder: Path, key: str) -> Any:
    path = folder / ".storage" / key
    if not path.is_file():
        return None
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise HistoryError(f"{path}: not readable JSON ({err})") from err
    return document.get("data") if isinstance(document, dict) else None


def _items(data: Any, key: str) -> list[dict[str, Any]]:
    items = data.get(key) if isinstance(data, dict) else None
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def from_config_dir(folder: Path) -> HomeContext:
    """The registries of an HA config folder."""
    if not (folder / ".storage").is_dir():
        raise HistoryError(f"{folder}: no .storage folder (is this HA's config folder?)")
    home = HomeContext(sources=[f"{folder}/.storage"])
    areas = {
        a.get("id"): _text(a.get("name"))
        for a in _items(_storage(folder, "core.area_registry"), "areas")
    }
    devices = {d.get("id"): d for d in _items(_storage(folder, "core.device_registry"), "devices")}
    for item in _items(_storage(folder, "core.entity_registry"), "entities"):
        entity_id = item.get("entity_id")
        if not isinstance(entity_id, str):
            continue
        device = devices.get(item.get("device_id")) or {}
        area_id = item.get("area_id") or device.get("area_id")
        home.entities[entity_id] = EntityContext(
            name=_text(item.get("name")) or _text(item.get("original_name")),
            area=areas.get(area_id),
            device_class=_text(item.get("device_class"))
            or _text(item.get("original_device_class")),
            unit=_text(item.get("unit_of_measurement")),
            device=_text(device.get("name_by_user")) or _text(device.get("name")),
            platform=_text(item.get("platform")),
        )
    core = _storage(folder, "core.config")
    if isinstance(core, dict):
        home.timezone = _text(core.get("time_zone"))
        home.latitude = _number(core.get("latitude"))
        home.longitude = _number(core.get("longitude"))
    exposure = _storage(folder, "homeassistant.exposed_entities")
    if isinstance(exposure, dict) and isinstance(exposed := exposure.get("exposed_entities"), dict):
        home.exposed = {
            entity_id
            for entity_id, settings in exposed.items()
            if isinstance(settings, dict)
            and ((settings.get("assistants") or {}).get("conversation") or {}).get("should_expose")
        }
    return home


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def from_yaml(path: Path) -> HomeContext:
    """The small YAML beside a CSV (its form is in this module's docstring)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as err:
        raise HistoryError(f"{path}: not readable YAML ({err})") from err
    if not isinstance(data, dict):
        raise HistoryError(f"{path}: expected a mapping at the top")
    home = HomeContext(sources=[str(path)])
    home.timezone = _text(data.get("timezone"))
    home.latitude = _number(data.get("latitude"))
    home.longitude = _number(data.get("longitude"))
    for value in data.get("restarts") or []:
        when = parse_time(str(value))
        if when is None:
            raise HistoryError(f"{path}: restart time {value!r} is not an ISO time")
        home.restarts.append(when)
    entities = data.get("entities") or {}
    if not isinstance(entities, dict):
        raise HistoryError(f"{path}: 'entities' must map entity ids to their description")
    for entity_id, spec in entities.items():
        if not isinstance(spec, dict):
            raise HistoryError(f"{path}: {entity_id} must be a mapping (name, area, ...)")
        home.entities[str(entity_id)] = EntityContext(
            name=_text(spec.get("name")),
            area=_text(spec.get("area")),
            device_class=_text(spec.get("device_class")),
            unit=_text(spec.get("unit")),
            device=_text(spec.get("device")),
        )
    return home


def yaml_beside(csv_path: Path) -> Path | None:
    """``history.yaml`` (or ``.yml``) beside ``history.csv``, if there is one."""
    for suffix in (".yaml", ".yml"):
        candidate = csv_path.with_suffix(suffix)
        if candidate.is_file():
            return candidate
    return None
