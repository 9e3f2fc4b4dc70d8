"""walk56.py's home for session 61's walk (walk61; docs/walks.md, "Walk 61").

walk56's home (phones in input_selects, notify.alice_phone, the garage pump, Rex) with a
**laundry** (area "Laundry"): a water leak sensor (moisture), the laundry door (door) and
the laundry motion sensor; seeded with a laundry visit every evening at 19:10. The profile
is the Catalan one of session 61 ("sense mòbil").

    WALK_TZ=Etc/GMT-10 WALK_PORT=18761 python scripts/walk_home/walk61.py prepare DIR
    python scripts/walk_home/walk61.py seed DIR 14
    python scripts/walk_home/walk61.py options DIR          # profile + notify.alice_phone
    python scripts/walk_home/walk61.py lleak|ldry|ldoor|ldoorshut|lmotion DIR
    python scripts/walk_home/walk61.py VERB DIR ...         # a verb of walk56/54/53/50/walk
"""

from __future__ import annotations

import asyncio
from datetime import datetime
import os
from pathlib import Path
import runpy
import sys

import aiohttp
import seed_history as sh
import walk50
import walk53
import walk56

walk = walk53.walk
PROFILE = os.environ.get("WALK61_PROFILE", "L'avi Pere (80, sense mòbil) viu amb nosaltres.")
SECRET_WORDS = ("Pere", "avi", "mòbil", "sense")
LEAK, DOOR, MOTION = (
    "binary_sensor.laundry_leak",
    "binary_sensor.laundry_door",
    "binary_sensor.laundry_motion",
)
sh.ATTRIBUTES[LEAK] = {"device_class": "moisture", "friendly_name": "Laundry leak"}
sh.ATTRIBUTES[DOOR] = {"device_class": "door", "friendly_name": "Laundry door"}
sh.ATTRIBUTES[MOTION] = {"device_class": "motion", "friendly_name": "Laundry motion"}
walk.AREAS["Laundry"] = [LEAK, DOOR, MOTION]
HELPERS = """
  laundry_leak: {name: Laundry leak raw}
  laundry_door: {name: Laundry door raw}
  laundry_motion: {name: Laundry motion raw}
"""
SENSORS = """
      - name: Laundry leak
        unique_id: walk_laundry_leak
        device_class: moisture
        state: "{{ is_state('input_boolean.laundry_leak', 'on') }}"
      - name: Laundry door
        unique_id: walk_laundry_door
        device_class: door
        state: "{{ is_state('input_boolean.laundry_door', 'on') }}"
      - name: Laundry motion
        unique_id: walk_laundry_motion
        device_class: motion
        state: "{{ is_state('input_boolean.laundry_motion', 'on') }}"
"""
_lived = walk50._lived  # walk.py's plain day: nobody moves while the phones are out


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    rows = _lived(d, tonight_locked=tonight_locked)
    rows += [
        (d.replace(hour=0, minute=0, second=3), LEAK, "off"),
        (d.replace(hour=19, minute=10), MOTION, "on"),
        (d.replace(hour=19, minute=10, second=5), DOOR, "on"),
        (d.replace(hour=19, minute=10, second=40), MOTION, "off"),
        (d.replace(hour=19, minute=14), MOTION, "on"),
        (d.replace(hour=19, minute=14, second=10), DOOR, "off"),
        (d.replace(hour=19, minute=14, second=40), MOTION, "off"),
    ]
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk56.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + HELPERS, 1)
    text = text.replace("  - binary_sensor:\n", "  - binary_sensor:" + SENSORS, 1)
    path.write_text(text)


async def options(cfg: Path) -> None:
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        entry = await walk50._entry(session)
        url = f"{walk.BASE}/api/config/config_entries/options/flow"
        async with session.post(url, json={"handler": entry["entry_id"]}) as resp:
            step = await resp.json()
        print("options form:", step.get("step_id"), [f["name"] for f in step["data_schema"]])
        body = {
            "household": {"household_profile": PROFILE},
            "notifications": {"notify_targets": [walk56.PHONE]},
        }
        async with session.post(f"{url}/{step['flow_id']}", json=body) as resp:
            done = await resp.json()
        print("options flow:", done.get("type"), done.get("errors"), str(done)[:600])
        await asyncio.sleep(5)
        print("entry state:", (await walk50._entry(session))["state"])


SWITCHES = {
    "lleak": [("laundry_leak", True, 0)],
    "ldry": [("laundry_leak", False, 0)],
    "ldoor": [("laundry_door", True, 0)],
    "ldoorshut": [("laundry_door", False, 0)],
    "lmotion": [("laundry_motion", True, 30), ("laundry_motion", False, 0)],
}

if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(where)
    elif verb == "options":
        asyncio.run(options(where))
    elif verb == "diag":
        walk50.SECRET_WORDS = SECRET_WORDS
        asyncio.run(walk50.diag(where))
    elif verb in SWITCHES:
        asyncio.run(walk50._steps(where, SWITCHES[verb]))
    else:
        runpy.run_path(str(Path(__file__).with_name("walk56.py")), run_name="__main__")
