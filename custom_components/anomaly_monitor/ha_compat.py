"""What differs between the Home Assistant versions the integration supports (hacs.json's
oldest to the newest tested, docs/compatibility.md), in one place."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er


def entity_aliases(hass: HomeAssistant, entry: er.RegistryEntry) -> list[str]:
    """The names a user gave an entity, as Assist reads them.

    Up to HA 2026.2 aliases are a set of strings. Later ones keep an ordered list in which
    one item may stand for the entity's computed name (new entities carry it by default);
    HA's own ``async_get_entity_aliases`` turns that into text.
    """
    resolve = getattr(er, "async_get_entity_aliases", None)
    names = resolve(hass, entry) if resolve is not None else entry.aliases
    return [name.strip() for name in names if name.strip()]
