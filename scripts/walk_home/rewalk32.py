"""walk32.py's home with a small steady load on a metering relay, for the lead's re-walk of
session 32 (docs/walks.md, "Lead's re-walk of merged main (session 32)").

walk32.py's home and fortnight plus devices_walk.py's registry devices (``walk_devices``),
with the relay's first channel turned into an **air mattress pump**: its switch always on,
its meter at 9.4-9.6 W day and night for the whole fortnight and today up to an hour ago
(rooms32's small steady load, under ``RUNNING_WATTS``). Its helpers start on / 9.5 W so the
first start (before ``seed``) writes no rest.

    python scripts/walk_home/rewalk32.py prepare DIR   # walk32's config + the devices
    python scripts/walk_home/rewalk32.py adddev DIR    # after onboard (devices_walk's)
    python scripts/walk_home/rewalk32.py unweb DIR     # remove onboarding's met.no, Radio Browser
    python scripts/walk_home/rewalk32.py settle DIR    # after seed: the pump's helpers restore
    python scripts/walk_home/rewalk32.py VERB DIR ...  # any other verb of walk.py
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
import sys

import aiohttp
import devices_walk
import seed_history as sh
import walk
import walk32

SW, METER = "switch.reptile_relay_switch_0", "sensor.reptile_relay_switch_0_power"
_inner = sh._day


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    rows = [r for r in _inner(d, tonight_locked=tonight_locked) if r[1] not in (SW, METER)]
    rows.append((d.replace(hour=0, minute=0, second=3), SW, "on"))
    for hour in range(24):
        for minute in (0, 30):
            watts = (9.4, 9.5, 9.6)[(hour + minute // 30) % 3]
            rows.append((d.replace(hour=hour, minute=minute, second=4), METER, f"{watts}"))
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk32.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + devices_walk.EXTRA_YAML, 1)
    text = text.replace("input_number:\n", "input_number:" + devices_walk.EXTRA_NUMBERS, 1)
    text = text.replace(
        "relay_0: {name: Relay 0 raw}", "relay_0: {name: Relay 0 raw, initial: true}"
    )
    text = text.replace(
        "relay_0_power: {name: Relay 0 power raw, min: 0, max: 3000, step: 0.1}",
        "relay_0_power: {name: Relay 0 power raw, min: 0, max: 3000, step: 0.1, initial: 9.5}",
    )
    path.write_text(text)
    target = cfg / "custom_components" / "walk_devices"
    import shutil

    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(
        Path(__file__).parent / "walk_devices", target, ignore=shutil.ignore_patterns("__pycache__")
    )


def settle(cfg: Path) -> None:
    """Drop the pump's ``initial`` after the first start: with it every restart switched
    the pump back on at 9.5 W (the re-walk's restart ended its stop so)."""
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace(
        "relay_0: {name: Relay 0 raw, initial: true}", "relay_0: {name: Relay 0 raw}"
    )
    text = text.replace("step: 0.1, initial: 9.5}", "step: 0.1}")
    path.write_text(text)


async def unweb(cfg: Path) -> None:
    """Onboarding's met.no and Radio Browser reach for the internet: removed (walk32)."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as s:
        async with s.get(f"{walk.BASE}/api/config/config_entries/entry") as r:
            entries = await r.json()
        for entry in entries:
            if entry["domain"] in ("met", "radio_browser"):
                url = f"{walk.BASE}/api/config/config_entries/entry/{entry['entry_id']}"
                async with s.delete(url) as r:
                    print("removed", entry["domain"], r.status)


if __name__ == "__main__":
    verb, cfg = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(cfg)
    elif verb == "adddev":
        asyncio.run(devices_walk.adddev(cfg))
    elif verb == "settle":
        settle(cfg)
    elif verb == "unweb":
        asyncio.run(unweb(cfg))
    else:
        walk.main(sys.argv[1:])
