"""Turn a HomeBench home into fake Home Assistant entities, and planned calls back into
HomeBench's ``room.device.method(arg)`` notation.

Rooms become areas; each device becomes a device-registry device whose entities are the
closest Home Assistant domains with the right supported_features, ranges and options:

| HomeBench        | Home Assistant                                                      |
|------------------|---------------------------------------------------------------------|
| light            | light (brightness colour mode if it has brightness, else on/off)    |
| air_conditioner  | climate (hvac modes, min/max temp, fan modes, swing modes)           |
| heating          | climate (heat-type hvac modes, temperature range, fan modes)        |
| fan              | fan with speed presets; its swing is a select entity                 |
| curtain          | cover, device_class curtain, set_position                           |
| blinds           | cover, device_class blind, open/close                               |
| garage_door      | cover, device_class garage, open/close                              |
| humidifier       | humidifier (target humidity = intensity, modes)                     |
| dehumidifiers    | humidifier, device_class dehumidifier                               |
| air_purifiers    | fan with mode presets; its fan speed is a select entity             |
| water_heater     | water_heater (temperature range, operation modes, on/off)           |
| media_player     | media_player (play/pause/stop, volume 0–1, play_media)              |
| VacuumRobot      | vacuum (start/pause/stop/return, fan speeds); cleaning area: select |
| aromatherapy     | switch + number entities (intensity, interval)                      |
| trash            | sensor (fill state) + button (pack)                                 |

HomeBench lights with a colour but no brightness become on/off lights: Home Assistant has
no colour mode without brightness, and HomeBench never asks for colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.components.cover import CoverEntityFeature
from homeassistant.components.fan import FanEntityFeature
from homeassistant.components.vacuum import VacuumEntityFeature
from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    area_registry as ar,
    device_registry as dr,
    entity_registry as er,
)

from .appliance_specs import (
    EntitySpec,
    climate_spec,
    humidifier_spec,
    media_player_spec,
    water_heater_spec,
)
from .call_translation import (
    BuiltHome,
    Translate,
    light_translate,
    number,
    simple,
    spec_of,
    with_args,
)
from .dataset import HomeBenchHome

PLATFORM = "homebench_replay"
VACUUM_KEY = "VacuumRobot"
VACUUM_CALL = "vacuum_robot"

ROOM_NAMES = {
    "master_bedroom": "Master bedroom",
    "guest_bedroom": "Guest bedroom",
    "living_room": "Living room",
    "ding_room": "Dining room",  # HomeBench's spelling of the dining room
    "study_room": "Study room",
    "kitchen": "Kitchen",
    "bathroom": "Bathroom",
    "foyer": "Foyer",
    "corridor": "Corridor",
    "balcony": "Balcony",
    "garage": "Garage",
    "store_room": "Store room",
}
DEVICE_NAMES = {
    "light": "Light",
    "air_conditioner": "Air conditioner",
    "heating": "Heating",
    "fan": "Fan",
    "curtain": "Curtain",
    "blinds": "Blinds",
    "garage_door": "Garage door",
    "humidifier": "Humidifier",
    "dehumidifiers": "Dehumidifier",
    "air_purifiers": "Air purifier",
    "water_heater": "Water heater",
    "media_player": "Media player",
    "aromatherapy": "Aromatherapy",
    "trash": "Trash",
}


class HomeBuilder:
    """Creates one HomeBench home in a hass instance."""

    def __init__(self, hass: HomeAssistant, config_entry_id: str) -> None:
        self._hass = hass
        self._entry_id = config_entry_id
        self._areas = ar.async_get(hass)
        self._devices = dr.async_get(hass)
        self._entities = er.async_get(hass)
        self.built = BuiltHome()

    def build(self, home: HomeBenchHome) -> BuiltHome:
        """Create areas, devices, entities and states for the home."""
        status = home.status
        area_ids: dict[str, str] = {}
        for room_key, room in status.items():
            if room_key == VACUUM_KEY or not isinstance(room, Mapping):
                continue
            name = ROOM_NAMES.get(room_key, room_key.replace("_", " ").capitalize())
            area = self._areas.async_get_area_by_name(name) or self._areas.async_create(name)
            area_ids[room_key] = area.id
            self.built.area_rooms[name] = room_key
        methods = {(m["room_name"], m["device_name"], m["operation"]) for m in home.methods}
        for room_key, room in status.items():
            if room_key == VACUUM_KEY or not isinstance(room, Mapping):
                continue
            for device_key, device in room.items():
                if device_key == "room_name" or not isinstance(device, Mapping):
                    continue
                self._add_device(room_key, area_ids[room_key], device_key, device, methods)
        vacuum = status.get(VACUUM_KEY)
        if isinstance(vacuum, Mapping):
            self._add_vacuum(vacuum)
        return self.built

    # -- helpers -------------------------------------------------------------------------------

    def _device(self, key: str, name: str, area_id: str | None) -> str:
        device = self._devices.async_get_or_create(
            config_entry_id=self._entry_id, identifiers={(PLATFORM, key)}, name=name
        )
        if area_id is not None:
            self._devices.async_update_device(device.id, area_id=area_id)
        return device.id

    def _entity(  # noqa: PLR0917 - mirrors the registry call it wraps
        self,
        domain: str,
        object_id: str,
        device_id: str,
        name: str,
        state: str,
        attributes: dict[str, Any],
        translate: Translate | None = None,
        prefix: str = "",
    ) -> str:
        entry = self._entities.async_get_or_create(
            domain,
            PLATFORM,
            object_id,
            suggested_object_id=object_id,
            device_id=device_id,
            original_name=name,
        )
        self._hass.states.async_set(entry.entity_id, state, {"friendly_name": name, **attributes})
        if translate is not None:
            self.built.translators[entry.entity_id] = (prefix, translate)
        return entry.entity_id

    def _add_device(
        self,
        room: str,
        area_id: str,
        key: str,
        device: Mapping[str, Any],
        methods: set[tuple[str, str, str]],
    ) -> None:
        name = DEVICE_NAMES.get(key, key.replace("_", " ").capitalize())
        device_id = self._device(f"{room}.{key}", name, area_id)
        object_id = f"{room}_{key}"
        prefix = f"{room}.{key}"
        state = str(device.get("state", "off"))
        has = lambda op: (room, key, op) in methods  # noqa: E731 - tiny local predicate

        if key == "light":
            brightness = spec_of(device, "brightness")
            attrs: dict[str, Any] = {
                "supported_color_modes": ["brightness"] if brightness else ["onoff"],
                "color_mode": "brightness" if brightness else "onoff",
            }
            if brightness:
                # HomeBench keeps a light's brightness while it is off; so does the replay.
                attrs["brightness"] = round(number(brightness.get("value"), 0) * 255 / 100)
            self._entity("light", object_id, device_id, name, state, attrs, light_translate, prefix)
        elif key in ("air_conditioner", "heating"):
            self._add_spec(object_id, device_id, name, prefix, climate_spec(device, name, state))
        elif key in ("fan", "air_purifiers"):
            self._add_fan(object_id, device_id, name, state, device, prefix, key)
        elif key in ("curtain", "blinds", "garage_door"):
            device_class = {"curtain": "curtain", "blinds": "blind", "garage_door": "garage"}[key]
            features = CoverEntityFeature.OPEN | CoverEntityFeature.CLOSE
            attrs = {"device_class": device_class}
            degree = spec_of(device, "degree")
            if degree is not None and has("set_degree"):
                features |= CoverEntityFeature.SET_POSITION
                attrs["current_position"] = int(number(degree.get("value"), 0))
            attrs["supported_features"] = int(features)
            translate = simple(
                {
                    "cover.open_cover": "open",
                    "cover.close_cover": "close",
                    "cover.set_cover_position": "set_degree",
                },
                "position",
            )
            cover_state = "open" if state == "open" else "closed"
            self._entity("cover", object_id, device_id, name, cover_state, attrs, translate, prefix)
        elif key in ("humidifier", "dehumidifiers"):
            self._add_spec(object_id, device_id, name, prefix, humidifier_spec(device, state, key))
        elif key == "water_heater":
            self._add_spec(object_id, device_id, name, prefix, water_heater_spec(device, state))
        elif key == "media_player":
            spec = media_player_spec(device, state, plays_songs=has("set_song"))
            self._add_spec(object_id, device_id, name, prefix, spec)
        elif key == "aromatherapy":
            self._entity(
                "switch",
                object_id,
                device_id,
                name,
                "on" if state == "on" else "off",
                {},
                simple({"switch.turn_on": "turn_on", "switch.turn_off": "turn_off"}),
                prefix,
            )
            for attribute in ("intensity", "interval"):
                spec = spec_of(device, attribute)
                if spec is None:
                    continue
                self._entity(
                    "number",
                    f"{object_id}_{attribute}",
                    device_id,
                    f"{name} {attribute.capitalize()}",
                    str(int(number(spec.get("value"), 0))),
                    {
                        "min": number(spec.get("lowest"), 0),
                        "max": number(spec.get("highest"), 100),
                        "step": 1,
                        "mode": "slider",
                    },
                    simple({"number.set_value": f"set_{attribute}"}, "value"),
                    prefix,
                )
        elif key == "trash":
            self._entity("sensor", object_id, device_id, name, state, {})
            self._entity(
                "button",
                f"{object_id}_pack",
                device_id,
                f"{name} Pack",
                "unknown",
                {},
                simple({"button.press": "pack"}),
                prefix,
            )

    def _add_spec(
        self, object_id: str, device_id: str, name: str, prefix: str, spec: EntitySpec
    ) -> None:
        domain, state, attributes, translate = spec
        self._entity(domain, object_id, device_id, name, state, attributes, translate, prefix)

    def _add_fan(  # noqa: PLR0917
        self,
        object_id: str,
        device_id: str,
        name: str,
        state: str,
        device: Mapping[str, Any],
        prefix: str,
        key: str,
    ) -> None:
        features = FanEntityFeature.TURN_ON | FanEntityFeature.TURN_OFF
        attrs: dict[str, Any] = {}
        preset = spec_of(device, "speed" if key == "fan" else "mode")
        if preset is not None:
            features |= FanEntityFeature.PRESET_MODE
            attrs.update(preset_modes=list(preset.get("options") or []))
            attrs.update(preset_mode=preset.get("value"))
        attrs["supported_features"] = int(features)
        preset_method = "set_speed" if key == "fan" else "set_mode"
        translate = simple(
            {
                "fan.turn_on": "turn_on",
                "fan.turn_off": "turn_off",
                "fan.set_preset_mode": preset_method,
            },
            "preset_mode",
        )
        fan_state = "on" if state == "on" else "off"
        self._entity("fan", object_id, device_id, name, fan_state, attrs, translate, prefix)
        extra = ("swing", "Swing", "set_swing") if key == "fan" else None
        if key == "air_purifiers":
            extra = ("fan_speed", "Fan speed", "set_fan_speed")
        if extra is None:
            return
        attribute, label, method = extra
        spec = spec_of(device, attribute)
        if spec is None:
            return
        self._entity(
            "select",
            f"{object_id}_{attribute}",
            device_id,
            f"{name} {label}",
            str(spec.get("value")),
            {"options": list(spec.get("options") or [])},
            simple({"select.select_option": method}, "option"),
            prefix,
        )

    def _add_vacuum(self, vacuum: Mapping[str, Any]) -> None:
        flag = VacuumEntityFeature
        features = flag.START | flag.PAUSE | flag.STOP | flag.RETURN_HOME | flag.STATE
        attrs: dict[str, Any] = {}
        mode = spec_of(vacuum, "mode")
        if mode is not None:
            features |= flag.FAN_SPEED
            attrs.update(fan_speed_list=list(mode.get("options") or []))
            attrs.update(fan_speed=mode.get("value"))
        battery = spec_of(vacuum, "battery")
        if battery is not None:
            attrs["battery_level"] = int(number(battery.get("value"), 0))
        attrs["supported_features"] = int(features)
        device_id = self._device(VACUUM_KEY, "Vacuum robot", None)
        translate = with_args(
            simple(
                {
                    "vacuum.start": "start",
                    "vacuum.pause": "pause",
                    "vacuum.stop": "stop",
                    "vacuum.return_to_base": "charge",
                    "vacuum.set_fan_speed": "set_mode",
                }
            ),
            ("fan_speed",),
        )
        state = "cleaning" if vacuum.get("state") == "on" else "docked"
        self._entity(
            "vacuum",
            "vacuum_robot",
            device_id,
            "Vacuum robot",
            state,
            attrs,
            translate,
            VACUUM_CALL,
        )
        rooms = self.built.area_rooms

        def area_translate(service: str, data: Mapping[str, Any]) -> str | None:
            if service != "select.select_option":
                return None
            room = rooms.get(str(data.get("option")), str(data.get("option")))
            # HomeBench writes the room without separators: "guestbedroom".
            return f"set_cleaning_area({room.replace('_', '')})"

        self._entity(
            "select",
            "vacuum_robot_cleaning_area",
            device_id,
            "Vacuum robot Cleaning area",
            next(iter(rooms), "unknown"),
            {"options": list(rooms)},
            area_translate,
            VACUUM_CALL,
        )
