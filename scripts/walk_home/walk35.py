"""walk33.py's home with a PM2.5 sensor in the Bedroom, for session 35's walk (walk35).

walk33's home and fortnight (the kettle's three boils, the water pump by the Utility
leak, nobody up this morning), with a **Bedroom PM2.5** sensor (device class pm25) that
read 8-18 µg/m³ every hour of the fortnight. What the walk does with it (docs/walks.md,
"Walk of session 35"): smoke blown in from outside takes the bedroom's air to 64 µg/m³
(told once it held 5 min, not at the next periodic analysis), then the kitchen smoke
detector goes off (the same smoke: told graver in the same notification).

    python scripts/walk_home/walk35.py prepare DIR   # walk33's config + the PM2.5 sensor
    python scripts/walk_home/walk35.py VERB DIR ...  # any other verb of walk.py

Run with ``WALK_TZ`` a zone where it is mid-morning and ``WALK_PORT`` a port of one's own.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
import sys

import seed_history as sh
import walk
import walk33

PM = "sensor.bedroom_pm2_5"
sh.ATTRIBUTES[PM] = {
    "device_class": "pm25",
    "unit_of_measurement": "µg/m³",
    "state_class": "measurement",
    "friendly_name": "Bedroom PM2.5",
}
walk.AREAS["Bedroom"].append(PM)
NUMBER = """
  bedroom_pm: {name: Bedroom PM raw, min: 0, max: 1000, step: 1}
"""
SENSOR = """
      - name: Bedroom PM2.5
        unique_id: walk_bedroom_pm2_5
        device_class: pm25
        unit_of_measurement: "µg/m³"
        state_class: measurement
        state: "{{ states('input_number.bedroom_pm') }}"
"""
_lived = sh._day


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """walk33's day, and the bedroom's air every hour (8-18 µg/m³)."""
    rows = _lived(d, tonight_locked=tonight_locked)
    today = d.date() == datetime.now(d.tzinfo).date()
    for hour in range(5 if today else 24):
        rows.append((d.replace(hour=hour, minute=40), PM, f"{8 + (hour * 7) % 11}"))
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk33.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace("input_number:\n", "input_number:" + NUMBER, 1)
    text += "  - sensor:" + SENSOR
    path.write_text(text)


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(Path(sys.argv[2]).resolve())
    else:
        walk.main(sys.argv[1:])
