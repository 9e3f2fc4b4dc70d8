"""Device <-> entity mapping for one benchmark sample (``HomeMapping``).

Built from every value each device takes: one entity per device (``entity_mapping``
parses its name and converts its values), except a snapshot's thermostat, whose mode,
target and HVAC status fold into one ``climate`` entity.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .device_kinds import DeviceKind, kind_row
from .device_vocab import ACTION_TO_MODE, HVAC_ACTION_VOCAB, HVAC_MODE_VOCAB
from .entity_mapping import (
    RESERVED_ENTITY_IDS,
    EntitySpec,
    ParsedName,
    classify,
    convert_state,
    normalise_value,
    parse_name,
    parse_number_with_unit,
    slugify,
)


@dataclass(slots=True)
class _Device:
    name: ParsedName
    kind: DeviceKind
    entity_id: str


@dataclass(slots=True)
class HomeMapping:
    """Device ↔ entity mapping for one sample, built from every value each device takes.

    ``merge_thermostats`` (snapshots only) folds an area's thermostat mode, target and
    HVAC status devices into one ``climate`` entity.
    """

    devices: dict[str, _Device] = field(default_factory=dict)
    merged: dict[str, tuple[str, ...]] = field(default_factory=dict)  # climate id -> names
    _sources: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def build(
        cls, observed: Mapping[str, Sequence[str]], *, merge_thermostats: bool = False
    ) -> HomeMapping:
        """Map every device of a sample (``observed``: device name -> its values)."""
        mapping = cls()
        taken: set[str] = set(RESERVED_ENTITY_IDS)
        parsed = {device: parse_name(device) for device in observed}
        if merge_thermostats:
            mapping._merge_thermostats(parsed, observed, taken)
        for device, name in parsed.items():
            if device in mapping.devices:
                continue
            kind = classify(name, observed[device])
            object_id = name.object_id
            if name.domain_hint and kind.domain == name.domain_hint:
                object_id = slugify(name.device.partition(".")[2]) or name.object_id
                if name.domain_hint == "sun" and "." not in name.device:
                    object_id = "sun"
            entity_id = _unique(f"{kind.domain}.{object_id}", taken)
            mapping.devices[device] = _Device(name, kind, entity_id)
            mapping._sources[entity_id] = (device,)
        return mapping

    def _merge_thermostats(
        self,
        parsed: Mapping[str, ParsedName],
        observed: Mapping[str, Sequence[str]],
        taken: set[str],
    ) -> None:
        by_area: dict[str | None, dict[str, str]] = {}
        for device, name in parsed.items():
            kind = classify(name, observed[device])
            if kind.role is not None:
                by_area.setdefault(name.area, {}).setdefault(kind.role, device)
        for area, roles in by_area.items():
            if "hvac_mode" not in roles:
                continue  # no thermostat to merge into
            names = tuple(roles[r] for r in ("hvac_mode", "target", "action") if r in roles)
            object_id = slugify(f"{area} thermostat") if area else "thermostat"
            entity_id = _unique(f"climate.{object_id}", taken)
            self.merged[entity_id] = names
            self._sources[entity_id] = names
            for device in names:
                name = parsed[device]
                self.devices[device] = _Device(name, classify(name, observed[device]), entity_id)

    def entity_of(self, device: str) -> str:
        """Entity id standing for a dataset device."""
        return self.devices[device].entity_id

    def sources(self, entity_id: str) -> tuple[str, ...]:
        """Dataset device names behind an entity id (empty for environment entities)."""
        return self._sources.get(entity_id, ())

    @property
    def entity_ids(self) -> list[str]:
        """Every device entity id, in a stable order."""
        return sorted(self._sources)

    def devices_for(self, entity_ids: Iterable[str]) -> frozenset[str]:
        """Dataset device names for a detector's evidence.

        Ids that stand for no device (environment entities, invented ids) stay in the
        set as ``"entity:<id>"`` so they count against the AL score instead of vanishing.
        """
        names: set[str] = set()
        for entity_id in entity_ids:
            sources = self._sources.get(entity_id)
            if sources:
                names.update(sources)
            else:
                names.add(f"entity:{entity_id}")
        return frozenset(names)

    def spec(self, device: str, raw: str) -> EntitySpec:
        """The entity for one device reading (not for merged thermostats: use ``snapshot``)."""
        entry = self.devices[device]
        state, extra = convert_state(entry.kind, raw)
        if entry.kind.role == "action" and entry.entity_id not in self.merged:
            # A bare HVAC unit: the mode it implies is the state, what it does the action.
            action = state
            state = ACTION_TO_MODE.get(action, action)
            if action in HVAC_ACTION_VOCAB.values():
                extra["hvac_action"] = action
        return EntitySpec(
            entity_id=entry.entity_id,
            state=state,
            attributes=MappingProxyType(_base_attributes(entry) | extra),
            area=entry.name.area,
            sources=(device,),
        )

    def snapshot(self, states: Mapping[str, str]) -> list[EntitySpec]:
        """Entities for a full snapshot of device states, merged thermostats included."""
        specs: list[EntitySpec] = []
        for device, raw in states.items():
            if self.devices[device].entity_id in self.merged:
                continue
            specs.append(self.spec(device, raw))
        for entity_id, names in self.merged.items():
            specs.append(self._climate(entity_id, names, states, specs))
        return specs

    def _climate(
        self,
        entity_id: str,
        names: tuple[str, ...],
        states: Mapping[str, str],
        others: Sequence[EntitySpec],
    ) -> EntitySpec:
        by_role = {self.devices[n].kind.role: n for n in names}
        area = self.devices[names[0]].name.area
        attributes: dict[str, Any] = {
            "friendly_name": f"{area} Thermostat" if area else "Thermostat",
            "hvac_modes": ["off", "heat", "cool", "auto"],
            "temperature_unit": "°C",
        }
        mode_raw = states.get(by_role["hvac_mode"], "unknown")
        mode, extra = convert_state(
            kind_row("mode", "", "climate", vocab=HVAC_MODE_VOCAB), mode_raw
        )
        attributes.update(extra)
        if "action" in by_role:
            action, action_extra = convert_state(
                kind_row("action", "", "climate", vocab=HVAC_ACTION_VOCAB),
                states.get(by_role["action"], "unknown"),
            )
            attributes["hvac_action"] = None if action in ("unavailable", "unknown") else action
            if "raw_state" in action_extra:
                attributes["hvac_action_raw"] = action_extra["raw_state"]
        if "target" in by_role:
            parsed = parse_number_with_unit(normalise_value(states.get(by_role["target"], ""))[0])
            attributes["temperature"] = parsed[0] if parsed else None
        # The thermostat's own reading: the area's temperature sensor, which stays an entity.
        for spec in others:
            if spec.area == area and spec.device_class == "temperature" and spec.domain == "sensor":
                parsed = parse_number_with_unit(spec.state)
                attributes["current_temperature"] = parsed[0] if parsed else None
                break
        return EntitySpec(entity_id, mode, MappingProxyType(attributes), area, names)


def _base_attributes(entry: _Device) -> dict[str, Any]:
    attributes: dict[str, Any] = {"friendly_name": entry.name.friendly_name}
    if entry.kind.device_class:
        attributes["device_class"] = entry.kind.device_class
    if entry.kind.unit:
        attributes["unit_of_measurement"] = entry.kind.unit
        if entry.kind.domain == "sensor":
            attributes["state_class"] = "measurement"
    return attributes


def _unique(entity_id: str, taken: set[str]) -> str:
    candidate, index = entity_id, 2
    while candidate in taken:
        candidate = f"{entity_id}_{index}"
        index += 1
    taken.add(candidate)
    return candidate
