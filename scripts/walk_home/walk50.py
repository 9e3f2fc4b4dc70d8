"""walk.py's home for session 50's walk (walk50; docs/walks.md, "Walk of main, session 50").

walk.py's home (front door and its lock, hall motion, kitchen smoke detector, bathroom
leak, ...) with:

- **Edith**, Alice's mother, who lives here **without a phone**, named in the household
  profile (``options``): she moves in the hall by day while Alice and Bob are out
  (10:15, 12:40, 15:10, 30 s each), and live with ``edith``;
- **Rex**, a dog (named in the profile), on the lounge's motion sensor for 40 s at :20
  and :50 of every hour, day and night (``dog`` keeps him moving live; a loop: stop it by
  its PID);
- the kitchen smoke detector can go **offline** (``offline`` / ``online``: its template's
  availability);
- the phones' places in ``input_select`` helpers, ``see``-n again at every start (walk41's
  way: the legacy trackers keep their place across a restart).

    WALK_TZ=Etc/GMT+9 WALK_PORT=18750 python scripts/walk_home/walk50.py prepare DIR
    python scripts/walk_home/walk50.py seed DIR 14          # HA stopped
    python scripts/walk_home/walk50.py options DIR          # the profile, as owner
    python scripts/walk_home/walk50.py leave|shut|lock|home|edith|leak|dry DIR
    python scripts/walk_home/walk50.py offline|online|dog|diag DIR
    python scripts/walk_home/walk50.py VERB DIR ...         # any other verb of walk.py/walk45.py
"""

from __future__ import annotations

import asyncio
from datetime import datetime
import json
from pathlib import Path
import sys
import time

import aiohttp
import seed_history as sh
import walk

LOUNGE_MOTION = "binary_sensor.lounge_motion"
PROFILE = (
    "Alice and Bob live here with Alice's mother Edith Hale (88), who has no phone and is "
    "home most days. Our dog Rex has the run of the lounge. Spare key in the blue flowerpot."
)
SECRET_WORDS = ("Edith", "Hale", "flowerpot", "Rex")
sh.ATTRIBUTES[LOUNGE_MOTION] = {"device_class": "motion", "friendly_name": "Lounge motion"}
walk.AREAS["Lounge"].append(LOUNGE_MOTION)

HELPERS = """
  lounge_motion: {name: Lounge motion raw}
  smoke_online: {name: Smoke detector online raw, initial: true}
"""
SELECTS = """
  alice_phone_where: {name: Alice phone where, options: [home, not_home]}
  bob_phone_where: {name: Bob phone where, options: [home, not_home]}
"""
SENSOR = """
      - name: Lounge motion
        unique_id: walk_lounge_motion
        device_class: motion
        state: "{{ is_state('input_boolean.lounge_motion', 'on') }}"
"""
SMOKE_AVAILABLE = """        state: "{{ is_state('input_boolean.kitchen_smoke', 'on') }}"
        availability: "{{ is_state('input_boolean.smoke_online', 'on') }}"
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
_lived = sh._day


def day(d: datetime, *, tonight_locked: bool) -> list[tuple[datetime, str, str]]:
    """walk.py's day, with Edith by day in the hall and Rex in the lounge."""
    rows = _lived(d, tonight_locked=tonight_locked)
    for hour, minute in ((10, 15), (12, 40), (15, 10)):
        on = d.replace(hour=hour, minute=minute)
        rows += [
            (on, "binary_sensor.hall_motion", "on"),
            (on.replace(second=30), "binary_sensor.hall_motion", "off"),
        ]
    for hour in range(24):
        for minute in (20, 50):
            rows += [
                (d.replace(hour=hour, minute=minute), LOUNGE_MOTION, "on"),
                (d.replace(hour=hour, minute=minute, second=40), LOUNGE_MOTION, "off"),
            ]
    return rows


sh._day = day


def prepare(cfg: Path) -> None:
    walk.prepare(cfg)
    path = cfg / "configuration.yaml"
    text = path.read_text()
    text = text.replace("input_boolean:\n", "input_boolean:" + HELPERS, 1)
    text = text.replace("input_select:\n", "input_select:" + SELECTS, 1)
    text = text.replace("  - binary_sensor:\n", "  - binary_sensor:" + SENSOR, 1)
    smoke = "        state: \"{{ is_state('input_boolean.kitchen_smoke', 'on') }}\"\n"
    assert smoke in text
    text = text.replace(smoke, SMOKE_AVAILABLE, 1)
    path.write_text(text + PHONES)


async def _steps(cfg: Path, steps: list[tuple[str, bool, float]]) -> None:
    """Turn input helpers on/off, waiting after each; printed with the UTC time."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        for helper, on, wait in steps:
            verb = "turn_on" if on else "turn_off"
            url = f"{walk.BASE}/api/services/input_boolean/{verb}"
            async with session.post(url, json={"entity_id": f"input_boolean.{helper}"}) as resp:
                resp.raise_for_status()
            print(time.strftime("%H:%M:%S UTC", time.gmtime()), helper, verb, flush=True)
            await asyncio.sleep(wait)


async def _where(cfg: Path, who: str, place: str) -> None:
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        url = f"{walk.BASE}/api/services/input_select/select_option"
        body = {"entity_id": f"input_select.{who}_phone_where", "option": place}
        async with session.post(url, json=body) as resp:
            resp.raise_for_status()
    print(time.strftime("%H:%M:%S UTC", time.gmtime()), who, place, flush=True)


async def leave(cfg: Path) -> None:
    """Alice and Bob out together: the hall, the lock unlocked, the door opened and left
    open and unlocked; their phones away 20 s later."""
    await _steps(
        cfg,
        [
            ("hall_motion", True, 10),
            ("front_lock_locked", False, 5),
            ("front_door", True, 5),
            ("hall_motion", False, 15),
        ],
    )
    await _where(cfg, "alice", "not_home")
    await _where(cfg, "bob", "not_home")


async def edith(cfg: Path) -> None:
    """Edith through the hall (30 s of motion)."""
    await _steps(cfg, [("hall_motion", True, 30), ("hall_motion", False, 0)])


async def shut(cfg: Path) -> None:
    """Edith shuts the front door (the hall's motion first), the lock left unlocked."""
    await _steps(cfg, [("hall_motion", True, 10), ("front_door", False, 20)])
    await _steps(cfg, [("hall_motion", False, 0)])


async def lock(cfg: Path) -> None:
    await _steps(cfg, [("front_lock_locked", True, 0)])


async def home(cfg: Path) -> None:
    """Alice home: her phone, the lock, the door, the hall (the lock left unlocked)."""
    await _where(cfg, "alice", "home")
    await _steps(
        cfg,
        [
            ("front_lock_locked", False, 10),
            ("front_door", True, 10),
            ("front_door", False, 5),
            ("hall_motion", True, 30),
            ("hall_motion", False, 0),
        ],
    )


async def dog(cfg: Path) -> None:
    """Rex in the lounge, live: 40 s at :20 and :50 of every (local) hour; until stopped."""
    while True:
        minute = int(time.strftime("%M", time.gmtime()))
        if minute in (20, 50):
            await _steps(cfg, [("lounge_motion", True, 40), ("lounge_motion", False, 0)])
            await asyncio.sleep(30)
        await asyncio.sleep(10)


async def _entry(session: aiohttp.ClientSession) -> dict:
    url = f"{walk.BASE}/api/config/config_entries/entry?domain=anomaly_monitor"
    async with session.get(url) as resp:
        return (await resp.json())[0]


async def options(cfg: Path) -> None:
    """The household profile, saved through the options flow (nothing else changed)."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        entry = await _entry(session)
        url = f"{walk.BASE}/api/config/config_entries/options/flow"
        async with session.post(url, json={"handler": entry["entry_id"]}) as resp:
            step = await resp.json()
        print("options form:", step.get("step_id"), [f["name"] for f in step["data_schema"]])
        body = {"household": {"household_profile": PROFILE}}
        async with session.post(f"{url}/{step['flow_id']}", json=body) as resp:
            done = await resp.json()
        print("options flow:", done.get("type"), done.get("errors"))
        await asyncio.sleep(5)
        print("entry state:", (await _entry(session))["state"])


async def diag(cfg: Path) -> None:
    """The entry's diagnostics: no profile text, no secrets."""
    headers = {"Authorization": f"Bearer {walk._tokens(cfg)['owner']}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        entry = await _entry(session)
        url = f"{walk.BASE}/api/diagnostics/config_entry/{entry['entry_id']}"
        async with session.get(url) as resp:
            data = (await resp.json())["data"]
    text = json.dumps(data)
    stamp = time.strftime("%H%M%S", time.gmtime())
    (cfg / f"walk_diagnostics_{stamp}.json").write_text(json.dumps(data, indent=1))
    print("options:", json.dumps(data.get("entry", {}).get("options", {}))[:600])
    print("words found:", [w for w in SECRET_WORDS if w.lower() in text.lower()])
    print("token-like:", [w for w in ("access_token", "password", "Bearer") if w in text])
    print("saved", cfg / f"walk_diagnostics_{stamp}.json")


VERBS = {"leave", "edith", "shut", "lock", "home", "dog", "options", "diag"}
SWITCHES = {
    "leak": [("bathroom_leak", True, 0)],
    "dry": [("bathroom_leak", False, 0)],
    "offline": [("smoke_online", False, 0)],
    "online": [("smoke_online", True, 0)],
}

if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2]).resolve()
    if verb == "prepare":
        prepare(where)
    elif verb in VERBS:
        asyncio.run(globals()[verb](where))
    elif verb in SWITCHES:
        asyncio.run(_steps(where, SWITCHES[verb]))
    else:
        walk.main(sys.argv[1:])
