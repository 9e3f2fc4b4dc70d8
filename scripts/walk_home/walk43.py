"""walk42.py's home for session 43's walk (walk43; docs/walks.md, "Walk of main, session 43").

walk42's ``rooms`` home (walk41's without its bed; the bedroom's night trip to the kitchen
at 01:40 and 03:20, back within minutes), its phones kept where they were across a restart,
with a **WC door** (the WC has no motion sensor; walk42's ``beds`` trips: passed at 03:09,
07:24, 08:09 and 19:09 every day, back through it 4 min later, the hall's motion before and
after) and the **back door** in the Kitchen (walk31's had it in the Hall, never used):
out to the bins at 07:45 and 19:30 every day (the kitchen's motion before, back in 2 min
later and the kitchen's motion after). Two set-ups, chosen with ``WALK43`` at ``prepare``,
``seed`` and every verb:

- ``WALK43=late`` (run in the evening, 18:30-19:30 local; somebody up: walk41's
  ``WALK41_UP``): **Alice never goes out**; **Bob** out 08:32-17:29 every day (the front
  door unlocked, opened, locked behind him; back by it), out at 08:32 today and not back.
  His phone's ``input_select`` has a third place, ``unknown`` (``see`` there: the tracker
  reads ``unknown``, the person too): ``dark`` turns it off. ``wc`` walks somebody into
  the WC (the hall, the door opened and shut) who does not come back; ``back`` is Bob
  home (phone, lock, front door, hall) who then opens the WC door and leaves it open.
- ``WALK43=entry`` (run at night, 02:00-03:00 local; nobody up): both home. ``enter``
  opens the back door from outside (nothing moved inside before it) and the kitchen's
  motion 20 s later; the door shut behind.

    WALK43=late python scripts/walk_home/walk43.py prepare DIR
    WALK43=late python scripts/walk_home/walk43.py seed DIR 14
    WALK43=late python scripts/walk_home/walk43.py dark|wc|back DIR
    WALK43=entry python scripts/walk_home/walk43.py enter DIR
    python scripts/walk_home/walk43.py VERB DIR ...  # any other verb of walk42.py
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
import os
from pathlib import Path
import sqlite3
import sys

if os.environ.get("WALK43", "late") == "late" and "WALK41_UP" not in os.environ:
    os.environ["WALK41_UP"] = "1"  # Alice up this morning (walk39's WALK39_UP)
if os.environ.get("WALK42", "rooms") != "rooms":
    os.environ["WALK42"] = "rooms"

import aiohttp
import seed_history as sh
import walk
import walk42

MODE = os.environ.get("WALK43", "late")
ALICE = ("person.alice", "device_tracker.alice_phone")
BOB = ("person.bob", "device_tracker.bob_phone")
FRONT, LOCK = "binary_sensor.front_door", "lock.front_door_lock"
BACK_DOOR, WC_DOOR = "binary_sensor.back_door", walk42.WC_DOOR
HALL, KITCHEN = walk42.HALL, walk42.KITCHEN
sh.ATTRIBUTES.update(
    {
        WC_DOOR: {"device_class": "door", "friendly_name": "WC door"},
        BACK_DOOR: {"device_class": "door", "friendly_name": "Back door"},
    }
)
walk.AREAS["Hall"].remove(BACK_DOOR)
walk.AREAS["Kitchen"].append(BACK_DOOR)
walk.AREAS["WC"] = [WC_DOOR]
WC_HELPER = """
  wc_door: {name: WC door raw}
"""
WC_SENSOR = """
      - name: WC door
        unique_id: walk_wc_door
        device_class: door
        state: "{{ is_state('input_boolean.wc_door', 'on') }}"
"""
_lived = sh._day


def _front_door_use(d: datetime, hour: int, minute: int, *, out: bool) -> list:
    at = d.replace(hour=hour, minute=minute)
    rows = [
        (at - timedelta(seconds=30), LOCK, "unlocked"),
        (at, FRONT, "on"),
        (at + timedelta(seconds=30), FRONT, "off"),
    ]
    if out:
        rows += walk42._blip(at - timedelta(seconds=40), HALL, 30)
        rows.append((at + timedelta(minutes=1), LOCK, "locked"))
    else:
        rows += walk42._blip(at + timedelta(seconds=40), HALL, 60)
    return rows


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """walk42's rooms day with the WC's trips, the back door's, and (late) Bob's outing."""
    rows = _lived(d, tonight_locked=tonight_locked)
    today = d.date() == datetime.now(d.tzinfo).date()
    for hour, minute in walk42.TRIPS:
        at = d.replace(hour=hour, minute=minute)
        rows += walk42._blip(at - timedelta(minutes=1), HALL, 30)
        rows += walk42._blip(at - timedelta(seconds=20), WC_DOOR, 10)
        rows += walk42._blip(at + timedelta(minutes=4), WC_DOOR, 10)
        rows += walk42._blip(at + timedelta(minutes=4, seconds=20), HALL, 30)
    rows.append((d.replace(hour=0, minute=0, second=5), WC_DOOR, "off"))
    rows.append((d.replace(hour=0, minute=0, second=6), BACK_DOOR, "off"))
    for hour, minute in ((7, 45), (19, 30)):
        at = d.replace(hour=hour, minute=minute)
        rows += walk42._blip(at - timedelta(seconds=40), KITCHEN, 30)
        rows += walk42._blip(at, BACK_DOOR, 15)
        rows += walk42._blip(at + timedelta(minutes=2), BACK_DOOR, 10)
        rows += walk42._blip(at + timedelta(minutes=2, seconds=20), KITCHEN, 30)
    if MODE == "late":
        rows = [r for r in rows if r[1] not in ALICE]
        rows += [(d.replace(hour=0, minute=0, second=9), who, "home") for who in ALICE]
        if today:  # Bob out as every day; walk31's today kept him in
            rows = [r for r in rows if r[1] not in BOB]
            rows += _front_door_use(d, 8, 30, out=True)
            rows += [(d.replace(hour=8, minute=32), who, "not_home") for who in BOB]
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk42.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + WC_HELPER, 1)
    text = text.replace("  - binary_sensor:\n", "  - binary_sensor:" + WC_SENSOR, 1)
    bob = "bob_phone_where: {name: Bob phone where, options: [home, not_home]}"
    assert bob in text
    initial = ", initial: not_home" if MODE == "late" else ""
    text = text.replace(
        bob,
        f"bob_phone_where: {{name: Bob phone where, options: [home, not_home, unknown]{initial}}}",
    )
    path.write_text(text)


async def _where(cfg: Path, who: str, place: str) -> None:
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        url = f"{walk.BASE}/api/services/input_select/select_option"
        body = {"entity_id": f"input_select.{who}_phone_where", "option": place}
        async with session.post(url, json=body) as resp:
            print(datetime.now().strftime("%H:%M:%S"), who, place, resp.status, flush=True)


async def gone(cfg: Path) -> None:
    """Bob's phone away before the stop after onboarding (walk.py's onboard saw it home):
    restored so, HA's next start does not blink him home."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        url = f"{walk.BASE}/api/services/device_tracker/see"
        body = {"dev_id": "bob_phone", "location_name": "not_home"}
        async with session.post(url, json=body) as resp:
            print("bob_phone not_home", resp.status)


def unseen(cfg: Path) -> None:
    """Bob's rows written live before the seed (onboarding's start and ``see``): the seed
    has him out since 08:32; a moment home at onboarding would end that outing."""
    db = sqlite3.connect(cfg / "home-assistant_v2.db")
    since = (datetime.now() - timedelta(hours=1)).timestamp()
    ids = [
        i
        for (i,) in db.execute("SELECT metadata_id FROM states_meta WHERE entity_id IN (?, ?)", BOB)
    ]
    marks = ",".join("?" * len(ids))
    gone = db.execute(
        f"DELETE FROM states WHERE metadata_id IN ({marks}) AND last_updated_ts > ?",
        (*ids, since),
    ).rowcount
    db.commit()
    db.close()
    print(f"{gone} live rows of Bob's removed")


async def back(cfg: Path) -> None:
    """Bob home: his phone, the key, the front door, the hall; then the WC door, left open."""
    await _where(cfg, "bob", "home")
    await walk42._steps(
        cfg,
        [
            ("front_lock_locked", False, 10),
            ("front_door", True, 10),
            ("front_door", False, 5),
            ("hall_motion", True, 30),
            ("hall_motion", False, 60),
            ("wc_door", True, 0),
        ],
    )


if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(where)
    elif verb == "dark":  # Bob's phone stops reporting
        asyncio.run(_where(where, "bob", "unknown"))
    elif verb == "gone":
        asyncio.run(gone(where))
    elif verb == "back":
        asyncio.run(back(where))
    elif verb == "wc":  # the hall, the WC door opened and shut behind them
        steps = [("hall_motion", True, 30), ("hall_motion", False, 10), ("wc_door", True, 10)]
        asyncio.run(walk42._steps(where, [*steps, ("wc_door", False, 0)]))
    elif verb == "enter":  # the back door from outside, the kitchen's motion after it
        steps = [("back_door", True, 20), ("kitchen_motion", True, 10), ("back_door", False, 30)]
        asyncio.run(walk42._steps(where, [*steps, ("kitchen_motion", False, 0)]))
    elif verb == "cycle":
        asyncio.run(walk42.walk41.cycle(where))
    elif verb == "events":
        asyncio.run(walk42.walk41.events(where))
    elif verb in ("options", "diag"):
        asyncio.run(getattr(walk42.walk41.walk39, verb)(where))
    else:
        walk.main(sys.argv[1:])
        if verb == "seed":
            walk42.walk41.fill(where)
            if MODE == "late":
                unseen(where)
