"""walk39.py's home again, for session 40's walk (walk40): walk39.py with ``WALK40_*`` for
its switches (docs/walks.md, "Walk of main, session 40").

walk39's docstring follows.

walk38.py's home again, for session 39's walk (walk39): walk38.py with ``WALK40_*``
for its switches (docs/walks.md, "Walk of main, session 39"): set-ups B (``WALK40_PAST=1``),
C (``WALK40_DOOR=1``) and D (``WALK40_DOOR=1 WALK40_UP=1``) on main after the buffer's
runs (a state's start kept past HA's restart), parts that outlast their incident kept as
one incident, device names in the analyze answer and the drift's one figure landed.

    python scripts/walk_home/walk39.py options DIR   # profile + notify target, as owner
    python scripts/walk_home/walk39.py diag DIR      # diagnostics: words of the options?

walk38's docstring follows (its ``WALK38_*`` switches are ``WALK40_*`` here).

walk37.py's home again, for session 38's walk (walk38): walk37.py with ``WALK38_*``
for its switches, and two verbs for the usual checks (``options``, ``diag``).

What session 38 walked (docs/walks.md, "Walk of main, session 38"): walk 37's set-ups
B (``WALK38_PAST=1``), C (``WALK38_DOOR=1``) and D (``WALK38_DOOR=1 WALK38_UP=1``) on
main after the lock's subject, the answers to an over incident, the left-open door's hold
and the "Then:" lines' sentences landed.

    python scripts/walk_home/walk38.py options DIR   # profile + notify target, as owner
    python scripts/walk_home/walk38.py diag DIR      # diagnostics: words of the options?

walk37's docstring follows.

walk36.py's home with a fridge door contact, for session 37's walk (walk37).

walk36's home and fortnight (the cycling fridge plug, the fridge thermometer at 4-6 °C,
the mains switch, nobody up this morning), with a **Fridge door** contact (device class
``opening``, Kitchen) opened for 40 s four times a day while people are up (not this
morning): learned as a door shut after each use (``shut_after_use``).

    python scripts/walk_home/walk37.py prepare DIR   # walk35's config + walk36's + the door
    python scripts/walk_home/walk37.py seed DIR [DAYS]
    python scripts/walk_home/walk37.py VERB DIR ...  # any other verb of walk.py

``WALK38_PAST=1`` (at ``prepare`` and ``seed``) is walk36's ``WALK36_PAST``: the
thermometer at 12 °C since 75 min ago and the mains off since 150 min ago in the seeded
history; the helpers start so. The fridge door stays shut.

``WALK38_DOOR=1`` (at ``prepare`` and ``seed``): the fridge door open since 90 min ago,
and the thermometer at 12 °C since 45 min before the seeding (written into the database
after walk.py's seed, which stops an hour before now), so that the door is told at the
first analysis and the warm reading once its one-hour band hold is met, a few minutes
later; the helpers start so (door open, 12 °C); the mains stay on.

``WALK38_UP=1`` (at ``seed``): somebody was up this morning after all (hall and kitchen
motion every 20 min from 07:00 to 65 min ago): no "Nobody up yet" beside the door.

Run with ``WALK_TZ`` a zone where it is mid-morning and ``WALK_PORT`` a port of one's own.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
import json
import os
from pathlib import Path
import sqlite3
import sys

import aiohttp
import seed_history as sh
import walk
import walk35

FRIDGE_SWITCH, FRIDGE = "switch.fridge_plug", "sensor.fridge_plug_power"
FRIDGE_TEMP = "sensor.fridge_temperature"
FRIDGE_DOOR = "binary_sensor.fridge_door"
sh.ATTRIBUTES.update(
    {
        FRIDGE_SWITCH: {"friendly_name": "Fridge plug"},
        FRIDGE: {
            "device_class": "power",
            "unit_of_measurement": "W",
            "state_class": "measurement",
            "friendly_name": "Fridge plug power",
        },
        FRIDGE_DOOR: {"device_class": "opening", "friendly_name": "Fridge door"},
        FRIDGE_TEMP: {
            "device_class": "temperature",
            "unit_of_measurement": "°C",
            "state_class": "measurement",
            "friendly_name": "Fridge temperature",
        },
    }
)
walk.AREAS["Kitchen"] += [FRIDGE_SWITCH, FRIDGE, FRIDGE_TEMP, FRIDGE_DOOR]
MAINS = "        availability: \"{{ is_state('input_boolean.mains', 'on') }}\"\n"
HELPERS = """
  mains: {name: Mains raw, initial: true}
  fridge_plug: {name: Fridge plug raw, initial: true}
  fridge_door: {name: Fridge door raw, initial: false}
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
DOOR_SENSOR = """
      - name: Fridge door
        unique_id: walk_fridge_door
        device_class: opening
        state: "{{ is_state('input_boolean.fridge_door', 'on') }}"
"""
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
PAST = os.environ.get("WALK40_PAST") == "1"
DOOR = os.environ.get("WALK40_DOOR") == "1"
UP = os.environ.get("WALK40_UP") == "1"
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
    today = d.date() == now.date()
    for hour, minute in ((7, 15), (18, 10), (19, 40), (21, 5)):
        if today and hour < 12:
            continue  # nobody up this morning
        opened = d.replace(hour=hour, minute=minute)
        rows += [(opened, FRIDGE_DOOR, "on"), (opened + timedelta(seconds=40), FRIDGE_DOOR, "off")]
    if UP and today:  # somebody up this morning: the hall and kitchen every 20 min
        for minutes in range(7 * 60, now.hour * 60 + now.minute - 65, 20):
            hour, minute = divmod(minutes, 60)
            for sensor in ("binary_sensor.hall_motion", "binary_sensor.kitchen_motion"):
                rows += [
                    (d.replace(hour=hour, minute=minute), sensor, "on"),
                    (d.replace(hour=hour, minute=minute, second=30), sensor, "off"),
                ]
    if DOOR and today:
        rows.append((now - timedelta(minutes=90), FRIDGE_DOOR, "on"))
    if PAST and today:
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
    text = text.replace("  - binary_sensor:\n", "  - binary_sensor:" + DOOR_SENSOR, 1)
    if DOOR:
        text = text.replace("Fridge door raw, initial: false", "Fridge door raw, initial: true")
        text = text.replace("step: 0.1, initial: 5}", "step: 0.1, initial: 12}")
    if PAST:
        text = text.replace(
            "mains: {name: Mains raw, initial: true}", "mains: {name: Mains raw, initial: false}"
        )
        text = text.replace("step: 0.1, initial: 5}", "step: 0.1, initial: 12}")
    path.write_text(text + SENSORS)


def warm_since(cfg: Path, minutes: int) -> None:
    """The thermometer at 12 °C since ``minutes`` ago, written after walk.py's seed (which
    writes nothing in the last hour), as the recorder would have."""
    db = sqlite3.connect(cfg / "home-assistant_v2.db")
    (meta,) = db.execute(
        "SELECT metadata_id FROM states_meta WHERE entity_id = ?", (FRIDGE_TEMP,)
    ).fetchone()
    (attributes,) = db.execute(
        "SELECT attributes_id FROM states WHERE metadata_id = ? ORDER BY last_updated_ts DESC"
        " LIMIT 1",
        (meta,),
    ).fetchone()
    when = (datetime.now().astimezone() - timedelta(minutes=minutes)).timestamp()
    db.execute(
        "INSERT INTO states (state, last_updated_ts, last_reported_ts, metadata_id,"
        " attributes_id, origin_idx) VALUES ('12.0', ?, ?, ?, ?, 0)",
        (when, when, meta, attributes),
    )
    db.commit()
    db.close()
    print(f"{FRIDGE_TEMP} 12.0 since {minutes} min ago")


PROFILE = "Edna Brown, 84, lives alone at 12 Elm Road; key under the mat"
TARGET = "mobile_app_grandmas_phone"
SECRET_WORDS = ("Edna", "Elm", "grandma", "mobile_app")


async def _entry(session: aiohttp.ClientSession) -> dict:
    url = f"{walk.BASE}/api/config/config_entries/entry?domain=anomaly_monitor"
    async with session.get(url) as resp:
        return (await resp.json())[0]


async def options(cfg: Path) -> None:
    """The household profile and a notify target saved through the options flow."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        entry = await _entry(session)
        url = f"{walk.BASE}/api/config/config_entries/options/flow"
        async with session.post(url, json={"handler": entry["entry_id"]}) as resp:
            step = await resp.json()
        body = {
            "household": {"household_profile": PROFILE},
            "notifications": {"sensitivity": "medium", "notify_targets": [TARGET]},
        }
        async with session.post(f"{url}/{step['flow_id']}", json=body) as resp:
            done = await resp.json()
        print("options flow:", done.get("type"), done.get("errors"))
        await asyncio.sleep(5)
        print("entry state:", (await _entry(session))["state"])


async def diag(cfg: Path) -> None:
    """The entry's diagnostics: the options' words must not be in them."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        entry = await _entry(session)
        url = f"{walk.BASE}/api/diagnostics/config_entry/{entry['entry_id']}"
        async with session.get(url) as resp:
            data = (await resp.json())["data"]
    text = json.dumps(data)
    (cfg / "walk_diagnostics.json").write_text(json.dumps(data, indent=1))
    print("options:", json.dumps(data.get("entry", {}).get("options", {}))[:800])
    print("household:", data.get("household"))
    print("words found:", [w for w in SECRET_WORDS if w.lower() in text.lower()])


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(Path(sys.argv[2]).resolve())
    elif sys.argv[1] == "options":
        asyncio.run(options(Path(sys.argv[2]).resolve()))
    elif sys.argv[1] == "diag":
        asyncio.run(diag(Path(sys.argv[2]).resolve()))
    else:
        walk.main(sys.argv[1:])
        if sys.argv[1] == "seed" and DOOR:
            warm_since(Path(sys.argv[2]).resolve(), 45)
