"""walk50.py's home for session 53's walk (walk53; docs/walks.md, "Walk of main, session 53").

walk50's home (Edith without a phone in the profile, Rex in the lounge, the smoke detector
that can go offline) with a **booster pump on a metering plug in the garage**: a switch
(``switch.garage_pump``) and the plug's power meter (``sensor.garage_pump_power``, about
760 W while it runs, 0 when off). It runs every three hours at :05 (local) for six minutes,
day and night, in the fortnight seeded; live it runs only when told (``pump`` / ``pumpoff``).

    WALK_TZ=Etc/GMT-6 WALK_PORT=18753 python scripts/walk_home/walk53.py prepare DIR
    python scripts/walk_home/walk53.py seed DIR 14          # HA stopped
    python scripts/walk_home/walk53.py pump|pumpoff|away|phoneshome DIR
    python scripts/walk_home/walk53.py fix DIR ISSUE_ID [acknowledge|false_alarm]
                                  # the repair issue's fix flow as Settings > Repairs shows it
    python scripts/walk_home/walk53.py VERB DIR ...         # any verb of walk50.py/walk.py
"""

from __future__ import annotations

import asyncio
from datetime import datetime
import json
from pathlib import Path
import sys

import aiohttp
import seed_history as sh
import walk
import walk50

PUMP = "switch.garage_pump"
PUMP_POWER = "sensor.garage_pump_power"
sh.ATTRIBUTES[PUMP] = {"friendly_name": "Garage pump"}
sh.ATTRIBUTES[PUMP_POWER] = {
    "device_class": "power",
    "unit_of_measurement": "W",
    "state_class": "measurement",
    "friendly_name": "Garage pump power",
}
walk.AREAS["Garage"] += [PUMP, PUMP_POWER]

HELPERS = """
  garage_pump: {name: Garage pump raw}
"""
SWITCH = """
      - name: Garage pump
        unique_id: walk_garage_pump
        state: "{{ is_state('input_boolean.garage_pump', 'on') }}"
        turn_on:
          - action: input_boolean.turn_on
            target: {entity_id: input_boolean.garage_pump}
        turn_off:
          - action: input_boolean.turn_off
            target: {entity_id: input_boolean.garage_pump}
"""
METER = """
      - name: Garage pump power
        unique_id: walk_garage_pump_power
        device_class: power
        unit_of_measurement: W
        state_class: measurement
        state: "{{ 761 if is_state('input_boolean.garage_pump', 'on') else 0 }}"
"""
_lived = sh._day  # walk50's day (Edith, Rex)


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """walk50's day, with the pump's runs: every three hours at :05 for six minutes."""
    rows = _lived(d, tonight_locked=tonight_locked)
    rows.append((d.replace(minute=0, second=2), PUMP_POWER, "0"))
    rows.append((d.replace(minute=0, second=2), PUMP, "off"))
    for hour in range(0, 24, 3):
        on, off = d.replace(hour=hour, minute=5), d.replace(hour=hour, minute=11)
        rows += [
            (on, PUMP, "on"),
            (on.replace(second=3), PUMP_POWER, str(755 + hour % 7)),
            (off, PUMP, "off"),
            (off.replace(second=3), PUMP_POWER, "0"),
        ]
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk50.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + HELPERS, 1)
    text = text.replace("  - switch:\n", "  - switch:" + SWITCH, 1)
    text = text.replace("  - sensor:\n", "  - sensor:" + METER, 1)
    path.write_text(text)


async def fix(cfg: Path, issue_id: str, choice: str | None) -> None:
    """Open the issue's fix flow, print what it shows (its placeholders), answer ``choice``."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        url = f"{walk.BASE}/api/repairs/issues/fix"
        body = {"handler": "anomaly_monitor", "issue_id": issue_id}
        async with session.post(url, json=body) as resp:
            step = await resp.json()
        fills = step.get("description_placeholders") or {}
        print("flow:", step.get("type"), step.get("step_id"), step.get("menu_options"))
        print("placeholders:", json.dumps(fills, ensure_ascii=False, indent=1))
        if choice:
            async with session.post(f"{url}/{step['flow_id']}", json={"next_step_id": choice}) as r:
                print("answered", choice, ":", (await r.text())[:400])


async def events(cfg: Path) -> None:
    """Print the monitor's events on HA's bus (detected, cleared) as they come; until stopped."""
    async with aiohttp.ClientSession() as session:
        await walk.login(cfg)
        async with walk.Ws(session, walk._tokens(cfg)["owner"]) as ws:
            for kind in ("anomaly_monitor_anomaly_detected", "anomaly_monitor_anomaly_cleared"):
                await ws.call({"type": "subscribe_events", "event_type": kind})
            while True:
                message = await ws._ws.receive_json()
                if message.get("type") == "event":
                    print(json.dumps(message["event"], ensure_ascii=False)[:2500], flush=True)


SWITCHES = {
    "pump": [("garage_pump", True, 0)],
    "pumpoff": [("garage_pump", False, 0)],
}

if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(where)
    elif verb in SWITCHES:
        asyncio.run(walk50._steps(where, SWITCHES[verb]))
    elif verb == "events":
        asyncio.run(events(where))
    elif verb == "fix":
        asyncio.run(fix(where, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None))
    elif verb == "away":
        asyncio.run(walk50._where(where, "alice", "not_home"))
        asyncio.run(walk50._where(where, "bob", "not_home"))
    elif verb == "phoneshome":
        asyncio.run(walk50._where(where, "alice", "home"))
        asyncio.run(walk50._where(where, "bob", "home"))
    elif verb in walk50.VERBS:
        asyncio.run(getattr(walk50, verb)(where))
    elif verb in walk50.SWITCHES:
        asyncio.run(walk50._steps(where, walk50.SWITCHES[verb]))
    else:
        walk.main(sys.argv[1:])
