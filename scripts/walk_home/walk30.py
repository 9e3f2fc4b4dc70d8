"""``devices_walk.py`` for session 30's first days and a fridge's plug (walk30).

The doors and trackers have no history (a home in its first days: nothing learned of
them); only the relay's second channel has twelve seeded days, as a fridge plug: its
switch on day and night, never off, its meter cycling (the compressor 85 W for 20 min,
at rest 40 min, every hour). A back door (a door contact, Hall) beside the front door, so
a door kept shut since start can be opened in the small hours while the front door walks
the household's leaving.

    python scripts/walk_home/walk30.py prepare DIR   # devices_walk's config + back door
    python scripts/walk_home/walk30.py adddev DIR    # after onboard: devices and areas
    python scripts/walk_home/walk30.py seed DIR 12   # HA stopped: the fridge plug's days only
    python scripts/walk_home/walk30.py VERB DIR ...  # any other verb of walk.py
"""

import asyncio
from datetime import datetime
from pathlib import Path
import sys

import devices_walk as dw
import seed_history as sh
import walk

FRIDGE_SWITCH = "switch.reptile_relay_switch_1"
FRIDGE = "sensor.reptile_relay_switch_1_power"
BACK_DOOR_YAML = """
      - name: Back door
        unique_id: walk_back_door
        device_class: door
        state: "{{ is_state('input_boolean.back_door', 'on') }}"
"""
FROM_START = {
    "relay_1: {name: Relay 1 raw}": "relay_1: {name: Relay 1 raw, initial: true}",
}
walk.AREAS["Hall"].append("binary_sensor.back_door")


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """Only the fridge plug: everything else is new to the monitor."""

    def at(hour: int, minute: int, second: int = 0) -> datetime:
        return d.replace(hour=hour, minute=minute, second=second)

    rows = [(at(0, 0, 3), FRIDGE_SWITCH, "on")]
    for hour in range(24):  # the compressor: 20 min on, 40 at rest, every hour
        rows.append((at(hour, 5), FRIDGE, f"{84 + (hour + d.day) % 3}.0"))
        rows.append((at(hour, 25), FRIDGE, "0.0"))
    return rows


sh._day = day

if __name__ == "__main__":
    verb, cfg = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        dw.prepare(cfg)
        text = (cfg / "configuration.yaml").read_text()
        for old, new in FROM_START.items():
            text = text.replace(old, new, 1)
        text = text.replace(
            "input_boolean:\n", "input_boolean:\n  back_door: {name: Back door raw}\n", 1
        )
        text = text.replace("  - binary_sensor:\n", "  - binary_sensor:" + BACK_DOOR_YAML, 1)
        (cfg / "configuration.yaml").write_text(text)
    elif verb == "adddev":
        asyncio.run(dw.adddev(cfg))
    else:
        walk.main(sys.argv[1:])
