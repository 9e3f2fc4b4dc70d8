"""walk54.py's home for session 56's walk (walk56; docs/walks.md, "Walk of main, session 56").

walk54's home (Edith without a phone in the profile, Rex, the smoke detector that can go
offline, the garage pump, the jammable front door lock) with **a phone to push to**:
``notify.alice_phone``, a notify group delivering to ``persistent_notification`` (a push
reads as a notification of its own, as a phone keeps it), chosen as the monitor's notify
target with the profile in the options flow (``options``). ``events`` prints the monitor's
events and every ``notify`` action call on HA's bus (what the phone was sent).

    WALK_TZ=Etc/GMT-3 WALK_PORT=18756 python scripts/walk_home/walk56.py prepare DIR
    python scripts/walk_home/walk56.py seed DIR 14          # HA stopped
    python scripts/walk_home/walk56.py options DIR          # profile + notify.alice_phone
    python scripts/walk_home/walk56.py events DIR           # detected/cleared + notify calls
    python scripts/walk_home/walk56.py open|close|window|unwindow DIR
    python scripts/walk_home/walk56.py VERB DIR ...         # a verb of walk54/walk53/walk50/walk
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
import runpy
import sys
import time

import aiohttp
import walk50
import walk53
import walk54

walk = walk53.walk
PHONE = "notify.alice_phone"
NOTIFY = """
notify:
  - platform: group
    name: alice_phone
    services:
      - action: persistent_notification
"""


def prepare(cfg: Path) -> None:
    walk54.prepare(cfg)
    path = cfg / "configuration.yaml"
    path.write_text(path.read_text() + NOTIFY)


async def options(cfg: Path) -> None:
    """The household profile and the phone, saved through the options flow."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        entry = await walk50._entry(session)
        url = f"{walk.BASE}/api/config/config_entries/options/flow"
        async with session.post(url, json={"handler": entry["entry_id"]}) as resp:
            step = await resp.json()
        print("options form:", step.get("step_id"), [f["name"] for f in step["data_schema"]])
        body = {
            "household": {"household_profile": walk50.PROFILE},
            "notifications": {"notify_targets": [PHONE]},
        }
        async with session.post(f"{url}/{step['flow_id']}", json=body) as resp:
            done = await resp.json()
        print("options flow:", done.get("type"), done.get("errors"))
        await asyncio.sleep(5)
        print("entry state:", (await walk50._entry(session))["state"])


async def events(cfg: Path) -> None:
    """The monitor's events and every notify action call on HA's bus, until stopped."""
    kinds = ("anomaly_monitor_anomaly_detected", "anomaly_monitor_anomaly_cleared")
    async with aiohttp.ClientSession() as session:
        await walk.login(cfg)
        async with walk.Ws(session, walk._tokens(cfg)["owner"]) as ws:
            for kind in (*kinds, "call_service"):
                await ws.call({"type": "subscribe_events", "event_type": kind})
            while True:
                message = await ws._ws.receive_json()
                if message.get("type") != "event":
                    continue
                event = message["event"]
                kind, domain = event["event_type"], event["data"].get("domain")
                if kind == "call_service" and domain != "notify":
                    continue  # only what the phone is sent
                stamp = time.strftime("%H:%M:%S UTC", time.gmtime())
                print(stamp, json.dumps(event, ensure_ascii=False)[:2500], flush=True)


SWITCHES = {
    "open": [("front_door", True, 0)],
    "close": [("front_door", False, 0)],
    "window": [("bedroom_window", True, 0)],
    "unwindow": [("bedroom_window", False, 0)],
    "motion": [("hall_motion", True, 30), ("hall_motion", False, 0)],
}

if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(where)
    elif verb == "options":
        asyncio.run(options(where))
    elif verb == "events":
        asyncio.run(events(where))
    elif verb in SWITCHES:
        asyncio.run(walk50._steps(where, SWITCHES[verb]))
    else:  # walk54's verbs (and through it walk53's, walk50's, walk.py's)
        runpy.run_path(str(Path(__file__).with_name("walk54.py")), run_name="__main__")
