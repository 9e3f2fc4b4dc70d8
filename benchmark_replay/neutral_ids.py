"""Give a window's entities neutral ids, to measure what the words in ids carry.

Issue #16 part 4: the detectors should reason in Home Assistant's vocabulary (domain,
device_class, unit, state_class, area, learned behaviour), not in the words of entity
ids. :func:`neutralise` renames every entity of a built window to
``<domain>.device_<n>`` (``binary_sensor.kitchen_gas_leak_sensor`` →
``binary_sensor.device_0007``) everywhere the window holds ids: the snapshot, the
transitions, the compressed sequence (rebuilt from the renamed transitions), attribute
values and the profile text that name an id. Everything HA itself carries is kept:
domain, device_class, unit, the kept attributes, area and, unless ``names`` is set, the
friendly name (with ``names``: "Device 7", to see what names carry on top).

Numbers follow the original ids' sorted order, so the snapshot (sorted by area, then
id) keeps its order and only the words change. ``sun.sun`` keeps its id: HA fixes it.
The returned :class:`Renaming` maps a verdict's evidence back to the original ids, so
evidence is scored against the same answers (AL stays comparable).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
import re
from types import MappingProxyType
from typing import Any

from custom_components.anomaly_monitor.core.compression import DEFAULT_TOKEN_BUDGET
from custom_components.anomaly_monitor.core.models import (
    ContextWindow,
    EntityState,
    Transition,
)
from custom_components.anomaly_monitor.core.window import build_window

from .entity_mapping import SUN_ENTITY

# Ids HA itself fixes (the sun integration's one entity): not a word a home chose.
KEPT_IDS = frozenset({SUN_ENTITY})


@dataclass(frozen=True, slots=True)
class Renaming:
    """Original id → neutral id for one window, and back."""

    to_neutral: Mapping[str, str]
    to_original: Mapping[str, str]

    @classmethod
    def number(cls, entity_ids: Iterable[str]) -> Renaming:
        """``<domain>.device_<n>`` for each id, numbered in sorted order (stable)."""
        forward: dict[str, str] = {}
        for index, entity_id in enumerate(sorted(set(entity_ids) - KEPT_IDS), start=1):
            domain = entity_id.partition(".")[0]
            forward[entity_id] = f"{domain}.device_{index:04d}"
        backward = {neutral: original for original, neutral in forward.items()}
        return cls(MappingProxyType(forward), MappingProxyType(backward))

    def neutral(self, entity_id: str) -> str:
        """The neutral id (an id not renamed stays itself)."""
        return self.to_neutral.get(entity_id, entity_id)

    def original(self, entity_id: str) -> str:
        """The original id behind a neutral one (any other id stays itself)."""
        return self.to_original.get(entity_id, entity_id)

    def originals(self, entity_ids: Iterable[str]) -> tuple[str, ...]:
        """A verdict's evidence in original ids, for scoring."""
        return tuple(self.original(entity_id) for entity_id in entity_ids)

    def text(self, value: str) -> str:
        """``value`` with every original id in it replaced (whole ids only)."""
        if not self.to_neutral:
            return value
        pattern = _ids_pattern(tuple(self.to_neutral))
        return pattern.sub(lambda match: self.to_neutral[match.group(0)], value)

    def neutral_name(self, entity_id: str) -> str:
        """``"Device 7"`` for ``*.device_0007``."""
        neutral = self.neutral(entity_id)
        number = neutral.rpartition("_")[2]
        return f"Device {int(number)}" if number.isdigit() else neutral


@lru_cache(maxsize=64)
def _ids_pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    # Longest first, bounded by characters that cannot belong to an id.
    ordered = sorted(ids, key=len, reverse=True)
    return re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, ordered)) + r")(?!\w|\.\w)")


def neutralise(
    window: ContextWindow, *, names: bool = False, token_budget: int = DEFAULT_TOKEN_BUDGET
) -> tuple[ContextWindow, Renaming]:
    """``window`` with neutral ids (and with ``names``, neutral friendly names)."""
    renaming = Renaming.number(window.entity_ids)
    snapshot = [_state(state, renaming, names=names) for state in window.snapshot]
    transitions = [
        Transition(t.when, renaming.neutral(t.entity_id), t.state, t.area)
        for t in window.transitions
    ]
    renamed = build_window(
        snapshot,
        window.environment,
        transitions,
        profile=renaming.text(window.profile),
        start=window.start,
        token_budget=token_budget,
        phoneless_residents=window.phoneless_residents,
    )
    return renamed, renaming


def _state(state: EntityState, renaming: Renaming, *, names: bool) -> EntityState:
    entity_id = state.entity_id
    info = replace(
        state.info,
        entity_id=renaming.neutral(entity_id),
        name=renaming.neutral_name(entity_id) if names else renaming.text(state.info.name),
    )
    return replace(state, info=info, attributes=_attributes(state.attributes, renaming))


def _attributes(attributes: Mapping[str, Any], renaming: Renaming) -> dict[str, Any]:
    # An attribute naming another entity (a group's members, a source sensor) follows it.
    return {key: _value(value, renaming) for key, value in attributes.items()}


def _value(value: Any, renaming: Renaming) -> Any:
    if isinstance(value, str):
        return renaming.text(value)
    if isinstance(value, list | tuple):
        return type(value)(_value(item, renaming) for item in value)
    return value
