"""walk41.py's home for session 42's walk (walk42; docs/walks.md, "Walk of main, session 42").

Two set-ups on walk41's home and fortnight (its phones kept where they were across a
restart), chosen with ``WALK42`` at ``prepare``, ``seed`` and every verb:

- ``WALK42=rooms`` (run at night, 01:00-03:00 local): **no bed sensor** (walk41's bed is
  taken out); every night the bedroom's motion at 01:40, the kitchen's a minute later,
  the bedroom's again 5 min after (and at 03:20, back after 3 min): a room somebody sleeps
  in whose night trips come back within minutes (``room_returns``). Walk it with ``trip``:
  the bedroom, then the kitchen, then nothing.
- ``WALK42=beds`` (run in the morning, 08:30-10:00 local, a Saturday or Sunday; walk41's
  ``WALK41_UP``: somebody up from 07:00): two beds lain on 22:20-06:58, each with a weekly
  lie-in to 08:45 — **Bedroom bed** on Saturdays and Sundays, **Back bedroom bed** on
  Tuesdays and Wednesdays; this morning neither was left. A **Lounge motion** moving round
  the clock (a dog: on 40 s at :20 and :50 of every hour, every day) and a **WC door**
  (the WC has no motion sensor) passed at 03:09, 07:24, 08:09 and 19:09 every day, back
  through it 4 min later, the hall's motion before and after. ``pet`` keeps the dog moving
  live (at :05, :15, ... of every hour); ``wc`` walks somebody into the WC (the hall, the
  door opened and shut) who does not come back.

    WALK42=rooms python scripts/walk_home/walk42.py prepare DIR
    WALK42=rooms python scripts/walk_home/walk42.py seed DIR 14
    WALK42=rooms python scripts/walk_home/walk42.py trip DIR
    WALK42=beds  python scripts/walk_home/walk42.py pet DIR     # a loop; stop it by PID
    WALK42=beds  python scripts/walk_home/walk42.py wc DIR
    python scripts/walk_home/walk42.py VERB DIR ...  # any other verb of walk41.py
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
import os
from pathlib import Path
import sys
from zoneinfo import ZoneInfo

if os.environ.get("WALK42") == "beds" and "WALK41_UP" not in os.environ:
    os.environ["WALK41_UP"] = "1"  # somebody up this morning (walk39's WALK39_UP)

import aiohttp
import seed_history as sh
import walk
import walk41

MODE = os.environ.get("WALK42", "rooms")
BED, BED2 = walk41.BED, "binary_sensor.back_bedroom_bed"
BEDROOM, KITCHEN, HALL = (
    "binary_sensor.bedroom_motion",
    "binary_sensor.kitchen_motion",
    "binary_sensor.hall_motion",
)
LOUNGE, WC_DOOR = "binary_sensor.lounge_motion", "binary_sensor.wc_door"
LIE_INS = {BED: (5, 6), BED2: (1, 2)}  # weekdays (Monday 0) lain in until 08:45
TRIPS = ((3, 9), (7, 24), (8, 9), (19, 9))  # the WC's trips (hour, minute)
if MODE == "rooms":
    walk.AREAS["Bedroom"].remove(BED)
    del sh.ATTRIBUTES[BED]
else:
    sh.ATTRIBUTES.update(
        {
            BED2: {"device_class": "occupancy", "friendly_name": "Back bedroom bed"},
            LOUNGE: {"device_class": "motion", "friendly_name": "Lounge motion"},
            WC_DOOR: {"device_class": "door", "friendly_name": "WC door"},
        }
    )
    walk.AREAS["Back bedroom"] = [BED2]
    walk.AREAS["Lounge"].append(LOUNGE)
    walk.AREAS["WC"] = [WC_DOOR]
BEDS_HELPERS = """
  back_bedroom_bed: {name: Back bedroom bed raw, initial: true}
  lounge_motion: {name: Lounge motion raw}
  wc_door: {name: WC door raw}
"""
BEDS_SENSORS = """
      - name: Back bedroom bed
        unique_id: walk_back_bedroom_bed
        device_class: occupancy
        state: "{{ is_state('input_boolean.back_bedroom_bed', 'on') }}"
      - name: Lounge motion
        unique_id: walk_lounge_motion
        device_class: motion
        state: "{{ is_state('input_boolean.lounge_motion', 'on') }}"
      - name: WC door
        unique_id: walk_wc_door
        device_class: door
        state: "{{ is_state('input_boolean.wc_door', 'on') }}"
"""
_lived = sh._day


def _blip(at: datetime, entity_id: str, seconds: int) -> list[tuple[datetime, str, str]]:
    return [(at, entity_id, "on"), (at + timedelta(seconds=seconds), entity_id, "off")]


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """walk41's day with this set-up's nights, beds, dog and WC."""
    rows = _lived(d, tonight_locked=tonight_locked)
    today = d.date() == datetime.now(d.tzinfo).date()
    if MODE == "rooms":
        rows = [r for r in rows if r[1] != BED]
        for hour, minute, back in ((1, 40, 5), (3, 20, 3)):
            out = d.replace(hour=hour, minute=minute)
            rows += _blip(out, BEDROOM, 30) + _blip(out + timedelta(minutes=1), KITCHEN, 60)
            rows += _blip(out + timedelta(minutes=1 + back), BEDROOM, 30)
        return rows
    rows = [r for r in rows if r[1] != BED]
    for bed in (BED, BED2):
        up = (8, 45) if d.weekday() in LIE_INS[bed] else (6, 58)
        if not today:
            rows.append((d.replace(hour=up[0], minute=up[1]), bed, "off"))
        rows.append((d.replace(hour=22, minute=20), bed, "on"))
    for hour in range(24):
        for minute in (20, 50):
            rows += _blip(d.replace(hour=hour, minute=minute), LOUNGE, 40)
    rows.append((d.replace(hour=0, minute=0, second=5), WC_DOOR, "off"))
    for hour, minute in TRIPS:
        at = d.replace(hour=hour, minute=minute)
        rows += _blip(at - timedelta(minutes=1), HALL, 30)
        rows += _blip(at - timedelta(seconds=20), WC_DOOR, 10)
        rows += _blip(at + timedelta(minutes=4), WC_DOOR, 10)
        rows += _blip(at + timedelta(minutes=4, seconds=20), HALL, 30)
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk41.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    if MODE == "rooms":
        text = text.replace(walk41.BED_SENSOR, "\n", 1)
    else:
        text = text.replace("Bedroom bed raw, initial: false", "Bedroom bed raw, initial: true")
        text = text.replace("input_boolean:\n", "input_boolean:" + BEDS_HELPERS, 1)
        text = text.replace("  - binary_sensor:\n", "  - binary_sensor:" + BEDS_SENSORS, 1)
    path.write_text(text)


async def _set(session: aiohttp.ClientSession, entity_id: str, on: bool) -> None:
    url = f"{walk.BASE}/api/services/input_boolean/turn_{'on' if on else 'off'}"
    async with session.post(url, json={"entity_id": entity_id}) as resp:
        print(datetime.now().strftime("%H:%M:%S"), entity_id, on, resp.status, flush=True)


async def _steps(cfg: Path, steps: list[tuple[str, bool, float]]) -> None:
    """Each (helper, on, seconds to wait after)."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        for helper, on, wait in steps:
            await _set(session, f"input_boolean.{helper}", on)
            await asyncio.sleep(wait)


async def pet(cfg: Path) -> None:
    """The dog in the lounge, live: on for 40 s at :05, :15, ... of every hour."""
    zone = ZoneInfo(os.environ.get("WALK_TZ", "Europe/London"))
    while True:
        now = datetime.now(zone)
        if now.minute % 10 == 5:
            try:
                await walk.login(cfg)
                await _steps(cfg, [("lounge_motion", True, 40), ("lounge_motion", False, 0)])
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(60)
        await asyncio.sleep(20)


if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(where)
    elif verb == "trip":  # out of the bedroom to the kitchen, and nothing since
        asyncio.run(
            _steps(
                where,
                [
                    ("bedroom_motion", True, 30),
                    ("bedroom_motion", False, 30),
                    ("kitchen_motion", True, 60),
                    ("kitchen_motion", False, 0),
                ],
            )
        )
    elif verb == "wc":  # the hall, the WC door opened and shut behind them
        asyncio.run(
            _steps(
                where,
                [
                    ("hall_motion", True, 30),
                    ("hall_motion", False, 10),
                    ("wc_door", True, 10),
                    ("wc_door", False, 0),
                ],
            )
        )
    elif verb == "pet":
        asyncio.run(pet(where))
    elif verb == "cycle":
        asyncio.run(walk41.cycle(where))
    elif verb == "events":
        asyncio.run(walk41.events(where))
    elif verb in ("options", "diag"):
        asyncio.run(getattr(walk41.walk39, verb)(where))
    else:
        walk.main(sys.argv[1:])
        if verb == "seed":
            walk41.fill(where)
