"""walk35.py's home with a fridge on a plug and a fridge thermometer, and a mains switch,
for session 36's walk (walk36).

walk35's home and fortnight, with:

- a **Fridge plug** (``switch.fridge_plug`` + ``sensor.fridge_plug_power``, Kitchen) that
  cycled day and night in the seeded fortnight: 90 W for 20 min from :05, resting 40 min,
  every hour;
- a **Fridge temperature** sensor (Kitchen), seeded steady at 4-6 °C every half hour;
- an ``input_boolean.mains``: the plugs and meters (fridge, kettle, water pump, freezer)
  are available only while it is on, so turning it off is a power cut while HA stays up
  (the thermometer and the door sensors are on batteries: they stay).

    python scripts/walk_home/walk36.py prepare DIR   # walk35's config + the above
    python scripts/walk_home/walk36.py VERB DIR ...  # any other verb of walk.py

With ``WALK36_PAST=1`` (at ``prepare`` and ``seed``) the trouble is already in the seeded
history when HA starts: the thermometer at 12 °C since 75 min ago, the mains off since
150 min ago (the plugs and meters ``unavailable``); the helpers start so (mains off,
12 °C). The by-name power-cut notice waits hours and the band's hold one hour: more than
a session's walk can wait for live.

Run with ``WALK_TZ`` a zone where it is mid-morning and ``WALK_PORT`` a port of one's own.
"""

from __future__ import annotations

from datetime import datetime, timedelta
import os
from pathlib import Path
import sys

import seed_history as sh
import walk
import walk35

FRIDGE_SWITCH, FRIDGE = "switch.fridge_plug", "sensor.fridge_plug_power"
FRIDGE_TEMP = "sensor.fridge_temperature"
sh.ATTRIBUTES.update(
    {
        FRIDGE_SWITCH: {"friendly_name": "Fridge plug"},
        FRIDGE: {
            "device_class": "power",
            "unit_of_measurement": "W",
            "state_class": "measurement",
            "friendly_name": "Fridge plug power",
        },
        FRIDGE_TEMP: {
            "device_class": "temperature",
            "unit_of_measurement": "°C",
            "state_class": "measurement",
            "friendly_name": "Fridge temperature",
        },
    }
)
walk.AREAS["Kitchen"] += [FRIDGE_SWITCH, FRIDGE, FRIDGE_TEMP]
MAINS = "        availability: \"{{ is_state('input_boolean.mains', 'on') }}\"\n"
HELPERS = """
  mains: {name: Mains raw, initial: true}
  fridge_plug: {name: Fridge plug raw, initial: true}
"""
NUMBERS = """
  fridge_power: {name: Fridge power raw, min: 0, max: 3000, step: 0.1, initial: 90}
  fridge_temp: {name: Fridge temp raw, min: -30, max: 50, step: 0.1, initial: 5}
"""
SWITCHES = (
    """
      - name: Fridge plug
        unique_id: walk_fridge_plug
"""
    + MAINS
    + """        state: "{{ is_state('input_boolean.fridge_plug', 'on') }}"
"""
)
SENSORS = (
    """
  - sensor:
      - name: Fridge plug power
        unique_id: walk_fridge_power
"""
    + MAINS
    + """        device_class: power
        unit_of_measurement: W
        state_class: measurement
        state: "{{ states('input_number.fridge_power') }}"
      - name: Fridge temperature
        unique_id: walk_fridge_temperature
        device_class: temperature
        unit_of_measurement: "°C"
        state_class: measurement
        state: "{{ states('input_number.fridge_temp') }}"
"""
)
PAST = os.environ.get("WALK36_PAST") == "1"
ON_MAINS = (
    FRIDGE_SWITCH,
    FRIDGE,
    "switch.kettle_plug",
    "sensor.kettle_plug_power",
    "sensor.water_pump_power",
    "sensor.freezer_plug_power",
)
_lived = sh._day


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """walk35's day, the fridge cycling every hour and its thermometer at 4-6 °C."""
    rows = _lived(d, tonight_locked=tonight_locked)
    rows.append((d.replace(hour=0, minute=0, second=3), FRIDGE_SWITCH, "on"))
    for hour in range(24):
        rows.append((d.replace(hour=hour, minute=5), FRIDGE, "90.0"))
        rows.append((d.replace(hour=hour, minute=25), FRIDGE, "0.0"))
        for minute in (15, 45):
            reading = 4.0 + ((hour * 2 + minute // 30) % 5) / 2
            rows.append((d.replace(hour=hour, minute=minute), FRIDGE_TEMP, f"{reading:.1f}"))
    now = datetime.now(d.tzinfo)
    if PAST and d.date() == now.date():
        cut, warm = now - timedelta(minutes=150), now - timedelta(minutes=75)
        rows = [r for r in rows if not (r[1] in ON_MAINS and r[0] >= cut)]
        rows = [r for r in rows if not (r[1] == FRIDGE_TEMP and r[0] >= warm)]
        rows += [(cut, e, "unavailable") for e in ON_MAINS]
        rows.append((warm, FRIDGE_TEMP, "12.0"))
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk35.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + HELPERS, 1)
    text = text.replace("input_number:\n", "input_number:" + NUMBERS, 1)
    text = text.replace("  - switch:\n", "  - switch:" + SWITCHES, 1)
    for unique_id in ("walk_kettle_plug", "walk_kettle_power", "walk_pump_power"):
        text = text.replace(f"unique_id: {unique_id}\n", f"unique_id: {unique_id}\n" + MAINS, 1)
    text = text.replace(
        "unique_id: walk_freezer_power\n", "unique_id: walk_freezer_power\n" + MAINS, 1
    )
    if PAST:
        text = text.replace(
            "mains: {name: Mains raw, initial: true}", "mains: {name: Mains raw, initial: false}"
        )
        text = text.replace("step: 0.1, initial: 5}", "step: 0.1, initial: 12}")
    path.write_text(text + SENSORS)


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(Path(sys.argv[2]).resolve())
    else:
        walk.main(sys.argv[1:])
