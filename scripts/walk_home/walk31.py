"""``walk.py``'s home with two weeks lived, for session 31's learned-days checks (walk31).

Beside walk.py's hall, kitchen smoke, bathroom and freezer: a **kettle plug** in the
Kitchen (its switch always on, its meter at 2 kW for 3 min at 07:10, 17:40 and 20:05
every day: a routine of three boils), kitchen motion, a **water pump** meter in the
Utility room (600 W for 2 min after the morning and evening water use), a **back door**
in the Hall beside the front door and its lock (no history), a **bedroom motion** sensor
(bed at 22:15, up at 07:00). Alice and Bob out 08:32-17:29 as walk.py's routine. Today's
day is written only up to 05:00: nobody got up this morning (the getting-up check), and
the trackers stay home.

    python scripts/walk_home/walk31.py prepare DIR   # walk.py's config + these devices
    python scripts/walk_home/walk31.py onboard DIR   # walk.py's, areas for these too
    python scripts/walk_home/walk31.py seed DIR 14   # HA stopped: two weeks and tonight
    python scripts/walk_home/walk31.py VERB DIR ...  # any other verb of walk.py

Run with ``WALK_TZ`` a zone where it is mid-morning (09:00-10:00 local), and
``WALK_PORT`` a port of one's own.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
import sys

import seed_history as sh
import walk

KETTLE, KETTLE_SWITCH = "sensor.kettle_plug_power", "switch.kettle_plug"
PUMP = "sensor.water_pump_power"
BEDROOM, KITCHEN = "binary_sensor.bedroom_motion", "binary_sensor.kitchen_motion"
W = {"device_class": "power", "unit_of_measurement": "W", "state_class": "measurement"}
sh.ATTRIBUTES.update(
    {
        KETTLE: W | {"friendly_name": "Kettle plug power"},
        KETTLE_SWITCH: {"friendly_name": "Kettle plug"},
        PUMP: W | {"friendly_name": "Water pump power"},
        BEDROOM: {"device_class": "motion", "friendly_name": "Bedroom motion"},
        KITCHEN: {"device_class": "motion", "friendly_name": "Kitchen motion"},
    }
)
walk.AREAS["Hall"].append("binary_sensor.back_door")  # beside the front door and its lock
walk.AREAS["Kitchen"] += [KETTLE, KETTLE_SWITCH, KITCHEN]
walk.AREAS["Bedroom"] += [BEDROOM]
walk.AREAS["Utility"] = [PUMP]
HELPERS = """
  back_door: {name: Back door raw}
  kettle_plug: {name: Kettle plug raw, initial: true}
  bedroom_motion: {name: Bedroom motion raw}
  kitchen_motion: {name: Kitchen motion raw}
"""
NUMBERS = """
  kettle_power: {name: Kettle power raw, min: 0, max: 3000, step: 0.1, initial: 0}
  pump_power: {name: Pump power raw, min: 0, max: 3000, step: 0.1, initial: 0}
"""
SENSORS = """
      - name: Back door
        unique_id: walk_back_door
        device_class: door
        state: "{{ is_state('input_boolean.back_door', 'on') }}"
      - name: Bedroom motion
        unique_id: walk_bedroom_motion
        device_class: motion
        state: "{{ is_state('input_boolean.bedroom_motion', 'on') }}"
      - name: Kitchen motion
        unique_id: walk_kitchen_motion
        device_class: motion
        state: "{{ is_state('input_boolean.kitchen_motion', 'on') }}"
"""
SWITCHES = """
      - name: Kettle plug
        unique_id: walk_kettle_plug
        state: "{{ is_state('input_boolean.kettle_plug', 'on') }}"
"""
METERS = """
  - sensor:
      - name: Kettle plug power
        unique_id: walk_kettle_power
        device_class: power
        unit_of_measurement: W
        state_class: measurement
        state: "{{ states('input_number.kettle_power') }}"
      - name: Water pump power
        unique_id: walk_pump_power
        device_class: power
        unit_of_measurement: W
        state_class: measurement
        state: "{{ states('input_number.pump_power') }}"
"""
_lived = sh._day


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """walk.py's routine, the kettle's three boils, the pump, the bedroom; today only
    the small hours (nobody up yet)."""

    def at(hour: int, minute: int, second: int = 0) -> datetime:
        return d.replace(hour=hour, minute=minute, second=second)

    rows = _lived(d, tonight_locked=tonight_locked)
    rows += [(at(0, 0, 2), KETTLE_SWITCH, "on"), (at(0, 0, 2), KITCHEN, "off")]
    for hour, minute in ((7, 10), (17, 40), (20, 5)):
        rows += [
            (at(hour, minute - 1), KITCHEN, "on"),
            (at(hour, minute), KETTLE, "2000.0"),
            (at(hour, minute + 3), KETTLE, "0.0"),
            (at(hour, minute + 4), KITCHEN, "off"),
        ]
    for hour, minute in ((7, 20), (22, 20)):
        rows += [(at(hour, minute), PUMP, "600.0"), (at(hour, minute + 2), PUMP, "0.0")]
    rows += [
        (at(7, 0), BEDROOM, "on"),
        (at(7, 2), BEDROOM, "off"),
        (at(22, 15), BEDROOM, "on"),
        (at(22, 17), BEDROOM, "off"),
    ]
    if d.date() == datetime.now(d.tzinfo).date():
        rows = [r for r in rows if r[0].hour < 5]
        rows += [(at(0, 0, 9), who, "home") for who in sh.PEOPLE]
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk.prepare(cfg)
    text = (cfg / "configuration.yaml").read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + HELPERS, 1)
    text = text.replace("input_number:\n", "input_number:" + NUMBERS, 1)
    text = text.replace("  - binary_sensor:\n", "  - binary_sensor:" + SENSORS, 1)
    text = text.replace("  - switch:\n", "  - switch:" + SWITCHES, 1)
    # The see-trackers come back not_home for seconds at each start (walk28): not recorded,
    # so the history read at set-up does not take it for everybody leaving and returning.
    text = text.replace(
        "  commit_interval: 1\n",
        "  commit_interval: 1\n  exclude:\n    domains: [person, device_tracker]\n",
        1,
    )
    (cfg / "configuration.yaml").write_text(text + METERS)


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(Path(sys.argv[2]).resolve())
    else:
        walk.main(sys.argv[1:])
