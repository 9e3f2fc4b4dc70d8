"""What a home can do: areas, devices, and the features (actions, settings) each device offers.

Built from Home Assistant's registries and states by the integration, or from a benchmark
home by the replay. Attribute and action names are the canonical words of ``vocabulary``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class FeatureKind(StrEnum):
    """How a feature is driven."""

    ACTION = "action"  # a service call without a value: turn_on, open, pause, pack …
    NUMBER = "number"  # a value in [minimum, maximum]
    OPTION = "option"  # one of ``options``
    TEXT = "text"  # free text (a song title)


@dataclass(frozen=True, slots=True)
class Feature:
    """One thing a device can do, and the Home Assistant service call that does it."""

    names: frozenset[str]  # canonical action or attribute names this feature answers to
    kind: FeatureKind
    entity_id: str
    service: str  # "domain.service"
    data_key: str | None = None  # service field that carries the value
    minimum: float | None = None
    maximum: float | None = None
    step: float = 1.0
    options: tuple[str, ...] = ()
    current: float | str | None = None
    # The user speaks in ``value``; Home Assistant wants ``value * scale`` (volume 0–100 → 0–1).
    scale: float = 1.0
    fixed_data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def domain(self) -> str:
        """Domain of the service."""
        return self.service.partition(".")[0]


@dataclass(frozen=True, slots=True)
class DeviceCapability:
    """A device (or a lone entity) with the features of all its entities."""

    device_id: str
    name: str
    area_id: str | None
    kinds: frozenset[str]  # canonical device kinds (vocabulary.DEVICE_KINDS keys)
    features: tuple[Feature, ...]

    def actions(self) -> list[Feature]:
        """Features that are plain actions."""
        return [f for f in self.features if f.kind is FeatureKind.ACTION]


@dataclass(frozen=True, slots=True)
class Area:
    """An area (room) of the home."""

    area_id: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HomeCapabilities:
    """The whole home, as the planner and the validator see it."""

    areas: tuple[Area, ...]
    devices: tuple[DeviceCapability, ...]

    def area(self, area_id: str | None) -> Area | None:
        """Return the area with this id, if any."""
        return next((a for a in self.areas if a.area_id == area_id), None)

    def area_name(self, area_id: str | None) -> str:
        """A readable name for an area id (the id itself when unknown)."""
        area = self.area(area_id)
        if area is not None:
            return area.name
        return area_id or "the home"

    def kinds(self) -> set[str]:
        """Every device kind present in the home."""
        return {kind for device in self.devices for kind in device.kinds}
