"""walk39.py's home for session 41's walk (walk41; docs/walks.md, "Walk of main, session
41"), with a bed, an iron, and phones that stay where they were across a restart.

walk39.py's home and fortnight (nobody up this morning unless ``WALK41_UP=1``, which is
walk39's ``WALK39_UP``), with:

- a **Bedroom bed** (``binary_sensor.bedroom_bed``, device class occupancy, Bedroom),
  lain on 22:20-06:58 every night (no trips: the bed's own trips are not learned, the
  first-days prior is what judges it);
- an **Iron plug** (``switch.iron_plug``, always on at the wall, and
  ``sensor.iron_plug_power``, Utility): ironed every evening 19:00-19:45, the element
  holding its temperature (1200 W for 2 min in every 8). With ``WALK41_NIGHT=1`` (at
  ``prepare`` and ``seed``) the bed is lain on as HA starts and the iron was left on its
  heel last evening: it cycles from 19:00 yesterday
  until now (the seed writes its rows and the fridge's up to the seeding; ``cycle`` goes
  on live);
- the phones' places in two ``input_select`` (``alice_phone_where``, ``bob_phone_where``:
  home / not_home, restored by HA across a restart) and an automation that ``see``s each
  phone there whenever HA starts and whenever one is changed. The legacy ``see`` trackers
  restore their state but not their place, and go ``not_home`` three minutes after a
  restart (walk 40): a restart no longer invents "nobody home". Move a phone with
  ``call DIR input_select.select_option '{"entity_id": "input_select.alice_phone_where",
  "option": "not_home"}'``.

    python scripts/walk_home/walk41.py prepare DIR   # walk39's config + the above
    python scripts/walk_home/walk41.py seed DIR [DAYS]
    python scripts/walk_home/walk41.py cycle DIR     # the fridge's and iron's meters live
    python scripts/walk_home/walk41.py events DIR    # the event entity, repairs' words
    python scripts/walk_home/walk41.py VERB DIR ...  # any other verb of walk39.py/walk.py

Run with ``WALK_TZ`` a zone at night (03:00-05:00 local) for the bed, or mid-morning
(with ``WALK41_UP=1``) for the front door and its lock, and ``WALK_PORT`` a port of one's
own.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
import json
import os
from pathlib import Path
import sqlite3
import sys
import time
from zoneinfo import ZoneInfo

if (_up := os.environ.get("WALK41_UP")) is not None:
    os.environ["WALK39_UP"] = _up

import aiohttp
import seed_history as sh
import walk
import walk39

BED = "binary_sensor.bedroom_bed"
IRON_SWITCH, IRON = "switch.iron_plug", "sensor.iron_plug_power"
NIGHT = os.environ.get("WALK41_NIGHT") == "1"
sh.ATTRIBUTES.update(
    {
        BED: {"device_class": "occupancy", "friendly_name": "Bedroom bed"},
        IRON_SWITCH: {"friendly_name": "Iron plug"},
        IRON: {
            "device_class": "power",
            "unit_of_measurement": "W",
            "state_class": "measurement",
            "friendly_name": "Iron plug power",
        },
    }
)
walk.AREAS["Bedroom"].append(BED)
walk.AREAS["Utility"] += [IRON_SWITCH, IRON]
HELPERS = """
  bedroom_bed: {name: Bedroom bed raw, initial: %s}
  iron_plug: {name: Iron plug raw, initial: true}
"""
NUMBERS = """
  iron_power: {name: Iron power raw, min: 0, max: 3000, step: 0.1, initial: 0}
"""
SELECTS = """
  alice_phone_where: {name: Alice phone where, options: [home, not_home]}
  bob_phone_where: {name: Bob phone where, options: [home, not_home]}
"""
BED_SENSOR = """
      - name: Bedroom bed
        unique_id: walk_bedroom_bed
        device_class: occupancy
        state: "{{ is_state('input_boolean.bedroom_bed', 'on') }}"
"""
IRON_PLUG = """
      - name: Iron plug
        unique_id: walk_iron_plug
        state: "{{ is_state('input_boolean.iron_plug', 'on') }}"
"""
IRON_METER = """
      - name: Iron plug power
        unique_id: walk_iron_power
        device_class: power
        unit_of_measurement: W
        state_class: measurement
        state: "{{ states('input_number.iron_power') }}"
"""
PHONES = """
automation:
  - alias: Walk phones where they were
    triggers:
      - trigger: homeassistant
        event: start
      - trigger: state
        entity_id: [input_select.alice_phone_where, input_select.bob_phone_where]
    actions:
      - action: device_tracker.see
        data:
          dev_id: alice_phone
          location_name: "{{ states('input_select.alice_phone_where') }}"
      - action: device_tracker.see
        data:
          dev_id: bob_phone
          location_name: "{{ states('input_select.bob_phone_where') }}"
"""
IRON_WATTS, IRON_ON, IRON_EVERY = "1200.0", timedelta(minutes=2), timedelta(minutes=8)
_lived = sh._day


def _iron_runs(start: datetime, end: datetime) -> list[tuple[datetime, str, str]]:
    rows = []
    while start < end:
        rows += [(start, IRON, IRON_WATTS), (start + IRON_ON, IRON, "0.0")]
        start += IRON_EVERY
    return rows


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """walk39's day, the bed lain on at night, the iron's evening."""
    rows = _lived(d, tonight_locked=tonight_locked)
    rows += [
        (d.replace(hour=6, minute=58), BED, "off"),
        (d.replace(hour=22, minute=20), BED, "on"),
        (d.replace(hour=0, minute=0, second=4), IRON_SWITCH, "on"),
    ]
    now = datetime.now(d.tzinfo)
    evening = d.replace(hour=19)
    if NIGHT and d.date() == now.date() - timedelta(days=1):
        rows += _iron_runs(evening, d + timedelta(days=1))
    elif NIGHT and d.date() == now.date():
        rows += _iron_runs(d, now)
    else:
        rows += _iron_runs(evening, evening + timedelta(minutes=45))
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk39.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    helpers = HELPERS % ("true" if NIGHT else "false")
    text = text.replace("input_boolean:\n", "input_boolean:" + helpers, 1)
    text = text.replace("input_number:\n", "input_number:" + NUMBERS, 1)
    text = text.replace("input_select:\n", "input_select:" + SELECTS, 1)
    text = text.replace("  - binary_sensor:\n", "  - binary_sensor:" + BED_SENSOR, 1)
    text = text.replace("  - switch:\n", "  - switch:" + IRON_PLUG, 1)
    text = text.replace("  - sensor:\n", "  - sensor:" + IRON_METER, 1)
    path.write_text(text + PHONES)


def _live_rows(now: datetime) -> list[tuple[datetime, str, str]]:
    """The day's rows of the meters that go on by themselves (the fridge, the iron)."""
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    mine = (walk39.FRIDGE, IRON)
    rows = [r for r in day(today, tonight_locked=False) if r[1] in mine]
    yesterday = [r for r in day(today - timedelta(days=1), tonight_locked=True) if r[1] in mine]
    return sorted(r for r in yesterday + rows if r[0] <= now)


def fill(cfg: Path) -> None:
    """The fridge's and iron's rows of the last hour, which walk.py's seed leaves out."""
    now = datetime.now(ZoneInfo(os.environ.get("WALK_TZ", "Europe/London")))
    rows = [r for r in _live_rows(now) if r[0] >= now - timedelta(hours=1)]
    db = sqlite3.connect(cfg / "home-assistant_v2.db")
    for when, entity_id, state in rows:
        (meta,) = db.execute(
            "SELECT metadata_id FROM states_meta WHERE entity_id = ?", (entity_id,)
        ).fetchone()
        (attributes,) = db.execute(
            "SELECT attributes_id FROM states WHERE metadata_id = ?"
            " ORDER BY last_updated_ts DESC LIMIT 1",
            (meta,),
        ).fetchone()
        db.execute(
            "INSERT INTO states (state, last_updated_ts, last_reported_ts, metadata_id,"
            " attributes_id, origin_idx) VALUES (?, ?, ?, ?, ?, 0)",
            (state, when.timestamp(), when.timestamp(), meta, attributes),
        )
    db.commit()
    db.close()
    print(f"{len(rows)} rows of the last hour (fridge, iron)")


async def cycle(cfg: Path) -> None:
    """Keep the fridge's and iron's meters at what their day says, every 15 s."""
    zone = ZoneInfo(os.environ.get("WALK_TZ", "Europe/London"))
    numbers = {walk39.FRIDGE: "input_number.fridge_power", IRON: "input_number.iron_power"}
    said: dict[str, str] = {}
    while True:
        now = datetime.now(zone)
        latest = {entity_id: state for _, entity_id, state in _live_rows(now)}
        headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
        async with aiohttp.ClientSession(headers=headers) as session:
            for meter, number in numbers.items():
                if meter in latest and said.get(meter) != latest[meter]:
                    url = f"{walk.BASE}/api/services/input_number/set_value"
                    body = {"entity_id": number, "value": float(latest[meter])}
                    try:
                        async with session.post(url, json=body) as resp:
                            if resp.status == 401:  # tokens last 30 min
                                await walk.login(cfg)
                            if resp.status == 200:
                                said[meter] = latest[meter]
                                print(time.strftime("%H:%M:%S"), meter, latest[meter], flush=True)
                    except aiohttp.ClientError:
                        pass
        await asyncio.sleep(15)


async def events(cfg: Path) -> None:
    """The event entity's last event, the monitor's sensors' attributes, the repairs."""
    async with (
        aiohttp.ClientSession() as session,
        walk.Ws(session, walk._tokens(cfg)["owner"]) as ws,
    ):
        for state in await ws.call({"type": "get_states"}):
            if "anomaly_monitor" in state["entity_id"] or state["entity_id"].startswith(
                ("person.", "device_tracker.")
            ):
                print(f"- {state['entity_id']}: {state['state']} ({state['last_changed'][:19]})")
                print("  ", json.dumps(state["attributes"], ensure_ascii=False)[:1500])
        issues = (await ws.call({"type": "repairs/list_issues"}))["issues"]
        for issue in issues:
            if issue["domain"] == "anomaly_monitor":
                print(json.dumps(issue, ensure_ascii=False)[:1500])


if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(where)
    elif verb == "cycle":
        asyncio.run(cycle(where))
    elif verb == "events":
        asyncio.run(events(where))
    elif verb in ("options", "diag"):
        asyncio.run(getattr(walk39, verb)(where))
    else:
        walk.main(sys.argv[1:])
        if verb == "seed":
            fill(where)
