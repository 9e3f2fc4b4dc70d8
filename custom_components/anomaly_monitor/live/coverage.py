"""Which entities a monitor watches.

Safety and security devices are watched by default, whatever Assist exposes (Home Assistant
does not expose smoke detectors, locks or persons to Assist by default); then what is exposed
to Assist, then the user's includes, minus the user's excludes. Bookkeeping domains are
never watched unless the user names the entity.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.components.homeassistant.const import DATA_EXPOSED_ENTITIES
from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.const import ATTR_DEVICE_CLASS, ATTR_FRIENDLY_NAME, ATTR_UNIT_OF_MEASUREMENT
from homeassistant.core import HomeAssistant, State, callback
from homeassistant.helpers import (
    device_registry as dr,
    entity_registry as er,
    issue_registry as ir,
)

from ..const import (
    CONF_EXCLUDE_ENTITIES,
    CONF_INCLUDE_AREAS,
    CONF_INCLUDE_DOMAINS,
    CONF_INCLUDE_ENTITIES,
    CONF_USE_EXPOSED,
    CONF_WATCH_SAFETY,
    DEFAULT_USE_EXPOSED,
    DEFAULT_WATCH_SAFETY,
    DOMAIN,
)
from ..core.baselines.level_falls import is_level
from ..core.home import METER_DEVICE_CLASSES
from ..core.models import clip
from ..markdown_text import escape_markdown

# Domains that say nothing about the home's physical state: never offered, never watched
# through Assist exposure or a domain or area include (a named entity still is).
NOISE_DOMAINS = frozenset(
    {
        "ai_task",
        "assist_satellite",
        "automation",
        "button",
        "calendar",
        "conversation",
        "event",
        "group",
        "image",
        "input_button",
        "notify",
        "persistent_notification",
        "scene",
        "schedule",
        "script",
        "stt",
        "sun",
        "tag",
        "todo",
        "tts",
        "update",
        "wake_word",
        "zone",
    }
)
# Every entity of these domains is safety or security relevant.
SAFETY_DOMAINS = frozenset(
    {"lock", "alarm_control_panel", "climate", "water_heater", "person", "device_tracker"}
)
SAFETY_BINARY_CLASSES = frozenset(
    {
        "smoke",
        "carbon_monoxide",
        "gas",
        "moisture",
        "heat",
        "safety",
        "problem",
        "tamper",
        "door",
        "window",
        "garage_door",
        "opening",
        "lock",
        "motion",
        "occupancy",
        "presence",
        # A sensor stirred by what it sits on: a glass-break sensor (``core.statistics.
        # intrusion``), a seizure mat, a bed-exit pad (``brief_on_held``). HA exposes none
        # to Assist by default, so with the monitor's defaults nothing read them.
        "vibration",
        # A supply's status (a home battery's grid status, a UPS's mains): power gone is
        # a home's fridges, freezers, pumps and medical devices without it.
        "power",
    }
)
# Sensors whose readings reveal a hazard (a fire, a leak, a gas, a frozen or overheated room).
HAZARD_SENSOR_CLASSES = frozenset(
    {"carbon_monoxide", "carbon_dioxide", "gas", "temperature", "humidity", "moisture"}
)
# Binary sensors that raise a life-safety alarm: the ones a monitor must never miss.
LIFE_SAFETY_CLASSES = ("smoke", "carbon_monoxide", "gas", "moisture", "heat")
# How many names a form or an issue lists before "and N more".
MAX_LISTED = 6


# A power meter, or a plug that reports only its current (read as power:
# ``core/current_as_power``). Every one is watched: HA has no device class for what a meter
# measures, and names in the home's language (a "Pralka" washer, a Shelly's default id) or
# a plug without a switch entity left a dead fridge, a dryer running 7 h and an engine
# heater on all day unwatched (sets 12-14). What the meter is comes from its behaviour,
# learned (its cycle, its runs, its hours); a producing meter (an inverter) draws from
# before the household leaves, which the away rule leaves to them.


def is_stored_level(state: State) -> bool:
    """A tank's level (``core.baselines.level_falls.is_level``: no device class, read in %
    or a volume; or the stored-volume class). HA has no class for a water, oil or grey
    tank, which runs dry or overflows: set 17's roof tank fell to nothing, never read."""
    unit = state.attributes.get(ATTR_UNIT_OF_MEASUREMENT)
    return is_level(state.domain, device_class_of(state), unit if isinstance(unit, str) else None)


def device_class_of(state: State) -> str | None:
    """The state's device class; anything but text (untrusted attributes) is none."""
    device_class = state.attributes.get(ATTR_DEVICE_CLASS)
    return device_class if isinstance(device_class, str) else None


def is_safety_relevant(state: State) -> bool:
    """Watched by default: a safety or security device, a person or a tracker, and every
    power meter (a fridge, a dryer, a pump: known by what it does, not by its name)."""
    domain = state.domain
    if domain in SAFETY_DOMAINS:
        return True
    device_class = device_class_of(state)
    if domain == "binary_sensor":
        return device_class in SAFETY_BINARY_CLASSES
    return domain == "sensor" and (
        device_class in METER_DEVICE_CLASSES or device_class in HAZARD_SENSOR_CLASSES
    )


def is_life_safety_sensor(state: State) -> bool:
    """A smoke, CO, gas, leak or heat alarm."""
    return state.domain == "binary_sensor" and device_class_of(state) in LIFE_SAFETY_CLASSES


def offered_domains(hass: HomeAssistant) -> list[str]:
    """Domains the user may add to the watched set (bookkeeping domains left out)."""
    return sorted(
        {entity_id.partition(".")[0] for entity_id in hass.states.async_entity_ids()}
        - NOISE_DOMAINS
        - {DOMAIN}
    )


def resolve_watched(hass: HomeAssistant, options: Mapping[str, Any]) -> frozenset[str]:
    """The entity ids ``options`` watch in this home right now."""
    registry = er.async_get(hass)
    wanted: set[str] = set()
    if options.get(CONF_WATCH_SAFETY, DEFAULT_WATCH_SAFETY):
        wanted.update(s.entity_id for s in hass.states.async_all() if is_safety_relevant(s))
        wanted.update(home_battery_charges(hass, registry))
        # A tank's level, unless it is a device's diagnostic or hidden (a signal in %).
        wanted.update(
            s.entity_id
            for s in hass.states.async_all("sensor")
            if is_stored_level(s) and not _housekeeping(registry.async_get(s.entity_id))
        )
    if domains := set(options.get(CONF_INCLUDE_DOMAINS, [])):
        wanted.update(
            entity_id
            for entity_id in hass.states.async_entity_ids(domains)
            if not _housekeeping(registry.async_get(entity_id))
        )
    if areas := set(options.get(CONF_INCLUDE_AREAS, [])):
        device_registry = dr.async_get(hass)
        for entry in registry.entities.values():
            area = entry.area_id
            if area is None and entry.device_id:
                device = device_registry.async_get(entry.device_id)
                area = device.area_id if device else None
            if area in areas and not _housekeeping(entry):
                wanted.add(entry.entity_id)
    # Exposure settings load with HA's core integration; before that nothing is exposed.
    if options.get(CONF_USE_EXPOSED, DEFAULT_USE_EXPOSED) and DATA_EXPOSED_ENTITIES in hass.data:
        wanted.update(
            entity_id
            for entity_id in hass.states.async_entity_ids()
            if async_should_expose(hass, "conversation", entity_id)
        )
    wanted = {e for e in wanted if e.partition(".")[0] not in NOISE_DOMAINS}
    wanted.update(options.get(CONF_INCLUDE_ENTITIES, []))
    wanted.difference_update(options.get(CONF_EXCLUDE_ENTITIES, []))
    own = {entry.entity_id for entry in registry.entities.values() if entry.platform == DOMAIN}
    return frozenset(wanted - own)


def home_battery_charges(hass: HomeAssistant, registry: er.EntityRegistry) -> set[str]:
    """The charge (a ``battery`` sensor in %, not a device's diagnostic) of each battery
    with a power meter of its registry device, or, where neither has one, of its area: an
    EcoFlow, a Victron bank, an inverter's battery beside its input meter. How long the
    home can go on without the grid is the household's first question in an outage (set
    19: the Kyiv EcoFlow ran to 1 %, unwatched). A sensor's coin cell is its device's
    diagnostic, and no power meter shares its device (``core/baselines/home_batteries``
    learns which meter is the input from what the two show)."""

    def place(entity_id: str) -> tuple[str | None, str | None]:
        entry = registry.async_get(entity_id)
        return (entry.device_id, entry.area_id) if entry is not None else (None, None)

    meters = {
        place(s.entity_id) for s in hass.states.async_all("sensor") if device_class_of(s) == "power"
    }
    found: set[str] = set()
    for state in hass.states.async_all("sensor"):
        if (
            device_class_of(state) != "battery"
            or state.attributes.get(ATTR_UNIT_OF_MEASUREMENT) != "%"
            or _housekeeping(registry.async_get(state.entity_id))
        ):
            continue
        device, area = place(state.entity_id)
        if any(
            (device is not None and device == d)
            or (device is None and d is None and area is not None and area == a)
            for d, a in meters
        ):
            found.add(state.entity_id)
    return found


def _housekeeping(entry: er.RegistryEntry | None) -> bool:
    """A device's diagnostic or configuration entity (link quality, signal strength, a
    firmware update, a setting), or one the homeowner hid: not what a room or a domain
    means to watch, and their readings wander (HA's exposure leaves them out the same way).
    Named one by one in the options, they are watched."""
    return entry is not None and (entry.entity_category is not None or entry.hidden_by is not None)


def life_safety_sensors(hass: HomeAssistant) -> list[State]:
    """Every smoke, CO, gas, leak and heat alarm of the home, by entity id."""
    found = [s for s in hass.states.async_all("binary_sensor") if is_life_safety_sensor(s)]
    return sorted(found, key=lambda s: s.entity_id)


def unwatched_life_safety(hass: HomeAssistant, watched: frozenset[str]) -> list[State]:
    """Alarms of a kind (smoke, CO, gas, leak, heat) of which the monitor watches none."""
    sensors = life_safety_sensors(hass)
    covered = {device_class_of(s) for s in sensors if s.entity_id in watched}
    return [s for s in sensors if device_class_of(s) not in covered]


def names_of(states: list[State]) -> str:
    """A short list of friendly names (untrusted text, clipped), for forms and issues."""
    names = [clip(s.attributes.get(ATTR_FRIENDLY_NAME) or s.entity_id, 60) for s in states]
    listed = ", ".join(names[:MAX_LISTED])
    if len(names) > MAX_LISTED:
        listed += f" (+{len(names) - MAX_LISTED})"
    return listed


def coverage_issue_id(entry_id: str) -> str:
    """Repair issue of a monitor that watches none of the home's alarms of some kind."""
    return f"unwatched_safety_{entry_id}"


@callback
def async_update_coverage_issue(
    hass: HomeAssistant, entry_id: str, title: str, watched: frozenset[str]
) -> None:
    """Raise the issue while a kind of alarm the home has goes unwatched; remove it after."""
    missing = unwatched_life_safety(hass, watched)
    issue_id = coverage_issue_id(entry_id)
    if not missing:
        ir.async_delete_issue(hass, DOMAIN, issue_id)
        return
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue_id,
        is_fixable=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key="unwatched_safety_sensors",
        translation_placeholders={
            "title": escape_markdown(title),
            "sensors": escape_markdown(names_of(missing)),
        },
    )
