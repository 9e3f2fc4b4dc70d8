"""Give a home the entity ids (and names) real integrations give, to check the monitor is
name-blind (issue #25).

Homeowners rarely rename entity ids: a Tapo plug is ``switch.tapo_p110`` and
``sensor.tapo_p110_current_consumption``, a Zigbee2MQTT contact
``binary_sensor.0x00158d0001a2b3c4_contact``, a ZHA one
``binary_sensor.lumi_lumi_sensor_magnet_aq2_opening``, a Hue lamp ``light.hue_color_lamp_3``.
:func:`with_real_ids` renames every declared entity so, everywhere the scenario names it
(effects, incidents, evidence, noise, watch list), keeping device classes, units, areas
and states. Entities of one physical device get one ``device`` (registered in HA's device
registry by the runner); a power meter of an appliance becomes a smart plug's, with the
plug's switch (declared when the scenario has none: real plugs have a relay, kept on).
With ``names`` the friendly names become the integrations' defaults too ("Tapo P110
Current consumption", "LUMI lumi.sensor_magnet.aq2 Opening").

Persons, their trackers and the weather keep theirs: HA and the homeowner name those.
Incident ids are kept, so a report compares run for run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
import hashlib
from typing import Any

from .scenario import Scenario

# Integration styles, by what the device is: (object id of the device, its name, and the
# suffix and name suffix of each entity kind). Alternated within a kind for variety.
_CONTACT = (("z2m", "contact", "Contact"), ("zha_magnet", "opening", "Opening"))
_MOTION = (
    ("z2m", "occupancy", "Occupancy"),
    ("zha_motion", "motion", "Motion"),
    ("hue_motion", "motion", "Motion"),
)
_BY_CLASS = {
    "door": _CONTACT,
    "window": _CONTACT,
    "garage_door": _CONTACT,
    "opening": _CONTACT,
    "motion": _MOTION,
    "occupancy": _MOTION,
    "presence": _MOTION,
    "smoke": (("z2m", "smoke", "Smoke"), ("zha_smoke", "smoke", "Smoke")),
    "carbon_monoxide": (("z2m", "carbon_monoxide", "Carbon monoxide"),),
    "gas": (("z2m", "gas", "Gas"),),
    "moisture": (("z2m", "water_leak", "Water leak"), ("zha_leak", "ias_zone", "IAS zone")),
    "temperature": (
        ("z2m", "temperature", "Temperature"), ("zha_weather", "temperature", "Temperature"),
    ),
    "humidity": (("z2m", "humidity", "Humidity"), ("zha_weather", "humidity", "Humidity")),
}  # fmt: skip
_PLUGS = ("tapo", "shelly")
# Device object ids and default names per style; ``{hex}`` is the device's own.
_DEVICES = {
    "z2m": ("0x00158d{hex}", "0x00158d{hex}"),
    "zha_magnet": ("lumi_lumi_sensor_magnet_aq2", "LUMI lumi.sensor_magnet.aq2"),
    "zha_motion": ("lumi_lumi_sensor_motion_aq2", "LUMI lumi.sensor_motion.aq2"),
    "zha_smoke": ("heiman_smokesensor_em", "HEIMAN SmokeSensor-EM"),
    "zha_leak": ("lumi_lumi_sensor_wleak_aq1", "LUMI lumi.sensor_wleak.aq1"),
    "zha_weather": ("lumi_lumi_weather", "LUMI lumi.weather"),
    "hue_motion": ("hue_motion_sensor", "Hue motion sensor"),
    "tapo": ("tapo_p110", "Tapo P110"),
    "shelly": ("shellyplug_s_{hex6}", "shellyplug-s-{HEX6}"),
    "hue_lamp": ("hue_color_lamp", "Hue color lamp"),
    "nuki": ("nuki_smart_lock", "Nuki Smart Lock"),
    "tado": ("tado_smart_thermostat_{hex6}", "tado Smart Thermostat {HEX6}"),
    "generic": ("{domain}_{hex6}", "{Domain} {HEX6}"),
}
_PLUG_METER = {"tapo": ("current_consumption", "Current consumption"), "shelly": ("power", "Power")}
_KEPT_DOMAINS = frozenset({"person", "device_tracker", "weather", "sun", "zone"})


@dataclass(slots=True)
class _Namer:
    """Hands out ids the way HA does: a second device of a kind gets ``_2``."""

    names: bool
    taken: Counter[str] = field(default_factory=Counter)
    new_ids: dict[str, str] = field(default_factory=dict)
    new_names: dict[str, str] = field(default_factory=dict)
    devices: dict[str, str] = field(default_factory=dict)
    added: list[dict[str, Any]] = field(default_factory=list)

    def device(self, style: str, seed: str) -> tuple[str, str]:
        """(object id, name) of a new device of ``style``, numbered like HA's."""
        digest = hashlib.sha256(seed.encode()).hexdigest()
        object_id, name = _DEVICES[style]
        domain = seed.partition(".")[0]
        fill = {
            "hex": digest[:10],
            "hex6": digest[:6],
            "HEX6": digest[:6].upper(),
            "domain": domain,
            "Domain": domain.replace("_", " ").capitalize(),
        }
        object_id, name = object_id.format(**fill), name.format(**fill)
        self.taken[object_id] += 1
        if (count := self.taken[object_id]) > 1:
            object_id = f"{object_id}_{count}"  # HA's next free id; the name stays
            if style in ("hue_lamp", "hue_motion"):
                name = f"{name} {count}"  # Hue numbers its devices
        elif style in ("hue_lamp", "hue_motion"):
            object_id, name = f"{object_id}_1", f"{name} 1"
        return object_id, name

    def give(self, entity: Mapping[str, Any], new_id: str, name: str, device: str) -> None:
        old = entity["entity_id"]
        self.new_ids[old] = new_id
        self.new_names[old] = name
        self.devices[old] = device


def _entity_name(device_name: str, suffix: str) -> str:
    return f"{device_name} {suffix}".strip()


def _rename_plugs(
    scenario: Scenario, namer: _Namer, declared: dict[str, Mapping[str, Any]]
) -> None:
    """Appliance meters (and their switches) become smart plugs, Tapo and Shelly in turn."""
    effects = scenario.data["household"]["effects"]
    meters = [e for e in declared.values() if e.get("device_class") == "power"]
    switches = {a["power"]: a.get("switch") for a in effects["appliances"]}
    for index, meter in enumerate(meters):
        style = _PLUGS[index % len(_PLUGS)]
        object_id, name = namer.device(style, meter["entity_id"])
        suffix, name_suffix = _PLUG_METER[style]
        device = object_id
        namer.give(meter, f"sensor.{object_id}_{suffix}", _entity_name(name, name_suffix), device)
        switch_id = switches.get(meter["entity_id"]) or _paired_switch(meter, declared)
        if switch_id is not None and switch_id in declared:
            namer.give(declared[switch_id], f"switch.{object_id}", name, device)
        else:
            namer.added.append(
                {
                    "entity_id": f"switch.{object_id}",
                    "name": name,
                    "area": meter.get("area"),
                    "state": "on",
                    "attributes": {},
                    "zigbee": False,
                    "device": device,
                }
            )


def _paired_switch(meter: Mapping[str, Any], declared: dict[str, Mapping[str, Any]]) -> str | None:
    """The scenario's own switch of this meter: the one its id extends (``switch.x``,
    ``sensor.x_power``), as the scenario author named them."""
    object_id = meter["entity_id"].partition(".")[2]
    for entity_id in declared:
        domain, _, other = entity_id.partition(".")
        if domain == "switch" and object_id.startswith(f"{other}_"):
            return entity_id
    return None


def _rename_rest(namer: _Namer, declared: dict[str, Mapping[str, Any]]) -> None:
    counts: Counter[str] = Counter()
    for entity_id, entity in declared.items():
        if entity_id in namer.new_ids:
            continue
        domain = entity_id.partition(".")[0]
        device_class = entity.get("device_class") or ""
        styles = _BY_CLASS.get(device_class) if domain in ("binary_sensor", "sensor") else None
        if styles is not None:
            style, suffix, name_suffix = styles[counts[device_class] % len(styles)]
            counts[device_class] += 1
            object_id, name = namer.device(style, entity_id)
            new_id = f"{domain}.{object_id}_{suffix}"
            namer.give(entity, new_id, _entity_name(name, name_suffix), object_id)
            continue
        style = {"light": "hue_lamp", "lock": "nuki", "climate": "tado"}.get(domain, "generic")
        object_id, name = namer.device(style, entity_id)
        namer.give(entity, f"{domain}.{object_id}", name, object_id)


def _renamed(value: Any, ids: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, Mapping):
        return {k: _renamed(v, ids) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_renamed(v, ids) for v in value)
    return value


def with_real_ids(scenario: Scenario, *, names: bool = False) -> Scenario:
    """``scenario`` with integration-style ids (and, with ``names``, default names)."""
    namer = _Namer(names=names)
    declared = {
        e["entity_id"]: e
        for e in scenario.data["home"]["entities"]
        if e["entity_id"].partition(".")[0] not in _KEPT_DOMAINS
    }
    _rename_plugs(scenario, namer, declared)
    _rename_rest(namer, declared)
    data = _renamed(scenario.data, namer.new_ids)
    entities = []
    for entity in data["home"]["entities"]:
        old = next(
            (o for o, n in namer.new_ids.items() if n == entity["entity_id"]), entity["entity_id"]
        )
        changed = dict(entity)
        if old in namer.devices:
            changed["device"] = namer.devices[old]
        if names and old in namer.new_names:
            changed["name"] = namer.new_names[old]
        elif "name" not in changed:  # the name the home had, not one made of the new id
            changed["name"] = old.partition(".")[2].replace("_", " ").capitalize()
        entities.append(changed)
    entities += namer.added
    data["home"]["entities"] = entities
    return Scenario(path=scenario.path, data=data)
