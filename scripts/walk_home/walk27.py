"""``devices_walk.py`` with session 26's new rules to walk (walk27).

A home battery (an EcoFlow-like registry device: its charge in % and its AC-in meter) whose
supply goes out 10:00-13:00 every day; a well pump running 20 min at ~760 W at 06:00 and
18:00; a misting pump of 30-s runs at 27 W four times a day; a vivarium heater cycling
10 min in 30 day and night beside its thermometer; a side door lock always locked again
within a minute or two; a back door and a garden gate (covers: a door, a gate), watched
three days only and never opened at night; Nan's bedroom door, open from 06:50-06:53 until
21:30 every day but today.

    python scripts/walk_home/walk27.py prepare DIR   # devices_walk's, plus these
    python scripts/walk_home/walk27.py adddev DIR    # after onboard: devices and areas
    python scripts/walk_home/walk27.py VERB DIR ...  # any other verb of walk.py
"""

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
import sys

import devices_walk as dw
import seed_history as sh
import walk

EXTRA_BOOLEANS = """
  side_lock_locked: {name: Side lock raw, initial: true}
  back_door: {name: Back door raw, initial: false}
  garden_gate: {name: Garden gate raw, initial: false}
  nan_door: {name: Nan door raw, initial: false}
"""
EXTRA_NUMBERS = """
  battery_charge: {name: Battery raw, min: 0, max: 100, step: 1, initial: 100}
  battery_ac_in: {name: AC in raw, min: 0, max: 3000, step: 0.1, initial: 30}
  well_pump: {name: Well pump raw, min: 0, max: 3000, step: 0.1, initial: 0}
  mist_pump: {name: Mist pump raw, min: 0, max: 3000, step: 0.1, initial: 0}
  heater_power: {name: Heater raw, min: 0, max: 3000, step: 0.1, initial: 0}
  vivarium_temp: {name: Vivarium raw, min: -20, max: 50, step: 0.1, initial: 24.6}
"""
W = "device_class: power\n        unit_of_measurement: W\n        state_class: measurement"
LOCKED = "'locked' if is_state('input_boolean.side_lock_locked', 'on') else 'unlocked'"
TEMPLATES = f"""
  - sensor:
      - name: Well pump power
        unique_id: walk27_well_pump
        {W}
        state: "{{{{ states('input_number.well_pump') }}}}"
      - name: Misting pump power
        unique_id: walk27_mist_pump
        {W}
        state: "{{{{ states('input_number.mist_pump') }}}}"
      - name: Vivarium heater power
        unique_id: walk27_heater
        {W}
        state: "{{{{ states('input_number.heater_power') }}}}"
      - name: Vivarium temperature
        unique_id: walk27_vivarium_temp
        device_class: temperature
        unit_of_measurement: "°C"
        state_class: measurement
        state: "{{{{ states('input_number.vivarium_temp') }}}}"
  - binary_sensor:
      - name: Nan's bedroom door
        unique_id: walk27_nan_door
        device_class: door
        state: "{{{{ is_state('input_boolean.nan_door', 'on') }}}}"
  - lock:
      - name: Side door lock
        unique_id: walk27_side_lock
        state: "{{{{ {LOCKED} }}}}"
        lock:
          - action: input_boolean.turn_on
            target: {{entity_id: input_boolean.side_lock_locked}}
        unlock:
          - action: input_boolean.turn_off
            target: {{entity_id: input_boolean.side_lock_locked}}
  - cover:
      - name: Back door
        unique_id: walk27_back_door
        device_class: door
        state: "{{{{ 'open' if is_state('input_boolean.back_door', 'on') else 'closed' }}}}"
        open_cover:
          - action: input_boolean.turn_on
            target: {{entity_id: input_boolean.back_door}}
        close_cover:
          - action: input_boolean.turn_off
            target: {{entity_id: input_boolean.back_door}}
      - name: Garden gate
        unique_id: walk27_garden_gate
        device_class: gate
        state: "{{{{ 'open' if is_state('input_boolean.garden_gate', 'on') else 'closed' }}}}"
        open_cover:
          - action: input_boolean.turn_on
            target: {{entity_id: input_boolean.garden_gate}}
        close_cover:
          - action: input_boolean.turn_off
            target: {{entity_id: input_boolean.garden_gate}}
"""
AREAS = {
    "Utility": [
        "sensor.well_pump_power",
        "sensor.home_battery_battery",
        "sensor.home_battery_ac_in_power",
    ],
    "Greenhouse": ["sensor.misting_pump_power"],
    "Vivarium": ["sensor.vivarium_heater_power", "sensor.vivarium_temperature"],
    "Side entrance": ["lock.side_door_lock"],
    "Back porch": ["cover.back_door"],
    "Garden": ["cover.garden_gate"],
    "Nan's room": ["binary_sensor.nan_s_bedroom_door"],
}
POWER = {"device_class": "power", "unit_of_measurement": "W", "state_class": "measurement"}
sh.ATTRIBUTES.update(
    {
        "sensor.home_battery_battery": {
            "device_class": "battery",
            "unit_of_measurement": "%",
            "state_class": "measurement",
            "friendly_name": "Home battery Battery",
        },
        "sensor.home_battery_ac_in_power": POWER | {"friendly_name": "Home battery AC in power"},
        "sensor.well_pump_power": POWER | {"friendly_name": "Well pump power"},
        "sensor.misting_pump_power": POWER | {"friendly_name": "Misting pump power"},
        "sensor.vivarium_heater_power": POWER | {"friendly_name": "Vivarium heater power"},
        "sensor.vivarium_temperature": {
            "device_class": "temperature",
            "unit_of_measurement": "°C",
            "state_class": "measurement",
            "friendly_name": "Vivarium temperature",
        },
        "lock.side_door_lock": {"friendly_name": "Side door lock"},
        "cover.back_door": {"device_class": "door", "friendly_name": "Back door"},
        "cover.garden_gate": {"device_class": "gate", "friendly_name": "Garden gate"},
        "binary_sensor.nan_s_bedroom_door": {
            "device_class": "door",
            "friendly_name": "Nan's bedroom door",
        },
    }
)
_day = sh._day  # devices_walk's day
COVERS_DAYS = 3  # the back door and the gate were added three days ago: first nights


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    rows = _day(d, tonight_locked=tonight_locked)

    def at(hour: int, minute: int, second: int = 0) -> datetime:
        return d.replace(hour=hour, minute=minute, second=second)

    bat, ac = "sensor.home_battery_battery", "sensor.home_battery_ac_in_power"
    rows += [(at(0, 0, 6), bat, "100.0"), (at(0, 0, 6), ac, "30.0"), (at(10, 0), ac, "0.0")]
    for step in range(1, 31):  # out 10:00-13:00: a point every 6 min, 100 -> 70
        rows.append((at(10, 0) + timedelta(minutes=6 * step), bat, f"{100 - step}.0"))
    rows.append((at(13, 0, 10), ac, "400.0"))
    for step in range(1, 16):  # back: two points every 6 min, 70 -> 100 by 14:30
        rows.append((at(13, 0) + timedelta(minutes=6 * step), bat, f"{70 + 2 * step}.0"))
    rows.append((at(14, 30, 30), ac, "30.0"))
    pump = "sensor.well_pump_power"
    rows.append((at(0, 0, 6), pump, "0.0"))
    for hour in (6, 18):
        for minute in range(0, 20, 5):
            rows.append((at(hour, minute), pump, f"{758 + (minute + hour) % 7}.0"))
        rows.append((at(hour, 20), pump, "0.0"))
    mist = "sensor.misting_pump_power"
    rows.append((at(0, 0, 6), mist, "0.0"))
    for hour in (7, 11, 15, 19):
        rows += [(at(hour, 0), mist, "27.0"), (at(hour, 0, 30), mist, "0.0")]
    heater, temp = "sensor.vivarium_heater_power", "sensor.vivarium_temperature"
    for half in range(48):  # 10 min on in every 30, day and night
        h, m = divmod(30 * half, 60)
        rows += [
            (at(h, m), heater, f"{1490 + half % 3 * 5}.0"),
            (at(h, m + 10), heater, "0.0"),
            (at(h, m + 9), temp, "25.2"),
            (at(h, m + 25), temp, "24.8"),
        ]
    lock = "lock.side_door_lock"
    rows.append((at(0, 0, 6), lock, "locked"))
    for hour, minute in ((7, 45), (12, 30), (16, 10), (19, 0)):  # out to the bins and back
        rows += [(at(hour, minute), lock, "unlocked"), (at(hour, minute + 1, 30), lock, "locked")]
    if d >= datetime.now(d.tzinfo) - timedelta(days=COVERS_DAYS + 1):
        rows += [
            (at(0, 0, 6), "cover.back_door", "closed"),
            (at(0, 0, 6), "cover.garden_gate", "closed"),
        ]
        rows += [
            (at(10, 0), "cover.back_door", "open"),
            (at(10, 3), "cover.back_door", "closed"),
            (at(10, 1), "cover.garden_gate", "open"),
            (at(10, 4), "cover.garden_gate", "closed"),
        ]
    nan = "binary_sensor.nan_s_bedroom_door"  # open from when she gets up until bedtime
    rows.append((at(0, 0, 6), nan, "off"))
    if d.date() != datetime.now(d.tzinfo).date():  # this morning she is not up
        rows += [(at(6, 50 + d.day % 4), nan, "on"), (at(21, 30), nan, "off")]
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    dw.prepare(cfg)
    text = (cfg / "configuration.yaml").read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + EXTRA_BOOLEANS, 1)
    text = text.replace("input_number:\n", "input_number:" + EXTRA_NUMBERS, 1)
    text = text.replace("template:\n", "template:" + TEMPLATES, 1)
    (cfg / "configuration.yaml").write_text(text)


async def adddev(cfg: Path) -> None:
    for area, entities in AREAS.items():  # the walk_devices entry, then every area
        dw.AREAS[area] = dw.AREAS.get(area, []) + entities
    await dw.adddev(cfg)


if __name__ == "__main__":
    verb, cfg = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(cfg)
    elif verb == "adddev":
        asyncio.run(adddev(cfg))
    else:
        walk.main(sys.argv[1:])
