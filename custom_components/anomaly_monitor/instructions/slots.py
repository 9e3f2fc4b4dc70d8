"""The names, areas and floors HA's sentence templates can refer to, kept per home.

Rebuilding them on every ``check_instruction`` call walked every state and entity registry
entry of the home, a cost that grows with the home, not with the instruction. Like HA's own
default conversation agent, they are built on first use and dropped when the home changes
what they hold: an entity added, removed or renamed (or its device class changed), an
alias, device, area or floor edited. Values and attributes changing do not rebuild them.
"""

from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Any

from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import Event, EventStateChangedData, HomeAssistant, State, callback
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
    floor_registry as fr,
)
from homeassistant.util.hass_dict import HassKey

from ..ha_compat import entity_aliases

try:  # a dependency of HA's conversation integration; optional for us
    from hassil import TextSlotList
except ImportError:  # pragma: no cover - exercised only without the package
    TextSlotList = None  # type: ignore[assignment,misc]

_PUNCTUATION = re.compile(r"[^\w\s']")
# A lock is named after the door it locks ("Front door lock") and the verb already says
# "lock": people say "lock the front door", and HA's Assist understands them. The name
# without its trailing kind word is one more name of the lock, unless another lock has it.
_TRAILING_KIND = {"lock": re.compile(r"^(.*?\S)\s+(?:smart\s+)?lock$", re.IGNORECASE)}


def normalize_words(text: str) -> str:
    """Lower case, punctuation as spaces, single spaces: how names are found in a sentence."""
    return " ".join(_PUNCTUATION.sub(" ", text.lower()).split())


@dataclass(frozen=True, slots=True)
class AssistSlots:
    """Slot values for the templates; read-only, shared by concurrent calls."""

    # (" normalized name ", (name, name, {"domain": ..., "device_class": ...})) per name/alias
    names: tuple[tuple[str, tuple[str, str, dict[str, Any]]], ...]
    areas: Any  # hassil TextSlotList
    floors: Any  # hassil TextSlotList


class _SlotCache:
    """The current slots of one Home Assistant, dropped when the home changes."""

    def __init__(self, hass: HomeAssistant) -> None:
        self.slots: AssistSlots | None = None
        for event_type in (
            er.EVENT_ENTITY_REGISTRY_UPDATED,
            dr.EVENT_DEVICE_REGISTRY_UPDATED,  # an entity's computed name may be its device's
            ar.EVENT_AREA_REGISTRY_UPDATED,
            fr.EVENT_FLOOR_REGISTRY_UPDATED,
        ):
            hass.bus.async_listen(event_type, self.async_drop)
        hass.bus.async_listen(EVENT_STATE_CHANGED, self.async_drop, event_filter=_renamed)

    @callback
    def async_drop(self, _event: Event[Any] | None = None) -> None:
        """Rebuild on next use."""
        self.slots = None


@callback
def _renamed(data: EventStateChangedData) -> bool:
    """An entity came, went, or changed what the names list holds for it."""
    old, new = data["old_state"], data["new_state"]
    if old is None or new is None:
        return True
    return old.name != new.name or old.attributes.get("device_class") != new.attributes.get(
        "device_class"
    )


_CACHE: HassKey[_SlotCache] = HassKey("anomaly_monitor_assist_slots")


@callback
def async_assist_slots(hass: HomeAssistant) -> AssistSlots:
    """The home's slots, built now if the home changed since they were last built."""
    cache = hass.data.get(_CACHE)
    if cache is None:
        cache = hass.data[_CACHE] = _SlotCache(hass)
    if cache.slots is None:
        cache.slots = _build(hass)
    return cache.slots


def _build(hass: HomeAssistant) -> AssistSlots:
    ent_reg = er.async_get(hass)
    names: list[tuple[str, tuple[str, str, dict[str, Any]]]] = []
    for state in hass.states.async_all():
        context = _context(state)
        entry = ent_reg.async_get(state.entity_id)
        aliases = entity_aliases(hass, entry) if entry else []
        values = [(alias, alias, context) for alias in aliases if alias != state.name]
        values.append((state.name, state.name, context))
        names.extend((f" {normalize_words(v[0])} ", v) for v in values)
    names.extend(_without_kind_word(names))
    areas: list[tuple[str, str]] = []
    for area in ar.async_get(hass).async_list_areas():
        areas.extend((name, name) for name in (area.name, *area.aliases) if name.strip())
    floors: list[tuple[str, str]] = []
    for floor in fr.async_get(hass).async_list_floors():
        floors.extend((name, floor.name) for name in (floor.name, *floor.aliases) if name)
    return AssistSlots(
        tuple(names),
        TextSlotList.from_tuples(areas, allow_template=False),
        TextSlotList.from_tuples(floors, allow_template=False),
    )


def _without_kind_word(
    names: list[tuple[str, tuple[str, str, dict[str, Any]]]],
) -> list[tuple[str, tuple[str, str, dict[str, Any]]]]:
    """The names of locks said without "lock" ("front door" for "Front door lock")."""
    taken = {(value[2]["domain"], norm) for norm, value in names}
    shorter: dict[tuple[str, str], list[tuple[str, str, dict[str, Any]]]] = {}
    for _, (text, value, context) in names:
        pattern = _TRAILING_KIND.get(context["domain"])
        if pattern is None or (match := pattern.match(text.strip())) is None:
            continue
        key = (context["domain"], f" {normalize_words(match.group(1))} ")
        if key not in taken:
            shorter.setdefault(key, []).append((match.group(1), value, context))
    # Said by two locks' names ("Front door lock", "Front door smart lock"): neither.
    return [(key[1], found[0]) for key, found in shorter.items() if len(found) == 1]


def _context(state: State) -> dict[str, Any]:
    context: dict[str, Any] = {"domain": state.domain}
    if "device_class" in state.attributes:
        context["device_class"] = state.attributes["device_class"]
    return context
