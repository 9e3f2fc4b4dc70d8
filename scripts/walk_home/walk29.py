"""``devices_walk.py`` with session 29's new notices to walk (walk29).

The reptile relay's second channel feeds a ceramic heat emitter that never rests: its
switch on and its meter at 148-152 W on every reading, day and night, for the seeded days
(``steady_load_stopped``). The first channel stays the basking lamp of walk26 (60 W,
08:00-22:00), on the same registry device: a two-channel relay has two switches beside
one stopped meter. Everything else is ``devices_walk``'s home (walk.py's front door used at
08:30 and 17:30 for 30 s: a door this home shuts at once, for ``door_at_rest``).

    python scripts/walk_home/walk29.py prepare DIR   # devices_walk's config
    python scripts/walk_home/walk29.py adddev DIR    # after onboard: devices and areas
    python scripts/walk_home/walk29.py VERB DIR ...  # any other verb of walk.py
"""

import asyncio
from datetime import datetime
from pathlib import Path
import sys

import devices_walk as dw
import seed_history as sh
import walk

_day = sh._day  # devices_walk's day
EMITTER_SWITCH = "switch.reptile_relay_switch_1"
EMITTER = "sensor.reptile_relay_switch_1_power"

STEADY_FROM_START = {
    "relay_1: {name: Relay 1 raw}": "relay_1: {name: Relay 1 raw, initial: true}",
    "relay_1_power: {name: Relay 1 power raw, min: 0, max: 3000, step: 0.1}": (
        "relay_1_power: {name: Relay 1 power raw, min: 0, max: 3000, step: 0.1, initial: 150}"
    ),
}


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    rows = [
        r for r in _day(d, tonight_locked=tonight_locked) if r[1] not in (EMITTER_SWITCH, EMITTER)
    ]

    def at(hour: int, minute: int, second: int = 0) -> datetime:
        return d.replace(hour=hour, minute=minute, second=second)

    rows.append((at(0, 0, 3), EMITTER_SWITCH, "on"))
    for hour in range(24):  # the heat emitter's thermostat trims it, never off
        rows.append((at(hour, 15), EMITTER, f"{148 + (hour + d.day) % 5}.0"))
    return rows


sh._day = day

if __name__ == "__main__":
    verb, cfg = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        dw.prepare(cfg)
        text = (cfg / "configuration.yaml").read_text()
        for old, new in STEADY_FROM_START.items():  # never a reading at rest, from the start
            text = text.replace(old, new, 1)
        (cfg / "configuration.yaml").write_text(text)
    elif verb == "adddev":
        asyncio.run(dw.adddev(cfg))
    else:
        walk.main(sys.argv[1:])
